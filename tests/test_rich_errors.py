"""Machine-readable errors (issue 16): every refusal carries a google.rpc.Status with an
ErrorInfo (domain poker.v1, a stable reason, numbers in its metadata), BadRequest for
INVALID_ARGUMENT and RetryInfo for UNAVAILABLE / RESOURCE_EXHAUSTED; every reason the
Python taxonomy can give is listed in protos/poker/v1/errors.proto's ErrorReason, and the
list has no other.

The wire tests use only what a client of another language has: the stubs generated from
the .proto files, and grpc_status to read the `grpc-status-details-bin` trailer.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import re
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from poker import errors, status, wire
from poker.journal import Entry, Key, MemoryJournal, Rules, journaled
from poker.v1 import dealer_pb2 as dpb
from poker.v1 import dealer_pb2_grpc, errors_pb2, lobby_pb2, lobby_pb2_grpc
from tests.wire_helpers import Suite, bearer, start_suite

ROOT = Path(__file__).resolve().parent.parent


def details(err: grpc.RpcError) -> dict[str, object]:
    """The status's details by type name, as a client built from the protos decodes them."""
    found = rpc_status.from_call(err)
    assert found is not None, "no grpc-status-details-bin trailer"
    assert found.code == err.code().value[0] and found.message == err.details()
    out: dict[str, object] = {}
    for packed in found.details:
        for cls in (error_details_pb2.ErrorInfo, error_details_pb2.BadRequest,
                    error_details_pb2.RetryInfo):
            if packed.Is(cls.DESCRIPTOR):
                message = cls()
                packed.Unpack(message)
                out[cls.DESCRIPTOR.name] = message
    return out


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Suite]:
    yield from start_suite(tmp_path_factory.mktemp("rich"))


def _hand_to_act(dealer: dealer_pb2_grpc.DealerServiceStub, table_id: str,
                 tokens: list[str]) -> dpb.HandView:
    """The hand in progress as its actor sees it (with the legal actions)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        hand = dealer.GetTable(dpb.GetTableRequest(table_id=table_id), timeout=5).table.hand
        if hand.hand_id and hand.HasField("actor"):
            hand = dealer.GetTable(dpb.GetTableRequest(table_id=table_id),
                                   metadata=bearer(tokens[hand.actor]), timeout=5).table.hand
            if hand.legal_actions.min_to:
                return hand
        time.sleep(0.05)
    raise AssertionError("no hand awaiting a decision")


def test_a_raise_below_the_minimum_says_BELOW_MIN_RAISE_with_min_to(suite: Suite) -> None:
    dealer = dealer_pb2_grpc.DealerServiceStub(suite.channels["dealer"])
    svc = bearer(suite.service_token)
    table_id = dealer.CreateTable(dpb.CreateTableRequest(config=dpb.TableConfig(
        seats=2, action_time_ms=60_000)), metadata=svc, timeout=10).table_id
    tokens = [dealer.SeatPlayer(dpb.SeatPlayerRequest(
        table_id=table_id, seat=seat, player_id=f"rich-{seat}", stack=1000), metadata=svc,
        timeout=10).seat_token for seat in (0, 1)]
    hand = _hand_to_act(dealer, table_id, tokens)
    legal = hand.legal_actions
    act = dpb.ActRequest(table_id=table_id, seat=hand.actor, hand_id=hand.hand_id,
                         action_number=hand.action_number, kind=dpb.ACTION_KIND_RAISE,
                         amount=legal.min_to - 1)
    with pytest.raises(grpc.RpcError) as refused:
        dealer.Act(act, metadata=bearer(tokens[hand.actor]), timeout=10)
    assert refused.value.code() is grpc.StatusCode.FAILED_PRECONDITION
    info = details(refused.value)["ErrorInfo"]
    assert isinstance(info, error_details_pb2.ErrorInfo)
    assert (info.domain, info.reason) == ("poker.v1", "BELOW_MIN_RAISE")
    assert info.metadata["min_to"] == str(legal.min_to)
    assert info.metadata["max_to"] == str(legal.max_to)
    assert info.metadata["call_amount"] == str(legal.call_amount)
    assert info.reason in errors_pb2.ErrorReason.keys()  # noqa: SIM118 - an EnumTypeWrapper
    # the other seat acting: NOT_YOUR_TURN, the seat whose turn it is in `actor`
    other = 1 - hand.actor
    with pytest.raises(grpc.RpcError) as not_yours:
        dealer.Act(dpb.ActRequest(table_id=table_id, seat=other, hand_id=hand.hand_id,
                                  action_number=hand.action_number,
                                  kind=dpb.ACTION_KIND_FOLD),
                   metadata=bearer(tokens[other]), timeout=10)
    info = details(not_yours.value)["ErrorInfo"]
    assert isinstance(info, error_details_pb2.ErrorInfo)
    assert info.reason == "NOT_YOUR_TURN" and info.metadata["actor"] == str(hand.actor)
    # a check facing the big blind: CANNOT_CHECK, with what there is to call
    with pytest.raises(grpc.RpcError) as no_check:
        dealer.Act(dpb.ActRequest(table_id=table_id, seat=hand.actor, hand_id=hand.hand_id,
                                  action_number=hand.action_number,
                                  kind=dpb.ACTION_KIND_CHECK),
                   metadata=bearer(tokens[hand.actor]), timeout=10)
    info = details(no_check.value)["ErrorInfo"]
    assert isinstance(info, error_details_pb2.ErrorInfo)
    assert info.reason == "CANNOT_CHECK" and info.metadata["call_amount"] == str(
        legal.call_amount)


def test_invalid_argument_names_the_field_in_a_BadRequest(suite: Suite) -> None:
    lobby = lobby_pb2_grpc.LobbyServiceStub(suite.channels["lobby"])
    with pytest.raises(grpc.RpcError) as refused:
        lobby.Deposit(lobby_pb2.DepositRequest(player_id="p", amount=10, request_id=""),
                      metadata=bearer(suite.operator_token), timeout=10)
    assert refused.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    found = details(refused.value)
    bad = found["BadRequest"]
    assert isinstance(bad, error_details_pb2.BadRequest) and bad.field_violations
    assert bad.field_violations[0].field == "request_id", bad
    info = found["ErrorInfo"]
    assert isinstance(info, error_details_pb2.ErrorInfo) and info.reason == "INVALID_ARGUMENT"


def test_bytes_that_do_not_parse_are_MALFORMED_REQUEST(suite: Suite) -> None:
    call = suite.channels["lobby"].unary_unary("/poker.v1.LobbyService/GetPlayer",
                                               request_serializer=None,
                                               response_deserializer=None)
    with pytest.raises(grpc.RpcError) as refused:
        call(b"\x0a\x05ab", metadata=bearer(suite.operator_token), timeout=5)
    info = details(refused.value)["ErrorInfo"]
    assert isinstance(info, error_details_pb2.ErrorInfo) and info.reason == wire.MALFORMED
    assert "BadRequest" in details(refused.value)


def test_the_lobby_says_INSUFFICIENT_BALANCE_with_the_balance(suite: Suite) -> None:
    lobby = lobby_pb2_grpc.LobbyServiceStub(suite.channels["lobby"])
    op = bearer(suite.operator_token)
    lobby.CreatePlayer(lobby_pb2.CreatePlayerRequest(player_id="poor", display_name="Poor"),
                       metadata=op, timeout=10)
    lobby.Deposit(lobby_pb2.DepositRequest(player_id="poor", amount=30, request_id="d1"),
                  metadata=op, timeout=10)
    with pytest.raises(grpc.RpcError) as refused:
        lobby.Withdraw(lobby_pb2.WithdrawRequest(player_id="poor", amount=100,
                                                 request_id="w1"), metadata=op, timeout=10)
    assert refused.value.code() is grpc.StatusCode.FAILED_PRECONDITION
    info = details(refused.value)["ErrorInfo"]
    assert isinstance(info, error_details_pb2.ErrorInfo)
    assert info.reason == "INSUFFICIENT_BALANCE"
    assert (info.metadata["balance"], info.metadata["amount"], info.metadata["needed"]) == (
        "30", "100", "70")
    # the same request id for another amount: INVALID_ARGUMENT, REQUEST_ID_REUSED (as the
    # dealer answers it)
    with pytest.raises(grpc.RpcError) as reused:
        lobby.Deposit(lobby_pb2.DepositRequest(player_id="poor", amount=31, request_id="d1"),
                      metadata=op, timeout=10)
    assert reused.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    info = details(reused.value)["ErrorInfo"]
    assert isinstance(info, error_details_pb2.ErrorInfo) and info.reason == "REQUEST_ID_REUSED"


def test_unavailable_and_resource_exhausted_carry_a_RetryInfo() -> None:
    for category in (errors.Category.UNAVAILABLE, errors.Category.RESOURCE_EXHAUSTED):
        class Busy(errors.PokerError):
            pass
        Busy.category = category
        found = status.details_of(Busy("later", retry_after_s=2.5))
        names = [d.TypeName() for d in found.details]
        assert names == ["google.rpc.ErrorInfo", "google.rpc.RetryInfo"], names
        retry = error_details_pb2.RetryInfo()
        found.details[1].Unpack(retry)
        assert retry.retry_delay.ToMilliseconds() == 2500
    internal = status.details_of(KeyError("secret"))
    info = error_details_pb2.ErrorInfo()
    internal.details[0].Unpack(info)
    assert info.reason == status.INTERNAL_REASON and "secret" not in internal.message


# ------------------------------------------------------------- a refusal remembered


class Refusal(errors.PokerError):
    category = errors.Category.NOT_FOUND


def _rules() -> Rules:
    return Rules(errors=(Refusal,), code_of=lambda err: err.category.name,
                 refused_again=lambda code, message: Refusal(message))


def test_a_refusal_replayed_from_the_journal_keeps_its_reason_and_metadata() -> None:
    store = MemoryJournal()

    class Service:
        journal = store

        @journaled("Buy", _rules(), key=lambda a: Key("Buy", "", a["request_id"]),
                   fields=lambda a: {"seat": a["seat"]})
        def buy(self, request_id: str, seat: int, entry: object = None) -> str:
            raise Refusal(f"no seat {seat}", reason="SEAT_UNAVAILABLE", metadata={"seat": seat})

    for _ in range(2):  # the first refusal, then its repeat from the journal
        with pytest.raises(Refusal) as refused:
            Service().buy("r1", 7)
        assert (refused.value.reason, refused.value.metadata) == (
            "SEAT_UNAVAILABLE", {"seat": "7"})


def test_an_entry_stored_before_reasons_were_kept_is_refused_with_its_codes_name() -> None:
    # An entry as the journal wrote it before issue 16: a code and a message, no reason.
    old = Entry("fp", "seat 7", json.dumps({"refused": {"code": "NOT_FOUND",
                                                         "message": "no seat 7"}}), 0)
    assert old.refused == ("NOT_FOUND", "no seat 7", "NOT_FOUND", {})
    from services.dealer.dealer import RULES

    again = RULES.refused_again("NOT_FOUND", "no seat 7")
    assert again.reason == "NOT_FOUND", "never REMEMBERED: a name a program can act on"


# ----------------------------------------------- the taxonomy and the proto agree


def _import_everything() -> None:
    for package in ("poker", "services", "clients"):
        for info in pkgutil.walk_packages([str(ROOT / package)], prefix=f"{package}."):
            if info.name.endswith("__main__") or info.name.startswith("poker.v1"):
                continue
            importlib.import_module(info.name)


def _python_reasons() -> set[str]:
    _import_everything()

    def walk(cls: type[errors.PokerError]) -> Iterator[type[errors.PokerError]]:
        yield cls
        for sub in cls.__subclasses__():
            yield from walk(sub)

    found = {cls.reason for cls in walk(errors.PokerError)
             if cls.__module__.split(".")[0] in {"poker", "services", "clients"}}
    # the reasons raise sites give, as a literal `reason="..."`
    for package in ("poker", "services", "clients"):
        for path in (ROOT / package).rglob("*.py"):
            found |= set(re.findall(r'reason="([A-Z][A-Z0-9_]*)"', path.read_text()))
    # a refusal remembered without its reason takes its code's name; the server's own
    found |= {category.name for category in errors.Category}
    return found | {status.INTERNAL_REASON, wire.MALFORMED}


def test_every_reason_of_the_taxonomy_is_listed_in_ErrorReason_and_no_other() -> None:
    listed = set(errors_pb2.ErrorReason.keys()) - {"ERROR_REASON_UNSPECIFIED"}
    python = _python_reasons()
    assert not python - listed, f"add to protos/poker/v1/errors.proto: {sorted(python - listed)}"
    assert not listed - python, f"no code gives: {sorted(listed - python)}"
    assert all(errors.is_reason(r) for r in listed)


def test_the_sdk_raises_typed_exceptions_with_the_reason_and_numbers(suite: Suite) -> None:
    from clients import FailedPrecondition, InvalidArgument, LobbyClient

    op = LobbyClient(suite.procs["lobby"].address, token=suite.operator_token)
    try:
        op.create_player("sdk-poor", "Poor")
        op.deposit("sdk-poor", 40)
        with pytest.raises(FailedPrecondition) as poor:
            op.withdraw("sdk-poor", 100)
        assert poor.value.reason == "INSUFFICIENT_BALANCE"
        assert (poor.value.number("balance"), poor.value.number("needed")) == (40, 60)
        assert "needs 60 more" in poor.value.message
        with pytest.raises(InvalidArgument) as bad:
            op.deposit("sdk-poor", 10, request_id="x" * 500)
        assert "request_id" in bad.value.field_violations, bad.value.field_violations
    finally:
        op.close()
