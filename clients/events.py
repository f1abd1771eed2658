"""A table's events as SDK values: one frozen dataclass per TableEvent kind, all sharing
`sequence`, `time_unix_ms` and `hand_id`.

An event the caller may not see (the audit trail) arrives as `Hidden`, so sequence
numbers stay without holes. `clients.convert.event_from_proto` builds them.

>>> from clients.cards import cards
>>> e = BoardDealt(sequence=9, time_unix_ms=0, hand_id="t-1", street=Street.FLOP,
...                cards=cards("As Kd 7c"))
>>> e.kind, [str(c) for c in e.cards]
('board_dealt', ['As', 'Kd', '7c'])
"""

from __future__ import annotations

import dataclasses
import re
import typing
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar

from clients.cards import Card
from clients.models import (
    ActionKind,
    BlindKind,
    Decision,
    LegalActions,
    Level,
    SeatStack,
    ShowReason,
    SitOutReason,
    Street,
    UnseatReason,
)
from poker import mapping
from poker.vocab import enums as vocab_enums

__all__ = [
    "ActionTaken", "AntePosted", "BetReturned", "BlindMissed", "BlindPosted", "BoardDealt",
    "ButtonSet", "DealLimitSet",
    "CardsMucked", "CardsShown", "ChipsAdded", "DeckRevealed", "DeckSet", "Event", "HandEnded",
    "HandPlayer", "HandStarted", "HandVoided", "Hidden", "HoleCardsDealt", "LevelSet",
    "PlayerSatIn", "PlayerSatOut", "PlayerSeated", "PlayerUnseated", "PotAwarded", "RakeTaken",
    "SeatCard", "StraddleSet",
    "SeatSeed", "SeedsCommitted", "DeckCommitted", "DeckSeeded",
    "TableClosed", "TurnStarted", "TurnTimedOut", "EVENT_TYPES", "TimeBankUsed", "RunItChosen",
    "SecondBoardDealt",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """What every event carries: its place in the table's log and its hand ("" for table events)."""

    kind: ClassVar[str] = ""
    sequence: int
    time_unix_ms: int = 0
    hand_id: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Hidden(Event):
    """An event the caller may not see (audit only): its sequence number, no payload."""

    kind: ClassVar[str] = "hidden"


@dataclass(frozen=True, slots=True)
class HandPlayer:
    """A player dealt into a hand, with the stack it started with (R29)."""

    seat: int
    player_id: str
    stack: int
    posts_late: bool = False
    straddles: bool = False  # R37: posts a straddle this hand
    posts_dead_small_blind: bool = False  # R33


@dataclass(frozen=True, slots=True)
class SeatCard:
    """One seat's card in the dealer's button draw (R4)."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True, kw_only=True)
class HandStarted(Event):
    """A hand begins; `commitment` is C = SHA-256(h_0 || ... || h_51) in hex, with
    h_i = SHA-256(s_i || i || card_i) (R3)."""

    kind: ClassVar[str] = "hand_started"
    hand_number: int
    button: int
    level: Level
    players: tuple[HandPlayer, ...]
    commitment: str
    test_mode: bool = False
    small_blind_seat: int | None = None  # R5: None when no small blind is posted
    big_blind_seat: int = 0
    button_dead: bool = False  # R5: nobody dealt in sits at the button


@dataclass(frozen=True, slots=True, kw_only=True)
class DeckSet(Event):
    """The deck order before the first card (the auditor's stream only)."""

    kind: ClassVar[str] = "deck_set"
    deck: tuple[Card, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class AntePosted(Event):
    kind: ClassVar[str] = "ante_posted"
    seat: int
    amount: int
    all_in: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class BlindPosted(Event):
    kind: ClassVar[str] = "blind_posted"
    seat: int
    blind: BlindKind
    amount: int
    all_in: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class HoleCardsDealt(Event):
    """Two cards to a seat: `cards` (and their R3 `salts`) are empty unless they are the
    caller's (or the auditor's)."""

    kind: ClassVar[str] = "hole_cards_dealt"
    seat: int
    cards: tuple[Card, ...] = ()
    salts: tuple[bytes, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class ActionTaken(Event):
    """A betting action: `to` is the seat's bet this round after it, `added` the chips put in."""

    kind: ClassVar[str] = "action_taken"
    seat: int
    action: ActionKind
    to: int = 0
    added: int = 0
    all_in: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class BoardDealt(Event):
    kind: ClassVar[str] = "board_dealt"
    street: Street
    cards: tuple[Card, ...]
    salts: tuple[bytes, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class BetReturned(Event):
    """An uncalled bet goes back (R21)."""

    kind: ClassVar[str] = "bet_returned"
    seat: int
    amount: int


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsShown(Event):
    kind: ClassVar[str] = "cards_shown"
    seat: int
    cards: tuple[Card, ...]
    reason: ShowReason | None = None
    salts: tuple[bytes, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsMucked(Event):
    kind: ClassVar[str] = "cards_mucked"
    seat: int
    cards: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class PotAwarded(Event):
    """A pot awarded: `winners[i]` got `shares[i]` (R24)."""

    kind: ClassVar[str] = "pot_awarded"
    index: int
    amount: int
    eligible: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    shares: tuple[int, ...] = ()
    run: int = 0  # R38: 0 run once, else the board (1 or 2) it was settled on


@dataclass(frozen=True, slots=True, kw_only=True)
class RakeTaken(Event):
    """R36: the house's rake, before any pot is awarded: `pots[i]` from pot i (0 = main)."""

    kind: ClassVar[str] = "rake_taken"
    amount: int
    pots: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class HandEnded(Event):
    """Every dealt-in seat's stack after the hand."""

    kind: ClassVar[str] = "hand_ended"
    stacks: tuple[SeatStack, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class DeckRevealed(Event):
    """The proof of the deck (R3), the caller's copy: `hashes[i]` is h_i of each position
    not opened to the caller (b"" where it was); the auditor's has `deck` and `salts`
    (committed order) instead. `withheld`: a hand from before per-position commitments,
    its proof the auditor's alone (`salt`, `deck`)."""

    kind: ClassVar[str] = "deck_revealed"
    salt: bytes = b""
    deck: tuple[Card, ...] = ()
    commitment: str
    hashes: tuple[bytes, ...] = ()
    salts: tuple[bytes, ...] = ()
    withheld: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatSeed:
    """One seat's seed of a hand (R39); empty when none came in time."""

    seat: int
    seed: bytes = b""


@dataclass(frozen=True, slots=True, kw_only=True)
class SeedsCommitted(Event):
    """A seat committed to its hash chain of seeds (R39)."""

    kind: ClassVar[str] = "seeds_committed"
    seat: int
    chain_head: bytes


@dataclass(frozen=True, slots=True, kw_only=True)
class DeckCommitted(Event):
    """R39: the coming hand's commitment, before any seed; the seats dealt in reveal one."""

    kind: ClassVar[str] = "deck_committed"
    hand_number: int
    commitment: str
    seats: tuple[int, ...] = ()
    deadline_unix_ms: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class DeckSeeded(Event):
    """R39: the hand's seeds (seat order) and the permutation they draw."""

    kind: ClassVar[str] = "deck_seeded"
    seeds: tuple[SeatSeed, ...] = ()
    permutation: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnStarted(Event):
    """The dealer awaits a decision; `legal` holds its public bounds."""

    kind: ClassVar[str] = "turn_started"
    seat: int
    decision: Decision
    action_number: int
    deadline_unix_ms: int = 0
    legal: LegalActions | None = field(default=None, metadata={"proto": "legal_actions"})
    time_bank_ms: int = 0  # R35: the seat's bank as the decision starts
    bank_deadline_unix_ms: int = 0  # R35: deadline_unix_ms + time_bank_ms (0: no bank)


@dataclass(frozen=True, slots=True, kw_only=True)
class TimeBankUsed(Event):
    """R35: a seat used `used_ms` of its time bank; `left_ms` is left."""

    kind: ClassVar[str] = "time_bank_used"
    seat: int
    used_ms: int
    left_ms: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class RunItChosen(Event):
    """R38: an all-in player's answer: run the rest of the board `times` (1 or 2)."""

    kind: ClassVar[str] = "run_it_chosen"
    seat: int
    times: int


@dataclass(frozen=True, slots=True, kw_only=True)
class SecondBoardDealt(Event):
    """R38: cards of the board's second run (and their R3 salts)."""

    kind: ClassVar[str] = "second_board_dealt"
    street: Street
    cards: tuple[Card, ...] = ()
    salts: tuple[bytes, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnTimedOut(Event):
    kind: ClassVar[str] = "turn_timed_out"
    seat: int
    action_number: int


@dataclass(frozen=True, slots=True, kw_only=True)
class HandVoided(Event):
    """A hand stopped; every chip committed to it went back."""

    kind: ClassVar[str] = "hand_voided"
    stacks: tuple[SeatStack, ...]
    reason: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerSeated(Event):
    kind: ClassVar[str] = "player_seated"
    seat: int
    player_id: str
    stack: int
    wait_for_big_blind: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerUnseated(Event):
    """A player left with their stack; `reason` SIT_OUT_LIMIT when the dealer took them
    off (R34), None when the lobby did."""

    kind: ClassVar[str] = "player_unseated"
    stack: SeatStack
    reason: UnseatReason | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ChipsAdded(Event):
    kind: ClassVar[str] = "chips_added"
    seat: int
    amount: int
    stack: int


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerSatOut(Event):
    kind: ClassVar[str] = "player_sat_out"
    seat: int
    reason: SitOutReason | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerSatIn(Event):
    kind: ClassVar[str] = "player_sat_in"
    seat: int
    wait_for_big_blind: bool = False  # R33


@dataclass(frozen=True, slots=True, kw_only=True)
class StraddleSet(Event):
    """R37: a seat straddles from the next hand whenever left of the big blind (or no more)."""

    kind: ClassVar[str] = "straddle_set"
    seat: int
    straddle: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class BlindMissed(Event):
    kind: ClassVar[str] = "blind_missed"
    seat: int
    blind: BlindKind


@dataclass(frozen=True, slots=True, kw_only=True)
class ButtonSet(Event):
    kind: ClassVar[str] = "button_set"
    seat: int
    draw: tuple[SeatCard, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class LevelSet(Event):
    kind: ClassVar[str] = "level_set"
    level_index: int
    level: Level | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class DealLimitSet(Event):
    """T5, T7: the table's director holds hands past `until_hand` while `limited`."""

    kind: ClassVar[str] = "deal_limit_set"
    until_hand: int
    limited: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class TableClosed(Event):
    kind: ClassVar[str] = "table_closed"
    stacks: tuple[SeatStack, ...] = ()


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _zero(hint: Any) -> Any:
    """A derived field's default: what an unset field of the wire reads as."""
    return {int: 0, str: "", bytes: b"", bool: False, float: 0.0}.get(hint)


def derived_event(case: str, domain: type) -> type[Event]:
    """The SDK event of a kind declared only in the vocabulary (poker.vocab): the envelope
    and the domain class's fields, as the wire carries them (a card as a `Card`, an enum's
    text as the enum, None when unset), each defaulting to its unset value. A kind the
    dealer adds is decoded by an SDK that has no line for it."""
    message = mapping.MESSAGES[domain].DESCRIPTOR
    hints = typing.get_type_hints(domain)
    fields: list[tuple[str, Any, Any]] = []
    for f in dataclasses.fields(domain):
        fd = message.fields_by_name.get(f.name)
        if fd is None or not f.init:
            continue  # the store's alone
        hint = hints[f.name]
        if fd.type == fd.TYPE_STRING and hint in (int, tuple[int, ...]):
            hint = Card if hint is int else tuple[Card, ...]
        elif fd.type == fd.TYPE_ENUM:
            enum_cls = hint if isinstance(hint, type) and issubclass(hint, Enum) else getattr(
                vocab_enums, fd.enum_type.name)
            hint = enum_cls | None
        default = () if typing.get_origin(hint) is tuple else _zero(hint)
        fields.append((f.name, hint, field(default=default)))
    cls = dataclasses.make_dataclass(
        domain.__name__, fields, bases=(Event,), frozen=True, slots=True, kw_only=True,
        namespace={"kind": case, "__doc__": domain.__doc__, "__module__": __name__})
    return cls


#: The event class of each TableEvent oneof name: the SDK's own where the wire's shape is
#: its own (cards as `Card`s, sub-messages as values), a derived one for any other kind.
EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls for cls in (
        HandStarted, DeckSet, AntePosted, BlindPosted, HoleCardsDealt, ActionTaken, BoardDealt,
        BetReturned, CardsShown, CardsMucked, PotAwarded, HandEnded, DeckRevealed, TurnStarted,
        TurnTimedOut, HandVoided, PlayerSeated, PlayerUnseated, ChipsAdded, PlayerSatOut,
        PlayerSatIn, BlindMissed, ButtonSet, LevelSet, TableClosed, SeedsCommitted, DeckCommitted,
        DeckSeeded, RakeTaken, StraddleSet, DealLimitSet, TimeBankUsed, RunItChosen,
        SecondBoardDealt)
}
assert all(_snake(cls.__name__) == kind for kind, cls in EVENT_TYPES.items())
EVENT_TYPES.update({case: derived_event(case, domain) for case, domain in mapping.EVENTS.items()
                    if case not in EVENT_TYPES})
