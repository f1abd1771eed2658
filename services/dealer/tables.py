"""One table that runs itself: the shell around its state machine (services.dealer.table).

The table's rules are pure: `decide(state, command, now)` names a command's events and
`apply` folds them (services.dealer.table). A `Table` keeps what is not rules: the
log (each command's events written to the store in one transaction, with the
metadata that goes with them, then folded), the clocks, the snapshots, the
listeners, and the idempotency journal's calls (the `acts` table, the AddChips keys).

A `Table` lives on the dealer's asyncio event loop and is only touched from it, so
each command runs to the end without a lock. A restarted dealer folds the stored
log with the same `apply` (`Table.restore`). Snapshots bound that replay: the write
that ends a hand, once SNAPSHOT_EVERY_EVENTS events or more were written since the last
snapshot, also stores the table's state after it (`TableState.snapshot`, format
`SNAPSHOT_VERSION`), so a restart loads the latest snapshot and folds only the events
after it: fewer than SNAPSHOT_EVERY_EVENTS and one hand's (a hand in progress is
folded from its start, since a snapshot is only ever taken between hands).

Clocks (R27, R32) are `loop.call_later` handles: one for the awaited decision (which
also rings every second of its time bank, to write what it spent: R35, kept across a
restart), one for the pause before the next hand, one for R39's seed time.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from poker import metrics
from poker.log import get_logger
from poker.vocab import table_events as ev
from services.dealer import checks, codec, deck
from services.dealer.engine import Hand, HandRanker, Level, TableConfig
from services.dealer.errors import FailedPrecondition, InvalidArgument, Stopping, TableMoved
from services.dealer.store import ActRecord, Row, Snapshot, Store
from services.dealer.table import clocks
from services.dealer.table import commands as c
from services.dealer.table.decide import check_seat, decide, needs_button_draw, next_level
from services.dealer.table.state import (
    SNAPSHOT_VERSION,
    SeatState,
    SeedHeld,
    Seeding,
    Stored,
    TableState,
    apply,
    hold_seed,
    kinds,
    plan,
)
from services.evaluator.ranker import DEFAULT_RANKER

__all__ = ["RECENT_EVENTS", "SNAPSHOT_EVERY_EVENTS", "SNAPSHOT_VERSION", "Listener",
           "SeatState", "Seeding", "Stored", "Table", "TableOptions", "now_ms"]

#: Events kept in memory per table for watchers; older ones are read from the store
#: (off the event loop, services.dealer.streams.History).
RECENT_EVENTS = 1024
#: A hand's end stores a snapshot once this many events were written since the last one:
#: a restart (or an adopter) folds fewer than this and one hand's events, about 15 us an
#: event (2-3 ms a table at worst), and the table pays for a snapshot (a scratch fold,
#: its JSON and its row: about 4.5 % of a heads-up hand's cost in the table core) every
#: five heads-up hands or so instead of every hand.
SNAPSHOT_EVERY_EVENTS = 128


@dataclass(frozen=True, slots=True)
class TableOptions:
    """How the dealer runs a table, beyond the engine's rules."""

    pause_ms: int = 2000
    deck_seed: int | None = None  # test mode only (R2)


#: What a table calls after each write: the new events, the seats they call on.
Listener = Callable[[Sequence["Stored"], "frozenset[int] | None"], None]
_CALLING = frozenset({ev.TurnStarted, ev.PlayerUnseated})
_NOBODY: frozenset[int] = frozenset()


def now_ms() -> int:
    return int(time.time() * 1000)


class Table:
    """A table: its configuration, its state (folded from its log) and the shell's parts."""

    def __init__(
        self, table_id: str, config: TableConfig, options: TableOptions, store: Store,
        ranker: HandRanker | None = None,
        on_tokens: Callable[[int, str | None], None] | None = None,
    ) -> None:
        self.table_id = table_id
        self.config = config
        self.options = options
        self.store = store
        self.ranker: HandRanker = ranker if ranker is not None else DEFAULT_RANKER
        self._on_tokens = on_tokens or (lambda seat, hashed: None)
        self.log = get_logger(__name__, table_id=table_id)
        self.state = TableState(table_id, config, self.ranker)
        self.stopping = False  # the dealer is stopping: streams end, clients reconnect
        self.moved_to: str | None = None  # lost its lease (services.dealer.lease): redirect
        self._prefetched = ""  # the hand whose showdown ranks were asked for ahead
        self._recent: deque[Stored] = deque(maxlen=RECENT_EVENTS)
        self._listeners: list[Listener] = []
        self._turn_timer: asyncio.TimerHandle | None = None
        self._start_timer: asyncio.TimerHandle | None = None
        self._seed_timer: asyncio.TimerHandle | None = None
        self._away_timer: asyncio.TimerHandle | None = None  # R34
        self._starting_next = False  # a hand starting from the end of the one before
        self._snapshot_at = 0  # the sequence of the latest snapshot stored (0: none)

    # ------------------------------------------------ the state, as read by the dealer

    @property
    def seats(self) -> dict[int, SeatState]:
        return self.state.seats

    @property
    def seated_at(self) -> dict[int, int]:
        return self.state.seated_at

    @property
    def hand_started_at(self) -> int:
        return self.state.hand_started_at

    @property
    def button(self) -> int | None:
        return self.state.button

    @property
    def hands_played(self) -> int:
        return self.state.hands_played

    @property
    def hand_number(self) -> int:
        return self.state.hand_number

    @property
    def level_base(self) -> tuple[int, int, int]:
        return self.state.level_base

    @property
    def closed(self) -> bool:
        return self.state.closed

    @property
    def last_sequence(self) -> int:
        return self.state.last_sequence

    @property
    def hand(self) -> Hand | None:
        return self.state.hand

    @property
    def turn(self) -> ev.TurnStarted | None:
        return self.state.turn

    @property
    def action_number(self) -> int:
        return self.state.action_number

    @property
    def permutation(self) -> tuple[int, ...]:
        return self.state.permutation

    @property
    def chains(self) -> dict[int, tuple[bytes, int]]:
        return self.state.chains

    @property
    def _seeding(self) -> Seeding | None:
        return self.state.seeding

    @property
    def _hand_events(self) -> list[Stored]:
        return self.state.hand_events

    def salts_of(self, cards: Sequence[int]) -> list[bytes]:
        """R3: the salts that open `cards` of the running hand (none for an old hand)."""
        return self.state.salts_of(cards)

    def in_hand(self, seat: int) -> bool:
        return self.state.in_hand(seat)

    def next_level(self) -> Level:
        """R9: the level of the next hand, counted from the last SetLevel (or the start)."""
        return next_level(self.state, now_ms())

    def check_seat(self, seat: int) -> None:
        """INVALID_ARGUMENT unless `seat` is a seat of this table."""
        check_seat(self.state, seat)

    # ----------------------------------------------------------------- the log

    def _run(self, command: c.Command, hand_id: str = "",
             also: Callable[[], None] | None = None) -> list[Any]:
        """Decides `command` and commits its events; the events (none: nothing happened)."""
        events = decide(self.state, command, now_ms())
        if events:
            self._commit(events, hand_id, also)
        return events

    def _commit(self, events: Sequence[Any], hand_id: str = "",
                also: Callable[[], None] | None = None) -> int:
        """Writes events (and `also`'s metadata) in one transaction, then folds and wakes.

        Events of a hand are filed under `hand_id`; the table's own under "".
        """
        stamp = now_ms()
        sequence = self.state.last_sequence
        stored, rows = [], []
        dumps, table_events = codec.dumps, ev.TABLE_EVENTS
        for event in events:
            sequence += 1
            filed = "" if type(event) in table_events else hand_id
            payload = dumps(event)  # streams reuse it (views._wire_bytes)
            stored.append(Stored(sequence, filed, stamp, event, {"payload": payload}))
            rows.append((sequence, filed, stamp, payload))
        found = set(map(type, events))  # the write's kinds, looked at once (in C)
        snapshot_at = 0
        if not _HAND_ENDS.isdisjoint(found):
            also, snapshot_at = self._at_hand_end(stored, also)
        began = time.perf_counter()
        self.store.write(self.table_id, rows, also)
        if snapshot_at:
            self._snapshot_at = snapshot_at
        metrics.table_committed(self.table_id, events, stamp, time.perf_counter() - began,
                                found)
        state, recent = self.state, self._recent
        made_by = getattr(events, "hand", None)  # decide's hand holds its events (Decided)
        for s in stored:
            apply(state, s, made_by)
        recent.extend(stored)
        self._wake(stored, found)
        return state.last_sequence

    def _at_hand_end(self, stored: Sequence[Stored], also: Callable[[], None] | None
                     ) -> tuple[Callable[[], None], int]:
        """`also`, where the hand's events lie in the log (Store.put_hand) and, once
        SNAPSHOT_EVERY_EVENTS were written since the last snapshot, the snapshot of the
        table once `stored` (which ends a hand) is folded, with its sequence (0: none).
        The state comes from a scratch fold, since this table folds only once the write
        succeeds."""
        last = stored[-1].sequence
        snapshot = None
        if last - self._snapshot_at >= SNAPSHOT_EVERY_EVENTS:
            scratch = TableState.from_snapshot(self.table_id, self.config, self.ranker,
                                               self.state.snapshot())
            for s in stored:
                apply(scratch, s)
            snapshot = Snapshot(last, SNAPSHOT_VERSION,
                                json.dumps(scratch.snapshot(), separators=(",", ":")))
        ended = [s for s in stored if s.hand_id and type(s.event) in _HAND_ENDS]
        span = None
        if ended:
            hand_id = ended[-1].hand_id
            before = self.state.hand_events
            first = (before[0].sequence if before and before[0].hand_id == hand_id
                     else next(s.sequence for s in stored if s.hand_id == hand_id))
            span = (hand_id, first, max(s.sequence for s in stored if s.hand_id == hand_id))

        def write() -> None:
            if also is not None:
                also()
            if snapshot is not None:
                self.store.put_snapshot(self.table_id, snapshot)
            if span is not None:
                self.store.put_hand(self.table_id, *span)

        return write, (last if snapshot is not None else 0)

    def save_snapshot(self) -> None:
        """Stores the table's state now (between hands): a store written before snapshots
        existed gets one on its first start."""
        assert self.hand is None
        snapshot = Snapshot(self.last_sequence, SNAPSHOT_VERSION,
                            json.dumps(self.state.snapshot(), separators=(",", ":")))
        with self.store.batch():
            self.store.put_snapshot(self.table_id, snapshot)
        self._snapshot_at = snapshot.sequence

    def snapshot_state(self) -> dict[str, Any]:
        """The state between hands as JSON-ready values (TableState.snapshot)."""
        return self.state.snapshot()

    def load_snapshot(self, state: dict[str, Any]) -> None:
        """The table as `snapshot_state` left it, before folding the events after it."""
        self.state = TableState.from_snapshot(self.table_id, self.config, self.ranker, state)
        self._recent = deque(maxlen=RECENT_EVENTS)
        self._snapshot_at = self.state.last_sequence

    def subscribe(self, on_commit: Listener) -> None:
        """Calls `on_commit(new events, seats called on)` after every write.

        The seats are those the new events ask for a decision or unseat; all seats
        (None) when the table closes or stops.
        """
        self._listeners.append(on_commit)

    def unsubscribe(self, on_commit: Listener) -> None:
        if on_commit in self._listeners:
            self._listeners.remove(on_commit)

    def _wake(self, new: Sequence[Stored] = (), found: set[type] | None = None) -> None:
        """Tells the listeners of `new` (its kinds: `found`, when the caller has them)."""
        if found is None:
            found = kinds(new)
        called: frozenset[int] | None = _NOBODY if found.isdisjoint(_CALLING) else frozenset(
            s.event.seat for s in new if type(s.event) in _CALLING)
        if not new or ev.TableClosed in found:
            called = None
        for listener in list(self._listeners):
            listener(new, called)

    def recent_after(self, sequence: int, limit: int) -> list[Stored] | None:
        """Up to `limit` events after `sequence` from memory; None when they are older
        than memory holds (streams read those from the store off the loop:
        services.dealer.streams.History)."""
        if sequence >= self.last_sequence:
            return []
        recent = self._recent
        if recent and sequence + 1 >= recent[0].sequence:
            start = sequence + 1 - recent[0].sequence
            return [recent[i] for i in range(start, min(len(recent), start + limit))]
        return None

    # --------------------------------------------------------- lobby's calls

    def seat_player(self, seat: int | None, player_id: str, stack: int,
                    wait_for_big_blind: bool, hashed_token: str,
                    record: Callable[[int], None] | None = None) -> int:
        """Seats a player; `record(seat)` writes in the same transaction as PlayerSeated."""
        [seated] = decide(self.state, c.SeatPlayer(seat, player_id, stack, wait_for_big_blind),
                          now_ms())

        def metadata() -> None:
            self.store.put_seat(self.table_id, seated.seat, player_id, hashed_token)
            if record is not None:
                record(seated.seat)

        self._commit([seated], also=metadata)
        self._on_tokens(seated.seat, hashed_token)
        self.log.info("player_seated", seat=seated.seat, player_id=player_id, chips=stack)
        self._schedule_hand()
        return int(seated.seat)

    def add_chips(self, seat: int, amount: int, key: str,
                  record: Callable[[int], None] | None = None) -> int:
        """A rebuy; `record(stack)` writes in the same transaction as ChipsAdded."""
        if not key:
            raise InvalidArgument("idempotency_key: required, so a retried rebuy adds chips once")
        # A repeated key is answered by the dealer's request journal (dealer.py); the keys
        # folded into `state.chip_keys` are journaled once, from a store of the version
        # before the journal.
        events = decide(self.state, c.AddChips(seat, amount, key), now_ms())
        added = next(e for e in events if isinstance(e, ev.ChipsAdded))
        self._commit(events, also=None if record is None else lambda: record(added.stack))
        self._schedule_hand()
        return self.seats[seat].stack

    def unseat(self, seat: int) -> tuple[str, int]:
        [left] = decide(self.state, c.Unseat(seat), now_ms())
        self._commit([left], also=lambda: self.store.delete_seat(self.table_id, seat))
        self._on_tokens(seat, None)
        self.log.info("player_unseated", seat=seat, player_id=left.player_id, chips=left.stack)
        return left.player_id, left.stack

    def set_button(self, seat: int) -> None:
        self._run(c.SetButton(seat))

    def set_level(self, index: int, record: Callable[[], None] | None = None) -> Level:
        """R9: the next hand plays level `index`; `record()` writes in the same
        transaction as the LevelSet event."""
        self._run(c.SetLevel(index), also=record)
        return self.config.levels[index]

    def set_deal_limit(self, until_hand: int | None) -> None:
        """T5, T7: deal no hand past number `until_hand` (None: no limit); the hand running
        finishes. Raising the limit deals the next hand as it would have been."""
        self._run(c.SetDealLimit(until_hand))
        self._schedule_hand()

    def close(self, void_hand: bool) -> list[tuple[int, str, int]]:
        events = decide(self.state, c.Close(void_hand), now_ms())
        hand_id = "" if self.hand is None else self.hand.hand_id
        stacks = events[-1].stacks
        self._cancel_timers()
        self._commit(events, hand_id, also=lambda: self.store.close_table(self.table_id))
        for seat, _, _ in stacks:
            self._on_tokens(seat, None)
        self.log.info("table_closed", hands_played=self.hands_played)
        return list(stacks)

    # ---------------------------------------------------------- players' calls

    def sit_out(self, seat: int, after_hand: int | None = None) -> int:
        """Sits the seat out from the next hand, or once hand `after_hand` has ended; the
        last hand it is dealt (the one scheduled, or the one begun last)."""
        self._run(c.SitOut(seat, after_hand))
        self._arm_away_timer()
        seated = self.state.seats.get(seat)
        return (seated.sit_out_after if seated is not None else 0) or self.state.hands_played

    def set_straddle(self, seat: int, straddle: bool) -> None:
        self._run(c.SetStraddle(seat, straddle))  # R37

    def sit_in(self, seat: int, wait_for_big_blind: bool = False) -> None:
        if self._run(c.SitIn(seat, wait_for_big_blind)):
            self._schedule_hand()

    def act(self, seat: int, hand_id: str, action_number: int, kind: str, amount: int) -> int:
        """Applies a decision once; an exact retry gets the same sequence back."""
        state = self.state
        hand = state.hand
        awaited = (hand is not None and hand.hand_id == hand_id and state.turn is not None
                   and action_number == state.action_number)
        if not awaited:  # a retry, or stale: the store remembers every answered decision
            checks.decision(hand_id, action_number, amount)
            done = self.store.act(self.table_id, hand_id, action_number)
            if done is not None:
                return self._replayed(done, seat, hand_id, action_number, kind, amount)
        events = decide(state, c.Act(seat, hand_id, action_number, kind, amount), now_ms())
        return self._after_decision(events, (seat, kind, amount))

    def _replayed(self, done: ActRecord, seat: int, hand_id: str, number: int,
                  kind: str, amount: int) -> int:
        if (done.seat, done.kind, done.amount) == (seat, kind, amount):
            return done.sequence
        if done.kind == "timed_out":
            raise FailedPrecondition(
                f"decision {number} of hand {hand_id} timed out; the dealer acted for seat "
                f"{done.seat} (R32)")
        raise FailedPrecondition(
            f"decision {number} of hand {hand_id} was already answered by seat {done.seat} "
            f"({done.kind} {done.amount})")

    # ------------------------------------------------------------- the hands

    def _after_decision(self, events: list[Any], record: tuple[int, str, int] | None) -> int:
        """Writes a decision's events (the turn or the end of the hand included), arms
        the clocks; `record` (seat, kind, amount) goes to the journal in the same write."""
        hand = self.hand
        assert hand is not None
        also = None
        if record is not None:  # its sequence is the write's last event's
            number = self.action_number
            final = ActRecord(*record, self.last_sequence + len(events))

            def also() -> None:
                self.store.put_act(self.table_id, hand.hand_id, number, final)
        sequence = self._commit(events, hand.hand_id, also) if events else self.last_sequence
        self._after_hand_events()
        return sequence

    def _after_hand_events(self) -> None:
        """After a write of the running hand: the next hand once it ended, the ranks
        asked for ahead once the board is complete, the clock of the awaited decision."""
        hand = self.hand
        if hand is None:
            self._hand_over()
        elif len(hand.board) == 5 and self._prefetched != hand.hand_id:
            self._prefetch(hand)
        self._arm_turn_timer()

    def _prefetch(self, hand: Hand) -> None:
        """The board is complete: a remote ranker may rank the hands still in ahead of
        the showdown, off the loop (services.dealer.ranking)."""
        self._prefetched = hand.hand_id
        prefetch = getattr(self.ranker, "prefetch", None)
        if prefetch is not None and len(hand.in_hand) > 1:
            prefetch(hand.board, [hand.hole_cards(seat) for seat in hand.in_hand])

    def _hand_over(self) -> None:
        self.log.debug("hand_ended", hand_id=f"{self.table_id}-{self.hand_number}")
        if self.state.away:
            self._arm_away_timer()  # R34: a seat that timed out in the hand is away
        if self.options.pause_ms == 0 and not self._starting_next:
            # No pause between hands (bots' tables, tests): the next hand starts now, in
            # the same write as this one's end when the decision is part of a group (one
            # commit, one message for both), instead of one turn of the event loop later.
            # A hand that ends as it starts (every player all in on the blinds) schedules
            # the one after it instead: no recursion, and the loop runs in between.
            self._starting_next = True
            try:
                self._start_hand_safely()
            finally:
                self._starting_next = False
            if self.hand is not None:
                return
        self._schedule_hand()

    def _schedule_hand(self) -> None:
        state = self.state
        if (state.closed or state.hand is not None or self._start_timer is not None
                or state.seeding is not None):
            return
        if plan(state) is None:
            return
        loop = asyncio.get_running_loop()
        self._start_timer = loop.call_later(self.options.pause_ms / 1000, self._start_hand_safely)

    def _start_hand_safely(self) -> None:
        self._start_timer = None
        try:
            self._start_hand()
        except TableMoved:  # lost to another dealer (its lease): logged as tables_lost
            pass
        except Exception:  # a bug must not stop the loop that runs every table
            self.log.exception("hand_start_failed")

    def _start_hand(self) -> None:
        state = self.state
        if state.closed or state.hand is not None or state.seeding is not None:
            return
        if state.away:
            self._take_off_sat_out()
        planned = plan(state)
        if planned is None:
            return
        number = state.hands_played + 1
        draw = deck.draw_button(planned.seats) if needs_button_draw(state) else None
        shuffled = deck.shuffle(self.options.deck_seed if self.config.test_mode else None, number)
        hand_id = f"{self.table_id}-{number}"
        events = decide(state, c.StartHand(shuffled, draw), now_ms())
        if not events:
            return
        if type(events[-1]) is ev.DeckCommitted:  # R39: the deal once the seeds are in
            self._commit(events, hand_id)
            loop = asyncio.get_running_loop()
            self._seed_timer = loop.call_later(self.config.seed_time_ms / 1000,
                                               self._deal_seeded_safely)
            return
        self._commit(events, hand_id)
        self._after_hand_events()
        # Per hand: debug. Every hand is in the event store and the streams already; the
        # info log keeps what an operator acts on (tables, seats, time-outs, failures), and
        # two JSON lines a hand cost about 5 % of a busy dealer.
        self.log.debug("hand_started", hand_id=hand_id, players=len(planned.seats),
                       button=state.button)

    # ------------------------------------------------------- R39: player seeds

    def commit_seeds(self, seat: int, chain_head: bytes) -> int:
        """R39: the seat's hash chain head, once per seating."""
        return self._commit(decide(self.state, c.CommitSeeds(seat, chain_head), now_ms()))

    def reveal_seed(self, seat: int, hand_id: str, seed: bytes) -> None:
        """R39: the seat's seed for the hand awaiting its seeds: SHA-256(seed) must be
        the last value of its chain. The deal follows once every chained seat's is in."""
        events = decide(self.state, c.RevealSeed(seat, hand_id, seed), now_ms())
        if not events:
            return
        if type(events[0]) is SeedHeld:
            hold_seed(self.state, events[0])
            return
        self._deal_seeded_events(events)

    def _deal_seeded_safely(self) -> None:
        self._seed_timer = None
        try:
            self._deal_seeded_events(decide(self.state, c.DealSeeded(), now_ms()))
        except Exception:  # a bug must not stop the loop that runs every table
            self.state.seeding = None
            self.log.exception("seeded_deal_failed")

    def _deal_seeded_events(self, events: list[Any]) -> None:
        seeding = self.state.seeding
        if self._seed_timer is not None:
            self._seed_timer.cancel()
            self._seed_timer = None
        if not events or seeding is None:
            return
        self._commit(events, seeding.hand_id)
        self._after_hand_events()
        self.log.debug("hand_started", hand_id=seeding.hand_id, players=len(seeding.plan.seats),
                       button=seeding.plan.button)

    # ------------------------------------------------------------------ clocks

    def _arm_turn_timer(self) -> None:
        """Makes sure the clock rings by the awaited decision's deadline.

        One clock per table, not one per decision: a clock already set to ring earlier
        is kept (each new deadline is later than the last), and when it rings before
        the deadline of the decision then awaited it sets itself again."""
        turn = self.state.turn
        if turn is None or self.state.hand is None:
            return
        loop = asyncio.get_running_loop()
        now = now_ms()
        delay = max(0.0, (clocks.next_ring(turn, now) - now) / 1000)  # R35: bank, marks
        timer = self._turn_timer
        if timer is not None:
            if timer.when() <= loop.time() + delay:
                return
            timer.cancel()
        self._turn_timer = loop.call_later(delay, self._on_clock)

    def _on_clock(self) -> None:
        self._turn_timer = None
        hand, turn = self.hand, self.turn
        if hand is None or turn is None:
            return
        now = now_ms()
        if now < turn.ends_ms:
            if turn.time_bank_ms and now > turn.deadline_ms:
                self._mark_bank(hand.hand_id, turn.action_number)
            self._arm_turn_timer()
        else:
            self._on_deadline(hand.hand_id, turn.action_number)

    def _on_deadline(self, hand_id: str, number: int) -> None:
        try:
            turn = self.turn
            events = decide(self.state, c.ClockRang(hand_id, number), now_ms())
            if not events or turn is None:
                return
            self.log.info("turn_timed_out", hand_id=hand_id, seat=turn.seat, action_number=number)
            self._after_decision(events, (turn.seat, "timed_out", 0))
        except TableMoved:  # lost to another dealer (its lease): logged as tables_lost
            pass
        except Exception:
            self.log.exception("time_out_failed", hand_id=hand_id)

    def _mark_bank(self, hand_id: str, number: int) -> None:
        """R35: writes what the awaited decision spent of its bank so far (kept across a
        restart: services.dealer.table.clocks)."""
        try:
            self._run(c.MarkBank(hand_id, number), hand_id)
        except TableMoved:  # lost to another dealer (its lease): logged as tables_lost
            pass
        except Exception:  # a bug must not stop the loop that runs every table
            self.log.exception("bank_mark_failed", hand_id=hand_id)

    def _take_off_sat_out(self) -> None:
        """R34: seats sat out past the table's limit leave (the lobby follows the
        PlayerUnseated events and credits their stacks, R31)."""
        events = decide(self.state, c.TakeOffSatOut(), now_ms())
        if not events:
            return
        store, table_id = self.store, self.table_id

        def delete_seats() -> None:
            for e in events:
                store.delete_seat(table_id, e.seat)
        self._commit(events, also=delete_seats)
        for e in events:
            self._on_tokens(e.seat, None)
            self.log.info("player_unseated", seat=e.seat, player_id=e.player_id,
                          chips=e.stack, reason=e.reason)

    def _arm_away_timer(self) -> None:
        """R34: a clock for the first seat to reach the sit-out time limit (an orbit
        limit is met at a hand's start, where the limit is checked too)."""
        due = clocks.next_expiry(self.state)
        timer = self._away_timer
        if timer is not None:
            timer.cancel()
            self._away_timer = None
        if due is None:
            return
        loop = asyncio.get_running_loop()
        self._away_timer = loop.call_later(max(0.0, (due - now_ms()) / 1000) + 0.001,
                                           self._on_away_clock)

    def _on_away_clock(self) -> None:
        self._away_timer = None
        try:
            if self.state.hand is None and self.state.seeding is None:
                self._take_off_sat_out()
            self._arm_away_timer()
        except Exception:  # a bug must not stop the loop that runs every table
            self.log.exception("sit_out_limit_failed")

    def _cancel_timers(self) -> None:
        for timer in (self._turn_timer, self._start_timer, self._seed_timer, self._away_timer):
            if timer is not None:
                timer.cancel()
        self._turn_timer = self._start_timer = self._seed_timer = self._away_timer = None

    def shutdown(self) -> None:
        """Stops the clocks and ends the streams (the dealer is stopping); the log stays
        as it is."""
        self._cancel_timers()
        self.state.seeding = None
        self.stopping = True
        self._wake()

    def lose(self, address: str) -> None:
        """Another dealer owns the table now (services.dealer.lease): the clocks stop, the
        streams end with TABLE_MOVED, nothing more is written."""
        self.moved_to = address
        self.shutdown()

    def check_running(self) -> None:
        """Raises Stopping, naming the table, once the dealer is stopping (TableMoved
        once the table is lost to another dealer)."""
        if self.moved_to is not None:
            raise TableMoved(self.table_id, self.moved_to)
        if self.stopping:
            raise Stopping(f"the dealer is stopping (a restart or an upgrade): table "
                           f"{self.table_id}'s stream ends here; reconnect and resume after "
                           f"your last sequence number")

    # ---------------------------------------------------------------- restore

    def restore(self, rows: Sequence[Row], on_crash: str,
                snapshot: dict[str, Any] | None = None) -> None:
        """Folds a stored log (the events after `snapshot`, the state it was taken in,
        when given); resumes (or voids) the hand it stopped in."""
        self.fold(rows, snapshot)
        state = self.state
        clocks.adopt_sat_out(state, now_ms())  # R34: a snapshot from before the limit
        self._arm_away_timer()
        hand_events = [s.event for s in state.hand_events]
        finished = any(type(e) in _HAND_ENDS for e in hand_events)
        hand = state.hand
        if not hand_events or finished or state.closed or hand is None:
            if hand_events and not finished and not state.closed:
                # R39: it awaited seeds; commit to a fresh deck, ask again
                self.log.info("seeding_restarted", hand_id=state.hand_events[0].hand_id)
            state.hand = None
            state.seeding = None
            self._schedule_hand()
            return
        self.log.info("hand_recovered", hand_id=hand.hand_id, on_crash=on_crash,
                      events=len(hand.events))
        if on_crash == "void":
            self._run(c.VoidHand("the dealer restarted (--on-crash void)"), hand.hand_id)
            self._schedule_hand()
            return
        self._after_decision(decide(state, c.Resume(), now_ms()), None)

    def fold(self, rows: Sequence[Row], snapshot: dict[str, Any] | None = None) -> None:
        """The state of the table after `rows` (after `snapshot`'s state, when given),
        without resuming anything: restore's first half."""
        if snapshot is not None:
            self.load_snapshot(snapshot)
        loads, state = codec.loads, self.state
        for row in rows:
            apply(state, Stored(row.sequence, row.hand_id, row.time_ms, loads(row.payload)))
        self._recent.clear()


#: The events that end a hand: the write holding one also holds where the hand lies in
#: the log and, now and then, the table's snapshot (SNAPSHOT_EVERY_EVENTS).
_HAND_ENDS: frozenset[type] = frozenset({ev.DeckRevealed, ev.HandVoided})
