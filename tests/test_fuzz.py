"""Fuzzing every RPC of the three services on real processes: random and mutated requests
(tests/fuzz_messages.py) with no credential, the strongest one and another; every answer
is a status other than UNKNOWN, INTERNAL and DATA_LOSS, and every server stays healthy.

The RPCs come from the proto descriptors, so a new one is fuzzed as soon as it exists.
Hypothesis is derandomized (and keeps no database): a run is the same run on any machine,
and a failure seen once is seen again. Failures are collected rather than shrunk (each
example is a real call): a test fails with every distinct bad answer, its status, message
and a short view of one request that got it. POKER_FUZZ_EXAMPLES sets the examples per RPC;
POKER_FUZZ_SEED=N explores another sequence of examples (the same one again for the same N).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

import grpc
import pytest
from google.protobuf.message import Message
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from poker import wire
from poker.limits import MAX_CHIPS
from poker.v1 import dealer_pb2 as dpb
from poker.v1 import lobby_pb2 as lpb
from tests.fuzz_messages import Pools, request_bytes, short
from tests.wire_helpers import Rpc, Suite, bearer, call_raw, every_rpc, start_suite

pytestmark = pytest.mark.timeout(240)

EXAMPLES = int(os.environ.get("POKER_FUZZ_EXAMPLES", "200"))
SEED = os.environ.get("POKER_FUZZ_SEED")
#: Statuses that say the server failed, not the request.
SERVER_FAULTS = (grpc.StatusCode.UNKNOWN, grpc.StatusCode.INTERNAL, grpc.StatusCode.DATA_LOSS)
#: A call's deadline; a response stream (WatchTable) waits for news and legitimately runs
#: into a short one.
DEADLINE_S = 4.0
STREAM_DEADLINE_S = 0.3
#: Streams whose first message holds all an idle service has to say (FollowTables: the
#: backlog of every cursor, then only live notes): once it came, the stream was accepted
#: and is cancelled, rather than waited on to its deadline (200 examples x 0.3 s was
#: most of a minute).
FIRST_MESSAGE_SAYS_ALL = frozenset({"FollowTables"})
RPCS = every_rpc()
#: Amounts around the limit of chips (poker.limits.MAX_CHIPS) and of the storage's integers.
CHIP_EDGES = [MAX_CHIPS, MAX_CHIPS + 1, 2**62, 2**63 - 1, 2**63, 2**64 - 1, 1, 100, 1000]
M = TypeVar("M", bound=Message)


@dataclass
class World:
    """What the services hold before fuzzing: ids and credentials the requests draw from."""

    pools: Pools
    #: Beside none and the strongest: other credentials, by process.
    others: dict[str, Sequence[str]]
    #: For each streaming RPC: a first request the service accepts, to start a stream with.
    openers: dict[str, list[bytes]]


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Suite]:
    yield from start_suite(tmp_path_factory.mktemp("fuzz"), evaluator_args=(
        "--max-trials", "20000", "--default-trials", "2000", "--max-exact-evaluations",
        "200000", "--max-batch-hands", "20000"))


def _call(channel: grpc.Channel, method: str, request: Message, answer: type[M],
          metadata: list[tuple[str, str]]) -> M:
    call = channel.unary_unary(method, request_serializer=type(request).SerializeToString,
                               response_deserializer=answer.FromString)
    return call(request, metadata=metadata, timeout=10)  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def world(suite: Suite) -> World:
    dealer, lobby = suite.channels["dealer"], suite.channels["lobby"]
    svc, op = bearer(suite.service_token), bearer(suite.operator_token)
    table_id = _call(dealer, "/poker.v1.DealerService/CreateTable", dpb.CreateTableRequest(
        config=dpb.TableConfig(seats=3, action_time_ms=60_000, pause_between_hands_ms=0)),
        dpb.CreateTableResponse, svc).table_id
    seat_tokens = [_call(dealer, "/poker.v1.DealerService/SeatPlayer", dpb.SeatPlayerRequest(
        table_id=table_id, seat=s, player_id=f"fuzz-{s}", stack=1000),
        dpb.SeatPlayerResponse, svc).seat_token for s in (0, 1)]
    hand_id = _call(dealer, "/poker.v1.DealerService/GetTable", dpb.GetTableRequest(
        table_id=table_id), dpb.GetTableResponse, bearer(suite.auditor_token)).table.hand.hand_id
    player_token = _call(lobby, "/poker.v1.LobbyService/CreatePlayer", lpb.CreatePlayerRequest(
        player_id="fuzz-alice", display_name="Alice"), lpb.CreatePlayerResponse, op).token
    _call(lobby, "/poker.v1.LobbyService/Deposit", lpb.DepositRequest(
        player_id="fuzz-alice", amount=100_000, request_id="fuzz-deposit"),
        lpb.DepositResponse, op)
    lobby_table = _call(lobby, "/poker.v1.LobbyService/OpenTable", lpb.OpenTableRequest(
        name="fuzz", config=dpb.TableConfig(seats=2), rules=lpb.TableRules(initial_stack=1000),
        request_id="fuzz-open"), lpb.OpenTableResponse, op).table.table_id
    pools: Pools = {
        "table_id": [table_id, lobby_table],
        "player_id": ["fuzz-alice", "fuzz-0", "fuzz-1"],
        "seat_token": seat_tokens,
        "hand_id": [hand_id] if hand_id else [],
        "request_id": ["fuzz-deposit", "fuzz-open", "r1"],
        "idempotency_key": ["k1"],
        "range": ["AA", "AKs", "22+", "random"],
        **dict.fromkeys(("amount", "stack", "buy_in", "min_buy_in", "max_buy_in",
                         "initial_stack", "rebuy_amount"), CHIP_EDGES),
    }
    return World(
        pools=pools,
        others={"dealer": [suite.auditor_token, seat_tokens[0], "not-a-token"],
                "lobby": [player_token, "not-a-token"],
                "evaluator": ["not-a-token"]},
        openers={
            "Play": [dpb.PlayRequest(start=dpb.PlayStart(table_id=table_id))
                     .SerializeToString()],
            "PlayMany": [dpb.PlayManyRequest(open=[dpb.PlaySeat(
                table_id=table_id, seat_token=seat_tokens[1])]).SerializeToString()],
            "EvaluateBatchStream": [b"\x08\x05"],  # cards_per_hand 5, no hands
        })


def _requests(rpc: Rpc, world: World) -> st.SearchStrategy[list[bytes]]:
    one = request_bytes(rpc.request, world.pools)
    if not rpc.streams_requests:
        return one.map(lambda data: [data])
    opener = world.openers.get(rpc.method.name, [b""])
    return st.one_of(st.lists(one, max_size=3),
                     st.lists(one, max_size=2).map(lambda rest: [*opener, *rest]))


@dataclass
class Failure:
    """A kind of bad answer, and the first request that got it."""

    code: str
    message: str
    request: str
    tokens: set[str] = field(default_factory=set)

    def __str__(self) -> str:
        return (f"  {self.code} {self.message!r} (with {' / '.join(sorted(self.tokens))} "
                f"token)\n      request: {self.request}")


def _shape(message: str) -> str:
    """A failure's message with its particulars (numbers, quoted values) blanked: one
    entry in the report per kind of failure, not per request."""
    return re.sub(r"'[^']*'|\"[^\"]*\"|\d+", "_", message)[:120]


@pytest.mark.parametrize("rpc", RPCS, ids=str)
def test_every_answer_is_a_status_the_request_earned(rpc: Rpc, suite: Suite,
                                                     world: World) -> None:
    found: dict[tuple[str, str], Failure] = {}
    timeout = STREAM_DEADLINE_S if rpc.streams_responses and not rpc.streams_requests \
        else DEADLINE_S
    credentials = {"no": None, "the strongest": suite.token_for(rpc)}

    @settings(max_examples=EXAMPLES, derandomize=SEED is None, database=None, deadline=None,
              phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
    @given(requests=_requests(rpc, world), other=st.sampled_from(world.others[rpc.process]))
    def fuzz(requests: list[bytes], other: str) -> None:
        for who, token in [*credentials.items(), ("another", other)]:
            code, message = call_raw(suite.channel(rpc), rpc, requests, token, timeout,
                                     first_only=rpc.method.name in FIRST_MESSAGE_SAYS_ALL)
            if code in SERVER_FAULTS:
                failure = found.setdefault((code.name, _shape(message)), Failure(
                    code.name, message[:300], "; ".join(
                        short(rpc.request, data) for data in requests) or "(no request)"))
                failure.tokens.add(who)
            else:
                assert len(message) <= wire.MAX_STATUS_CHARS, (code, message[:200])

    (seed(int(SEED))(fuzz) if SEED else fuzz)()
    suite.assert_healthy()
    assert not found, f"{rpc}: {len(found)} kinds of failure:\n" + "\n".join(
        str(failure) for _key, failure in sorted(found.items()))
