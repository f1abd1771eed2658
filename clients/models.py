"""The table as SDK values: seats, pots, hands, table views, and a table's requested config.

The enums, `Action`, `LegalActions` and `Level` are the platform's vocabulary
(`poker.vocab`), the very types the engine plays with, re-exported here. Every value
is a frozen dataclass built from the DealerService messages by `clients.convert`;
cards are `Card`s, chips are `int`s, unset optional fields `None`.

>>> Action.raise_to(300), str(Action.call()), str(Action.bet(200))
(Action(kind=<ActionKind.RAISE: 'raise'>, amount=300), 'call', 'bet 200')
>>> legal = LegalActions(seat=2, decision=Decision.BET, can_fold=True, can_call=True,
...                      call_amount=100, bet_kind=ActionKind.RAISE, min_to=200, max_to=1000,
...                      can_all_in=True, all_in_to=1000)
>>> legal.allows(Action.raise_to(150)), legal.allows(Action.raise_to(200)), legal.can_check
(False, True, False)
>>> [str(a) for a in legal.options()]
['fold', 'call 100', 'raise to 200..1000', 'all-in 1000']
"""

from __future__ import annotations

from dataclasses import dataclass, field

from clients.cards import Card
from poker.v1 import dealer_pb2
from poker.vocab.actions import Action, LegalActions, Option
from poker.vocab.config import Level, Rake, RakeCap
from poker.vocab.enums import (
    ActionKind,
    AnteForm,
    BlindKind,
    ButtonRule,
    Decision,
    MinRaiseRule,
    Preset,
    ShowReason,
    SitOutReason,
    Street,
    Structure,
    UnseatReason,
)

__all__ = [
    "Action", "ActionKind", "AnteForm", "BlindKind", "ButtonRule", "Decision", "HandView",
    "LegalActions", "Level", "MinRaiseRule", "Option", "OwedBlinds", "Pot", "Preset", "Rake",
    "RakeCap", "SeatStack", "SeatView", "ShowReason", "SitOutReason", "Street", "Structure",
    "TableConfig", "TableView", "UnseatReason",
]


# ----------------------------------------------------------------------------- the table


@dataclass(frozen=True, slots=True)
class TableConfig:
    """A table's game: the DealerService TableConfig; zero/None fields take the server default.

    >>> TableConfig(seats=6, levels=(Level(5, 10),), action_time_ms=5000).to_proto().seats
    6
    """

    seats: int = 0
    structure: Structure | None = None
    preset: Preset | None = None
    levels: tuple[Level, ...] = ()
    hands_per_level: int = 0
    minutes_per_level: float = 0.0
    ante_form: AnteForm | None = None
    turn_river_min_bet: int = 0
    min_raise_rule: MinRaiseRule | None = None
    fixed_limit_cap: int = 0
    all_in_exposure: bool | None = None
    action_time_ms: int = 0
    show_time_ms: int = 0
    pause_between_hands_ms: int | None = None
    test_mode: bool = False
    deck_seed: int = 0
    player_seeded_decks: bool = False  # R39: the SDK sends its seeds by itself
    seed_time_ms: int = 0
    rake: Rake | None = None  # R36: e.g. Rake(500, cap=300) takes 5%, at most 300 a hand
    straddle: bool = False  # R37: the seat left of the big blind may straddle
    absent_dealt_in: bool = False  # T4: a tournament table deals sat-out players in
    button_rule: ButtonRule | None = None  # R5; None: the server's default, dead
    min_players_to_start: int = 0  # the first hand waits for this many; 0: 2
    # R34 sit-out limit, R35 time bank (None: the rule book's default; 0: none), R38
    sit_out_limit_ms: int | None = None
    sit_out_limit_orbits: int | None = None
    time_bank_ms: int | None = None
    time_bank_refill_ms: int | None = None
    time_bank_refill_hands: int | None = None
    run_it_twice: bool = False

    def to_proto(self) -> dealer_pb2.TableConfig:
        """The `poker.v1.TableConfig` message."""
        from clients.convert import to_proto  # convert imports this module

        return to_proto(self, dealer_pb2.TableConfig)


@dataclass(frozen=True, slots=True)
class Pot:
    """A pot and the seats that may win it (R22)."""

    amount: int
    eligible: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class SeatStack:
    """A seat's chips (after a hand, or as returned when leaving or closing)."""

    seat: int
    stack: int
    player_id: str = ""


@dataclass(frozen=True, slots=True)
class OwedBlinds:
    """R10, R33: the blinds a seat owes before it plays again, and what it does about them
    on the next hand as the table stands now (`poker.v1.OwedBlinds` says each field)."""

    big_blind: bool = False  # missed while away (R33), or a newcomer's (R10)
    small_blind: bool = False  # missed too: posted dead (R33)
    joined_late: bool = False  # a newcomer's debt (R10), not a missed one
    waits_for_big_blind: bool = False  # chose to wait rather than post
    posts_big_blind_next_hand: bool = False  # live, out of turn
    posts_dead_small_blind_next_hand: bool = False
    big_blind_next_hand: bool = False  # the big blind in turn pays it
    waits_next_hand: bool = False  # not dealt in next hand


@dataclass(frozen=True, slots=True)
class SeatView:
    """A seat as the caller sees it. `stack` is behind; `bet` is in front this round."""

    seat: int
    player_id: str
    stack: int
    bet: int = 0
    sitting_out: bool = False
    in_hand: bool = False
    folded: bool = False
    all_in: bool = False
    hole_cards: tuple[Card, ...] = ()
    waiting_for_big_blind: bool = False
    hole_card_salts: tuple[bytes, ...] = ()  # R3: each opens its hole card
    time_bank_ms: int = 0  # R35: the seat's time bank left
    owed_blinds: OwedBlinds | None = None  # R10, R33: None when it owes nothing

    @property
    def active(self) -> bool:
        """In the hand, not folded."""
        return self.in_hand and not self.folded


@dataclass(frozen=True, slots=True)
class HandView:
    """The hand in progress. `legal` is set only for the seat whose decision is awaited."""

    hand_id: str
    hand_number: int
    street: Street
    board: tuple[Card, ...] = ()
    pots: tuple[Pot, ...] = ()
    actor: int | None = None
    decision: Decision | None = None
    action_number: int = 0
    deadline_unix_ms: int = 0
    legal: LegalActions | None = field(default=None, metadata={"proto": "legal_actions"})
    commitment: str = ""
    test_mode: bool = False
    button: int = 0
    level: Level | None = None
    board_salts: tuple[bytes, ...] = ()  # R3: each opens its board card
    deck_permutation: tuple[int, ...] = ()  # R39
    time_bank_ms: int = 0  # R35: the actor's bank as the decision started
    bank_deadline_unix_ms: int = 0  # R35: the deadline with the bank used too


@dataclass(frozen=True, slots=True)
class TableView:
    """A table as the caller sees it, up to event `sequence`.

    Helpers read it from the caller's seat: `me`, `my_cards`, `legal`, `is_my_turn`,
    `to_call`, `pot_total`, `board`.
    """

    table_id: str
    sequence: int = 0
    seats: tuple[SeatView, ...] = ()
    hand: HandView | None = None
    button: int | None = None
    hands_played: int = 0
    next_level: Level | None = None
    your_seat: int | None = None
    closed: bool = False
    config: TableConfig | None = None

    def seat(self, seat: int) -> SeatView | None:
        """The seat `seat`, when occupied."""
        return next((s for s in self.seats if s.seat == seat), None)

    @property
    def me(self) -> SeatView | None:
        """The caller's seat (None for a spectator)."""
        return None if self.your_seat is None else self.seat(self.your_seat)

    @property
    def my_cards(self) -> tuple[Card, ...]:
        me = self.me
        return me.hole_cards if me else ()

    @property
    def board(self) -> tuple[Card, ...]:
        return self.hand.board if self.hand else ()

    @property
    def legal(self) -> LegalActions | None:
        """The caller's legal actions when its decision is awaited, else None."""
        if self.hand is None or self.hand.legal is None:
            return None
        return self.hand.legal if self.hand.legal.seat == self.your_seat else None

    @property
    def is_my_turn(self) -> bool:
        return self.legal is not None

    @property
    def to_call(self) -> int:
        legal = self.legal
        return legal.call_amount if legal and legal.can_call else 0

    @property
    def pot_total(self) -> int:
        """Every chip in the middle: the pots and the bets of the current round."""
        if self.hand is None:
            return 0
        return sum(p.amount for p in self.hand.pots) + sum(s.bet for s in self.seats)

    @property
    def active_seats(self) -> tuple[SeatView, ...]:
        """Seats still in the hand (dealt in and not folded)."""
        return tuple(s for s in self.seats if s.active)
