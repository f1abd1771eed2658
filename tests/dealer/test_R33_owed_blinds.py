"""R33 missed blinds and R10 newcomers in TableView: each seat's `owed_blinds` says what it
owes (a missed big blind, the small blind dead too, a newcomer's big blind) and what it
does about it next hand (posts live, posts the small dead, is the big blind, waits), in
the table's view, the SDK's SeatView and over gRPC until the seat has posted."""

from __future__ import annotations

from poker.v1 import dealer_pb2 as pb
from services.dealer.table import commands as c
from services.dealer.table.owed import Owed, owed_blinds
from tests.dealer.helpers import AUDITOR_TOKEN, Client, Watcher, auth, play
from tests.dealer.test_R5_seat_plan import _play, _table
from tests.dealer.test_table_state import _step


def test_R33_owed_a_missed_big_and_small_blind_then_posted_dead_and_live() -> None:
    state = _table([0, 1, 2, 3, 4], button=0)
    _play(state)  # 0/1/2
    assert owed_blinds(state) == {}
    _step(state, c.SitOut(3))
    _play(state)  # 1/2/4: the big blind passes seat 3
    assert owed_blinds(state) == {3: Owed(big_blind=True)}  # away: nothing next hand
    _play(state)  # 2/4/0: the small blind passes it too
    assert owed_blinds(state) == {3: Owed(big_blind=True, small_blind=True)}
    _step(state, c.SitIn(3))
    assert owed_blinds(state) == {3: Owed(
        big_blind=True, small_blind=True, posts_big_blind_next_hand=True,
        posts_dead_small_blind_next_hand=True)}  # next hand 4/0/1: seat 3 posts both
    _play(state)
    assert owed_blinds(state) == {}  # paid


def test_R33_owed_waits_between_the_button_and_the_small_blind_or_by_choice() -> None:
    state = _table([0, 1, 2, 3, 4], button=0)
    _play(state)  # 0/1/2
    _step(state, c.SitOut(3))
    _play(state)  # 1/2/4: seat 3 missed the big blind
    _step(state, c.SitIn(3))
    # next hand 2/4/0: seat 3 sits between the button and the small blind (R10)
    assert owed_blinds(state) == {3: Owed(big_blind=True, waits_next_hand=True)}
    _play(state)
    assert owed_blinds(state) == {3: Owed(big_blind=True, posts_big_blind_next_hand=True)}
    _step(state, c.SitOut(3))
    _step(state, c.SitIn(3, wait_for_big_blind=True))  # its choice: wait for the big blind
    assert owed_blinds(state)[3] == Owed(big_blind=True, waits_for_big_blind=True,
                                         waits_next_hand=True)


def test_R10_newcomer_owes_a_big_blind_and_pays_it_as_the_big_blind() -> None:
    state = _table([0, 1, 2], button=0, size=4)
    _play(state)  # 0/1/2
    _step(state, c.SeatPlayer(3, "p3", 10_000, wait_for_big_blind=True))
    assert owed_blinds(state) == {3: Owed(big_blind=True, joined_late=True,
                                          waits_for_big_blind=True, big_blind_next_hand=True)}
    _play(state)  # 1/2/3: the newcomer is the big blind in turn
    assert owed_blinds(state) == {}


def _hand_number(event: pb.TableEvent) -> int:
    return int(event.hand_id.rsplit("-", 1)[1])


def test_R33_grpc_a_player_who_missed_the_big_blind_sees_it_owed_then_posted(
        client: Client) -> None:
    table_id = client.create(seats=4)  # R5 dead, the default
    tokens = client.seat(table_id, [10_000] * 4)
    audit = Watcher(client, table_id, AUDITOR_TOKEN)
    views: dict[str, pb.SeatView] = {}
    away: list[int] = []

    def mine(key: str) -> None:
        view = client.view(table_id, tokens[away[0]])
        views[key] = next(s for s in view.seats if s.seat == away[0])

    def on_turn(event: pb.TableEvent) -> bool:
        number, turn = _hand_number(event), event.turn_started
        if number == 1 and not away:  # the seat after the big blind steps away
            started = next(e.hand_started for e in audit.events if e.HasField("hand_started"))
            away.append((started.big_blind_seat + 1) % 4)
            client.stub.SitOut(pb.SitOutRequest(table_id=table_id, seat=away[0]),
                               metadata=auth(tokens[away[0]]), timeout=10)
        elif number > 1 and str(number) not in views:
            mine(str(number))
            if number == 2:  # back, during hand 2: for hand 3
                client.stub.SitIn(pb.SitInRequest(table_id=table_id, seat=away[0]),
                                  metadata=auth(tokens[away[0]]), timeout=10)
                mine("2 back")
        legal = turn.legal_actions
        if legal.decision == pb.DECISION_SHOW_OR_MUCK:
            kind = pb.ACTION_KIND_SHOW
        else:  # nobody bets: no stack changes hands past the blinds
            kind = pb.ACTION_KIND_CHECK if legal.can_check else pb.ACTION_KIND_FOLD
        client.stub.Act(pb.ActRequest(
            table_id=table_id, seat=turn.seat, hand_id=event.hand_id,
            action_number=turn.action_number, kind=kind),
            metadata=auth(tokens[turn.seat]), timeout=10)
        return False

    try:
        play(client, table_id, tokens, audit, hands=4, on_turn=on_turn)
    finally:
        audit.cancel()
    seat = away[0]
    missed = [e for e in audit.events if e.HasField("blind_missed")]  # a table event
    assert [(e.blind_missed.seat, e.blind_missed.blind) for e in missed] == [
        (seat, pb.BLIND_KIND_BIG)]
    second = next(e for e in audit.events if e.HasField("hand_started")
                  and e.hand_id == f"{table_id}-2")
    assert missed[0].sequence < second.sequence  # as hand 2 starts
    two = views["2"]  # away while the big blind passed it: owed, dealt in on nothing
    assert two.sitting_out and two.HasField("owed_blinds")
    assert two.owed_blinds == pb.OwedBlinds(big_blind=True)
    # back: next hand it sits between the button and the small blind, so it waits (R10)
    assert views["2 back"].owed_blinds == pb.OwedBlinds(big_blind=True, waits_next_hand=True)
    assert views["3"].owed_blinds == pb.OwedBlinds(big_blind=True,
                                                   posts_big_blind_next_hand=True)
    posted = [e.blind_posted for e in audit.events if e.HasField("blind_posted")
              and e.blind_posted.seat == seat and _hand_number(e) == 4]
    assert [p.blind for p in posted] == [pb.BLIND_KIND_LATE]  # live, out of turn
    assert not views["4"].HasField("owed_blinds")  # posted: owes nothing
    # the SDK's SeatView reads it the same way
    from clients.convert import from_proto
    from clients.models import OwedBlinds, SeatView

    assert from_proto(SeatView, views["3"]).owed_blinds == OwedBlinds(
        big_blind=True, posts_big_blind_next_hand=True)
    assert from_proto(SeatView, views["4"]).owed_blinds is None


def test_R33_sdk_tracker_sets_owed_on_blind_missed_and_clears_it_when_dealt_in() -> None:
    from clients.events import BlindMissed, HandPlayer, HandStarted
    from clients.models import BlindKind, Level, OwedBlinds, SeatView, TableView
    from clients.tracker import TableTracker

    seats = (SeatView(0, "a", 1000), SeatView(1, "b", 1000), SeatView(2, "c", 1000))
    tracker = TableTracker(TableView(table_id="t", sequence=0, seats=seats))
    tracker.apply(BlindMissed(sequence=1, seat=2, blind=BlindKind.BIG))
    assert tracker.view().seat(2).owed_blinds == OwedBlinds(big_blind=True)  # type: ignore[union-attr]
    tracker.apply(BlindMissed(sequence=2, seat=2, blind=BlindKind.SMALL))
    assert tracker.view().seat(2).owed_blinds == OwedBlinds(  # type: ignore[union-attr]
        big_blind=True, small_blind=True)
    tracker.apply(HandStarted(
        sequence=3, hand_id="t-3", hand_number=3, button=0, level=Level(5, 10),
        players=tuple(HandPlayer(s, p, 1000, posts_late=s == 2, posts_dead_small_blind=s == 2)
                      for s, p in ((0, "a"), (1, "b"), (2, "c"))),
        commitment="c", small_blind_seat=1, big_blind_seat=0))
    assert tracker.view().seat(2).owed_blinds is None  # type: ignore[union-attr]


def test_R33_sdk_tracker_a_small_blind_gone_by_alone_owes_nothing_until_the_big() -> None:
    """The dealer shows no debt for a small blind that went by alone (its state keeps it
    for later); the tracker did show an all-false OwedBlinds, so a bot match's fold of
    every event differed from GetTable. The big blind after it owes both."""
    from clients.events import BlindMissed
    from clients.models import BlindKind, OwedBlinds, SeatView, TableView
    from clients.tracker import TableTracker

    seats = (SeatView(0, "a", 1000), SeatView(1, "b", 1000), SeatView(2, "c", 1000))
    tracker = TableTracker(TableView(table_id="t", sequence=0, seats=seats))
    tracker.apply(BlindMissed(sequence=1, seat=2, blind=BlindKind.SMALL))
    assert tracker.view().seat(2).owed_blinds is None  # type: ignore[union-attr]
    tracker.apply(BlindMissed(sequence=2, seat=2, blind=BlindKind.BIG))
    assert tracker.view().seat(2).owed_blinds == OwedBlinds(  # type: ignore[union-attr]
        big_blind=True, small_blind=True)
    state = _table([0, 1, 2], 0)  # the dealer's state agrees on a small blind alone
    state.seats[2].missed_small_blind = True
    assert 2 not in owed_blinds(state)
