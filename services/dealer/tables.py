"""One table that runs itself: seats, button, levels, hands, clocks, and its event log.

A `Table` lives on the dealer's asyncio event loop and is only touched from it, so
each command (seat a player, act, a clock running out) runs to the end without a
lock: it asks the engine for events, adds the dealer's own, writes them all to the
store in one transaction, folds them into the table's state, and wakes the
watchers. The table's state is a fold over its events (`_apply`), the same fold a
restarted dealer runs over the stored log (`Table.restore`).

Snapshots bound that replay: the write that ends a hand also stores the table's
state after it (`snapshot_state`, format `SNAPSHOT_VERSION`), so a restart loads the
latest snapshot and folds only the events after it (a hand in progress is folded
from its start, since a snapshot is only ever taken between hands).

Clocks (R27, R32) are `loop.call_later` handles: one for the awaited decision,
one for the pause before the next hand.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from poker import deckproof
from poker.limits import MAX_CHIPS, quote
from poker.log import get_logger
from poker.vocab import table_events as ev
from services.dealer import checks, codec, deck, seating
from services.dealer.engine import (
    Action,
    ActionKind,
    BoardDealt,
    CardsShown,
    Decision,
    Hand,
    HandEnded,
    HandRanker,
    HandStarted,
    HoleCardsDealt,
    Level,
    PlayerIn,
    TableConfig,
)
from services.dealer.errors import (
    AlreadyExists,
    FailedPrecondition,
    InvalidArgument,
    RequestReused,
    Stopping,
    TableNotFound,
)
from services.dealer.store import ActRecord, Row, Snapshot, Store
from services.evaluator.ranker import DEFAULT_RANKER

#: The engine's events that open cards (R3): each carries their salts.
_OPENING = frozenset({HoleCardsDealt, BoardDealt, CardsShown})

#: Events kept in memory per table for watchers; older ones are read from the store
#: (off the event loop, services.dealer.streams.History).
RECENT_EVENTS = 1024
#: The format of `Table.snapshot_state`; a snapshot of another version is not used
#: (the table is folded from its whole log, and snapshotted anew).
SNAPSHOT_VERSION = 1


@dataclass(frozen=True, slots=True)
class TableOptions:
    """How the dealer runs a table, beyond the engine's rules."""

    pause_ms: int = 2000
    deck_seed: int | None = None  # test mode only (R2)


@dataclass(slots=True)
class SeatState:
    """A seated player between hands."""

    seat: int
    player_id: str
    stack: int
    sitting_out: bool = False
    wait_for_big_blind: bool = False
    joined_late: bool = False


@dataclass(slots=True)
class Seeding:
    """R39: a hand whose commitment is out and whose seeds are awaited."""

    plan: seating.Plan
    hand_id: str
    shuffled: deck.ShuffledDeck
    committed_at: int  # the sequence of its DeckCommitted
    seeds: dict[int, bytes] = field(default_factory=dict)


@dataclass(slots=True)
class Stored:
    """An event with its place in the table's log; `views` caches its serialized message
    per audience (services.dealer.views)."""

    sequence: int
    hand_id: str
    time_ms: int
    event: Any
    views: dict[Any, Any] = field(default_factory=dict)


#: What a table calls after each write: the new events, the seats they call on.
Listener = Callable[[Sequence["Stored"], "frozenset[int] | None"], None]
_CALLING = (ev.TurnStarted, ev.PlayerUnseated)


def now_ms() -> int:
    return int(time.time() * 1000)


class Table:
    """A table: its configuration, its seats, its running hand and its event log."""

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
        self.seats: dict[int, SeatState] = {}
        self.seated_at: dict[int, int] = {}  # seat -> sequence its player sat down at
        self.hand_started_at = 0  # sequence of the current hand's HandStarted
        self.button: int | None = None
        self.hands_played = 0
        self.level_base = (0, 0, 0)  # (level index, hands_played, time_ms) the schedule counts from
        self.closed = False
        self.stopping = False  # the dealer is stopping: streams end, clients reconnect
        self.last_sequence = 0
        self.hand: Hand | None = None
        self.hand_number = 0
        self.turn: ev.TurnStarted | None = None
        self.action_number = 0
        self._proof = ev.HandSalt()  # the running hand's salts (R3)
        self._salt_of: dict[int, bytes] = {}  # card -> its salt, to open it (R3)
        self.permutation: tuple[int, ...] = ()  # R39: the running hand's
        self._deck: tuple[int, ...] = ()
        self._hand_events: list[Any] = []  # the current hand's stored events, for recovery
        self._prefetched = ""  # the hand whose showdown ranks were asked for ahead
        self._chip_keys: dict[str, tuple[int, int, int]] = {}
        self._recent: deque[Stored] = deque(maxlen=RECENT_EVENTS)
        self._listeners: list[Listener] = []
        self._turn_timer: asyncio.TimerHandle | None = None
        self._start_timer: asyncio.TimerHandle | None = None
        self._seed_timer: asyncio.TimerHandle | None = None
        self._seeding: Seeding | None = None  # R39: seeds awaited before the deal
        self.chains: dict[int, tuple[bytes, int]] = {}  # R39: seat -> (last value, since)
        self._starting_next = False  # a hand starting from the end of the one before

    # ----------------------------------------------------------------- the log

    def _commit(self, events: Sequence[Any], hand_id: str = "",
                also: Callable[[], None] | None = None) -> int:
        """Writes events (and `also`'s metadata) in one transaction, then folds and wakes.

        Events of a hand are filed under `hand_id`; the table's own under "".
        """
        stamp = now_ms()
        sequence = self.last_sequence
        stored, rows = [], []
        dumps, table_events = codec.dumps, ev.TABLE_EVENTS
        for event in events:
            sequence += 1
            filed = "" if type(event) in table_events else hand_id
            stored.append(Stored(sequence, filed, stamp, event))
            rows.append((sequence, filed, stamp, dumps(event)))
        if any(type(e) in _HAND_ENDS for e in events):
            also = self._with_snapshot(stored, also)
        self.store.write(self.table_id, rows, also)
        for s in stored:
            self._apply(s)
        self._wake(stored)
        return self.last_sequence

    def _with_snapshot(self, stored: Sequence[Stored],
                       also: Callable[[], None] | None) -> Callable[[], None]:
        """`also`, and the snapshot of the table once `stored` (which ends a hand) is
        folded: the state comes from a scratch fold, since this table folds only once
        the write succeeds."""
        scratch = Table.__new__(Table)
        scratch.load_snapshot(self.snapshot_state())
        for s in stored:
            scratch._apply(s)
        snapshot = Snapshot(stored[-1].sequence, SNAPSHOT_VERSION,
                            json.dumps(scratch.snapshot_state(), separators=(",", ":")))

        def write() -> None:
            if also is not None:
                also()
            self.store.put_snapshot(self.table_id, snapshot)

        return write

    def save_snapshot(self) -> None:
        """Stores the table's state now (between hands): a store written before snapshots
        existed gets one on its first start."""
        assert self.hand is None
        snapshot = Snapshot(self.last_sequence, SNAPSHOT_VERSION,
                            json.dumps(self.snapshot_state(), separators=(",", ":")))
        with self.store.batch():
            self.store.put_snapshot(self.table_id, snapshot)

    def snapshot_state(self) -> dict[str, Any]:
        """What the fold of the log so far leaves, between hands, as JSON-ready values:
        everything `restore` and the calls need (seats, stacks, button, level, sit-outs,
        the hand counter, the AddChips keys answered), nothing of a running hand."""
        return {
            "last_sequence": self.last_sequence,
            "seats": [[s.seat, s.player_id, s.stack, s.sitting_out, s.wait_for_big_blind,
                       s.joined_late] for s in self.seats.values()],
            "seated_at": sorted(self.seated_at.items()),
            "hand_started_at": self.hand_started_at,
            "button": self.button,
            "hands_played": self.hands_played,
            "hand_number": self.hand_number,
            "action_number": self.action_number,
            "level_base": list(self.level_base),
            "closed": self.closed,
            "chip_keys": [[key, *done] for key, done in self._chip_keys.items()],
            "chains": [[seat, value.hex(), since] for seat, (value, since)
                       in sorted(self.chains.items())],  # R39
        }

    def load_snapshot(self, state: dict[str, Any]) -> None:
        """The table as `snapshot_state` left it, before folding the events after it."""
        self.last_sequence = int(state["last_sequence"])
        self.seats = {int(seat): SeatState(int(seat), player, int(stack), bool(out), bool(wait),
                                           bool(late))
                      for seat, player, stack, out, wait, late in state["seats"]}
        self.seated_at = {int(seat): int(at) for seat, at in state["seated_at"]}
        self.hand_started_at = int(state["hand_started_at"])
        self.button = None if state["button"] is None else int(state["button"])
        self.hands_played = int(state["hands_played"])
        self.hand_number = int(state["hand_number"])
        self.action_number = int(state["action_number"])
        index, hands_at, time_at = state["level_base"]
        self.level_base = (int(index), int(hands_at), int(time_at))
        self.closed = bool(state["closed"])
        self._chip_keys = {key: (int(seat), int(amount), int(stack))
                           for key, seat, amount, stack in state["chip_keys"]}
        self.chains = {int(seat): (bytes.fromhex(value), int(since))
                       for seat, value, since in state.get("chains", ())}
        self.turn = None
        self._hand_events = []
        self._recent = deque(maxlen=RECENT_EVENTS)

    def subscribe(self, on_commit: Listener) -> None:
        """Calls `on_commit(new events, seats called on)` after every write.

        The seats are those the new events ask for a decision or unseat; all seats
        (None) when the table closes or stops.
        """
        self._listeners.append(on_commit)

    def unsubscribe(self, on_commit: Listener) -> None:
        if on_commit in self._listeners:
            self._listeners.remove(on_commit)

    def _wake(self, new: Sequence[Stored] = ()) -> None:
        called: frozenset[int] | None = frozenset(
            s.event.seat for s in new if type(s.event) in _CALLING)
        if not new or any(type(s.event) is ev.TableClosed for s in new):
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

    # ------------------------------------------------------------------- fold

    def _apply(self, s: Stored) -> None:
        """Folds one event into the table's state (live and on restore alike)."""
        self.last_sequence = s.sequence
        self._recent.append(s)
        event = s.event
        if s.hand_id:
            if not self._hand_events or self._hand_events[0].hand_id != s.hand_id:
                self._hand_events = []
            self._hand_events.append(s)
        handler = _FOLD.get(type(event))
        if handler is not None:
            handler(self, event, s)

    def _on_seated(self, e: ev.PlayerSeated, s: Stored) -> None:
        self.seats[e.seat] = SeatState(e.seat, e.player_id, e.stack,
                                       wait_for_big_blind=e.wait_for_big_blind,
                                       joined_late=self.hands_played > 0)
        self.seated_at[e.seat] = s.sequence

    def _on_unseated(self, e: ev.PlayerUnseated, s: Stored) -> None:
        self.seats.pop(e.seat, None)
        self.chains.pop(e.seat, None)

    def _on_seeds_committed(self, e: ev.SeedsCommitted, s: Stored) -> None:
        self.chains[e.seat] = (e.chain_head, s.sequence)

    def _on_deck_seeded(self, e: ev.DeckSeeded, s: Stored) -> None:
        self.permutation = e.permutation
        for seat, seed in e.seeds:
            if seed and seat in self.chains:
                self.chains[seat] = (seed, self.chains[seat][1])

    def _on_chips(self, e: ev.ChipsAdded, s: Stored) -> None:
        self.seats[e.seat].stack = e.stack
        self._chip_keys[e.idempotency_key] = (e.seat, e.amount, e.stack)

    def _on_sat_out(self, e: ev.PlayerSatOut, s: Stored) -> None:
        if e.seat in self.seats:
            self.seats[e.seat].sitting_out = True

    def _on_sat_in(self, e: ev.PlayerSatIn, s: Stored) -> None:
        if e.seat in self.seats:
            self.seats[e.seat].sitting_out = False

    def _on_button(self, e: ev.ButtonSet, s: Stored) -> None:
        self.button = e.seat

    def _on_level(self, e: ev.LevelSet, s: Stored) -> None:
        self.level_base = (e.level_index, self.hands_played, s.time_ms)

    def _on_salt(self, e: ev.HandSalt, s: Stored) -> None:
        self._set_proof(e)

    def _set_proof(self, proof: ev.HandSalt) -> None:
        self._proof = proof
        self._salt_of = dict(zip(proof.deck, proof.salts, strict=True)) if proof.salts else {}
        self.permutation = ()  # R39: set by the hand's DeckSeeded

    def salts_of(self, cards: Sequence[int]) -> list[bytes]:
        """R3: the salts that open `cards` of the running hand (none for an old hand)."""
        salt_of = self._salt_of
        return [salt_of[c] for c in cards] if salt_of else []

    def _on_hand_started(self, e: HandStarted, s: Stored) -> None:
        self.hands_played += 1
        self.hand_number = self.hands_played
        self.hand_started_at = s.sequence
        self.button = e.button
        self.action_number = 0
        self.turn = None
        if self.hands_played == 1 and self.level_base[2] == 0:
            self.level_base = (self.level_base[0], 0, s.time_ms)
        for player in e.players:
            seat = self.seats.get(player.seat)
            if seat is not None:
                seat.joined_late = seat.wait_for_big_blind = False

    def _on_turn(self, e: ev.TurnStarted, s: Stored) -> None:
        self.turn = e
        self.action_number = e.action_number

    def _on_hand_ended(self, e: HandEnded, s: Stored) -> None:
        self._set_stacks(e.stacks)
        self.turn = None

    def _on_voided(self, e: ev.HandVoided, s: Stored) -> None:
        self._set_stacks(e.stacks)
        self.turn = None
        self.hand = None

    def _on_revealed(self, e: ev.DeckRevealed, s: Stored) -> None:
        self.hand = None

    def _on_closed(self, e: ev.TableClosed, s: Stored) -> None:
        self.closed = True
        self.seats.clear()

    def _set_stacks(self, stacks: Any) -> None:
        pairs = stacks.items() if isinstance(stacks, dict) else stacks
        for seat, stack in pairs:
            if seat in self.seats:
                self.seats[seat].stack = stack

    # --------------------------------------------------------- lobby's calls

    def seat_player(self, seat: int | None, player_id: str, stack: int,
                    wait_for_big_blind: bool, hashed_token: str,
                    record: Callable[[int], None] | None = None) -> int:
        """Seats a player; `record(seat)` writes in the same transaction as PlayerSeated."""
        self._check_open()
        if stack <= 0:
            raise InvalidArgument("stack: must be more than 0 chips (R30)")
        checks.chips("stack", stack)
        if not player_id:
            raise InvalidArgument("player_id: required")
        checks.text_id("player_id", player_id)
        if any(s.player_id == player_id for s in self.seats.values()):
            raise AlreadyExists(f"player {quote(player_id)} is already seated at {self.table_id}")
        seat = self._free_seat() if seat is None else seat
        if not 0 <= seat < self.config.seats:
            raise InvalidArgument(self._no_such_seat(seat))
        if seat in self.seats:
            raise AlreadyExists(f"seat {seat} is taken by {quote(self.seats[seat].player_id)}")
        self._check_table_chips("seating", stack)

        def metadata() -> None:
            self.store.put_seat(self.table_id, seat, player_id, hashed_token)
            if record is not None:
                record(seat)

        self._commit([ev.PlayerSeated(seat, player_id, stack, wait_for_big_blind)], also=metadata)
        self._on_tokens(seat, hashed_token)
        self.log.info("player_seated", seat=seat, player_id=player_id, chips=stack)
        self._schedule_hand()
        return seat

    def add_chips(self, seat: int, amount: int, key: str) -> int:
        if not key:
            raise InvalidArgument("idempotency_key: required, so a retried rebuy adds chips once")
        if key in self._chip_keys:
            done_seat, done_amount, stack = self._chip_keys[key]
            if (done_seat, done_amount) != (seat, amount):
                raise RequestReused(
                    f"idempotency_key {quote(key)} was used for {done_amount} chips to seat "
                    f"{done_seat}; use a new key for a new rebuy")
            return stack
        self._check_open()
        if amount <= 0:
            raise InvalidArgument("amount: must be more than 0 chips")
        checks.chips("amount", amount)
        state = self._seated(seat)
        self._check_between_hands(seat, "add chips")
        if state.stack + amount > MAX_CHIPS:
            raise FailedPrecondition(
                f"amount: {amount} chips would take seat {seat}'s stack of {state.stack} past "
                f"the maximum of {MAX_CHIPS} chips; at most {MAX_CHIPS - state.stack} can be "
                "added")
        self._check_table_chips("adding", amount)
        self._commit([ev.ChipsAdded(seat, amount, state.stack + amount, key)])
        self._schedule_hand()
        return self.seats[seat].stack

    def unseat(self, seat: int) -> tuple[str, int]:
        self._check_open()
        state = self._seated(seat)
        self._check_between_hands(seat, "leave")
        self._commit([ev.PlayerUnseated(seat, state.player_id, state.stack)],
                     also=lambda: self.store.delete_seat(self.table_id, seat))
        self._on_tokens(seat, None)
        self.log.info("player_unseated", seat=seat, player_id=state.player_id, chips=state.stack)
        return state.player_id, state.stack

    def set_button(self, seat: int) -> None:
        self._check_open()
        if self.hands_played:
            raise FailedPrecondition(
                f"the button is set for the first hand only; {self.hands_played} hands were "
                "played and it moves by itself (R5)")
        if not 0 <= seat < self.config.seats:
            raise InvalidArgument(self._no_such_seat(seat))
        self._commit([ev.ButtonSet(seat)])

    def set_level(self, index: int, record: Callable[[], None] | None = None) -> Level:
        """R9: the next hand plays level `index`; `record()` writes in the same
        transaction as the LevelSet event."""
        self._check_open()
        if not 0 <= index < len(self.config.levels):
            raise InvalidArgument(
                f"level_index: {index} is not a level of this table "
                f"(0..{len(self.config.levels) - 1})")
        self._commit([ev.LevelSet(index)], also=record)
        return self.config.levels[index]

    def close(self, void_hand: bool) -> list[tuple[int, str, int]]:
        self._check_open()
        events: list[Any] = []
        chips = {s.seat: s.stack for s in self.seats.values()}
        hand_id = ""
        if self.hand is not None:
            hand_id = self.hand.hand_id
            if not void_hand:
                raise FailedPrecondition(
                    f"hand {hand_id} is in progress: wait for it to end, or close "
                    "with void_hand_in_progress to return every chip committed to it")
            voided = self._void_event("table closed")
            chips.update(voided.stacks)
            events.append(voided)
        stacks = tuple((seat, self.seats[seat].player_id, chips[seat]) for seat in sorted(chips))
        self._cancel_timers()
        self._commit([*events, ev.TableClosed(stacks)], hand_id,
                     also=lambda: self.store.close_table(self.table_id))
        for seat, _, _ in stacks:
            self._on_tokens(seat, None)
        self.log.info("table_closed", hands_played=self.hands_played)
        return list(stacks)

    # ---------------------------------------------------------- players' calls

    def sit_out(self, seat: int) -> None:
        self._check_open()
        if not self._seated(seat).sitting_out:
            self._commit([ev.PlayerSatOut(seat, "requested")])

    def sit_in(self, seat: int) -> None:
        self._check_open()
        if self._seated(seat).sitting_out:
            self._commit([ev.PlayerSatIn(seat)])
            self._schedule_hand()

    def act(self, seat: int, hand_id: str, action_number: int, kind: str, amount: int) -> int:
        """Applies a decision once; an exact retry gets the same sequence back."""
        checks.decision(hand_id, action_number, amount)
        hand = self.hand
        awaited = (hand is not None and hand.hand_id == hand_id and self.turn is not None
                   and action_number == self.action_number)
        if not awaited:  # a retry, or stale: the store remembers every answered decision
            done = self.store.act(self.table_id, hand_id, action_number)
            if done is not None:
                return self._replayed(done, seat, hand_id, action_number, kind, amount)
        if hand is None or hand.hand_id != hand_id:
            current = f"hand {hand.hand_id} is in progress" if hand else "no hand is in progress"
            raise FailedPrecondition(f"hand {quote(hand_id)} is not the current hand: {current}")
        if self.turn is None or action_number != self.action_number:
            raise FailedPrecondition(
                f"action number {action_number} is not the awaited decision: "
                + (f"decision {self.action_number} awaits seat {self.turn.seat}"
                   if self.turn else "no decision is awaited"))
        action = _engine_action(kind, amount)
        events = hand.act(seat, action)  # IllegalAction / NotYourTurn leave the hand as it was
        record = ActRecord(seat, kind, amount, 0)
        return self._after_decision(list(events), record)

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

    def _schedule_hand(self) -> None:
        if (self.closed or self.hand is not None or self._start_timer is not None
                or self._seeding is not None):
            return
        if self._plan() is None:
            return
        loop = asyncio.get_running_loop()
        self._start_timer = loop.call_later(self.options.pause_ms / 1000, self._start_hand_safely)

    def _start_hand_safely(self) -> None:
        self._start_timer = None
        try:
            self._start_hand()
        except Exception:  # a bug must not stop the loop that runs every table
            self.log.exception("hand_start_failed")

    def _plan(self, button: int | None = None) -> seating.Plan | None:
        candidates = [
            seating.Candidate(s.seat, s.wait_for_big_blind, s.joined_late)
            for s in self.seats.values() if s.stack > 0 and not s.sitting_out
        ]
        if len(candidates) < 2:
            return None
        first = self.hands_played == 0
        previous = button if button is not None else self.button
        if previous is None:
            previous = min(c.seat for c in candidates)
        return seating.plan_hand(candidates, previous, first)

    def _start_hand(self) -> None:
        if self.closed or self.hand is not None or self._seeding is not None:
            return
        plan = self._plan()
        if plan is None:
            return
        prelude: list[Any] = []
        if self.hands_played == 0 and self.button is None:  # R4: the dealer draws
            seat, cards = deck.draw_button(plan.seats)
            prelude.append(ev.ButtonSet(seat, tuple(sorted(cards.items()))))
            plan = self._plan(button=seat)
            assert plan is not None
        number = self.hands_played + 1
        hand_id = f"{self.table_id}-{number}"
        shuffled = deck.shuffle(self.options.deck_seed if self.config.test_mode else None, number)
        proof = ev.HandSalt(salts=shuffled.salts, deck=shuffled.cards)
        self._set_proof(proof)
        if self.config.player_seeded_decks:  # R39: C first, the deal once the seeds are in
            self._await_seeds(plan, hand_id, number, shuffled, [*prelude, proof])
            return
        # The prelude (button draw, salts) and the engine's first events are one write.
        self._deal(plan, hand_id, shuffled.commitment, shuffled.cards, [*prelude, proof])

    def _deal(self, plan: seating.Plan, hand_id: str, commitment: str,
              dealt: tuple[int, ...], before: list[Any]) -> None:
        players = [PlayerIn(s, self.seats[s].player_id, self.seats[s].stack, s in plan.late_posters)
                   for s in plan.seats]
        hand = Hand.start(self.config, players, plan.button, dealt,
                          level=self.next_level(), hand_id=hand_id,
                          commitment=commitment, ranker=self.ranker)
        self._deck = dealt
        self.hand = hand
        self._after_decision([*before, *hand.events], None)
        # Per hand: debug. Every hand is in the event store and the streams already; the
        # info log keeps what an operator acts on (tables, seats, time-outs, failures), and
        # two JSON lines a hand cost about 5 % of a busy dealer.
        self.log.debug("hand_started", hand_id=hand_id, players=len(players), button=plan.button)

    # ------------------------------------------------------- R39: player seeds

    def _await_seeds(self, plan: seating.Plan, hand_id: str, number: int,
                     shuffled: deck.ShuffledDeck, before: list[Any]) -> None:
        deadline = now_ms() + self.config.seed_time_ms
        committed = ev.DeckCommitted(number, shuffled.commitment, tuple(plan.seats), deadline)
        sequence = self._commit([*before, committed], hand_id)
        self._seeding = Seeding(plan, hand_id, shuffled, sequence)
        loop = asyncio.get_running_loop()
        self._seed_timer = loop.call_later(self.config.seed_time_ms / 1000,
                                           self._deal_seeded_safely)

    def commit_seeds(self, seat: int, chain_head: bytes) -> int:
        """R39: the seat's hash chain head, once per seating."""
        self._check_open()
        self._check_seeded_table()
        self._seated(seat)
        if len(chain_head) != deckproof.SEED_BYTES:
            raise InvalidArgument(f"chain_head: {len(chain_head)} bytes; give the "
                                  f"{deckproof.SEED_BYTES} bytes of SHA-256^k(x) (R39)")
        if seat in self.chains:
            raise AlreadyExists(f"seat {seat} committed its chain of seeds already; a chain "
                                "is committed once per seating (R39)")
        return self._commit([ev.SeedsCommitted(seat, chain_head)])

    def reveal_seed(self, seat: int, hand_id: str, seed: bytes) -> None:
        """R39: the seat's seed for the hand awaiting its seeds: SHA-256(seed) must be
        the last value of its chain. The deal follows once every chained seat's is in."""
        self._check_open()
        self._check_seeded_table()
        self._seated(seat)
        if len(seed) != deckproof.SEED_BYTES:
            raise InvalidArgument(f"seed: {len(seed)} bytes; a seed is the "
                                  f"{deckproof.SEED_BYTES}-byte preimage of the chain's last value")
        seeding = self._seeding
        if seeding is None or seeding.hand_id != hand_id:
            waiting = f"hand {seeding.hand_id} is" if seeding else "no hand is"
            raise FailedPrecondition(f"hand {quote(hand_id)} is not awaiting seeds: {waiting} "
                                     "(R39: reveal after DeckCommitted, before its deadline)")
        if seat not in seeding.plan.seats:
            raise FailedPrecondition(f"seat {seat} is not dealt in hand {hand_id}")
        chain = self.chains.get(seat)
        if chain is None or chain[1] > seeding.committed_at:
            raise FailedPrecondition(
                f"seat {seat} committed no chain of seeds before hand {hand_id}'s "
                "commitment (CommitSeeds; R39: seeds are fixed before the deck is)")
        done = seeding.seeds.get(seat)
        if done is not None:
            if done == seed:
                return  # a retry
            raise FailedPrecondition(f"seat {seat} revealed its seed for {hand_id} already")
        if hashlib.sha256(seed).digest() != chain[0]:
            raise InvalidArgument(
                f"seed: SHA-256(seed) is not seat {seat}'s last chain value "
                f"{chain[0].hex()[:16]}...: reveal the next preimage of the chain (R39)")
        seeding.seeds[seat] = seed
        chained = [s for s in seeding.plan.seats
                   if s in self.chains and self.chains[s][1] < seeding.committed_at]
        if all(s in seeding.seeds for s in chained):
            self._deal_seeded()

    def _check_seeded_table(self) -> None:
        if not self.config.player_seeded_decks:
            raise FailedPrecondition(f"table {self.table_id} does not use player-seeded "
                                     "decks (R39: TableConfig.player_seeded_decks)")

    def _deal_seeded_safely(self) -> None:
        self._seed_timer = None
        try:
            self._deal_seeded()
        except Exception:  # a bug must not stop the loop that runs every table
            self.log.exception("seeded_deal_failed")

    def _deal_seeded(self) -> None:
        """Seeds in seat order (empty where none came) draw p; position j deals the card
        committed at p[j] (R39)."""
        seeding, self._seeding = self._seeding, None
        if self._seed_timer is not None:
            self._seed_timer.cancel()
            self._seed_timer = None
        if seeding is None or self.closed:
            return
        seeds = tuple((seat, seeding.seeds.get(seat, b"")) for seat in sorted(seeding.plan.seats))
        p = deckproof.permutation([seed for _, seed in seeds])
        dealt = deckproof.dealt_order(seeding.shuffled.cards, p)
        self._deal(seeding.plan, seeding.hand_id, seeding.shuffled.commitment, dealt,
                   [ev.DeckSeeded(seeds, tuple(p))])

    def next_level(self) -> Level:
        """R9: the level of the next hand, counted from the last SetLevel (or the start)."""
        index, hands_at, time_at = self.level_base
        rise = 0
        if self.config.hands_per_level:
            rise = (self.hands_played - hands_at) // self.config.hands_per_level
        if self.config.minutes_per_level and time_at:
            minutes = (now_ms() - time_at) / 60_000
            rise = max(rise, int(minutes // self.config.minutes_per_level))
        return self.config.levels[min(index + rise, len(self.config.levels) - 1)]

    def _after_decision(self, events: list[Any], record: ActRecord | None) -> int:
        """Adds the turn or the end of the hand to a decision's events, writes them, arms clocks."""
        hand = self.hand
        assert hand is not None
        if self._salt_of:
            events = self._open(events)
        if hand.is_over:
            events.append(self._reveal(hand))
        elif hand.actor is not None:
            events.append(self._turn_event(hand))
        also = None
        if record is not None:
            number = self.action_number
            final = ActRecord(record.seat, record.kind, record.amount,
                              self.last_sequence + len(events))

            def also() -> None:
                self.store.put_act(self.table_id, hand.hand_id, number, final)
        sequence = self._commit(events, hand.hand_id, also)
        if hand.is_over:
            self._hand_over(hand)
        elif len(hand.board) == 5 and self._prefetched != hand.hand_id:
            self._prefetch(hand)
        self._arm_turn_timer()
        return sequence

    def _prefetch(self, hand: Hand) -> None:
        """The board is complete: a remote ranker may rank the hands still in ahead of
        the showdown, off the loop (services.dealer.ranking)."""
        self._prefetched = hand.hand_id
        prefetch = getattr(self.ranker, "prefetch", None)
        if prefetch is not None and len(hand.in_hand) > 1:
            prefetch(hand.board, [hand.hole_cards(seat) for seat in hand.in_hand])

    def _open(self, events: list[Any]) -> list[Any]:
        """R3: each event that opens cards carries their salts (views send a hole card's
        salts to its owner and the auditor only, as its cards)."""
        salt_of = self._salt_of
        out = []
        for event in events:
            if type(event) in _OPENING and event.cards and not event.salts:
                event = dataclasses.replace(event, salts=tuple(salt_of[c] for c in event.cards))
            out.append(event)
        return out

    def _reveal(self, hand: Hand) -> ev.DeckRevealed:
        """R3's proof at the end of the hand: which positions each viewer saw opened."""
        proof = self._proof
        if not proof.salts:  # a hand begun by a dealer before per-position salts
            return ev.DeckRevealed(proof.salt, self._deck, self._commitment())
        where = {card: i for i, card in enumerate(proof.deck)}
        public: set[int] = set()
        dealt = []
        for e in hand.events:
            if isinstance(e, HoleCardsDealt):
                dealt.append((e.seat, where[e.cards[0]], where[e.cards[1]]))
            elif isinstance(e, BoardDealt | CardsShown):
                public.update(where[c] for c in e.cards)
        return ev.DeckRevealed(b"", proof.deck, self._commitment(), proof.salts,
                               tuple(sorted(public)), tuple(dealt))

    def _commitment(self) -> str:
        assert self.hand is not None
        started = next(e for e in self.hand.events if isinstance(e, HandStarted))
        return str(started.commitment)

    def _turn_event(self, hand: Hand) -> ev.TurnStarted:
        legal = hand.legal_actions()
        show = legal.decision == Decision.SHOW_OR_MUCK
        limit = self.config.show_time_ms if show else self.config.action_time_ms
        bet_kind = "" if legal.bet_kind is None else str(legal.bet_kind.value)
        return ev.TurnStarted(
            seat=legal.seat, decision=str(legal.decision.value),
            action_number=self.action_number + 1, deadline_ms=now_ms() + limit,
            can_fold=legal.can_fold, can_check=legal.can_check, can_call=legal.can_call,
            call_amount=legal.call_amount, bet_kind=bet_kind, min_to=legal.min_to,
            max_to=legal.max_to, can_show=legal.can_show, can_muck=legal.can_muck,
            can_all_in=legal.can_all_in, all_in_to=legal.all_in_to)

    def _hand_over(self, hand: Hand) -> None:
        self.hand = None
        self.log.debug("hand_ended", hand_id=hand.hand_id)
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

    def _void_event(self, reason: str) -> ev.HandVoided:
        assert self.hand is not None
        return ev.HandVoided(tuple((p.seat, p.stack) for p in self.hand.players), reason)

    # ------------------------------------------------------------------ clocks

    def _arm_turn_timer(self) -> None:
        """Makes sure the clock rings by the awaited decision's deadline.

        One clock per table, not one per decision: a clock already set to ring earlier
        is kept (each new deadline is later than the last), and when it rings before
        the deadline of the decision then awaited it sets itself again."""
        if self.turn is None or self.hand is None:
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, (self.turn.deadline_ms - now_ms()) / 1000)
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
        if now_ms() < turn.deadline_ms:
            self._arm_turn_timer()
        else:
            self._on_deadline(hand.hand_id, turn.action_number)

    def _on_deadline(self, hand_id: str, number: int) -> None:
        hand, turn = self.hand, self.turn
        if hand is None or turn is None or hand.hand_id != hand_id or turn.action_number != number:
            return
        try:
            events: list[Any] = [ev.TurnTimedOut(turn.seat, number), *hand.time_out(turn.seat)]
            seat = self.seats.get(turn.seat)
            if turn.decision == str(Decision.BET.value) and seat and not seat.sitting_out:
                events.append(ev.PlayerSatOut(turn.seat, "timed_out"))  # R32
            self.log.info("turn_timed_out", hand_id=hand_id, seat=turn.seat, action_number=number)
            self._after_decision(events, ActRecord(turn.seat, "timed_out", 0, 0))
        except Exception:
            self.log.exception("time_out_failed", hand_id=hand_id)

    def _cancel_timers(self) -> None:
        for timer in (self._turn_timer, self._start_timer, self._seed_timer):
            if timer is not None:
                timer.cancel()
        self._turn_timer = self._start_timer = self._seed_timer = None
        self._seeding = None

    def shutdown(self) -> None:
        """Stops the clocks and ends the streams (the dealer is stopping); the log stays
        as it is."""
        self._cancel_timers()
        self.stopping = True
        self._wake()

    def check_running(self) -> None:
        """Raises Stopping, naming the table, once the dealer is stopping."""
        if self.stopping:
            raise Stopping(f"the dealer is stopping (a restart or an upgrade): table "
                           f"{self.table_id}'s stream ends here; reconnect and resume after "
                           f"your last sequence number")

    # ---------------------------------------------------------------- helpers

    def _check_open(self) -> None:
        if self.closed:
            raise FailedPrecondition(f"table {self.table_id} is closed")

    def _check_table_chips(self, doing: str, amount: int) -> None:
        """A stack, and the chips of the table together (so every pot), are at most
        MAX_CHIPS: checked before anything is written."""
        total = sum(s.stack for s in self.seats.values())
        if total + amount > MAX_CHIPS:
            raise FailedPrecondition(
                f"{doing} {amount} chips would take the chips of table {self.table_id} "
                f"together ({total} now) past the maximum of {MAX_CHIPS} (every pot must fit); "
                f"at most {MAX_CHIPS - total} more can come to this table")

    def check_seat(self, seat: int) -> None:
        """INVALID_ARGUMENT unless `seat` is a seat of this table."""
        if not 0 <= seat < self.config.seats:
            raise InvalidArgument(self._no_such_seat(seat))

    def _seated(self, seat: int) -> SeatState:
        self.check_seat(seat)
        state = self.seats.get(seat)
        if state is None:
            raise TableNotFound(f"seat {seat} of table {self.table_id} is empty")
        return state

    def _check_between_hands(self, seat: int, what: str) -> None:
        hand = self.hand
        seeding = self._seeding
        if seeding is not None and seat in seeding.plan.seats:
            raise FailedPrecondition(
                f"seat {seat} is in hand {seeding.hand_id}, awaiting its seeds (R39): it can "
                f"{what} between hands; retry after the hand ends (HandEnded)")
        if hand is not None and any(p.seat == seat for p in hand.players):
            raise FailedPrecondition(
                f"seat {seat} is in hand {hand.hand_id}: it can {what} between hands; "
                "retry after the hand ends (HandEnded)")

    def _no_such_seat(self, seat: int) -> str:
        return f"seat: {seat} is not a seat of this table (0..{self.config.seats - 1})"

    def _free_seat(self) -> int:
        for seat in range(self.config.seats):
            if seat not in self.seats:
                return seat
        raise FailedPrecondition(f"table {self.table_id} is full ({self.config.seats} seats)")

    def in_hand(self, seat: int) -> bool:
        if self._seeding is not None and seat in self._seeding.plan.seats:
            return True
        return self.hand is not None and any(p.seat == seat for p in self.hand.players)

    # ---------------------------------------------------------------- restore

    def restore(self, rows: Sequence[Row], on_crash: str,
                snapshot: dict[str, Any] | None = None) -> None:
        """Folds a stored log (the events after `snapshot`, the state it was taken in,
        when given); resumes (or voids) the hand it stopped in."""
        self.fold(rows, snapshot)
        hand_events = [s.event for s in self._hand_events]
        finished = any(type(e) in _HAND_ENDS for e in hand_events)
        if not hand_events or finished or self.closed:
            self._schedule_hand()
            return
        engine_events = [e for e in hand_events if type(e) not in ev.DEALER_EVENTS]
        if not engine_events:  # R39: it awaited seeds; commit to a fresh deck, ask again
            self.log.info("seeding_restarted", hand_id=self._hand_events[0].hand_id)
            self._schedule_hand()
            return
        self.hand = Hand.from_events(engine_events, ranker=self.ranker)
        self._deck = _deck_of(engine_events)
        self.log.info("hand_recovered", hand_id=self.hand.hand_id, on_crash=on_crash,
                      events=len(engine_events))
        if on_crash == "void":
            self._commit([self._void_event("the dealer restarted (--on-crash void)")],
                         self.hand.hand_id)
            self._schedule_hand()
            return
        if self.hand.is_over:  # cannot happen with one write per decision; be safe
            self._after_decision([], None)
        elif self.hand.actor is not None:  # a fresh clock for the awaited decision
            self.action_number = max(self.action_number - 1, 0) if self.turn else 0
            self._after_decision([], None)


    def fold(self, rows: Sequence[Row], snapshot: dict[str, Any] | None = None) -> None:
        """The state of the table after `rows` (after `snapshot`'s state, when given),
        without resuming anything: restore's first half."""
        if snapshot is not None:
            self.load_snapshot(snapshot)
        loads = codec.loads
        for row in rows:
            self._apply(Stored(row.sequence, row.hand_id, row.time_ms, loads(row.payload)))
        self._recent.clear()


#: The events that end a hand: the write holding one also holds the table's snapshot.
_HAND_ENDS: frozenset[type] = frozenset({ev.DeckRevealed, ev.HandVoided})


def _deck_of(events: Sequence[Any]) -> tuple[int, ...]:
    for event in events:
        if type(event).__name__ == "DeckSet":
            return tuple(event.deck)
    return ()


def _engine_action(kind: str, amount: int) -> Action:
    try:
        action_kind = ActionKind(kind)
    except ValueError:
        raise InvalidArgument(f"kind: {kind!r} is not an action") from None
    if action_kind in (ActionKind.BET, ActionKind.RAISE):
        if amount <= 0:
            raise InvalidArgument(f"amount: a {kind} needs the total it bets to (> 0)")
        return Action(action_kind, amount)
    if amount:
        raise InvalidArgument(f"amount: must be 0 for {kind}")
    return Action(action_kind)


_FOLD: dict[type, Callable[[Table, Any, Stored], None]] = {
    ev.PlayerSeated: Table._on_seated,
    ev.PlayerUnseated: Table._on_unseated,
    ev.ChipsAdded: Table._on_chips,
    ev.PlayerSatOut: Table._on_sat_out,
    ev.PlayerSatIn: Table._on_sat_in,
    ev.ButtonSet: Table._on_button,
    ev.LevelSet: Table._on_level,
    ev.HandSalt: Table._on_salt,
    ev.SeedsCommitted: Table._on_seeds_committed,
    ev.DeckSeeded: Table._on_deck_seeded,
    ev.TurnStarted: Table._on_turn,
    ev.HandVoided: Table._on_voided,
    ev.DeckRevealed: Table._on_revealed,
    ev.TableClosed: Table._on_closed,
    HandStarted: Table._on_hand_started,
    HandEnded: Table._on_hand_ended,
}
