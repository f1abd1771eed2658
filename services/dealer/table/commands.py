"""The commands a table decides on: one frozen value per call of the lobby, the players
and the table's own clocks. Randomness (the deck, its salts, the button's draw) comes
in the command, so `decide` is deterministic."""

from __future__ import annotations

from dataclasses import dataclass

from services.dealer import deck


@dataclass(frozen=True, slots=True)
class SeatPlayer:
    """The lobby seats a player (R30); `seat` None: the first free seat."""

    seat: int | None
    player_id: str
    stack: int
    wait_for_big_blind: bool = False


@dataclass(frozen=True, slots=True)
class AddChips:
    """A rebuy between hands (R30); the key makes it idempotent."""

    seat: int
    amount: int
    key: str


@dataclass(frozen=True, slots=True)
class Unseat:
    """A player leaves between hands with their stack (R31)."""

    seat: int


@dataclass(frozen=True, slots=True)
class SetButton:
    """The lobby's draw for the first hand's button (R4)."""

    seat: int


@dataclass(frozen=True, slots=True)
class SetLevel:
    """R9: the next hand plays level `index`."""

    index: int


@dataclass(frozen=True, slots=True)
class SetDealLimit:
    """T5, T7: deal no hand past number `until_hand` (None: no limit)."""

    until_hand: int | None


@dataclass(frozen=True, slots=True)
class SitOut:
    seat: int
    after_hand: int | None = None  # once this hand has ended (None: from the next hand)


@dataclass(frozen=True, slots=True)
class SitIn:
    seat: int
    wait_for_big_blind: bool = False  # R33


@dataclass(frozen=True, slots=True)
class SetStraddle:
    """R37: the seat straddles from the next hand whenever it is left of the big blind."""

    seat: int
    straddle: bool


@dataclass(frozen=True, slots=True)
class Act:
    """A player's decision `action_number` of hand `hand_id`."""

    seat: int
    hand_id: str
    action_number: int
    kind: str
    amount: int


@dataclass(frozen=True, slots=True)
class ClockRang:
    """The awaited decision's clock ran out (R27, R32)."""

    hand_id: str
    action_number: int


@dataclass(frozen=True, slots=True)
class MarkBank:
    """R35: the awaited decision runs in its time bank; write what it spent so far
    (services.dealer.table.clocks: kept across a dealer restart)."""

    hand_id: str
    action_number: int


@dataclass(frozen=True, slots=True)
class Close:
    """The table closes; a hand in progress is voided when `void_hand`."""

    void_hand: bool


@dataclass(frozen=True, slots=True)
class StartHand:
    """The next hand, on `shuffled` (R2, R3); `button_draw` is R4's draw (seat, cards by
    seat) when the first hand has no button yet (see decide.needs_button_draw)."""

    shuffled: deck.ShuffledDeck
    button_draw: tuple[int, dict[int, int]] | None = None


@dataclass(frozen=True, slots=True)
class CommitSeeds:
    """R39: a seat's hash chain head, once per seating."""

    seat: int
    chain_head: bytes


@dataclass(frozen=True, slots=True)
class RevealSeed:
    """R39: a seat's seed for the hand awaiting seeds."""

    seat: int
    hand_id: str
    seed: bytes


@dataclass(frozen=True, slots=True)
class DealSeeded:
    """R39: deal the hand awaiting seeds with the seeds in (the seed time is over)."""


@dataclass(frozen=True, slots=True)
class Resume:
    """A restarted dealer resumes the running hand: a fresh clock for the awaited
    decision, or the end of a hand that is over."""


@dataclass(frozen=True, slots=True)
class VoidHand:
    """The running hand stops; every chip committed to it goes back."""

    reason: str


@dataclass(frozen=True, slots=True)
class TakeOffSatOut:
    """R34: the table's clock: seats sat out past the sit-out limit leave."""


Command = (SeatPlayer | AddChips | Unseat | SetButton | SetLevel | SetDealLimit | SitOut | SitIn
           | SetStraddle | Act | TakeOffSatOut
           | ClockRang | MarkBank | Close | StartHand | CommitSeeds | RevealSeed | DealSeeded
           | Resume | VoidHand)
