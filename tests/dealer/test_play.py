"""Tables that run themselves, end to end: redaction, the fair-deck proof, clocks, the button,
levels, late joiners, hand histories."""

from __future__ import annotations

import grpc

from clients.convert import event_from_proto
from clients.fairdeck import FairDeckChecker
from poker.v1 import dealer_pb2 as pb
from services.dealer.engine import SPECTATOR
from tests.dealer.helpers import (
    AUDITOR_TOKEN,
    SVC,
    Client,
    Watcher,
    auth,
    count,
    play,
)

HANDS = 40
#: The driver follows a spectator's stream: no lingering, every event at once.
DEALER_ARGS = ("--stream-linger-ms", "0")


def _cards_by_seat(events: list[pb.TableEvent], kind: str) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for e in events:
        if e.WhichOneof("event") == kind:
            body = getattr(e, kind)
            out.setdefault(e.hand_id, set()).update(f"{body.seat}:{c}" for c in body.cards)
    return out


def test_R27_R28_no_hole_card_reaches_another_viewer_before_it_is_shown(client: Client) -> None:
    table_id = client.create(seats=4, test_mode=True, deck_seed=21)
    tokens = client.seat(table_id, [2000, 1500, 1000, 3000])
    spectator = Watcher(client, table_id)
    seats = {seat: Watcher(client, table_id, token) for seat, token in tokens.items()}
    auditor = Watcher(client, table_id, AUDITOR_TOKEN)
    play(client, table_id, tokens, spectator, HANDS, seed=7)
    last = spectator.events[-1].sequence
    for w in [auditor, *seats.values()]:
        w.wait(lambda ev: bool(ev) and ev[-1].sequence >= last)
    dealt = _cards_by_seat(auditor.events, "hole_cards_dealt")
    for viewer, watcher in [(None, spectator), *seats.items()]:
        shown: set[str] = set()
        for e in watcher.events:
            kind = e.WhichOneof("event")
            assert kind != "deck_set"
            if kind == "cards_shown":
                shown.update(f"{e.cards_shown.seat}:{c}" for c in e.cards_shown.cards)
            elif kind == "hole_cards_dealt":
                if e.hole_cards_dealt.seat == viewer:
                    assert len(e.hole_cards_dealt.cards) == 2
                    assert {f"{viewer}:{c}" for c in e.hole_cards_dealt.cards} <= dealt[e.hand_id]
                else:
                    assert not e.hole_cards_dealt.cards, (viewer, e)
            elif kind == "cards_mucked":
                assert not e.cards_mucked.cards
        assert count(watcher.events, "hand_ended") >= HANDS
    mucked = sum(1 for e in auditor.events if e.HasField("cards_mucked")
                 and e.cards_mucked.cards)
    showdowns = count(auditor.events, "cards_shown")
    assert showdowns > 0, "the policy should reach showdowns"
    assert count(auditor.events, "deck_set") >= HANDS
    for w in [spectator, auditor, *seats.values()]:
        w.cancel()
    assert mucked > 0, "the auditor sees mucked cards (R27), and the policy mucks some"


def test_R3_every_hand_proves_its_deck(client: Client) -> None:
    table_id = client.create(seats=3)
    tokens = client.seat(table_id, [1000, 1000, 1000])
    watcher = Watcher(client, table_id)
    play(client, table_id, tokens, watcher, 10, seed=3)
    commitments = {e.hand_id: e.hand_started.commitment for e in watcher.events
                   if e.HasField("hand_started")}
    reveals = [e for e in watcher.events if e.HasField("deck_revealed")]
    assert len(reveals) >= 10
    for e in reveals:  # a spectator: the hashes of every position not opened to everyone
        r = e.deck_revealed
        assert not r.deck and not r.salt and not r.salts and len(r.hashes) == 52
        assert r.commitment == commitments[e.hand_id]
    assert not any(e.hand_started.test_mode for e in watcher.events if e.HasField("hand_started"))
    checker = FairDeckChecker()
    for e in watcher.events:
        checker.feed(event_from_proto(e))
    assert checker.verified == len(reveals) and not checker.violations
    watcher.cancel()


def test_R2_test_mode_marks_every_hand(client: Client) -> None:
    table_id = client.create(seats=2, test_mode=True, deck_seed=77)
    tokens = client.seat(table_id, [1000, 1000])
    watcher = Watcher(client, table_id)
    play(client, table_id, tokens, watcher, 3)
    started = [e.hand_started for e in watcher.events if e.HasField("hand_started")]
    assert started and all(s.test_mode for s in started)
    watcher.cancel()


def test_R5_button_moves_clockwise_and_R9_levels_rise_by_hands(client: Client) -> None:
    levels = [pb.Level(small_blind=5, big_blind=10), pb.Level(small_blind=10, big_blind=20)]
    # a pause, so that all four are seated before the first hand
    table_id = client.create(seats=4, levels=levels, hands_per_level=2,
                             pause_between_hands_ms=200)
    client.stub.SetButton(pb.SetButtonRequest(table_id=table_id, seat=2), metadata=SVC)
    tokens = client.seat(table_id, [5000, 5000, 5000, 5000])
    watcher = Watcher(client, table_id)
    play(client, table_id, tokens, watcher, 4, seed=5)
    started = [e.hand_started for e in watcher.events if e.HasField("hand_started")]
    assert [s.button for s in started[:4]] == [2, 3, 0, 1]
    assert [s.level.big_blind for s in started[:4]] == [10, 10, 20, 20]
    code = None
    try:
        client.stub.SetButton(pb.SetButtonRequest(table_id=table_id, seat=0), metadata=SVC)
    except grpc.RpcError as err:
        code = err.code()
    assert code == grpc.StatusCode.FAILED_PRECONDITION
    watcher.cancel()


def test_R9_levels_rise_by_minutes(client: Client) -> None:
    levels = [pb.Level(small_blind=5, big_blind=10), pb.Level(small_blind=10, big_blind=20)]
    # 0.005 minutes = 300 ms a level; a 100 ms pause between hands
    table_id = client.create(seats=2, levels=levels, minutes_per_level=0.005,
                             pause_between_hands_ms=100)
    tokens = client.seat(table_id, [5000, 5000])
    watcher = Watcher(client, table_id)
    play(client, table_id, tokens, watcher, 6)
    started = [e.hand_started for e in watcher.events if e.HasField("hand_started")]
    assert started[0].level.big_blind == 10 and started[-1].level.big_blind == 20
    watcher.cancel()


def test_R9_set_level_takes_effect_at_the_next_hand(client: Client) -> None:
    levels = [pb.Level(small_blind=5, big_blind=10), pb.Level(small_blind=25, big_blind=50)]
    table_id = client.create(seats=2, levels=levels)
    tokens = client.seat(table_id, [5000, 5000])
    watcher = Watcher(client, table_id)
    play(client, table_id, tokens, watcher, 1)
    reply = client.stub.SetLevel(pb.SetLevelRequest(table_id=table_id, level_index=1),
                                 metadata=SVC)
    assert reply.level.big_blind == 50
    play(client, table_id, tokens, watcher, 2)
    started = [e.hand_started for e in watcher.events if e.HasField("hand_started")]
    assert started[0].level.big_blind == 10 and started[-1].level.big_blind == 50
    watcher.cancel()


def test_R32_time_out_checks_or_folds_and_sits_the_player_out(client: Client) -> None:
    # long enough that the seats which answer never time out on a busy machine
    table_id = client.create(seats=3, action_time_ms=1000, show_time_ms=1000)
    tokens = client.seat(table_id, [1000, 1000, 1000])
    watcher = Watcher(client, table_id)
    # seat 1 never answers: it times out, is sat out, and the others play on
    play(client, table_id, tokens, watcher, 3,
         on_turn=lambda e: e.turn_started.seat != 1, timeout=30)
    timed_out = [e for e in watcher.events if e.HasField("turn_timed_out")]
    assert timed_out and all(e.turn_timed_out.seat == 1 for e in timed_out)
    after = watcher.events.index(timed_out[0])
    follow = watcher.events[after + 1]
    assert follow.WhichOneof("event") in {"action_taken", "cards_mucked"}
    if follow.HasField("action_taken"):
        assert follow.action_taken.action in {pb.ACTION_KIND_CHECK, pb.ACTION_KIND_FOLD}
    sat_out = [e for e in watcher.events if e.HasField("player_sat_out")]
    assert sat_out[0].player_sat_out.reason == pb.SIT_OUT_REASON_TIMED_OUT
    later = [e.hand_started for e in watcher.events[watcher.events.index(sat_out[0]):]
             if e.HasField("hand_started")]
    assert later and all(1 not in [p.seat for p in s.players] for s in later)
    client.stub.SitIn(pb.SitInRequest(table_id=table_id, seat=1), metadata=auth(tokens[1]))
    assert not client.view(table_id).seats[1].sitting_out
    client.stub.CloseTable(pb.CloseTableRequest(table_id=table_id, void_hand_in_progress=True),
                           metadata=SVC)
    watcher.cancel()


def test_R10_late_joiner_posts_a_live_big_blind(client: Client) -> None:
    table_id = client.create(seats=4, test_mode=True, deck_seed=8)
    tokens = client.seat(table_id, [1000, 1000, 1000])
    watcher = Watcher(client, table_id)
    play(client, table_id, tokens, watcher, 1)
    reply = client.stub.SeatPlayer(pb.SeatPlayerRequest(
        table_id=table_id, seat=3, player_id="late", stack=1000), metadata=SVC)
    tokens[3] = reply.seat_token
    play(client, table_id, tokens, watcher, 3)
    first = next(e for e in watcher.events if e.HasField("hand_started")
                 and 3 in [p.seat for p in e.hand_started.players])
    player = next(p for p in first.hand_started.players if p.seat == 3)
    blinds = [e.blind_posted for e in watcher.events
              if e.hand_id == first.hand_id and e.HasField("blind_posted")]
    if player.posts_late:
        assert any(b.seat == 3 and b.blind == pb.BLIND_KIND_LATE for b in blinds)
    else:
        assert any(b.seat == 3 and b.blind == pb.BLIND_KIND_BIG for b in blinds)
    watcher.cancel()


def test_hand_history_hides_unshown_cards(client: Client) -> None:
    table_id = client.create(seats=3, test_mode=True, deck_seed=13)
    tokens = client.seat(table_id, [1000, 1000, 1000])
    watcher = Watcher(client, table_id)
    play(client, table_id, tokens, watcher, 3)
    hand_id = next(e.hand_id for e in watcher.events if e.HasField("hand_ended"))
    request = pb.GetHandHistoryRequest(table_id=table_id, hand_id=hand_id)
    audit = client.stub.GetHandHistory(request, metadata=auth(AUDITOR_TOKEN)).phh
    spectator = client.stub.GetHandHistory(request).phh
    mine = client.stub.GetHandHistory(request, metadata=auth(tokens[0])).phh
    assert "????" not in audit and "actions" in audit
    shown = any(e.HasField("cards_shown") for e in watcher.events if e.hand_id == hand_id)
    if not shown:
        assert spectator.count("????") == 3 and mine.count("????") == 2
    try:
        client.stub.GetHandHistory(pb.GetHandHistoryRequest(table_id=table_id, hand_id="x-1"))
        raise AssertionError("no error")
    except grpc.RpcError as err:
        assert err.code() == grpc.StatusCode.NOT_FOUND
    watcher.cancel()


def test_R27_a_new_player_never_sees_the_cards_of_the_seat_before_them(client: Client) -> None:
    table_id = client.create(seats=3, test_mode=True, deck_seed=41)
    tokens = client.seat(table_id, [1000, 1000, 1000])
    watcher = Watcher(client, table_id)
    play(client, table_id, tokens, watcher, 3)
    client.stub.SitOut(pb.SitOutRequest(table_id=table_id, seat=0), metadata=auth(tokens[0]))
    play(client, table_id, tokens, watcher, 2)  # seat 0 is out of the hand by now
    client.stub.UnseatPlayer(pb.UnseatPlayerRequest(table_id=table_id, seat=0), metadata=SVC)
    old_token = tokens[0]
    reply = client.stub.SeatPlayer(pb.SeatPlayerRequest(
        table_id=table_id, seat=0, player_id="newcomer", stack=1000), metadata=SVC)
    newcomer = Watcher(client, table_id, reply.seat_token)
    tokens[0] = reply.seat_token
    play(client, table_id, tokens, watcher, 2)
    newcomer.wait(lambda ev: count(ev, "hand_ended") >= 7)
    seated = next(e.sequence for e in newcomer.events if e.HasField("player_seated")
                  and e.player_seated.player_id == "newcomer")
    mine = [e for e in newcomer.events if e.HasField("hole_cards_dealt")
            and e.hole_cards_dealt.seat == 0]
    assert all(not e.hole_cards_dealt.cards for e in mine if e.sequence < seated)
    assert any(e.hole_cards_dealt.cards for e in mine if e.sequence > seated)
    code = None
    try:  # the old player's token left with them
        client.view(table_id, old_token)
    except grpc.RpcError as err:
        code = err.code()
    assert code == grpc.StatusCode.UNAUTHENTICATED
    newcomer.cancel()
    watcher.cancel()


def test_R3_a_spectators_watch_on_a_real_dealer_carries_no_unopened_card(
        client: Client) -> None:
    """The finding on real processes: WatchTable gives a spectator no card, nor the salt
    of one, that was not opened to everyone (folded and mucked hands, burns)."""
    from tests.dealer.test_fair_deck import _assert_nothing_unopened, _truths

    table_id = client.create(seats=4)
    tokens = client.seat(table_id, [1000, 1000, 1000, 1000])
    spectator = Watcher(client, table_id)
    auditor = Watcher(client, table_id, AUDITOR_TOKEN)
    play(client, table_id, tokens, auditor, 30, seed=8)
    last = auditor.events[-1].sequence
    spectator.wait(lambda ev: bool(ev) and ev[-1].sequence >= last)
    truths = _truths(auditor.events)
    finished = {h for h, t in truths.items() if t.deck}
    assert len(finished) >= 30 and sum(len(t.folded) for t in truths.values()) > 0
    checker = FairDeckChecker()
    for e in spectator.events:
        if e.hand_id in finished:
            _assert_nothing_unopened(f"event {e.sequence}", e, truths[e.hand_id], SPECTATOR)
        checker.feed(event_from_proto(e))
    assert checker.verified >= 30 and not checker.violations
    for w in (spectator, auditor):
        w.cancel()
