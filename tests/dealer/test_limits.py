"""The hardening issue's dealer findings, on a real dealer process: amounts past MAX_CHIPS,
absurd numbers and enum values, unbounded strings and lists, errors that echo the whole
input, a second Play start. Each test is named after its finding."""

from __future__ import annotations

import doctest
import queue
from collections.abc import Iterator
from typing import Any

import grpc
import pytest

from poker.limits import MAX_CHIPS, MAX_ID_CHARS, MAX_REPEATED, MAX_TOKEN_CHARS, QUOTE_CHARS
from poker.v1 import dealer_pb2 as pb
from services.dealer import checks
from services.dealer.auth import Caller
from services.dealer.engine import ConfigError, Hand, Level, PlayerIn, Structure, TableConfig
from services.dealer.errors import InvalidArgument
from services.dealer.streams import PlayManySession
from services.dealer.views import Viewer
from services.evaluator.ranker import DEFAULT_RANKER
from tests.dealer.helpers import SVC, Client, Watcher, auth, count

U64 = 2**64 - 1
U32 = 2**32 - 1
#: Any refusal quoting caller input stays short: a cut prefix, never the input.
SHORT = 300


def status(call: Any) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.RpcError) as info:
        call()
    return info.value.code(), info.value.details() or ""


def invalid(call: Any, field: str) -> str:
    """The call is INVALID_ARGUMENT naming `field`, in a short message."""
    code, message = status(call)
    assert code == grpc.StatusCode.INVALID_ARGUMENT, (code, message[:SHORT])
    assert field in message and len(message) < SHORT, message[:SHORT]
    return message


def stack_of(client: Client, table_id: str, seat: int) -> int:
    return int(next(s.stack for s in client.view(table_id).seats if s.seat == seat))


def add_chips(client: Client, table_id: str, seat: int, amount: int, key: str) -> int:
    reply = client.stub.AddChips(pb.AddChipsRequest(
        table_id=table_id, seat=seat, amount=amount, idempotency_key=key),
        metadata=SVC, timeout=10)
    return int(reply.stack)


def seat_player(client: Client, table_id: str, player_id: str, stack: int,
                **kw: Any) -> pb.SeatPlayerResponse:
    reply: pb.SeatPlayerResponse = client.stub.SeatPlayer(pb.SeatPlayerRequest(
        table_id=table_id, player_id=player_id, stack=stack, **kw), metadata=SVC, timeout=10)
    return reply


# ------------------------------------------------------------------ finding 3


def test_finding3_add_chips_of_2_64_is_refused_and_the_table_keeps_working(
        client: Client) -> None:
    table_id = client.create(seats=2)
    client.seat(table_id, [1000])
    before = client.view(table_id).sequence
    invalid(lambda: add_chips(client, table_id, 0, U64, "huge"), "amount")
    invalid(lambda: add_chips(client, table_id, 0, MAX_CHIPS + 1, "huge-2"), "amount")
    view = client.view(table_id)  # was INTERNAL from then on
    assert view.sequence == before and stack_of(client, table_id, 0) == 1000
    # Within the limit for the request, past it for the stack: nothing is added.
    code, message = status(lambda: add_chips(client, table_id, 0, MAX_CHIPS, "past-stack"))
    assert code == grpc.StatusCode.FAILED_PRECONDITION and str(MAX_CHIPS - 1000) in message
    assert client.view(table_id).sequence == before
    assert add_chips(client, table_id, 0, MAX_CHIPS - 1000, "to-the-top") == MAX_CHIPS
    reply = client.stub.UnseatPlayer(pb.UnseatPlayerRequest(table_id=table_id, seat=0),
                                     metadata=SVC, timeout=10)
    assert reply.stack.stack == MAX_CHIPS


def test_finding3_a_table_holds_at_most_max_chips_and_two_stacks_all_in_make_that_pot(
        client: Client) -> None:
    table_id = client.create(seats=3, test_mode=True, deck_seed=7,
                             pause_between_hands_ms=300)
    invalid(lambda: seat_player(client, table_id, "huge", U64), "stack")
    half = MAX_CHIPS // 2
    tokens = {0: seat_player(client, table_id, "p0", half, seat=0).seat_token}
    # The table's chips together would pass the maximum: refused, nothing written.
    before = client.view(table_id).sequence
    code, message = status(lambda: seat_player(client, table_id, "p1", MAX_CHIPS - half + 1,
                                               seat=1, request_id="too-many"))
    assert code == grpc.StatusCode.FAILED_PRECONDITION and str(MAX_CHIPS) in message
    assert client.view(table_id).sequence == before and len(client.view(table_id).seats) == 1
    tokens[1] = seat_player(client, table_id, "p1", MAX_CHIPS - half, seat=1).seat_token
    code, message = status(lambda: add_chips(client, table_id, 0, 1, "one-more"))
    assert code == grpc.StatusCode.FAILED_PRECONDITION  # past the total (or in the hand)
    watcher = Watcher(client, table_id)
    try:
        answered: set[int] = set()
        while not count(watcher.events, "hand_ended"):
            watcher.wait(lambda ev: any(
                e.HasField("turn_started") and e.turn_started.action_number not in answered
                for e in ev) or count(ev, "hand_ended") > 0)
            for event in list(watcher.events):
                turn = event.turn_started
                if not event.HasField("turn_started") or turn.action_number in answered:
                    continue
                answered.add(turn.action_number)
                legal = turn.legal_actions
                kind = (pb.ACTION_KIND_SHOW if legal.decision == pb.DECISION_SHOW_OR_MUCK
                        else pb.ACTION_KIND_ALL_IN if legal.can_all_in else pb.ACTION_KIND_CALL)
                client.stub.Act(pb.ActRequest(
                    table_id=table_id, seat=turn.seat, hand_id=event.hand_id,
                    action_number=turn.action_number, kind=kind),
                    metadata=auth(tokens[turn.seat]), timeout=10)
    finally:
        watcher.cancel()
    again = Watcher(client, table_id)  # from 0: was UNKNOWN with a pot past 2^64
    try:
        again.wait(lambda ev: count(ev, "hand_ended") > 0)
        assert again.error is None
        awarded = sum(e.pot_awarded.amount for e in again.events if e.HasField("pot_awarded"))
        ended = next(e.hand_ended for e in again.events if e.HasField("hand_ended"))
        assert awarded == 2 * half  # the bigger stack keeps its odd chip
        assert sum(s.stack for s in ended.stacks) == MAX_CHIPS
    finally:
        again.cancel()
    client.view(table_id)  # was INTERNAL with a stack past 2^64


def test_finding3_levels_and_bet_sizes_past_max_chips_are_refused(client: Client) -> None:
    def create(**config: Any) -> Any:
        return lambda: client.create(**config)

    invalid(create(levels=[pb.Level(small_blind=U64 // 2, big_blind=U64 - 1)]),
            "levels[0].small_blind")
    invalid(create(levels=[pb.Level(small_blind=1, big_blind=2, ante=MAX_CHIPS + 1)]),
            "levels[0].ante")
    small = MAX_CHIPS // 4 + 1  # a big blind past half the maximum: a big bet past it
    level = pb.Level(small_blind=small, big_blind=2 * small)
    invalid(create(levels=[level], structure=pb.STRUCTURE_FIXED_LIMIT), "big bet")
    invalid(create(levels=[pb.Level(small_blind=10**7, big_blind=2 * 10**7)],
                   turn_river_min_bet=U32), "turn and river minimum")


def test_finding3_the_engine_refuses_amounts_past_max_chips_at_its_entry_points() -> None:
    small = MAX_CHIPS // 2 + 1
    with pytest.raises(ConfigError, match="big blind .* past the maximum"):
        TableConfig(levels=(Level(small, 2 * small),))
    with pytest.raises(ConfigError, match="ante .* past the maximum"):
        TableConfig(levels=(Level(1, 2, MAX_CHIPS + 1),))
    with pytest.raises(ConfigError, match="fixed limit big bet"):
        TableConfig(structure=Structure.FIXED_LIMIT,
                    levels=(Level(MAX_CHIPS // 4 + 1, 2 * (MAX_CHIPS // 4 + 1)),))
    with pytest.raises(ConfigError, match="turn and river minimum bet"):
        TableConfig(turn_river_min_bet=10**9, levels=(Level(10**7, 2 * 10**7),))
    config = TableConfig()
    with pytest.raises(ConfigError, match="seat 0 has stack .* past the maximum"):
        Hand.start(config, [PlayerIn(0, "a", MAX_CHIPS + 1), PlayerIn(1, "b", 1000)], 0,
                   range(52), ranker=DEFAULT_RANKER)
    with pytest.raises(ConfigError, match="chips together, past the maximum"):
        Hand.start(config, [PlayerIn(0, "a", MAX_CHIPS), PlayerIn(1, "b", 1)], 0, range(52),
                   ranker=DEFAULT_RANKER)
    hand = Hand.start(config, [PlayerIn(0, "a", MAX_CHIPS - 1), PlayerIn(1, "b", 1)], 0,
                      range(52), ranker=DEFAULT_RANKER)
    assert sum(hand.stacks.values()) + sum(hand.bets.values()) == MAX_CHIPS


# ------------------------------------------------------------------ finding 4


def test_finding4_act_with_an_absurd_action_number_is_refused_not_internal(
        client: Client) -> None:
    table_id = client.create(seats=2, test_mode=True, deck_seed=8)
    tokens = client.seat(table_id, [1000, 1000])
    watcher = Watcher(client, table_id)
    try:
        watcher.wait(lambda ev: any(e.HasField("turn_started") for e in ev))
        turn_event = next(e for e in watcher.events if e.HasField("turn_started"))
    finally:
        watcher.cancel()
    turn = turn_event.turn_started

    def act(number: int, kind: Any = pb.ACTION_KIND_CHECK, amount: int = 0,
            hand_id: str = turn_event.hand_id) -> Any:
        return lambda: client.stub.Act(pb.ActRequest(
            table_id=table_id, seat=turn.seat, hand_id=hand_id, action_number=number,
            kind=kind, amount=amount), metadata=auth(tokens[turn.seat]), timeout=10)

    invalid(act(U64), "action_number")
    invalid(act(MAX_CHIPS + 1), "action_number")
    code, message = status(act(MAX_CHIPS))  # a number that fits: stale, as any other
    assert code == grpc.StatusCode.FAILED_PRECONDITION and str(turn.action_number) in message
    invalid(act(turn.action_number, kind=55), "kind")
    invalid(act(turn.action_number, kind=pb.ACTION_KIND_RAISE, amount=U64), "amount")
    invalid(act(turn.action_number, hand_id="h" * (MAX_ID_CHARS + 1)), "hand_id")
    # On a Play stream the same refusals come back in the action's result.
    requests = iter([pb.PlayRequest(start=pb.PlayStart(table_id=table_id)),
                     pb.PlayRequest(action=pb.PlayAction(
                         hand_id=turn_event.hand_id, action_number=U64,
                         kind=pb.ACTION_KIND_CHECK))])
    stream = client.stub.Play(requests, metadata=auth(tokens[turn.seat]), timeout=10)
    result = next(r.action_result for r in stream if r.HasField("action_result"))
    assert result.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    assert "action_number" in result.message


def test_finding4_out_of_range_enums_and_numbers_are_invalid_argument(client: Client) -> None:
    def create(**config: Any) -> Any:
        return lambda: client.create(**config)

    for field in ("structure", "preset", "ante_form", "min_raise_rule"):
        invalid(create(**{field: 99}), f"config.{field}")
    for field in ("action_time_ms", "show_time_ms", "pause_between_hands_ms"):
        invalid(create(**{field: U32}), f"config.{field}")
    for minutes in (float("inf"), float("nan"), -1.0):
        invalid(create(minutes_per_level=minutes), "minutes_per_level")
    invalid(create(seats=U32), "seats")
    table_id = client.create(seats=2, levels=[pb.Level(small_blind=1, big_blind=2)])
    token = client.seat(table_id, [1000])[0]
    invalid(lambda: seat_player(client, table_id, "far", 1000, seat=U32), "seat")
    for call, request in (
            (client.stub.AddChips, pb.AddChipsRequest(table_id=table_id, seat=U32, amount=1,
                                                      idempotency_key="k")),
            (client.stub.UnseatPlayer, pb.UnseatPlayerRequest(table_id=table_id, seat=U32)),
            (client.stub.SetButton, pb.SetButtonRequest(table_id=table_id, seat=U32)),
            (client.stub.SetLevel, pb.SetLevelRequest(table_id=table_id, level_index=U32))):
        invalid(lambda c=call, r=request: c(r, metadata=SVC, timeout=10), "seat"
                if not isinstance(request, pb.SetLevelRequest) else "level_index")
    for call, request in ((client.stub.Act, pb.ActRequest(table_id=table_id, seat=U32)),
                          (client.stub.SitOut, pb.SitOutRequest(table_id=table_id, seat=U32)),
                          (client.stub.SitIn, pb.SitInRequest(table_id=table_id, seat=U32))):
        invalid(lambda c=call, r=request: c(r, metadata=auth(token), timeout=10), "seat")
    code, message = status(lambda: list(client.stub.WatchTable(pb.WatchTableRequest(
        table_id=table_id, after_sequence=U64), timeout=10)))
    assert code == grpc.StatusCode.FAILED_PRECONDITION and "after_sequence" in message


# ------------------------------------------------------------------ finding 5


def test_finding5_every_string_and_list_of_a_request_has_a_limit(client: Client) -> None:
    table_id = client.create(seats=2)
    client.seat(table_id, [1000])
    megabyte = "x" * 1_000_000
    invalid(lambda: seat_player(client, table_id, megabyte, 1000), "player_id")
    invalid(lambda: seat_player(client, table_id, "p" * (MAX_ID_CHARS + 1), 1000), "player_id")
    invalid(lambda: seat_player(client, table_id, "ok", 1000, request_id=megabyte), "request_id")
    invalid(lambda: add_chips(client, table_id, 0, 1, megabyte), "idempotency_key")
    invalid(lambda: client.stub.CreateTable(pb.CreateTableRequest(
        table_id=megabyte), metadata=SVC, timeout=10), "table_id")
    invalid(lambda: client.create(levels=[pb.Level(small_blind=1, big_blind=2)]
                                  * (MAX_REPEATED + 1)), "config.levels")
    for call, request in (
            (client.stub.GetTable, pb.GetTableRequest(table_id=megabyte)),
            (client.stub.UnseatPlayer, pb.UnseatPlayerRequest(table_id=megabyte)),
            (client.stub.SetButton, pb.SetButtonRequest(table_id=megabyte)),
            (client.stub.SetLevel, pb.SetLevelRequest(table_id=megabyte)),
            (client.stub.CloseTable, pb.CloseTableRequest(table_id=megabyte)),
            (client.stub.SitOut, pb.SitOutRequest(table_id=megabyte)),
            (client.stub.SitIn, pb.SitInRequest(table_id=megabyte)),
            (client.stub.Act, pb.ActRequest(table_id=megabyte)),
            (client.stub.GetHandHistory, pb.GetHandHistoryRequest(table_id=megabyte))):
        invalid(lambda c=call, r=request: c(r, metadata=SVC, timeout=10), "table_id")
    invalid(lambda: client.stub.SetLevel(pb.SetLevelRequest(
        table_id=table_id, request_id=megabyte), metadata=SVC, timeout=10), "request_id")
    invalid(lambda: client.stub.GetHandHistory(pb.GetHandHistoryRequest(
        table_id=table_id, hand_id=megabyte), timeout=10), "hand_id")
    invalid(lambda: list(client.stub.WatchTable(pb.WatchTableRequest(table_id=megabyte),
                                                timeout=10)), "table_id")
    invalid(lambda: list(client.stub.Play(iter([pb.PlayRequest(start=pb.PlayStart(
        table_id=megabyte))]), timeout=10)), "start.table_id")
    # The authorization token: refused without being quoted.
    code, message = status(lambda: client.stub.GetTable(pb.GetTableRequest(
        table_id=table_id), metadata=auth("t" * (MAX_TOKEN_CHARS + 1)), timeout=10))
    assert code == grpc.StatusCode.UNAUTHENTICATED and str(MAX_TOKEN_CHARS) in message
    assert "ttt" not in message


def test_finding5_play_many_bounds_its_lists_tokens_and_open_seats(client: Client) -> None:
    table_id = client.create(seats=2)
    token = client.seat(table_id, [1000])[0]

    def first(request: pb.PlayManyRequest) -> Any:
        return lambda: next(iter(client.stub.PlayMany(iter([request]), timeout=10)))

    seat = pb.PlaySeat(table_id=table_id, seat_token=token)
    invalid(first(pb.PlayManyRequest(open=[seat] * (MAX_REPEATED + 1))), "open")
    invalid(first(pb.PlayManyRequest(open=[seat], actions=[pb.PlaySeatAction()]
                                     * (MAX_REPEATED + 1))), "actions")
    invalid(first(pb.PlayManyRequest(open=[pb.PlaySeat(
        table_id=table_id, seat_token="s" * (MAX_TOKEN_CHARS + 1))])), "open[0].seat_token")
    invalid(first(pb.PlayManyRequest(open=[pb.PlaySeat(table_id="x" * 100_000,
                                                       seat_token=token)])), "open[0].table_id")
    invalid(first(pb.PlayManyRequest(open=[seat], actions=[pb.PlaySeatAction(
        table_id="x" * 100_000)])), "actions[0].table_id")
    # The same seat twice in one request, as in two (test_play_many): the stream ends.
    code, message = status(lambda: list(client.stub.PlayMany(iter([pb.PlayManyRequest(
        open=[seat, seat])]), timeout=10)))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "already" in message


class _Table:
    """Enough of a table for a PlayMany session to open a seat at."""

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id

    def subscribe(self, listener: Any) -> None:
        pass

    def unsubscribe(self, listener: Any) -> None:
        pass


def test_finding5_a_play_many_stream_holds_at_most_max_stream_seats(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(checks, "MAX_STREAM_SEATS", 3)

    def open_seat(seat: pb.PlaySeat) -> Any:
        number = int(seat.seat_token)
        return _Table(seat.table_id), Caller("seat", seat.table_id, number), Viewer(number)

    session = PlayManySession(open_seat, 0.0)
    for number in range(3):
        session.open(pb.PlaySeat(table_id="t", seat_token=str(number)))
    with pytest.raises(InvalidArgument, match="3 seats are open on this stream, at most 3"):
        session.open(pb.PlaySeat(table_id="t", seat_token="3"))
    assert checks.MAX_STREAM_SEATS == 3 and len(session.feeds) == 3


def test_finding5_the_checks_module_doctests_pass() -> None:
    result = doctest.testmod(checks, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 1 and result.failed == 0


def test_finding5_every_dealer_request_has_its_checks() -> None:
    service = pb.DESCRIPTOR.services_by_name["DealerService"]
    unchecked = [m.input_type.name for m in service.methods
                 if getattr(pb, m.input_type.name) not in checks._CHECKS
                 and m.input_type.name not in ("PlayRequest", "PlayManyRequest")]
    assert unchecked == []


# ------------------------------------------------------------------ finding 6


def test_finding6_errors_quote_a_short_cut_prefix_of_the_input(client: Client) -> None:
    table_id = client.create(seats=2)
    long_id = "L" * MAX_ID_CHARS
    seat_player(client, table_id, long_id, 1000, seat=0)
    code, message = status(lambda: seat_player(client, table_id, "other", 1000, seat=0))
    assert code == grpc.StatusCode.ALREADY_EXISTS
    assert "L" * QUOTE_CHARS not in message and f"{MAX_ID_CHARS} long" in message
    code, message = status(lambda: seat_player(client, table_id, long_id, 1000, seat=1))
    assert code == grpc.StatusCode.ALREADY_EXISTS and "L" * QUOTE_CHARS not in message
    code, message = status(lambda: client.view("N" * 64))
    assert code == grpc.StatusCode.NOT_FOUND and "N" * QUOTE_CHARS not in message
    message = invalid(lambda: seat_player(client, table_id, "x" * 1_000_000, 1000), "player_id")
    assert "x" * QUOTE_CHARS not in message


# ------------------------------------------------------------------ finding 8


def test_finding8_a_second_start_on_a_play_stream_is_invalid_argument(client: Client) -> None:
    table_id = client.create(seats=2)
    token = client.seat(table_id, [1000])[0]
    requests: queue.Queue[pb.PlayRequest | None] = queue.Queue()

    def outgoing() -> Iterator[pb.PlayRequest]:
        while (item := requests.get()) is not None:
            yield item

    start = pb.PlayRequest(start=pb.PlayStart(table_id=table_id))
    requests.put(start)
    requests.put(start)
    stream = client.stub.Play(outgoing(), metadata=auth(token), timeout=10)
    try:
        code, message = status(lambda: list(stream))
    finally:
        requests.put(None)
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "start" in message


def test_finding4_a_token_with_non_ascii_characters_is_unknown_not_internal() -> None:
    # A PlayMany seat token is a protobuf string: any Unicode can arrive (the fuzz test
    # found hmac.compare_digest raising TypeError on it, an INTERNAL answer).
    from services.dealer.auth import Authenticator
    from services.dealer.errors import Unauthenticated

    auth = Authenticator("service", "auditor")
    with pytest.raises(Unauthenticated, match="unknown token"):
        auth.caller("\U0003147b\x8f")
    assert auth.caller("service").role == "service"
