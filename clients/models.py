"""The table as SDK values: enums, actions and their legal bounds, seats, pots, hands, table views.

Every value is a frozen dataclass built from the DealerService messages by
`clients.convert`; cards are `Card`s, chips are `int`s, unset optional fields `None`.

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
from enum import StrEnum

from clients.cards import Card
from poker.v1 import dealer_pb2

__all__ = [
    "Action", "ActionKind", "AnteForm", "BlindKind", "Decision", "HandView", "LegalActions",
    "Level", "MinRaiseRule", "Pot", "Preset", "SeatStack", "SeatView", "ShowReason",
    "SitOutReason", "Street", "Structure", "TableConfig", "TableView",
]


class Street(StrEnum):
    """Where a hand is."""

    PREFLOP = "preflop"
    FLOP = "flop"
    TURN = "turn"
    RIVER = "river"
    SHOWDOWN = "showdown"
    COMPLETE = "complete"


class Decision(StrEnum):
    """The kind of decision a player is asked for: a betting one, or show-or-muck (R27)."""

    BET = "bet"
    SHOW_OR_MUCK = "show_or_muck"


class ActionKind(StrEnum):
    """What a player does (R14, R27)."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    ALL_IN = "all_in"
    SHOW = "show"
    MUCK = "muck"


class BlindKind(StrEnum):
    """A forced bet: small, big, or a late joiner's live big blind (R10)."""

    SMALL = "small"
    BIG = "big"
    LATE = "late"


class ShowReason(StrEnum):
    """Why cards were turned up: at showdown, or all-in exposure (R28)."""

    SHOWDOWN = "showdown"
    ALL_IN = "all_in"


class SitOutReason(StrEnum):
    """Why a player sits out: asked to, or timed out (R32)."""

    REQUESTED = "requested"
    TIMED_OUT = "timed_out"


class Structure(StrEnum):
    """The betting structure (R16)."""

    NO_LIMIT = "no_limit"
    POT_LIMIT = "pot_limit"
    FIXED_LIMIT = "fixed_limit"


class Preset(StrEnum):
    """Rule presets (RULES.md, Presets)."""

    SEED = "seed"
    STANDARD = "standard"


class MinRaiseRule(StrEnum):
    """The minimum raise rule (R18)."""

    DOUBLE = "double"
    STANDARD = "standard"


class AnteForm(StrEnum):
    """Who posts the ante (R8)."""

    EACH_PLAYER = "each_player"
    BIG_BLIND = "big_blind"


# ----------------------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class Action:
    """A decision. `amount` is the total the bet reaches this round ("raise to"), for bets
    and raises only.

    >>> Action.fold(), Action.all_in().kind
    (Action(kind=<ActionKind.FOLD: 'fold'>, amount=0), <ActionKind.ALL_IN: 'all_in'>)
    """

    kind: ActionKind
    amount: int = 0

    @classmethod
    def fold(cls) -> Action:
        return cls(ActionKind.FOLD)

    @classmethod
    def check(cls) -> Action:
        return cls(ActionKind.CHECK)

    @classmethod
    def call(cls) -> Action:
        return cls(ActionKind.CALL)

    @classmethod
    def bet(cls, amount: int) -> Action:
        """Open the betting of a round with a total of `amount`."""
        return cls(ActionKind.BET, amount)

    @classmethod
    def raise_to(cls, amount: int) -> Action:
        """Raise so that this player's bet in the round reaches `amount`."""
        return cls(ActionKind.RAISE, amount)

    @classmethod
    def all_in(cls) -> Action:
        return cls(ActionKind.ALL_IN)

    @classmethod
    def show(cls) -> Action:
        return cls(ActionKind.SHOW)

    @classmethod
    def muck(cls) -> Action:
        return cls(ActionKind.MUCK)

    def __str__(self) -> str:
        if self.kind is ActionKind.RAISE:
            return f"raise to {self.amount}"
        if self.kind is ActionKind.BET:
            return f"bet {self.amount}"
        return "all-in" if self.kind is ActionKind.ALL_IN else self.kind.value


@dataclass(frozen=True, slots=True)
class LegalActions:
    """What the player to act may do, and the bounds of the amounts (totals, "to")."""

    seat: int
    decision: Decision
    can_fold: bool = False
    can_check: bool = False
    can_call: bool = False
    call_amount: int = 0
    bet_kind: ActionKind | None = None
    min_to: int = 0
    max_to: int = 0
    can_show: bool = False
    can_muck: bool = False
    can_all_in: bool = False
    all_in_to: int = 0

    @property
    def can_bet(self) -> bool:
        return self.bet_kind is ActionKind.BET

    @property
    def can_raise(self) -> bool:
        return self.bet_kind is ActionKind.RAISE

    def allows(self, action: Action) -> bool:
        """Whether the server would accept `action` (its amount within the bounds)."""
        kind = action.kind
        if kind in (ActionKind.BET, ActionKind.RAISE):
            return self.bet_kind is kind and self.min_to <= action.amount <= self.max_to
        return {
            ActionKind.FOLD: self.can_fold, ActionKind.CHECK: self.can_check,
            ActionKind.CALL: self.can_call, ActionKind.ALL_IN: self.can_all_in,
            ActionKind.SHOW: self.can_show, ActionKind.MUCK: self.can_muck,
        }[kind]

    def options(self) -> list[Option]:
        """The legal actions, in the order a person reads them, with their amounts."""
        out: list[Option] = []
        if self.decision is Decision.SHOW_OR_MUCK:
            if self.can_show:
                out.append(Option(ActionKind.SHOW))
            if self.can_muck:
                out.append(Option(ActionKind.MUCK))
            return out
        for allowed, kind in ((self.can_fold, ActionKind.FOLD), (self.can_check,
                                                                 ActionKind.CHECK)):
            if allowed:
                out.append(Option(kind))
        if self.can_call:
            out.append(Option(ActionKind.CALL, self.call_amount, self.call_amount))
        if self.bet_kind is not None:
            out.append(Option(self.bet_kind, self.min_to, self.max_to))
        if self.can_all_in:
            out.append(Option(ActionKind.ALL_IN, self.all_in_to, self.all_in_to))
        return out


@dataclass(frozen=True, slots=True)
class Option:
    """One legal action with its amounts: a call's chips, a bet's or raise's range of totals."""

    kind: ActionKind
    low: int = 0
    high: int = 0

    def __str__(self) -> str:
        if self.kind in (ActionKind.BET, ActionKind.RAISE):
            word = "bet" if self.kind is ActionKind.BET else "raise to"
            return f"{word} {self.low}" + (f"..{self.high}" if self.high != self.low else "")
        if self.kind is ActionKind.CALL:
            return f"call {self.low}"
        if self.kind is ActionKind.ALL_IN:
            return f"all-in {self.low}"
        return self.kind.value


# ----------------------------------------------------------------------------- the table


@dataclass(frozen=True, slots=True)
class Level:
    """One level of blinds and ante (R6, R8, R9)."""

    small_blind: int
    big_blind: int
    ante: int = 0

    def __str__(self) -> str:
        return f"{self.small_blind}/{self.big_blind}" + (f" ante {self.ante}" if self.ante else "")


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
