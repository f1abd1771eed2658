"""The events a hand is made of (STYLE §4), who may see each one, and redaction.

Every change to a hand is one of these frozen values; the hand's state is the fold
of them. `visibility` says who sees an event whole: everyone (PUBLIC), the seat it
names (OWNER) or the auditor (AUDIT); anyone else gets `redacted()`, a copy without
the secret cards, or nothing (None) for the deck order.

The events that open cards (hole cards, board, shown hands) carry each card's salt
of the fair-deck proof (R3) when the dealer attaches them (`salts[k]` opens
`cards[k]`); the engine itself never reads them. A redacted copy has neither.

>>> dealt = HoleCardsDealt(seat=3, cards=(51, 47), salts=(b"a", b"b"))
>>> redact(dealt, 3) is dealt, redact(dealt, 1), redact(dealt, AUDITOR) is dealt
(True, HoleCardsDealt(seat=3, cards=(), salts=()), True)
>>> redact(DeckSet(deck=tuple(range(52))), SPECTATOR) is None
True
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from enum import Enum
from typing import ClassVar

from poker.vocab.config import Level, PlayerIn, TableConfig
from poker.vocab.enums import ActionKind, BlindKind, ShowReason, Street, Visibility


class Audience(Enum):
    """Viewers that are not a seat."""

    SPECTATOR = "spectator"
    AUDITOR = "auditor"


SPECTATOR = Audience.SPECTATOR
AUDITOR = Audience.AUDITOR
#: Who reads an event stream: a seat number, a spectator or the auditor.
Viewer = int | Audience


@dataclass(frozen=True, slots=True)
class HandStarted:
    """A hand begins: its table options, level, players dealt in, button, deck commitment
    (R3), and the blinds' seats (R5, R6).

    `big_blind_seat` None: the blinds sit where R6/R7 put them from the button (a hand
    started without them, and every hand before R5's rules). Given, the button may be a
    seat nobody dealt in holds (R5's dead button) and `small_blind_seat` None means no
    small blind this hand (R5 `dead`)."""

    hand_id: str
    config: TableConfig
    level: Level
    players: tuple[PlayerIn, ...]
    button: int
    commitment: str = ""
    small_blind_seat: int | None = None
    big_blind_seat: int | None = None
    kind: ClassVar[str] = "hand_started"
    visibility: ClassVar[Visibility] = Visibility.PUBLIC


@dataclass(frozen=True, slots=True)
class DeckSet:
    """The deck order for this hand (R12); the auditor's alone until the dealer reveals it (R3)."""

    deck: tuple[int, ...]
    kind: ClassVar[str] = "deck_set"
    visibility: ClassVar[Visibility] = Visibility.AUDIT


@dataclass(frozen=True, slots=True)
class AntePosted:
    """An ante (R8); all_in when it took the player's last chip (R11)."""

    seat: int
    amount: int
    all_in: bool = False
    kind: ClassVar[str] = "ante_posted"
    visibility: ClassVar[Visibility] = Visibility.PUBLIC


@dataclass(frozen=True, slots=True)
class BlindPosted:
    """A blind (R6, R7) or a late joiner's live post (R10); all_in when short (R11)."""

    seat: int
    blind: BlindKind
    amount: int
    all_in: bool = False
    kind: ClassVar[str] = "blind_posted"
    visibility: ClassVar[Visibility] = Visibility.PUBLIC


@dataclass(frozen=True, slots=True)
class HoleCardsDealt:
    """A player's two hole cards (R12); others see that cards were dealt, not which."""

    seat: int
    cards: tuple[int, ...]
    salts: tuple[bytes, ...] = ()  # R3: the owner's (and the auditor's) openings
    kind: ClassVar[str] = "hole_cards_dealt"
    visibility: ClassVar[Visibility] = Visibility.OWNER


@dataclass(frozen=True, slots=True)
class ActionTaken:
    """A betting action: `to` is the player's bet this round after it, `added` the chips it took.

    `action` is FOLD, CHECK, CALL, BET or RAISE; an all-in is one of those with all_in set.
    """

    seat: int
    action: ActionKind
    to: int
    added: int
    all_in: bool = False
    kind: ClassVar[str] = "action_taken"
    visibility: ClassVar[Visibility] = Visibility.PUBLIC


@dataclass(frozen=True, slots=True)
class BoardDealt:
    """Board cards for a street (R12: the burn card is never shown)."""

    street: Street
    cards: tuple[int, ...]
    salts: tuple[bytes, ...] = ()  # R3: opened to everyone
    kind: ClassVar[str] = "board_dealt"
    visibility: ClassVar[Visibility] = Visibility.PUBLIC


@dataclass(frozen=True, slots=True)
class BetReturned:
    """The uncalled part of a bet goes back to its bettor (R21)."""

    seat: int
    amount: int
    kind: ClassVar[str] = "bet_returned"
    visibility: ClassVar[Visibility] = Visibility.PUBLIC


@dataclass(frozen=True, slots=True)
class CardsShown:
    """A player's hole cards turned face up, at showdown (R26, R27) or all in (R28)."""

    seat: int
    cards: tuple[int, ...]
    reason: ShowReason = ShowReason.SHOWDOWN
    salts: tuple[bytes, ...] = ()  # R3: opened to everyone
    kind: ClassVar[str] = "cards_shown"
    visibility: ClassVar[Visibility] = Visibility.PUBLIC


@dataclass(frozen=True, slots=True)
class CardsMucked:
    """A player gave up their hand unseen; only the auditor learns the cards (R27)."""

    seat: int
    cards: tuple[int, ...]
    kind: ClassVar[str] = "cards_mucked"
    visibility: ClassVar[Visibility] = Visibility.AUDIT


@dataclass(frozen=True, slots=True)
class RakeTaken:
    """R36: the house's rake, out of the pots before any is awarded, main pot first;
    `pots[i]` is what pot i (0 = main) gave, `amount` their sum."""

    amount: int
    pots: tuple[int, ...]
    kind: ClassVar[str] = "rake_taken"
    visibility: ClassVar[Visibility] = Visibility.PUBLIC


@dataclass(frozen=True, slots=True)
class PotAwarded:
    """A pot (index 0 = main) goes to its winners; shares[i] is what winners[i] gets (R22-R24).

    `amount` is what the winners share: the pot less its part of any rake (R36)."""

    index: int
    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[int, ...]
    run: int = 0  # R38: 0 run once, else the board (1, 2) this half pot is settled on
    kind: ClassVar[str] = "pot_awarded"
    visibility: ClassVar[Visibility] = Visibility.PUBLIC


@dataclass(frozen=True, slots=True)
class RunItChosen:
    """R38: an all-in player's answer to running the rest of the board twice: 1 or 2."""

    seat: int
    times: int
    kind: ClassVar[str] = "run_it_chosen"
    visibility: ClassVar[Visibility] = Visibility.PUBLIC


@dataclass(frozen=True, slots=True)
class SecondBoardDealt:
    """R38: board cards of the second run, from the deck positions after the first run's."""

    street: Street
    cards: tuple[int, ...]
    salts: tuple[bytes, ...] = ()  # R3: opened to everyone
    kind: ClassVar[str] = "second_board_dealt"
    visibility: ClassVar[Visibility] = Visibility.PUBLIC


@dataclass(frozen=True, slots=True)
class HandEnded:
    """The hand is over; every player's stack, by seat."""

    stacks: tuple[tuple[int, int], ...]
    kind: ClassVar[str] = "hand_ended"
    visibility: ClassVar[Visibility] = Visibility.PUBLIC


Event = (
    HandStarted
    | DeckSet
    | AntePosted
    | BlindPosted
    | HoleCardsDealt
    | ActionTaken
    | BoardDealt
    | BetReturned
    | CardsShown
    | CardsMucked
    | RakeTaken
    | PotAwarded
    | HandEnded
    | RunItChosen
    | SecondBoardDealt
)

EVENT_TYPES: tuple[type[Event], ...] = (
    HandStarted,
    DeckSet,
    AntePosted,
    BlindPosted,
    HoleCardsDealt,
    ActionTaken,
    BoardDealt,
    BetReturned,
    CardsShown,
    CardsMucked,
    RakeTaken,
    PotAwarded,
    HandEnded,
    RunItChosen,
    SecondBoardDealt,
)


def sees_hole_cards(viewer: Viewer, seat: int, shown: Collection[int] = ()) -> bool:
    """The one rule of hole-card visibility (R27): the auditor sees every seat's cards, a
    seat its own, anyone the cards of a seat in `shown` (turned up: CardsShown).

    >>> sees_hole_cards(3, 3), sees_hole_cards(1, 3), sees_hole_cards(SPECTATOR, 3, {3})
    (True, False, True)
    """
    return viewer is AUDITOR or viewer == seat or seat in shown


def redact(event: Event, viewer: Viewer) -> Event | None:
    """The event as `viewer` may see it: whole, without secret cards, or None (not at all)."""
    visibility = event.visibility
    if visibility is Visibility.PUBLIC or viewer is AUDITOR:
        return event
    if isinstance(event, HoleCardsDealt):
        return event if sees_hole_cards(viewer, event.seat) else HoleCardsDealt(event.seat, ())
    if isinstance(event, CardsMucked):
        return CardsMucked(event.seat, ())
    return None
