"""A table followed on the client: a GetTable snapshot, then every event after it folded in.

Bots read a `TableView` at each decision without asking the dealer again. The fold keeps
seats, stacks, bets, board, whose turn and the legal actions exactly as the dealer's
events state them. One thing is simpler than the dealer's own view: chips already in
the middle are one `Pot` (side pots appear separately only in a fresh GetTable view,
`TableClient.view()`); `pot_total` is exact either way.

>>> from clients.events import HandStarted, HandPlayer, BlindPosted, TurnStarted
>>> from clients.models import BlindKind, Decision, LegalActions, Level, TableView
>>> t = TableTracker(TableView(table_id="t", sequence=0, your_seat=1))
>>> for seat in (0, 1):
...     t.apply(PlayerSeated(sequence=seat + 1, seat=seat, player_id=f"p{seat}", stack=1000))
>>> t.apply(HandStarted(sequence=3, hand_id="t-1", hand_number=1, button=0, level=Level(5, 10),
...     players=(HandPlayer(0, "p0", 1000), HandPlayer(1, "p1", 1000)), commitment="c"))
>>> t.apply(BlindPosted(sequence=4, hand_id="t-1", seat=0, blind=BlindKind.SMALL, amount=5))
>>> t.apply(BlindPosted(sequence=5, hand_id="t-1", seat=1, blind=BlindKind.BIG, amount=10))
>>> t.apply(TurnStarted(sequence=6, hand_id="t-1", seat=0, decision=Decision.BET,
...     action_number=1, legal=LegalActions(seat=0, decision=Decision.BET, can_fold=True)))
>>> v = t.view()
>>> v.seat(0).stack, v.seat(0).bet, v.pot_total, v.hand.actor, v.is_my_turn
(995, 5, 15, 0, False)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from clients.cards import Card
from clients.events import (
    ActionTaken,
    AntePosted,
    BetReturned,
    BlindMissed,
    BlindPosted,
    BoardDealt,
    ButtonSet,
    CardsShown,
    ChipsAdded,
    Event,
    HandEnded,
    HandStarted,
    HandVoided,
    HoleCardsDealt,
    LevelSet,
    PlayerSatIn,
    PlayerSatOut,
    PlayerSeated,
    PlayerUnseated,
    PotAwarded,
    RakeTaken,
    SitOutScheduled,
    TableClosed,
    TimeBankUsed,
    TurnStarted,
    TurnTimedOut,
)
from clients.models import (
    ActionKind,
    BlindKind,
    Decision,
    HandView,
    LegalActions,
    Level,
    OwedBlinds,
    Pot,
    SeatStack,
    SeatView,
    Street,
    TableView,
)

__all__ = ["TableTracker"]


@dataclass
class _Seat:
    player_id: str
    stack: int
    bet: int = 0
    sitting_out: bool = False
    in_hand: bool = False
    folded: bool = False
    hole_cards: tuple[Card, ...] = ()
    waiting_for_big_blind: bool = False
    time_bank_ms: int = 0  # R35
    owed_blinds: OwedBlinds | None = None  # R10, R33 (the next hand's plan: GetTable's)
    #: R33: a small blind went by; shown (owed dead) only once a big blind went by too.
    missed_small_blind: bool = False
    sits_out_after_hand: int | None = None  # SitOutScheduled


@dataclass
class _Hand:
    hand_id: str
    hand_number: int
    button: int
    level: Level | None
    commitment: str
    test_mode: bool
    street: Street = Street.PREFLOP
    board: list[Card] = field(default_factory=list)
    collected: int = 0  # chips gathered into the middle (antes, bets of past rounds)
    eligible: set[int] = field(default_factory=set)
    actor: int | None = None
    decision: Decision | None = None
    action_number: int = 0
    deadline_unix_ms: int = 0
    legal: LegalActions | None = None
    time_bank_ms: int = 0  # R35: the actor's bank as the decision started
    bank_deadline_unix_ms: int = 0


class TableTracker:
    """A `TableView` kept current by `apply(event)`; `view()` returns a frozen copy."""

    def __init__(self, snapshot: TableView) -> None:
        self.snapshot = snapshot  # what it began from (the fair-deck check reads it)
        self.table_id = snapshot.table_id
        self.your_seat = snapshot.your_seat
        self.sequence = snapshot.sequence
        self.config = snapshot.config
        self.button = snapshot.button
        self.hands_played = snapshot.hands_played
        self.next_level = snapshot.next_level
        self.closed = snapshot.closed
        self.seats: dict[int, _Seat] = {
            s.seat: _Seat(s.player_id, s.stack, s.bet, s.sitting_out, s.in_hand, s.folded,
                          s.hole_cards, s.waiting_for_big_blind, s.time_bank_ms,
                          s.owed_blinds, sits_out_after_hand=s.sits_out_after_hand)
            for s in snapshot.seats}
        self.hand: _Hand | None = None
        if snapshot.hand is not None:
            h = snapshot.hand
            self.hand = _Hand(
                h.hand_id, h.hand_number, h.button, h.level, h.commitment, h.test_mode,
                h.street, list(h.board), sum(p.amount for p in h.pots),
                {s.seat for s in snapshot.seats if s.active}, h.actor, h.decision,
                h.action_number, h.deadline_unix_ms, h.legal, h.time_bank_ms,
                h.bank_deadline_unix_ms)
        self._last_view: TableView | None = None

    # --------------------------------------------------------------------- reading

    def view(self) -> TableView:
        """The table as of the last event applied."""
        if self._last_view is not None:
            return self._last_view
        hand = self.hand
        seats = tuple(
            SeatView(seat=n, player_id=s.player_id, stack=s.stack, bet=s.bet,
                     sitting_out=s.sitting_out, in_hand=s.in_hand, folded=s.folded,
                     all_in=s.in_hand and not s.folded and s.stack == 0,
                     hole_cards=s.hole_cards, waiting_for_big_blind=s.waiting_for_big_blind,
                     time_bank_ms=s.time_bank_ms, owed_blinds=s.owed_blinds,
                     sits_out_after_hand=s.sits_out_after_hand)
            for n, s in sorted(self.seats.items()))
        hand_view = None
        if hand is not None:
            eligible = tuple(sorted(hand.eligible))
            hand_view = HandView(
                hand_id=hand.hand_id, hand_number=hand.hand_number, street=hand.street,
                board=tuple(hand.board),
                pots=(Pot(hand.collected, eligible),) if hand.collected else (),
                actor=hand.actor, decision=hand.decision, action_number=hand.action_number,
                deadline_unix_ms=hand.deadline_unix_ms, legal=hand.legal,
                time_bank_ms=hand.time_bank_ms, bank_deadline_unix_ms=hand.bank_deadline_unix_ms,
                commitment=hand.commitment, test_mode=hand.test_mode, button=hand.button,
                level=hand.level)
        self._last_view = TableView(
            table_id=self.table_id, sequence=self.sequence, seats=seats, hand=hand_view,
            button=self.button, hands_played=self.hands_played, next_level=self.next_level,
            your_seat=self.your_seat, closed=self.closed, config=self.config)
        return self._last_view

    # -------------------------------------------------------------------- folding

    def apply(self, event: Event) -> None:
        """Folds one event in (events at or before the current sequence are ignored)."""
        if event.sequence <= self.sequence:
            return
        self.sequence = event.sequence
        self._last_view = None
        handler = _HANDLERS.get(type(event))
        if handler is not None:
            handler(self, event)

    def _seat(self, seat: int) -> _Seat:
        found = self.seats.get(seat)
        if found is None:  # an event about a seat the snapshot did not show: keep going
            found = self.seats[seat] = _Seat("", 0)
        return found

    def _put_in(self, seat: int, chips: int, to: int | None = None) -> None:
        s = self._seat(seat)
        s.stack -= chips
        s.bet = s.bet + chips if to is None else to

    def _gather(self) -> None:
        if self.hand is not None:
            self.hand.collected += sum(s.bet for s in self.seats.values())
        for s in self.seats.values():
            s.bet = 0

    def _end_hand(self, stacks: tuple[SeatStack, ...]) -> None:
        for stack in stacks:
            self._seat(stack.seat).stack = stack.stack
        for s in self.seats.values():
            s.bet, s.in_hand, s.folded, s.hole_cards = 0, False, False, ()
        self.hand = None

    def _hand_started(self, e: HandStarted) -> None:
        self.button = e.button
        self.hands_played = max(self.hands_played, e.hand_number)
        dealt = {p.seat: p for p in e.players}
        for n, s in self.seats.items():
            s.in_hand, s.folded, s.bet, s.hole_cards = n in dealt, False, 0, ()
            if n in dealt:
                s.stack, s.waiting_for_big_blind = dealt[n].stack, False
                s.owed_blinds = None  # R10, R33: dealt in, it paid what it owed
                s.missed_small_blind = False
        self.hand = _Hand(e.hand_id, e.hand_number, e.button, e.level, e.commitment,
                          e.test_mode, eligible=set(dealt))

    def _ante(self, e: AntePosted) -> None:
        self._seat(e.seat).stack -= e.amount
        if self.hand is not None:
            self.hand.collected += e.amount

    def _blind(self, e: BlindPosted) -> None:
        self._put_in(e.seat, e.amount)

    def _hole(self, e: HoleCardsDealt) -> None:
        if e.cards:
            self._seat(e.seat).hole_cards = e.cards

    def _action(self, e: ActionTaken) -> None:
        s = self._seat(e.seat)
        if e.action is ActionKind.FOLD:
            s.folded = True
            if self.hand is not None:
                self.hand.eligible.discard(e.seat)
        else:
            s.stack -= e.added
            s.bet = e.to
        self._turn_over()

    def _turn_over(self) -> None:
        if self.hand is not None:
            self.hand.actor = self.hand.decision = self.hand.legal = None

    def _board(self, e: BoardDealt) -> None:
        self._gather()
        if self.hand is not None:
            self.hand.board.extend(e.cards)
            self.hand.street = e.street

    def _returned(self, e: BetReturned) -> None:
        s = self._seat(e.seat)
        from_bet = min(s.bet, e.amount)
        s.bet -= from_bet
        s.stack += e.amount
        if self.hand is not None:
            self.hand.collected -= e.amount - from_bet

    def _shown(self, e: CardsShown) -> None:
        self._seat(e.seat).hole_cards = e.cards

    def _raked(self, e: RakeTaken) -> None:
        self._gather()  # R36: the rake leaves the middle before any pot is awarded
        if self.hand is not None:
            self.hand.collected -= e.amount

    def _awarded(self, e: PotAwarded) -> None:
        self._gather()
        if self.hand is not None:
            self.hand.collected -= e.amount
            self.hand.street = Street.SHOWDOWN if len(self.hand.board) == 5 else self.hand.street
        for seat, share in zip(e.winners, e.shares, strict=False):
            self._seat(seat).stack += share

    def _turn(self, e: TurnStarted) -> None:
        if self.hand is None:
            return
        h = self.hand
        h.actor, h.decision, h.action_number = e.seat, e.decision, e.action_number
        h.deadline_unix_ms, h.legal = e.deadline_unix_ms, e.legal
        h.time_bank_ms, h.bank_deadline_unix_ms = e.time_bank_ms, e.bank_deadline_unix_ms  # R35
        if e.time_bank_ms and e.seat in self.seats:
            self.seats[e.seat].time_bank_ms = e.time_bank_ms
        if e.decision is Decision.SHOW_OR_MUCK:  # betting is over: the bets go in the middle
            h.street = Street.SHOWDOWN
            self._gather()

    def _seated(self, e: PlayerSeated) -> None:
        self.seats[e.seat] = _Seat(e.player_id, e.stack,
                                   waiting_for_big_blind=e.wait_for_big_blind)

    def _unseated(self, e: PlayerUnseated) -> None:
        self.seats.pop(e.stack.seat, None)

    def _chips(self, e: ChipsAdded) -> None:
        self._seat(e.seat).stack = e.stack

    def _level(self, e: LevelSet) -> None:
        if e.level is not None:
            self.next_level = e.level

    def _closed(self, e: TableClosed) -> None:
        self.closed = True
        self.hand = None


def _missed(tracker: TableTracker, e: BlindMissed) -> None:
    """R33: the seat owes the big blind, and the small blind dead too once both went by
    (in either order); a small blind alone owes nothing yet (GetTable shows no debt)."""
    if e.seat in tracker.seats:
        seat = tracker.seats[e.seat]
        if e.blind is BlindKind.SMALL:
            seat.missed_small_blind = True
        elif seat.owed_blinds is None or not seat.owed_blinds.big_blind:
            seat.owed_blinds = OwedBlinds(big_blind=True)
        if seat.owed_blinds is not None and seat.missed_small_blind:
            seat.owed_blinds = replace(seat.owed_blinds, small_blind=True)


def _set(attr: str, value: Any) -> Any:
    def handler(tracker: TableTracker, e: Any) -> None:
        setattr(tracker._seat(e.seat), attr, value)
    return handler


def _sat_out(tracker: TableTracker, e: PlayerSatOut) -> None:
    seat = tracker._seat(e.seat)
    seat.sitting_out, seat.sits_out_after_hand = True, None  # what was scheduled is done


def _scheduled(tracker: TableTracker, e: SitOutScheduled) -> None:
    tracker._seat(e.seat).sits_out_after_hand = e.after_hand or None


_HANDLERS: dict[type[Any], Any] = {
    HandStarted: TableTracker._hand_started,
    AntePosted: TableTracker._ante,
    BlindPosted: TableTracker._blind,
    HoleCardsDealt: TableTracker._hole,
    ActionTaken: TableTracker._action,
    BoardDealt: TableTracker._board,
    BetReturned: TableTracker._returned,
    CardsShown: TableTracker._shown,
    PotAwarded: TableTracker._awarded,
    RakeTaken: TableTracker._raked,
    HandEnded: lambda t, e: t._end_hand(e.stacks),
    HandVoided: lambda t, e: t._end_hand(e.stacks),
    TurnStarted: TableTracker._turn,
    TurnTimedOut: lambda t, e: t._turn_over(),
    TimeBankUsed: lambda t, e: t.seats[e.seat].__setattr__("time_bank_ms", e.left_ms)
    if e.seat in t.seats else None,  # R35
    PlayerSeated: TableTracker._seated,
    PlayerUnseated: TableTracker._unseated,
    ChipsAdded: TableTracker._chips,
    BlindMissed: _missed,  # R33
    PlayerSatOut: _sat_out,
    SitOutScheduled: _scheduled,
    PlayerSatIn: _set("sitting_out", False),
    ButtonSet: lambda t, e: setattr(t, "button", e.seat),
    LevelSet: TableTracker._level,
    TableClosed: TableTracker._closed,
}
