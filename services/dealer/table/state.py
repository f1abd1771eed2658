"""A table's state between and during hands, and `apply`, the fold of its events.

`TableState` is everything the table's rules read: seats and stacks, the button, the
level's base, sit-outs, the hand counters, R39's seed chains, the running hand (the
engine's `Hand`, folded from the same events) and R3's salts. `apply(state, stored)`
folds one stored event into it, live and on restore alike. Like the engine's
`HandState` it is changed in place (no copy per event); `decide` only reads it.

Its snapshot (`TableState.snapshot`, format `SNAPSHOT_VERSION`) is the JSON of the
state between hands; `TableState.from_snapshot` reads it back.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from poker.vocab import table_events as ev
from poker.vocab.enums import BlindKind
from poker.vocab.events import DeckSet
from services.dealer import deck
from services.dealer.engine import (
    Hand,
    HandEnded,
    HandRanker,
    HandStarted,
    TableConfig,
    blind_seats,
)
from services.dealer.table import clocks, seatplan

#: The format of `TableState.snapshot`; a snapshot of another version is not used
#: (the table is folded from its whole log, and snapshotted anew).
SNAPSHOT_VERSION = 1


@dataclass(slots=True)
class SeatState:
    """A seated player between hands."""

    seat: int
    player_id: str
    stack: int
    sitting_out: bool = False
    wait_for_big_blind: bool = False
    joined_late: bool = False
    missed_big_blind: bool = False  # R33
    missed_small_blind: bool = False  # R33
    straddle: bool = False  # R37: straddles whenever left of the big blind
    sit_out_after: int = 0  # sits out once this hand has ended (SitOutScheduled; 0: no)


@dataclass(slots=True)
class Seeding:
    """R39: a hand whose commitment is out and whose seeds are awaited."""

    plan: seatplan.Plan
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


def kinds(batch: Iterable[Stored]) -> set[type]:
    """The event classes in a batch of stored events, made in C (no Python step an event):
    what the table shell and the views ask of every write."""
    return set(map(type, map(_EVENT, batch)))


_EVENT = operator.attrgetter("event")


@dataclass(frozen=True, slots=True)
class SeedHeld:
    """R39: a seat's seed for the hand awaiting seeds, held until every seed is in.

    Not logged: the seeds are published together, in DeckSeeded; a restart commits to a
    fresh deck and asks again (the shell folds it without writing it)."""

    seat: int
    seed: bytes


@dataclass(slots=True)
class TableState:
    """What the fold of a table's log so far leaves (see the module doc)."""

    table_id: str
    config: TableConfig
    ranker: HandRanker | None = None
    last_sequence: int = 0
    seats: dict[int, SeatState] = field(default_factory=dict)
    seated_at: dict[int, int] = field(default_factory=dict)  # seat -> sequence it sat at
    hand_started_at: int = 0  # sequence of the current hand's HandStarted
    button: int | None = None
    last_blinds: tuple[int, int] | None = None  # R5: the last hand's (small, big) blind seats
    hands_played: int = 0
    hand_ended_ms: int = 0  # when the last hand ended (HandEnded / HandVoided; T8)
    hand_number: int = 0
    action_number: int = 0
    level_base: tuple[int, int, int] = (0, 0, 0)  # (level index, hands_played, time_ms)
    closed: bool = False
    deal_until: int | None = None  # T5, T7: no hand past this number (DealLimitSet)
    chip_keys: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    chains: dict[int, tuple[bytes, int]] = field(default_factory=dict)  # R39: (last, since)
    # R39: per chained seat, the commitments it was dealt into since its last published
    # seed, the one awaited included: how many links down its next seed may lie, since
    # each commitment that never dealt its seed (a restart, a seed too late) may have
    # burned one (clients/seeds.py).
    chain_gaps: dict[int, int] = field(default_factory=dict)
    hand: Hand | None = None
    turn: ev.TurnStarted | None = None
    proof: ev.HandSalt = field(default_factory=ev.HandSalt)  # the running hand's salts (R3)
    salt_of: dict[int, bytes] = field(default_factory=dict)  # card -> its salt (R3)
    permutation: tuple[int, ...] = ()  # R39: the running hand's
    deck: tuple[int, ...] = ()  # the running hand's dealt order
    hand_events: list[Stored] = field(default_factory=list)  # the current hand's, stored
    seeding: Seeding | None = None  # R39: seeds awaited before the deal
    banks: dict[int, int] = field(default_factory=dict)  # R35: seat -> bank left (ms)
    away: dict[int, list[int]] = field(default_factory=dict)  # R34: seat -> [since, orbits]

    # ------------------------------------------------------------ questions

    def in_hand(self, seat: int) -> bool:
        """The seat is dealt in the running hand, or in the one awaiting its seeds."""
        if self.seeding is not None and seat in self.seeding.plan.seats:
            return True
        return self.hand is not None and any(p.seat == seat for p in self.hand.players)

    def salts_of(self, cards: Any) -> list[bytes]:
        """R3: the salts that open `cards` of the running hand (none for an old hand)."""
        salt_of = self.salt_of
        return [salt_of[c] for c in cards] if salt_of else []

    # ------------------------------------------------------------ snapshots

    def snapshot(self) -> dict[str, Any]:
        """The state between hands as JSON-ready values: everything a restore and the
        calls need (seats, stacks, button, level, sit-outs, the hand counter, the
        AddChips keys answered, R39's chains), nothing of a running hand."""
        return {
            "last_sequence": self.last_sequence,
            "seats": [[s.seat, s.player_id, s.stack, s.sitting_out, s.wait_for_big_blind,
                       s.joined_late, s.missed_big_blind, s.missed_small_blind, s.straddle,
                       s.sit_out_after]
                      for s in self.seats.values()],
            "last_blinds": None if self.last_blinds is None else list(self.last_blinds),
            "seated_at": sorted(self.seated_at.items()),
            "hand_started_at": self.hand_started_at,
            "button": self.button,
            "hands_played": self.hands_played,
            "hand_ended_ms": self.hand_ended_ms,
            "hand_number": self.hand_number,
            "action_number": self.action_number,
            "level_base": list(self.level_base),
            "closed": self.closed,
            "deal_until": self.deal_until,
            "chip_keys": [[key, *done] for key, done in self.chip_keys.items()],
            "chains": [[seat, value.hex(), since] for seat, (value, since)
                       in sorted(self.chains.items())],  # R39
            "chain_gaps": sorted(self.chain_gaps.items()),  # R39; older snapshots lack it
            **clocks.snapshot(self),  # R34, R35
        }

    @classmethod
    def from_snapshot(cls, table_id: str, config: TableConfig, ranker: HandRanker | None,
                      state: dict[str, Any]) -> TableState:
        """The table as `snapshot` left it, before folding the events after it."""
        index, hands_at, time_at = state["level_base"]
        table = cls(
            table_id, config, ranker,
            last_sequence=int(state["last_sequence"]),
            # entries 7-8: R33's missed blinds; 9: R37's straddle; 10: the hand after which
            # the seat sits out (older snapshots have 6, 8 or 9)
            seats={int(row[0]): SeatState(int(row[0]), row[1], int(row[2]), bool(row[3]),
                                          bool(row[4]), bool(row[5]),
                                          *(bool(x) for x in row[6:8]),
                                          *(bool(x) for x in row[8:9]),
                                          *(int(x) for x in row[9:10]))
                   for row in state["seats"]},
            last_blinds=None if state.get("last_blinds") is None
            else (int(state["last_blinds"][0]), int(state["last_blinds"][1])),
            seated_at={int(seat): int(at) for seat, at in state["seated_at"]},
            hand_started_at=int(state["hand_started_at"]),
            button=None if state["button"] is None else int(state["button"]),
            hands_played=int(state["hands_played"]),
            hand_ended_ms=int(state.get("hand_ended_ms", 0)),  # older snapshots lack it
            hand_number=int(state["hand_number"]),
            action_number=int(state["action_number"]),
            level_base=(int(index), int(hands_at), int(time_at)),
            closed=bool(state["closed"]),
            deal_until=None if state.get("deal_until") is None else int(state["deal_until"]),
            chip_keys={key: (int(seat), int(amount), int(stack))
                       for key, seat, amount, stack in state["chip_keys"]},
            chains={int(seat): (bytes.fromhex(value), int(since))
                    for seat, value, since in state.get("chains", ())},
            chain_gaps={int(seat): int(gaps) for seat, gaps in state.get("chain_gaps", ())},
        )
        clocks.restore(table, state)  # R34, R35
        return table


# ------------------------------------------------------------------- the fold

def apply(state: TableState, s: Stored, made_by: Hand | None = None) -> TableState:
    """Folds one stored event into `state` (in place) and returns it.

    `made_by`: the engine's hand that made the event (decide's fork, or the new hand),
    which holds it already: it becomes the running hand instead of folding the event a
    second time (the same state; services.dealer.table.decide.Decided)."""
    state.last_sequence = s.sequence
    event = s.event
    if s.hand_id:
        hand_events = state.hand_events
        if not hand_events or hand_events[0].hand_id != s.hand_id:
            state.hand_events = hand_events = []
        hand_events.append(s)
    kind = type(event)
    if made_by is not None and kind not in ev.DEALER_TYPES:
        state.hand = made_by
        handler = _MADE.get(kind)
    else:
        handler = _FOLD.get(kind)
    if handler is not None:
        handler(state, event, s)
    elif kind not in ev.DEALER_TYPES and state.hand is not None and made_by is None:
        state.hand.fold(event)  # the engine's own fold of its hand
    return state


def hold_seed(state: TableState, held: SeedHeld) -> TableState:
    """Folds an R39 seed held for the deal (not logged, see SeedHeld)."""
    assert state.seeding is not None
    state.seeding.seeds[held.seat] = held.seed
    return state


def plan(state: TableState, button: int | None = None) -> seatplan.Plan | None:
    """The next hand's seats, button and blinds (R5, R10, R33; services.dealer.table.
    seatplan), or None when fewer than two can play (or, before the first hand, fewer
    than `min_players_to_start`), or while the table is held (a deal limit, T5/T7)."""
    if state.deal_until is not None and state.hands_played >= state.deal_until:
        return None
    players = [
        seatplan.Player(s.seat, s.joined_late or s.missed_big_blind,
                        s.missed_big_blind and s.missed_small_blind, s.wait_for_big_blind)
        for s in state.seats.values()
        if s.stack > 0 and (not s.sitting_out or state.config.absent_dealt_in)  # T4
    ]
    first = state.hands_played == 0
    if first and len(players) < state.config.min_players_to_start:
        return None
    previous = button if button is not None else state.button
    return seatplan.plan(state.config.button_rule, players,
                         None if first else last_hand(state), previous)


def last_hand(state: TableState) -> seatplan.Last | None:
    """R5: the last hand's button and blind seats (a snapshot from before R5's rules has
    no blinds' seats: R6's from the button over the seats taken)."""
    if state.button is None:
        return None
    if state.last_blinds is None:
        if len(state.seats) < 2:
            return None
        made = seatplan.classic(sorted(state.seats), state.button)
        return seatplan.Last(state.button, made.small_blind_seat(None), made.big_blind)
    return seatplan.Last(state.button, *state.last_blinds)


def away(state: TableState) -> list[int]:
    """R33: seated players the blinds may pass: sat out, or with no chips."""
    dealt_in_anyway = state.config.absent_dealt_in  # T4: the absent are dealt in
    return [s.seat for s in state.seats.values()
            if (s.sitting_out and not dealt_in_anyway) or s.stack == 0]


def _on_seated(state: TableState, e: ev.PlayerSeated, s: Stored) -> None:
    state.seats[e.seat] = SeatState(e.seat, e.player_id, e.stack,
                                    wait_for_big_blind=e.wait_for_big_blind,
                                    joined_late=state.hands_played > 0)
    state.seated_at[e.seat] = s.sequence
    clocks.on_seated(state, e.seat)


def _on_unseated(state: TableState, e: ev.PlayerUnseated, s: Stored) -> None:
    state.seats.pop(e.seat, None)
    state.chains.pop(e.seat, None)
    state.chain_gaps.pop(e.seat, None)
    clocks.on_unseated(state, e.seat)


def _on_seeds_committed(state: TableState, e: ev.SeedsCommitted, s: Stored) -> None:
    state.chains[e.seat] = (e.chain_head, s.sequence)
    state.chain_gaps.pop(e.seat, None)


def _on_deck_committed(state: TableState, e: ev.DeckCommitted, s: Stored) -> None:
    proof = state.proof
    planned = plan(state)
    if planned is None or planned.seats != e.seats:  # cannot happen live; be safe
        planned = seatplan.classic(e.seats, e.seats[0] if state.button is None
                                   else state.button)
    hand_id = f"{state.table_id}-{e.hand_number}"
    gaps = state.chain_gaps
    for seat in e.seats:
        if seat in state.chains:
            gaps[seat] = gaps.get(seat, 0) + 1
    state.seeding = Seeding(planned, hand_id, deck.ShuffledDeck(proof.deck, proof.salts),
                            s.sequence)


def _on_deck_seeded(state: TableState, e: ev.DeckSeeded, s: Stored) -> None:
    state.seeding = None
    state.permutation = e.permutation
    chains = state.chains
    for seat, seed in e.seeds:
        if seed and seat in chains:
            chains[seat] = (seed, chains[seat][1])
            state.chain_gaps.pop(seat, None)


def _on_chips(state: TableState, e: ev.ChipsAdded, s: Stored) -> None:
    state.seats[e.seat].stack = e.stack
    state.chip_keys[e.idempotency_key] = (e.seat, e.amount, e.stack)


def _on_sat_out(state: TableState, e: ev.PlayerSatOut, s: Stored) -> None:
    if e.seat in state.seats:
        state.seats[e.seat].sitting_out = True
        state.seats[e.seat].sit_out_after = 0  # done, if it was scheduled
        clocks.on_sat_out(state, e.seat, s.time_ms)


def _on_sit_out_scheduled(state: TableState, e: ev.SitOutScheduled, s: Stored) -> None:
    if e.seat in state.seats:
        state.seats[e.seat].sit_out_after = e.after_hand


def _on_sat_in(state: TableState, e: ev.PlayerSatIn, s: Stored) -> None:
    if e.seat in state.seats:
        state.seats[e.seat].sitting_out = False
        if e.wait_for_big_blind:  # R33
            state.seats[e.seat].wait_for_big_blind = True
        clocks.on_sat_in(state, e.seat)


def _on_straddle(state: TableState, e: ev.StraddleSet, s: Stored) -> None:
    if e.seat in state.seats:
        state.seats[e.seat].straddle = e.straddle


def _on_button(state: TableState, e: ev.ButtonSet, s: Stored) -> None:
    state.button = e.seat


def _on_blind_missed(state: TableState, e: ev.BlindMissed, s: Stored) -> None:
    seat = state.seats.get(e.seat)
    if seat is not None:
        if e.blind is BlindKind.BIG:
            seat.missed_big_blind = True
        else:
            seat.missed_small_blind = True


def _on_level(state: TableState, e: ev.LevelSet, s: Stored) -> None:
    state.level_base = (e.level_index, state.hands_played, s.time_ms)


def _on_deal_limit(state: TableState, e: ev.DealLimitSet, s: Stored) -> None:
    state.deal_until = e.until_hand if e.limited else None


def _on_salt(state: TableState, e: ev.HandSalt, s: Stored) -> None:
    state.proof = e
    state.salt_of = dict(zip(e.deck, e.salts, strict=True)) if e.salts else {}
    state.permutation = ()  # R39: set by the hand's DeckSeeded


def _on_hand_started(state: TableState, e: HandStarted, s: Stored) -> None:
    state.hand = Hand.from_events([e], ranker=state.ranker)
    _hand_started(state, e, s)


def _hand_started(state: TableState, e: HandStarted, s: Stored) -> None:
    state.deck = ()
    state.hands_played += 1
    state.hand_number = state.hands_played
    state.hand_started_at = s.sequence
    if state.away:
        clocks.count_orbits(state, state.button, e.button)  # R34
    small, big = blind_seats(e)
    if small is None:  # R5 dead: the small blind was due to the last big blind's seat
        small = state.last_blinds[1] if state.last_blinds is not None else e.button
    state.button = e.button
    state.last_blinds = (small, big)
    state.action_number = 0
    state.turn = None
    if state.hands_played == 1 and state.level_base[2] == 0:
        state.level_base = (state.level_base[0], 0, s.time_ms)
    for player in e.players:
        seat = state.seats.get(player.seat)
        if seat is not None:
            seat.joined_late = seat.wait_for_big_blind = False
            seat.missed_big_blind = seat.missed_small_blind = False  # R33: paid or posted


def _on_deck_set(state: TableState, e: DeckSet, s: Stored) -> None:
    state.deck = tuple(e.deck)
    if state.hand is not None:
        state.hand.fold(e)


def _on_turn(state: TableState, e: ev.TurnStarted, s: Stored) -> None:
    state.turn = e
    state.action_number = e.action_number


def _on_hand_ended(state: TableState, e: HandEnded, s: Stored) -> None:
    if state.hand is not None:
        state.hand.fold(e)
    _hand_ended(state, e, s)


def _hand_ended(state: TableState, e: HandEnded, s: Stored) -> None:
    _set_stacks(state, e.stacks)
    state.turn = None
    state.hand_ended_ms = s.time_ms
    if state.config.time_bank_refill_hands:
        clocks.refill(state)  # R35


def _deck_set(state: TableState, e: DeckSet, s: Stored) -> None:
    state.deck = tuple(e.deck)


def _on_voided(state: TableState, e: ev.HandVoided, s: Stored) -> None:
    _set_stacks(state, e.stacks)
    state.turn = None
    state.hand_ended_ms = s.time_ms
    state.hand = None


def _on_revealed(state: TableState, e: ev.DeckRevealed, s: Stored) -> None:
    state.hand = None


def _on_closed(state: TableState, e: ev.TableClosed, s: Stored) -> None:
    state.closed = True
    state.seats.clear()
    state.seeding = None


def _set_stacks(state: TableState, stacks: Any) -> None:
    seats = state.seats
    pairs = stacks.items() if isinstance(stacks, dict) else stacks
    for seat, stack in pairs:
        if seat in seats:
            seats[seat].stack = stack


_FOLD: dict[type, Callable[[TableState, Any, Stored], None]] = {
    ev.PlayerSeated: _on_seated,
    ev.PlayerUnseated: _on_unseated,
    ev.ChipsAdded: _on_chips,
    ev.PlayerSatOut: _on_sat_out,
    ev.PlayerSatIn: _on_sat_in,
    ev.SitOutScheduled: _on_sit_out_scheduled,
    ev.StraddleSet: _on_straddle,
    ev.ButtonSet: _on_button,
    ev.BlindMissed: _on_blind_missed,
    ev.LevelSet: _on_level,
    ev.DealLimitSet: _on_deal_limit,
    ev.HandSalt: _on_salt,
    ev.SeedsCommitted: _on_seeds_committed,
    ev.DeckCommitted: _on_deck_committed,
    ev.DeckSeeded: _on_deck_seeded,
    ev.TurnStarted: _on_turn,
    ev.TimeBankUsed: clocks.on_bank_used,
    ev.HandVoided: _on_voided,
    ev.DeckRevealed: _on_revealed,
    ev.TableClosed: _on_closed,
    HandStarted: _on_hand_started,
    DeckSet: _on_deck_set,
    HandEnded: _on_hand_ended,
}

#: The engine's events folded with the hand that made them (apply's `made_by`): the
#: table's part only.
_MADE: dict[type, Callable[[TableState, Any, Stored], None]] = {
    HandStarted: _hand_started,
    DeckSet: _deck_set,
    HandEnded: _hand_ended,
}
