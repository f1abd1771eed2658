"""The SDK without servers: docstring examples, conversions of every event, the tracker, the
fair-deck checker on doctored decks (R3, R12), retries and TLS settings, bot sessions."""

from __future__ import annotations

import doctest
import hashlib
import importlib
import pkgutil
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import grpc
import pytest

import clients
from clients.cards import Card, cards
from clients.convert import event_from_proto, from_proto
from clients.errors import ActionRefused, FairDeckViolation, ServiceError
from clients.events import (
    EVENT_TYPES,
    BoardDealt,
    DeckRevealed,
    HandEnded,
    HandPlayer,
    HandStarted,
    HoleCardsDealt,
    PlayerSatIn,
    PlayerSatOut,
)
from clients.fairdeck import FairDeckChecker, dealing_order, position_hash
from clients.models import (
    Action,
    ActionKind,
    Decision,
    LegalActions,
    Level,
    SeatStack,
    SitOutReason,
    Street,
    TableView,
)
from clients.session import BotSession, Stop
from clients.stack import LocalSuite
from clients.transport import TLS, RetryPolicy, call
from poker.v1 import dealer_pb2 as pb


@pytest.mark.parametrize("name", sorted(m.name for m in pkgutil.iter_modules(clients.__path__)))
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"clients.{name}")
    assert module.__doc__ and module.__doc__.strip(), f"clients.{name} says nothing about itself"
    failed, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failed == 0


def test_R1_cards_read_and_print_as_the_rule_book_writes_them() -> None:
    assert str(Card("As")) == "As" and repr(Card("as")) == "Card('As')"
    assert Card("Td").index == 4 * 8 + 1 and Card.from_index(0) == Card("2c")
    assert sorted(cards("As 2c Kd")) == [Card("2c"), Card("Kd"), Card("As")]
    with pytest.raises(ValueError, match="not a card"):
        Card("1x")


def _filled(message: Any) -> Any:
    """Every scalar field of `message` set to something recognisable."""
    for fd in message.DESCRIPTOR.fields:
        if fd.message_type is not None:
            if fd.is_repeated:
                _filled(getattr(message, fd.name).add())
            else:
                _filled(getattr(message, fd.name))
            continue
        value: Any
        if fd.name in {"cards", "board", "deck", "card", "hole_cards"}:
            value = "As"
        elif fd.enum_type is not None:
            value = fd.enum_type.values[-1].number
        elif fd.type == fd.TYPE_BOOL:
            value = True
        elif fd.type == fd.TYPE_STRING:
            value = "x"
        elif fd.type == fd.TYPE_BYTES:
            value = b"\x01"
        elif fd.type in (fd.TYPE_DOUBLE, fd.TYPE_FLOAT):
            value = 1.5
        else:
            value = 7
        if fd.is_repeated:
            getattr(message, fd.name).append(value)
        else:
            setattr(message, fd.name, value)
    return message


def test_every_table_event_kind_converts_to_its_typed_value() -> None:
    oneof = pb.TableEvent.DESCRIPTOR.oneofs_by_name["event"]
    assert {f.name for f in oneof.fields} == set(EVENT_TYPES)
    for fd in oneof.fields:
        message = pb.TableEvent(sequence=3, time_unix_ms=9, hand_id="t-1")
        getattr(message, fd.name).CopyFrom(_filled(getattr(message, fd.name)))
        event = event_from_proto(message)
        assert type(event) is EVENT_TYPES[fd.name] and event.kind == fd.name
        assert (event.sequence, event.hand_id) == (3, "t-1")
    hidden = event_from_proto(pb.TableEvent(sequence=4))
    assert hidden.kind == "hidden" and hidden.sequence == 4


def test_a_table_view_converts_with_cards_enums_and_unset_fields() -> None:
    message = pb.TableView(table_id="t", sequence=12, your_seat=1)
    message.seats.add(seat=1, player_id="ann", stack=990, bet=10, in_hand=True,
                      hole_cards=["Ah", "Kh"])
    message.hand.hand_id, message.hand.street = "t-3", pb.STREET_FLOP
    message.hand.board.extend(["2c", "7d", "Qs"])
    message.hand.actor = 1
    message.hand.legal_actions.CopyFrom(pb.LegalActions(
        seat=1, decision=pb.DECISION_BET, can_check=True, bet_kind=pb.ACTION_KIND_BET,
        min_to=10, max_to=990))
    view = from_proto(TableView, message)
    assert view.my_cards == cards("Ah Kh") and view.board == cards("2c 7d Qs")
    assert view.hand is not None and view.hand.street is Street.FLOP and view.button is None
    assert view.legal is not None and view.legal.can_bet and view.is_my_turn
    assert view.legal.allows(Action.bet(50)) and not view.legal.allows(Action.bet(5))


# -------------------------------------------------------------------- fair deck (R3, R12)


def _hand(n_players: int = 3, button: int = 0, seed: int = 1,
          auditor: bool = False) -> tuple[list[Any], list[bytes], list[int]]:
    """The events of an honest hand as seat 1 (or the auditor) sees it: started, hole
    cards of seat 1, flop, end, reveal (R3: salts with the opened cards, hashes of the rest)."""
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    salts = [bytes(rng.randrange(256) for _ in range(16)) for _ in range(52)]
    hashes = [position_hash(i, c, s) for i, (c, s) in enumerate(zip(deck, salts, strict=True))]
    commitment = hashlib.sha256(b"".join(hashes)).hexdigest()
    seats = list(range(n_players))
    order = dealing_order(seats, button)
    i, n = order.index(1), n_players
    d = [Card.from_index(c) for c in deck]
    flop = [2 * n + 1, 2 * n + 2, 2 * n + 3]
    opened = {i, n + i, *flop}
    reveal = (DeckRevealed(sequence=5, hand_id="h", deck=tuple(d), salts=tuple(salts),
                           commitment=commitment) if auditor else
              DeckRevealed(sequence=5, hand_id="h", commitment=commitment,
                           hashes=tuple(b"" if k in opened else h for k, h in enumerate(hashes))))
    events = [
        HandStarted(sequence=1, hand_id="h", hand_number=1, button=button, level=Level(5, 10),
                    players=tuple(HandPlayer(s, f"p{s}", 100) for s in seats),
                    commitment=commitment),
        HoleCardsDealt(sequence=2, hand_id="h", seat=1, cards=(d[i], d[n + i]),
                       salts=(salts[i], salts[n + i])),
        BoardDealt(sequence=3, hand_id="h", street=Street.FLOP,
                   cards=tuple(d[k] for k in flop), salts=tuple(salts[k] for k in flop)),
        HandEnded(sequence=4, hand_id="h", stacks=(SeatStack(1, 100),)),
        reveal,
    ]
    return events, salts, deck


def _feed(events: list[Any], policy: str = "raise") -> FairDeckChecker:
    checker = FairDeckChecker(policy)  # type: ignore[arg-type]
    for e in events:
        checker.feed(e)
    return checker


def test_R3_an_honest_hand_verifies() -> None:
    for button in range(3):
        for auditor in (False, True):
            events, _, _ = _hand(button=button, auditor=auditor)
            assert _feed(events).verified == 1


def _doctor(events: list[Any], **changes: Any) -> list[Any]:
    return [*events[:-1], replace(events[-1], **changes)]


def test_R3_a_tampered_hash_of_an_unseen_card_is_caught() -> None:
    events, _, _ = _hand()
    hashes = list(events[-1].hashes)
    hashes[20], hashes[30] = hashes[30], hashes[20]  # cards never seen: only C can tell
    with pytest.raises(FairDeckViolation, match="do not make the commitment"):
        _feed(_doctor(events, hashes=tuple(hashes)))
    hashes = list(events[-1].hashes)
    hashes[40] = b""  # a position never opened, proven by nothing
    with pytest.raises(FairDeckViolation, match=r"no hash for positions \[40\]"):
        _feed(_doctor(events, hashes=tuple(hashes)))


def test_R3_a_tampered_salt_or_card_or_a_swapped_commitment_is_caught() -> None:
    events, _, _ = _hand()
    flop = events[2]
    with pytest.raises(FairDeckViolation, match="do not make the commitment"):
        _feed([*events[:2], replace(flop, salts=(bytes(16), *flop.salts[1:])), *events[3:]])
    other = next(Card.from_index(c) for c in range(52) if Card.from_index(c) not in
                 (*flop.cards, *events[1].cards))
    with pytest.raises(FairDeckViolation, match="do not make the commitment"):
        _feed([*events[:2], replace(flop, cards=(other, *flop.cards[1:])), *events[3:]])
    with pytest.raises(FairDeckViolation, match="the hand started with"):
        _feed(_doctor(events, commitment="0" * 64))
    with pytest.raises(FairDeckViolation, match="without its salt"):
        _feed([*events[:2], replace(flop, salts=()), *events[3:]])


def test_R3_the_auditors_tampered_deck_or_salt_is_caught() -> None:
    events, salts, _ = _hand(auditor=True)
    deck = list(events[-1].deck)
    deck[40], deck[41] = deck[41], deck[40]
    with pytest.raises(FairDeckViolation, match="do not make the commitment"):
        _feed(_doctor(events, deck=tuple(deck)))
    with pytest.raises(FairDeckViolation, match="do not make the commitment"):
        _feed(_doctor(events, salts=(*salts[:45], bytes(16), *salts[46:])))
    with pytest.raises(FairDeckViolation, match="does not hash to h_0"):  # an opened card
        _feed(_doctor(events, salts=(bytes(16), *salts[1:])))
    with pytest.raises(FairDeckViolation, match="not the 52 cards"):
        _feed(_doctor(events, deck=tuple(deck[:51])))


def test_R12_a_card_dealt_where_it_was_not_committed_is_caught() -> None:
    # The dealer commits the deck but deals seat 1 the card committed at position 40,
    # with its true salt: the card hashes, but not at the position R12 gives it.
    events, salts, deck = _hand()
    hole = events[1]
    liar = replace(hole, cards=(Card.from_index(deck[40]), hole.cards[1]),
                   salts=(salts[40], hole.salts[1]))
    with pytest.raises(FairDeckViolation, match="do not make the commitment"):
        _feed([events[0], liar, *events[2:]])
    events, salts, deck = _hand(auditor=True)
    with pytest.raises(FairDeckViolation, match=r"commits .* there \(R12\)"):
        _feed([events[0], liar, *events[2:]])


def test_R39_the_checker_places_cards_by_the_seeds_permutation() -> None:
    from clients.events import DeckSeeded, SeatSeed
    from clients.fairdeck import permutation

    seeds = (SeatSeed(seat=0, seed=b"a" * 32), SeatSeed(seat=1, seed=b""),
             SeatSeed(seat=2, seed=b"c" * 32))
    p = permutation([s.seed for s in seeds])
    rng = random.Random(5)
    committed = list(range(52))
    rng.shuffle(committed)
    salts = [bytes([k]) * 16 for k in range(52)]
    hashes = [position_hash(k, c, s) for k, (c, s) in enumerate(zip(committed, salts, strict=True))]
    commitment = hashlib.sha256(b"".join(hashes)).hexdigest()
    order = dealing_order([0, 1, 2], 0)
    i = order.index(1)
    dealt = [(j, Card.from_index(committed[p[j]]), salts[p[j]]) for j in (i, 3 + i)]
    events = [
        DeckSeeded(sequence=1, hand_id="h", seeds=seeds, permutation=tuple(p)),
        HandStarted(sequence=2, hand_id="h", hand_number=1, button=0, level=Level(5, 10),
                    players=tuple(HandPlayer(s, f"p{s}", 100) for s in range(3)),
                    commitment=commitment),
        HoleCardsDealt(sequence=3, hand_id="h", seat=1, cards=tuple(c for _, c, _ in dealt),
                       salts=tuple(s for _, _, s in dealt)),
        HandEnded(sequence=4, hand_id="h", stacks=()),
        DeckRevealed(sequence=5, hand_id="h", commitment=commitment, hashes=tuple(
            b"" if k in {p[i], p[3 + i]} else h for k, h in enumerate(hashes))),
    ]
    assert _feed(events).verified == 1
    wrong = replace(events[0], seeds=(seeds[0], SeatSeed(seat=1, seed=b"b" * 32), seeds[2]),
                    permutation=())
    with pytest.raises(FairDeckViolation):  # other seeds, another p: the cards do not hash
        _feed([wrong, *events[1:]])
    with pytest.raises(FairDeckViolation, match="not the one its seeds draw"):
        _feed([replace(events[0], permutation=tuple(range(52))), *events[1:]])


def test_R3_a_hand_joined_mid_way_is_checked_from_the_views_salts() -> None:
    from clients.models import HandView, SeatView

    events, salts, deck = _hand()
    hole, flop = events[1], events[2]
    view = TableView(table_id="t", seats=tuple(
        SeatView(seat=s, player_id=f"p{s}", stack=100, in_hand=True,
                 hole_cards=hole.cards if s == 1 else (),
                 hole_card_salts=hole.salts if s == 1 else ()) for s in range(3)),
        hand=HandView(hand_id="h", hand_number=1, street=Street.FLOP, board=flop.cards,
                      board_salts=flop.salts, commitment=events[0].commitment, button=0))
    checker = FairDeckChecker()
    checker.expect("h", events[0].commitment, view)
    for e in events[3:]:  # joined after the flop: only the end and the reveal follow
        checker.feed(e)
    assert checker.verified == 1 and not checker.unverified
    lying = replace(view, hand=replace(view.hand, board_salts=(bytes(16), *flop.salts[1:])))
    checker = FairDeckChecker("flag")
    checker.expect("h", events[0].commitment, lying)
    for e in events[3:]:
        checker.feed(e)
    assert checker.verified == 0 and len(checker.violations) == 1


def test_R3_a_hand_that_ends_without_a_reveal_is_flagged_at_the_next_hand() -> None:
    events, _, _ = _hand()
    checker = _feed(events[:-1] + [events[0]], policy="flag")
    assert [v.reason for v in checker.violations] == [
        "the hand ended and its deck was never revealed (R3)"]


def test_R3_flag_policy_records_and_goes_on() -> None:
    events, _, _ = _hand()
    seen: list[FairDeckViolation] = []
    checker = FairDeckChecker("flag", on_violation=seen.append)
    for e in _doctor(events, commitment="1" * 64):
        checker.feed(e)
    assert checker.verified == 0 and len(checker.violations) == 1 and seen == checker.violations


def test_R3_a_withheld_proof_of_an_old_hand_is_unverified_not_a_pass() -> None:
    events, _, _ = _hand()
    checker = _feed(_doctor(events, hashes=(), withheld=True))
    assert checker.verified == 0 and checker.unverified == ["h"] and not checker.violations


# ------------------------------------------------------------------ transport, errors


class _Flaky:
    def __init__(self, failures: int, code: grpc.StatusCode) -> None:
        self.failures, self.code, self.calls = failures, code, 0
        self.requests: list[Any] = []

    def __call__(self, request: Any, *, metadata: Any, timeout: float) -> str:
        self.calls += 1
        self.requests.append(request)
        assert timeout == 2.0, "every attempt carries a deadline"
        if self.calls <= self.failures:
            raise _RpcError(self.code, "try again")
        return "ok"


class _RpcError(grpc.RpcError):
    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        self._code, self._details = code, details

    def code(self) -> grpc.StatusCode:
        return self._code

    def details(self) -> str:
        return self._details


def test_safe_calls_are_retried_with_the_same_request_on_unavailable() -> None:
    method = _Flaky(2, grpc.StatusCode.UNAVAILABLE)
    policy = RetryPolicy(initial_backoff=0.001)
    assert call(method, "req", metadata=(), timeout=2.0, retry=policy) == "ok"
    assert method.calls == 3 and method.requests == ["req"] * 3


def test_refusals_are_not_retried_and_keep_the_reason_and_code() -> None:
    method = _Flaky(1, grpc.StatusCode.FAILED_PRECONDITION)
    with pytest.raises(ActionRefused) as caught:
        call(method, "req", metadata=(), timeout=2.0, retry=RetryPolicy(), cls=ActionRefused,
             name="Act")
    assert method.calls == 1
    assert caught.value.code is grpc.StatusCode.FAILED_PRECONDITION
    assert caught.value.message == "try again" and "Act: FAILED_PRECONDITION" in str(caught.value)
    assert caught.value.reason == "FAILED_PRECONDITION"  # no details sent: the code's name
    unsafe = _Flaky(1, grpc.StatusCode.UNAVAILABLE)
    with pytest.raises(ServiceError):
        call(unsafe, "req", metadata=(), timeout=2.0, retry=None)
    assert unsafe.calls == 1


def test_tls_settings_reach_grpc(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}

    def fake(**kwargs: Any) -> Any:
        seen.update(kwargs)
        return object()

    monkeypatch.setattr(grpc, "ssl_channel_credentials", fake)
    tls = TLS(root_certificates=b"ROOTS", private_key=b"KEY", certificate_chain=b"CHAIN",
              server_name="dealer.internal")
    tls.credentials()
    assert seen == {"root_certificates": b"ROOTS", "private_key": b"KEY",
                    "certificate_chain": b"CHAIN"}
    assert ("grpc.ssl_target_name_override", "dealer.internal") in tls.options()


# ------------------------------------------------------------------------ bot sessions


class _Counting:
    def __init__(self) -> None:
        self.asked = 0

    def act(self, view: TableView) -> Action:
        self.asked += 1
        return Action.call() if self.asked == 1 else Action.fold()


def _turn_view(action_number: int) -> TableView:
    from clients.models import HandView

    legal = LegalActions(seat=0, decision=Decision.BET, can_fold=True, can_call=True,
                         call_amount=10)
    return TableView(table_id="t", your_seat=0, hand=HandView(
        hand_id="t-1", hand_number=1, street=Street.PREFLOP, actor=0,
        action_number=action_number, legal=legal))


def test_a_decision_is_sent_again_unchanged_after_a_reconnect() -> None:
    bot = _Counting()
    session = BotSession(bot, 0, Stop())
    first = session.decision(_turn_view(4))
    assert first == ("t-1", 4, Action.call())
    assert session.decision(_turn_view(4)) is None  # sent once per stream
    session.reconnected()
    assert session.decision(_turn_view(4)) == first and bot.asked == 1  # same answer, not asked


def test_a_seat_timed_out_sits_in_again_and_a_stale_refusal_does_not_raise() -> None:
    session = BotSession(_Counting(), 0, Stop())
    steps = session.on_events([PlayerSatOut(sequence=9, seat=0,
                                            reason=SitOutReason.TIMED_OUT)], TableView("t"))
    assert steps == [("sit_in", None)]
    session.on_result(4, grpc.StatusCode.FAILED_PRECONDITION.value[0], "timed out",
                      TableView("t"))
    with pytest.raises(ActionRefused, match="raise to 5 is below"):
        session.on_result(4, grpc.StatusCode.FAILED_PRECONDITION.value[0],
                          "raise to 5 is below the minimum 20", _turn_view(4))
    assert len(session.result.refused) == 2
    assert Action(ActionKind.ALL_IN).kind.value == "all_in"


def _seats(*sitting_out: int) -> TableView:
    from clients.models import SeatView

    return TableView(table_id="t", your_seat=0, seats=tuple(
        SeatView(seat=n, player_id=f"p{n}", stack=500, sitting_out=n in sitting_out)
        for n in range(3)))


def test_a_bot_stops_when_every_other_seat_sits_out_by_choice() -> None:
    """A `hands=` count short of its end would wait forever at a table that no longer
    deals: everyone else sat out (their own stops, or busted and gone)."""
    session = BotSession(_Counting(), 0, Stop(hands=50))
    session.on_events([], _seats())  # the bot begins with everyone in
    session.result.hands = 7
    out = SitOutReason.REQUESTED
    assert session.on_events([PlayerSatOut(sequence=20, seat=1, reason=out)],
                             _seats(1)) == []  # seat 2 still plays
    steps = session.on_events([PlayerSatOut(sequence=21, seat=2, reason=out)], _seats(1, 2))
    assert steps == [("sit_out_if_seated", None)]
    assert session.winding_down == "no one else at the table plays"


def test_a_seat_timed_out_is_expected_back_and_a_sat_in_one_plays_again() -> None:
    session = BotSession(_Counting(), 0, Stop(hands=50))
    session.on_events([], _seats())
    session.result.hands = 7
    steps = session.on_events([
        PlayerSatOut(sequence=20, seat=1, reason=SitOutReason.REQUESTED),
        PlayerSatOut(sequence=21, seat=2, reason=SitOutReason.TIMED_OUT)], _seats(1, 2))
    assert steps == [] and session.winding_down is None  # R32: seat 2 comes back
    steps = session.on_events([PlayerSatIn(sequence=22, seat=1)], _seats(2))
    assert steps == [] and session.winding_down is None


def test_a_bot_that_has_not_played_yet_waits_for_the_table() -> None:
    session = BotSession(_Counting(), 0, Stop(hands=50))
    assert session.on_events([PlayerSatOut(sequence=3, seat=1, reason=SitOutReason.REQUESTED),
                              PlayerSatOut(sequence=4, seat=2, reason=SitOutReason.REQUESTED)],
                             _seats(1, 2)) == []


def test_a_busted_bot_sits_out_before_it_stops() -> None:
    """So that the others see it gone (a seat with no chips may still be rebuying)."""
    from clients.models import SeatStack

    session = BotSession(_Counting(), 0, Stop(hands=50))
    ended = HandEnded(sequence=30, hand_id="t-4", stacks=(
        SeatStack(seat=0, player_id="p0", stack=0), SeatStack(seat=1, player_id="p1",
                                                              stack=1500)))
    assert session.on_events([ended], _seats()) == [("sit_out_if_seated", None), ("stop", "busted")]


def test_a_failed_suite_test_reports_the_end_of_every_process_log(tmp_path: Path) -> None:
    """tests/conftest.py: a failed test shows the last LOG_TAIL_LINES lines of each
    process's log its suite's folder or its tmp_path holds, at any depth (both are gone
    after the run); a passed one, or a test with neither, shows nothing more."""
    from types import SimpleNamespace

    from tests import conftest

    folder = tmp_path / "suite"
    folder.mkdir()
    (folder / "lobby.log").write_text("".join(f"lobby line {i}\n" for i in range(500)))
    (folder / "dealer-0.log").write_text("dealer started\n")
    own = tmp_path / "own"
    (own / "t1").mkdir(parents=True)
    (own / "t1" / "dealer.log").write_text("adopted\nlost\n")
    (own / "notes.txt").write_text("not a log\n")
    suite = LocalSuite.__new__(LocalSuite)
    suite.folder = folder

    def report_of(outcome: str, funcargs: dict[str, object]) -> Any:
        report = SimpleNamespace(when="call", failed=outcome == "failed", sections=[])
        item: Any = SimpleNamespace(funcargs=funcargs)
        hook = conftest.pytest_runtest_makereport(item, None)  # type: ignore[arg-type]
        next(hook)
        with pytest.raises(StopIteration) as done:
            hook.send(report)
        assert done.value.value is report
        return report

    failed = report_of("failed", {"suite": suite})
    titles = [title for title, _ in failed.sections]
    assert titles == ["dealer-0.log, its last 1 lines",
                      f"lobby.log, its last {conftest.LOG_TAIL_LINES} lines"]
    lobby = failed.sections[1][1].splitlines()
    assert lobby[0] == f"lobby line {500 - conftest.LOG_TAIL_LINES}"
    assert lobby[-1] == "lobby line 499"
    both = report_of("failed", {"suite": suite, "tmp_path": own})
    assert [t for t, _ in both.sections][2:] == ["t1/dealer.log, its last 2 lines"]
    assert both.sections[2][1] == "adopted\nlost\n"
    assert report_of("passed", {"suite": suite}).sections == []
    assert report_of("failed", {}).sections == []


def test_sit_out_after_a_hand_on_a_dealer_that_does_not_know_it_sits_in_again() -> None:
    """`sit_out(after_hand=N)`: the dealer's answer names the last hand the seat is dealt;
    a dealer older than `after_hand` answers nothing and sat the seat out from the next
    hand, so the client sits in again at once and returns None (nothing was held)."""
    import asyncio

    from clients.aio import AsyncTableClient
    from clients.models import SeatView
    from clients.tracker import TableTracker
    from poker.v1 import dealer_pb2

    async def sit_out(answer: dealer_pb2.SitOutResponse, after_hand: int | None,
                      out_already: bool = False) -> tuple[int | None, list[tuple[str, Any]]]:
        client = AsyncTableClient("127.0.0.1:1", "t1", "tok", seat=2)
        if out_already:  # the events it follows have the seat sitting out by choice
            client.tracker = TableTracker(TableView(table_id="t1", your_seat=2, seats=(
                SeatView(seat=2, player_id="p", stack=100, sitting_out=True),)))
        sent: list[tuple[str, Any]] = []

        async def do(spec: Any, cls: Any = None) -> Any:
            sent.append((spec.method, spec.request))
            reply = answer if spec.method == "SitOut" else dealer_pb2.SitInResponse()
            return spec.read(reply)

        client._do = do  # type: ignore[method-assign]
        try:
            return await client.sit_out(after_hand=after_hand), sent
        finally:
            await client.close()

    held, sent = asyncio.run(sit_out(dealer_pb2.SitOutResponse(after_hand=7), 7))
    assert held == 7 and [m for m, _ in sent] == ["SitOut"]
    assert sent[0][1].after_hand == 7 and sent[0][1].seat == 2
    held, sent = asyncio.run(sit_out(dealer_pb2.SitOutResponse(), 7))  # an older dealer
    assert held is None and [m for m, _ in sent] == ["SitOut", "SitIn"]
    held, sent = asyncio.run(sit_out(dealer_pb2.SitOutResponse(), 7, out_already=True))
    assert held is None and [m for m, _ in sent] == ["SitOut"]  # not sat in against its will
    held, sent = asyncio.run(sit_out(dealer_pb2.SitOutResponse(), None))  # from the next hand
    assert held is None and [m for m, _ in sent] == ["SitOut"]
    assert not sent[0][1].HasField("after_hand")


def test_the_tracker_shows_a_sit_out_to_come_until_the_seat_sits_out() -> None:
    """SitOutScheduled sets the seat's `sits_out_after_hand` (0 clears it), and the
    PlayerSatOut that follows the hand ends it, as GetTable's view would show."""
    from clients.events import PlayerSatOut, SitOutScheduled
    from clients.models import SeatView, SitOutReason
    from clients.tracker import TableTracker

    tracker = TableTracker(TableView(table_id="t", seats=(
        SeatView(seat=0, player_id="a", stack=100), SeatView(seat=1, player_id="b", stack=100))))
    tracker.apply(SitOutScheduled(sequence=1, seat=1, after_hand=4))
    assert [s.sits_out_after_hand for s in tracker.view().seats] == [None, 4]
    tracker.apply(SitOutScheduled(sequence=2, seat=1, after_hand=0))  # cancelled
    assert tracker.view().seats[1].sits_out_after_hand is None
    tracker.apply(SitOutScheduled(sequence=3, seat=1, after_hand=6))
    tracker.apply(PlayerSatOut(sequence=4, seat=1, reason=SitOutReason.REQUESTED))
    seat = tracker.view().seats[1]
    assert seat.sitting_out and seat.sits_out_after_hand is None


def _started(number: int, *seats: int) -> Any:
    from clients.events import HandPlayer, HandStarted
    from clients.models import Level

    return HandStarted(sequence=number * 10, hand_id=f"t-{number}", hand_number=number,
                       button=0, level=Level(5, 10),
                       players=tuple(HandPlayer(s, f"p{s}", 500) for s in seats))


def test_a_hands_stop_asks_ahead_to_sit_out_after_the_next_hand() -> None:
    """`hands=3`: as its second hand starts (table hand 6) the seat asks to sit out once
    hand 7 has ended; its third hand is 7 (winding down as before)."""
    session = BotSession(_Counting(), 0, Stop(hands=3))
    assert session.on_events([_started(5, 0, 1)], _seats()) == []
    assert session.on_events([_started(6, 0, 1)], _seats()) == [("sit_out_if_seated", 7)]
    assert session.on_events([_started(7, 0, 1)], _seats()) == [("sit_out_if_seated", None)]
    assert session.winding_down == "played its last hand" and session.result.hands == 3


def test_a_hands_stop_whose_seat_missed_the_hand_asked_sits_in_and_stops_as_before() -> None:
    """The seat was not dealt the hand it asked to sit out after: the dealer's PlayerSatOut
    comes before its last hand, so it sits in again, and sits out as that hand starts."""
    session = BotSession(_Counting(), 0, Stop(hands=3))
    session.on_events([_started(5, 0, 1)], _seats())
    session.on_events([_started(6, 0, 1)], _seats())
    assert session.on_events([_started(7, 1, 2)], _seats()) == []  # not dealt hand 7
    sat_out = PlayerSatOut(sequence=75, seat=0, reason=SitOutReason.REQUESTED)
    assert session.on_events([sat_out], _seats(0)) == [("sit_in", None)]
    assert session.on_events([_started(8, 0, 1)], _seats()) == [("sit_out_if_seated", None)]
    assert session.on_events([_started(9, 0, 1)], _seats()) == []  # no second ask


def test_an_until_hand_stop_asks_ahead_as_play_begins_and_again_after_a_time_out() -> None:
    session = BotSession(_Counting(), 0, Stop(until_hand=12))
    assert session.on_events([], _seats()) == [("sit_out_if_seated", 12)]
    timed_out = PlayerSatOut(sequence=9, seat=0, reason=SitOutReason.TIMED_OUT)
    assert session.on_events([timed_out], _seats(0)) == [("sit_in", None),
                                                         ("sit_out_if_seated", 12)]
