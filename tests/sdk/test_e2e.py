"""The SDK against real processes (evaluator, dealer, lobby): bot matches that conserve every
chip, refused actions, streams that resume without gaps after a drop, a client restart or a
dealer restart, the fair-deck check on a doctored real hand, the README's bot, asyncio."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import grpc
import pytest

from clients.accounts import LeaveStatus, TransferKind
from clients.aio import AsyncLobbyClient, AsyncTableClient
from clients.bots import CallingStation, EquityBot, RandomBot
from clients.errors import ActionRefused, FairDeckViolation
from clients.events import DeckRevealed, DeckSeeded, Event, HandEnded, HandStarted
from clients.fairdeck import FairDeckChecker
from clients.models import Action, TableView
from clients.sdk import LobbyClient, TableClient
from clients.stack import LocalSuite
from clients.tracker import TableTracker
from tests.sdk.conftest import (
    DEPOSIT,
    Player,
    close_after_restart,
    conserved,
    contiguous,
    funded,
    hands_dealt,
    logged_events,
    open_table,
    play_all,
    restart_dealer_after,
    seated,
    wait_until,
)

ROOT = Path(__file__).resolve().parents[2]


def _conserved(operator: LobbyClient, players: list[Player], table_id: str) -> None:
    conserved(operator, players, [table_id])


def test_a_bot_match_conserves_chips_and_proves_every_deck(
        suite: LocalSuite, operator: LobbyClient) -> None:
    table = open_table(operator, 6)
    players = seated(suite, operator, table, 6, buy_in=1000)
    evaluator = suite.evaluator_addresses[0]
    bots = [RandomBot(seed=1), CallingStation(), EquityBot(evaluator, trials=300, seed=3),
            RandomBot(seed=4, aggression=0.4), CallingStation(),
            EquityBot(evaluator, trials=300, seed=6)]
    play_all(players, bots, table.table_id, until_hand=60)
    _conserved(operator, players, table.table_id)
    for p in players:
        assert p.result is not None and p.table is not None and p.table.fair_deck is not None
        assert p.result.stopped_because in {"played its last hand", "the table reached hand 60"}
        assert not p.result.refused and p.result.hands > 30
        # every hand seen to its end is proven, the hands this seat played among them
        assert p.table.fair_deck.verified >= 59 and not p.table.fair_deck.violations
        assert contiguous(p.events)
    _folding_every_event_gives_the_dealers_view(table.dealer_address, table.table_id)
    assert all(b.errors == 0 for b in bots if isinstance(b, EquityBot))
    assert players[0].table is not None
    on_table = sum(s.stack for s in players[0].table.view().seats)
    _, returned = operator.close_table(table.table_id)
    assert returned == on_table
    assert sum(operator.player(p.player_id).balance for p in players) == DEPOSIT * 6


def _folding_every_event_gives_the_dealers_view(address: str, table_id: str) -> None:
    spectator = TableClient(address, table_id)
    view = spectator.view()
    tracker = TableTracker(TableView(table_id=table_id))
    for event in spectator.events(after=0):
        tracker.apply(event)
        if event.sequence == view.sequence:
            break
    spectator.close()
    assert tracker.view().seats == view.seats
    # Each bot asked the dealer ahead to sit it out once hand 60 has ended (SitOut with
    # after_hand): however fast hand 60 ends, no hand 61 is dealt.
    folded = tracker.view()
    assert (folded.button, folded.hands_played) == (view.button, view.hands_played)
    assert folded.hands_played == 60


def test_refused_actions_raise_with_the_dealers_reason_and_code(
        suite: LocalSuite, operator: LobbyClient) -> None:
    table = open_table(operator, 2, action_time_ms=30_000)
    a, b = seated(suite, operator, table, 2, buy_in=1000)
    assert a.table is not None and b.table is not None
    wait_until(lambda: a.table is not None and a.table.view().hand is not None
               and a.table.view().hand.actor is not None)  # type: ignore[union-attr]
    hand = a.table.view().hand
    assert hand is not None
    actor, other = (a, b) if hand.actor == a.table.seat else (b, a)
    assert actor.table is not None and other.table is not None
    with pytest.raises(ActionRefused) as not_yours:
        other.table.fold()
    assert not_yours.value.code is grpc.StatusCode.FAILED_PRECONDITION
    assert not_yours.value.message, "the dealer says why"
    assert not_yours.value.reason == "NOT_YOUR_TURN"
    assert not_yours.value.number("actor") == hand.actor
    legal = actor.table.view().legal
    assert legal is not None and legal.can_raise
    with pytest.raises(ActionRefused) as too_small:
        actor.table.raise_to(legal.min_to - 1)
    assert too_small.value.code is grpc.StatusCode.FAILED_PRECONDITION
    assert str(legal.min_to) in too_small.value.message, too_small.value.message
    assert too_small.value.reason == "BELOW_MIN_RAISE"  # typed: reason and numbers
    assert too_small.value.number("min_to") == legal.min_to
    with pytest.raises(ActionRefused):
        actor.table.check()  # facing the big blind preflop
    assert actor.table.raise_to(legal.min_to) > 0
    # a bot that answers with an illegal action: play() raises, the dealer's reason attached
    class Illegal:
        def act(self, view: TableView) -> Action:
            return Action.bet(1)

    with pytest.raises(ActionRefused, match="Play: FAILED_PRECONDITION"):
        other.table.play(Illegal(), hands=1)
    operator.close_table(table.table_id, void_hand_in_progress=True)


def test_a_dropped_stream_resumes_mid_hand_without_gaps_or_duplicates(
        suite: LocalSuite, operator: LobbyClient) -> None:
    table = open_table(operator, 3)
    players = seated(suite, operator, table, 3, buy_in=1000)
    dropper = players[0]
    assert dropper.table is not None
    dropped_in: set[str] = set()

    class Dropping(CallingStation):
        def act(self, view: TableView) -> Action:
            hand = view.hand
            assert hand is not None and dropper.table is not None
            # Three drops, in the first hands it acts in from hand 2 on: spread over hands
            # 3, 6, 9 they hung on its surviving to hand 9 (a calling station may bust).
            if (len(dropped_in) < 3 and hand.hand_number >= 2
                    and hand.hand_id not in dropped_in):
                dropped_in.add(hand.hand_id)
                dropper.table.drop_stream()  # before answering: the answer goes on a new stream
            return super().act(view)

    play_all(players, [Dropping(), RandomBot(seed=2), RandomBot(seed=3)], table.table_id,
             until_hand=12)
    result = dropper.result
    assert result is not None and result.reconnects >= 3 and len(dropped_in) >= 3
    assert contiguous(dropper.events) and len(set(dropper.events)) == len(dropper.events)
    checker = dropper.table.fair_deck
    # A hand joined after its HandStarted is checked too: GetTable gives the salts of
    # the cards opened to the client before it came (R3).
    assert checker and checker.verified >= 12 and not checker.violations
    assert not checker.unverified
    assert not result.refused
    _conserved(operator, players, table.table_id)
    # R31: leaving between hands takes the stack back to the balance
    before = dropper.lobby.player().balance
    left = dropper.lobby.leave(table.table_id)
    assert left.status is LeaveStatus.DONE and left.player is not None
    assert left.player.balance == before + left.stack
    assert dropper.lobby.transfers(limit=1)[0].kind is TransferKind.CASH_OUT
    _conserved(operator, players, table.table_id)
    operator.close_table(table.table_id)


def test_a_restarted_client_resumes_from_its_last_sequence(
        suite: LocalSuite, operator: LobbyClient) -> None:
    table = open_table(operator, 3)
    players = seated(suite, operator, table, 3, buy_in=1000)
    first = players[0]
    assert first.table is not None
    stop_others = threading.Event()
    others = threading.Thread(target=play_all, args=(
        players[1:], [CallingStation(), CallingStation()], table.table_id), kwargs={
        "until": lambda view: stop_others.is_set()}, daemon=True)
    others.start()
    before: list[int] = []
    # the first client stops when its decision in hand 2 is awaited, without answering
    stopped = first.table.play(
        CallingStation(), until=lambda v: bool(v.hand and v.hand.hand_number == 2
                                               and v.is_my_turn),
        on_events=lambda evs: before.extend(e.sequence for e in evs))
    assert stopped.stopped_because == "until"
    last = first.table.last_sequence
    first.table.close()
    # a new process would do the same: a new client, the same seat token, resuming after `last`
    again = TableClient(table.dealer_address, table.table_id, first.table.token)
    after: list[Event] = []
    result = again.play(CallingStation(), until_hand=5, after=last, on_events=after.extend)
    stop_others.set()
    others.join(30)
    sequences = before + [e.sequence for e in after]
    assert contiguous(sequences) and sequences[len(before)] == last + 1
    hand2 = [e for e in after if e.hand_id == f"{table.table_id}-2"]
    assert any(isinstance(e, HandEnded) for e in hand2)
    assert not any(e.kind == "turn_timed_out" for e in hand2)  # answered by the new client
    assert result.stopped_because in {"played its last hand", "the table reached hand 5"}
    assert not result.refused
    again.close()
    operator.close_table(table.table_id, void_hand_in_progress=True)


def test_R3_a_doctored_reveal_of_a_real_hand_fails_the_check(
        suite: LocalSuite, operator: LobbyClient) -> None:
    table = open_table(operator, 2)
    players = seated(suite, operator, table, 2, buy_in=1000)
    seen: list[Event] = []
    assert players[0].table is not None
    players[0].table.fair_deck = None  # this test checks by hand
    threading.Thread(target=play_all, args=(players[1:], [CallingStation()], table.table_id),
                     kwargs={"until_hand": 3}, daemon=True).start()
    players[0].table.play(CallingStation(), until_hand=3, on_events=seen.extend)
    hand = [e for e in seen if e.hand_id == f"{table.table_id}-2"]  # seen from its start
    honest = FairDeckChecker()
    for e in hand:
        honest.feed(e)
    assert honest.verified == 1
    reveal = next(e for e in hand if isinstance(e, DeckRevealed))
    hashes = list(reveal.hashes)
    assert len(hashes) == 52 and hashes[-1] and hashes[-2] and not reveal.deck
    hashes[-1], hashes[-2] = hashes[-2], hashes[-1]  # two cards nobody saw
    for doctored in (replace(reveal, hashes=tuple(hashes)),
                     replace(reveal, hashes=(*hashes[:-1], b""))):
        checker = FairDeckChecker()
        with pytest.raises(FairDeckViolation, match=reveal.hand_id):
            for e in hand:
                checker.feed(doctored if e is reveal else e)
    operator.close_table(table.table_id, void_hand_in_progress=True)


def _readme_snippet() -> str:
    text = (ROOT / "README.md").read_text()
    section = text[text.index("## Write a bot"):]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match, "the README shows the bot in a python block"
    return match.group(1)


def test_the_readme_bot_runs_as_written_in_under_20_lines(
        suite: LocalSuite, operator: LobbyClient) -> None:
    code = _readme_snippet()
    assert len([line for line in code.splitlines() if line.strip()]) < 20
    table = open_table(operator, 3)
    others = seated(suite, operator, table, 2, buy_in=1000)
    (author,) = funded(suite, operator, 1)
    done = threading.Event()
    background = threading.Thread(target=play_all, args=(
        others, [CallingStation(), RandomBot(seed=9)], table.table_id),
        kwargs={"until": lambda view: done.is_set()}, daemon=True)
    background.start()
    env = {**os.environ, "POKER_LOBBY": suite.lobby, "POKER_TOKEN": author.token,
           "POKER_TABLE": table.table_id, "PYTHONPATH": str(ROOT)}
    ran = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=90)
    done.set()
    background.join(30)
    assert ran.returncode == 0, ran.stderr[-3000:]
    played = re.fullmatch(r"played (\d+) hands; stack now (\d+)\n", ran.stdout)
    assert played, ran.stdout
    hands, stack = int(played[1]), int(played[2])
    # 20, or 21 when its SitOut crossed the next deal (it then finishes that hand too);
    # fewer only when the bot lost its whole stack (it has no rebuy).
    assert hands in (20, 21) or (stack == 0 and 1 <= hands < 20), ran.stdout
    operator.close_table(table.table_id, void_hand_in_progress=True)


def test_the_asyncio_client_plays_resumes_and_awaits_async_bots(
        suite: LocalSuite, operator: LobbyClient) -> None:
    table = open_table(operator, 3)
    players = funded(suite, operator, 3)

    dropped: set[str] = set()
    holder: list[AsyncTableClient] = []

    class Thoughtful:
        async def act(self, view: TableView) -> Action:
            await asyncio.sleep(0.001)
            assert view.legal is not None and view.hand is not None
            if (view.hand.hand_number >= 3 and len(dropped) < 2
                    and view.hand.hand_id not in dropped):
                dropped.add(view.hand.hand_id)
                holder[0].drop_stream()  # the answer goes out on the next stream
            return Action.check() if view.legal.can_check else (
                Action.call() if view.legal.can_call else Action.muck())

    async def main() -> list[int]:
        lobbies = [AsyncLobbyClient(suite.lobby, p.token) for p in players]
        tables = [await lobby.sit(table.table_id, buy_in=1000) for lobby in lobbies]
        holder.append(tables[0])
        sequences: list[int] = []

        def rebuy(p: Player) -> Callable[[], bool]:
            return lambda: bool(p.lobby.rebuy(table.table_id))

        results = await asyncio.gather(
            tables[0].play(Thoughtful(), until_hand=15, rebuy=rebuy(players[0]),
                           on_events=lambda evs: sequences.extend(e.sequence for e in evs)),
            tables[1].play(RandomBot(seed=1), until_hand=15, rebuy=rebuy(players[1])),
            tables[2].play(CallingStation(), until_hand=15, rebuy=rebuy(players[2])))
        stops = {r.stopped_because for r in results[:3]}
        assert stops <= {"played its last hand", "the table reached hand 15"}, stops
        assert results[0].reconnects == len(dropped) == 2 and contiguous(sequences)
        assert not any(r.refused for r in results)
        assert tables[0].fair_deck is not None and tables[0].fair_deck.verified >= 15
        view = await tables[1].view()
        # The table deals on after the bots stop (nobody left it), so a fresh view and the
        # state the stream left may be a hand apart: the same seats and players, though.
        assert ([(s.seat, s.player_id) for s in view.seats]
                == [(s.seat, s.player_id) for s in tables[1].state.seats])
        spectator_events = []
        async for e in tables[2].events(after=0):
            spectator_events.append(e)
            if isinstance(e, HandStarted) and e.hand_number == 2:
                break
        assert spectator_events[0].sequence == 1
        for client in [*tables, *lobbies]:
            await client.close()
        return sequences

    assert asyncio.run(main())
    _conserved(operator, players, table.table_id)
    operator.close_table(table.table_id)


@pytest.mark.parametrize("stop", ["SIGKILL", "SIGTERM"])
def test_the_client_reconnects_by_itself_when_the_dealer_restarts(
        suite: LocalSuite, operator: LobbyClient, stop: str) -> None:
    """A crash (SIGKILL) or a stop (SIGTERM: the dealer ends its streams at once) mid-hand,
    and the dealer started again on its port: every client resumes with no gap."""
    table = open_table(operator, 3)
    players = seated(suite, operator, table, 3, buy_in=1000)
    # about hand 4 of 12, on player 0's thread: the others find the dealer gone meanwhile
    players[0].watch, restarted = restart_dealer_after(suite, players[0].events, 60, stop)
    play_all(players, [CallingStation(), RandomBot(seed=5), CallingStation()], table.table_id,
             until_hand=12)
    assert restarted, "the dealer was never restarted"
    for p in players:
        assert p.result is not None and p.result.reconnects >= 1
        assert contiguous(p.events) and p.result.stopped_because in {
            "played its last hand", "the table reached hand 12"}
    _conserved(operator, players, table.table_id)
    close_after_restart(operator, table.table_id)


def test_a_time_limit_stops_a_bot_even_at_a_table_that_never_deals(
        suite: LocalSuite, operator: LobbyClient) -> None:
    table = open_table(operator, 2)
    (alone,) = seated(suite, operator, table, 1, buy_in=1000)
    assert alone.table is not None
    began = time.monotonic()
    result = alone.table.play(CallingStation(), seconds=0.5)
    assert result.stopped_because == "time is up" and result.hands == 0
    assert time.monotonic() - began < 15  # 0.5 s and the set-up, on a busy machine

    async def main() -> str:
        client = AsyncTableClient(alone.table.address, table.table_id, alone.table.token)
        outcome = await client.play(CallingStation(), seconds=0.5)
        await client.close()
        return outcome.stopped_because

    assert asyncio.run(main()) == "time is up"
    operator.close_table(table.table_id)


def test_a_bot_whose_last_opponent_busted_stops_instead_of_waiting(
        suite: LocalSuite, operator: LobbyClient) -> None:
    """Heads-up, no rebuys: the busted bot sits out and stops, and the winner, far from its
    `hands=` count, sees that the table will not deal again and stops too."""
    from clients.accounts import TableRules
    from clients.models import Level, TableConfig

    table = operator.open_table(
        TableConfig(seats=2, levels=(Level(100, 200),), pause_between_hands_ms=0,
                    action_time_ms=10_000),
        TableRules(initial_stack=1000, max_rebuys=0))
    players = seated(suite, operator, table, 2, buy_in=1000)
    play_all(players, [RandomBot(seed=5, aggression=0.7), RandomBot(seed=6, aggression=0.7)],
             table.table_id, hands=100_000)
    why = sorted(p.result.stopped_because for p in players if p.result is not None)
    assert why == ["busted", "no one else at the table plays"]
    assert all(p.result is not None and 0 < p.result.hands < 100_000 for p in players)
    _conserved(operator, players, table.table_id)


def test_a_stopping_bot_sits_out_quietly_when_the_lobby_took_its_seat_first(
        suite: LocalSuite, operator: LobbyClient) -> None:
    """A busted bot with no rebuy sits out and stops; the lobby may have unseated it (R30)
    in between, and the dealer then no longer knows its token. The stop's sit-out takes
    that as done (the seat is dealt no more either way); a caller's own `sit_out` still
    hears UNAUTHENTICATED. Before, that race failed a whole `play` (a CI run of 8286704)."""
    from clients.errors import Unauthenticated

    table = open_table(operator, 2)
    [gone] = seated(suite, operator, table, 1, buy_in=1000)  # alone: no hand is dealt
    assert gone.table is not None
    gone.table.sit_out_if_seated()  # seated: a plain sit-out
    me = gone.table.view().me
    assert me is not None and me.sitting_out
    assert gone.lobby.leave(table.table_id).status is LeaveStatus.DONE
    with pytest.raises(Unauthenticated):
        gone.table.sit_out()
    gone.table.sit_out_if_seated()  # the seat is gone: no error


def test_R30_a_busted_player_who_does_not_rebuy_is_taken_off_and_the_other_bot_stops(
        suite: LocalSuite, operator: LobbyClient) -> None:
    """Heads-up, rebuys allowed: one bot busts and says it will rebuy but never does (an
    older client, or a person gone). R30: the lobby takes it off the table once the
    table's rebuy wait runs out, and the winner, far from its `hands=` count, stops."""
    from clients.accounts import TableRules
    from clients.models import Level, TableConfig

    table = operator.open_table(
        TableConfig(seats=2, levels=(Level(100, 200),), pause_between_hands_ms=0,
                    action_time_ms=10_000),
        TableRules(initial_stack=1000, max_rebuys=-1, rebuy_wait_seconds=1.0))
    players = seated(suite, operator, table, 2, buy_in=1000)
    results: dict[int, object] = {}

    def run(i: int) -> None:
        player = players[i]
        assert player.table is not None
        results[i] = player.table.play(RandomBot(seed=5 + i, aggression=0.7), hands=100_000,
                                       rebuy=lambda: True)  # "I will", and it never does

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(90)
    assert len(results) == 2, "a bot still waits for a table that will not deal again"
    why = sorted(r.stopped_because for r in results.values())  # type: ignore[attr-defined]
    assert why == ["no one else at the table plays", "unseated"], why
    seats = operator.table(table.table_id).seats
    assert len(seats) == 1 and seats[0].player_id in {p.player_id for p in players}
    _conserved(operator, players, table.table_id)


def test_R39_a_link_the_dealer_refuses_leaves_the_seed_empty_and_play_goes_on(
        suite: LocalSuite, operator: LobbyClient) -> None:
    """A dealer of the version before takes no skipped link: after a burned seed it
    refuses the SDK's link with INVALID_ARGUMENT. send_seed takes that as an empty seed
    for the hand (the dealer deals once the seed time is out) instead of raising out of
    play(); a random 32 bytes stand in for that link here."""
    from clients import calls
    from clients.errors import InvalidArgument
    from clients.events import DeckCommitted

    table = open_table(operator, 2, player_seeded_decks=True, seed_time_ms=60_000)
    [alone] = seated(suite, operator, table, 1, buy_in=1000)
    first = alone.table
    assert first is not None
    first.commit_seeds()  # before a second player sits: the first deck is committed after
    assert first.seed_chain is not None
    seated(suite, operator, table, 1, buy_in=1000)
    committed = next(e for e in first.events(after=0) if isinstance(e, DeckCommitted))
    wrong = (committed.hand_id, os.urandom(32))
    first.seed_chain.due = lambda seat: wrong  # type: ignore[method-assign]
    with pytest.raises(InvalidArgument, match="not seat"):  # what the dealer says to it
        first._do(calls.reveal_seed(table.table_id, first.seat or 0, *wrong))
    first.send_seed()  # the same refusal: no error, the hand's seed stays empty
    operator.close_table(table.table_id, void_hand_in_progress=True)


def test_R39_sdk_players_seed_every_deck_by_themselves_and_every_check_passes(
        suite: LocalSuite, operator: LobbyClient) -> None:
    table = open_table(operator, 3, player_seeded_decks=True, seed_time_ms=5_000)
    players = seated(suite, operator, table, 3, buy_in=1000)
    play_all(players, [RandomBot(seed=1), CallingStation(), RandomBot(seed=3)],
             table.table_id, until_hand=15)
    for p in players:
        assert p.table is not None and p.table.fair_deck is not None
        assert p.table.seed_chain is not None and p.table.seed_chain.seat is not None
        assert not p.table.fair_deck.violations and p.table.fair_deck.verified >= 12
    spectator = TableClient(table.dealer_address, table.table_id)
    seeded = []
    for event in spectator.events(after=0):
        if isinstance(event, DeckSeeded):
            seeded.append(event)
        if isinstance(event, HandStarted) and event.hand_number >= 15:
            break
    spectator.close()
    assert len(seeded) >= 14
    # Once all three had sat down and committed, every seed came from the SDK in time
    # and was the next link of its chain.
    late = [e for e in seeded if len(e.seeds) == 3][2:]
    assert late and all(s.seed for e in late for s in e.seeds)
    operator.close_table(table.table_id, void_hand_in_progress=True)


def test_a_bot_stopping_after_its_own_hands_is_dealt_exactly_that_many(
        suite: LocalSuite, operator: LobbyClient) -> None:
    """`play(hands=6)` asks the dealer, as its fifth hand starts, to sit it out once the
    table's next hand has ended: the table deals it six hands, never a seventh, however
    fast its sixth ends. The two others stop after the table's hand 12 exactly."""
    table = open_table(operator, 3)
    players = seated(suite, operator, table, 3, buy_in=1000)
    play_all(players, [CallingStation() for _ in players], table.table_id,
             stops=[{"hands": 6}, {"until_hand": 12}, {"until_hand": 12}])
    events = logged_events(table.dealer_address, table.table_id)
    hands_played = max(e.hand_number for e in events if isinstance(e, HandStarted))
    first = players[0]
    assert first.result is not None and first.result.hands == 6
    assert first.result.stopped_because == "played its last hand"
    # the table dealt it its six (and any hand dealt before its bot began), not one more
    assert len(hands_dealt(events, first.player_id)) - 6 in (0, 1) and hands_played == 12
