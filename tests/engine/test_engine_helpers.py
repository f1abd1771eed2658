"""Helpers for the engine's tests (stacked decks, short action scripts), and their own tests.

Seats are 0..n-1 and the button is the last seat, so a seat is also its position
in dealing order (seat 0 is first left of the button; heads-up seat 0 is the big
blind and seat 1 the button).
"""

from __future__ import annotations

from collections.abc import Sequence

from poker.cards import parse_cards
from services.dealer.engine import (
    Action,
    ActionKind,
    Event,
    Hand,
    Level,
    PlayerIn,
    Preset,
    TableConfig,
)
from services.evaluator.ranker import DEFAULT_RANKER

ACTIONS = {
    "fold": Action.fold,
    "check": Action.check,
    "call": Action.call,
    "all-in": Action.all_in,
    "show": Action.show,
    "muck": Action.muck,
}


def deck_for(holes: Sequence[str], board: str = "") -> list[int]:
    """A deck in R12 order: holes[i] are seat i's cards ("AsKd"), then the board, rest filled.

    >>> from poker.cards import cards_text
    >>> deck = deck_for(["AsKd", "2c2d"], "QsJsTs9h8h")
    >>> cards_text(deck[:4]), cards_text([deck[5], deck[6], deck[7], deck[9], deck[11]])
    ('As2cKd2d', 'QsJsTs9h8h')
    """
    n = len(holes)
    slots: list[int | None] = [None] * 52
    for i, text in enumerate(holes):
        first, second = parse_cards(text)
        slots[i], slots[n + i] = first, second
    for position, card in zip(
        (2 * n + 1, 2 * n + 2, 2 * n + 3, 2 * n + 5, 2 * n + 7), parse_cards(board), strict=False
    ):
        slots[position] = card
    used = {c for c in slots if c is not None}
    assert len(used) == sum(c is not None for c in slots), "a card is given twice"
    spare = iter(c for c in range(52) if c not in used)
    return [next(spare) if c is None else c for c in slots]


def config(**options: object) -> TableConfig:
    """A TableConfig: 50/100 (or `blinds=(sb, bb, ante)`), the standard preset unless told."""
    blinds = options.pop("blinds", (50, 100, 0))
    assert isinstance(blinds, tuple)
    options.setdefault("preset", Preset.STANDARD)
    options.setdefault("levels", (Level(*blinds),))
    options.setdefault("seats", 10)
    return TableConfig(**options)  # type: ignore[arg-type]


def start(
    stacks: Sequence[int],
    holes: Sequence[str] | None = None,
    board: str = "",
    *,
    table: TableConfig | None = None,
    late: Sequence[int] = (),
    **options: object,
) -> Hand:
    """A hand with players in seats 0..n-1, the button on the last seat (deck 0..51 unless
    hole cards are given)."""
    n = len(stacks)
    assert holes is not None or not board, "give the hole cards with the board"
    deck = deck_for(holes, board) if holes is not None else list(range(52))
    players = [PlayerIn(i, f"p{i + 1}", s, posts_late=i in late) for i, s in enumerate(stacks)]
    return Hand.start(table or config(**options), players, n - 1, deck, ranker=DEFAULT_RANKER)


def act(hand: Hand, move: str) -> list[Event]:
    """One move for the player to act: "fold", "check", "call", "all-in", "bet 200",
    "raise 300", "show", "muck"; "3: call" also checks that seat 3 is to act."""
    seat = hand.actor
    assert seat is not None, f"nobody is to act, cannot {move!r}"
    if ":" in move:
        who, move = move.split(":")
        assert int(who) == seat, f"seat {seat} is to act, not {who} ({move!r})"
    words = move.split()
    if words[0] in ("bet", "raise"):
        return hand.act(seat, Action(ActionKind(words[0]), int(words[1])))
    return hand.act(seat, ACTIONS[words[0]]())


def play(hand: Hand, *moves: str) -> Hand:
    """Several moves in turn."""
    for move in moves:
        act(hand, move)
    return hand


def finish(hand: Hand, move: str = "check") -> Hand:
    """Check or call down and show every hand asked (or `move` for betting decisions)."""
    while hand.actor is not None:
        legal = hand.legal_actions()
        if legal.can_show:
            act(hand, "show")
        elif move == "check" and not legal.can_check:
            act(hand, "call")
        else:
            act(hand, move)
    return hand


def kinds(events: Sequence[Event]) -> list[str]:
    """The class names of events."""
    return [type(e).__name__ for e in events]


def stacks(hand: Hand) -> list[int]:
    """Stacks in seat order."""
    return [s for _, s in sorted(hand.stacks.items())]


def test_deck_for_puts_cards_where_R12_deals_them() -> None:
    hand = start([1000, 1000, 1000], ["AsKd", "2c2d", "7h7s"], "QsJsTs9h8h")
    assert hand.hole_cards(0) == tuple(parse_cards("AsKd"))
    assert hand.hole_cards(2) == tuple(parse_cards("7h7s"))
    finish(hand)
    assert hand.board == tuple(parse_cards("QsJsTs9h8h"))


def test_scripts_act_for_the_player_to_act() -> None:
    hand = play(start([1000, 1000, 1000]), "2: raise 300", "fold", "1: fold")
    assert hand.is_over and stacks(hand) == [950, 900, 1150]
