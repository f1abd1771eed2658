"""Dealing from a given deck order exactly as R12 says.

For n players in dealing order (left of the button first) and deck d: player i
holds d[i] and d[n+i]; burn d[2n]; flop d[2n+1..2n+3]; burn d[2n+4]; turn
d[2n+5]; burn d[2n+6]; river d[2n+7].

>>> hole_cards(list(range(52)), 3)
[(0, 3), (1, 4), (2, 5)]
>>> board_cards(list(range(52)), 3, Street.FLOP), board_cards(list(range(52)), 3, Street.RIVER)
((7, 8, 9), (13,))
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from poker.vocab.enums import Street
from poker.vocab.events import BoardDealt, DeckSet, HoleCardsDealt
from services.dealer.engine import betting
from services.dealer.engine.state import HandState

#: The street after each betting street.
NEXT_STREET = {Street.PREFLOP: Street.FLOP, Street.FLOP: Street.TURN, Street.TURN: Street.RIVER}


def hole_cards(deck: Sequence[int], n: int) -> list[tuple[int, int]]:
    """Each player's two cards, in dealing order: one card at a time, two rounds (R12)."""
    return [(deck[i], deck[n + i]) for i in range(n)]


def board_cards(deck: Sequence[int], n: int, street: Street) -> tuple[int, ...]:
    """The board cards of a street, each after its burn card (R12)."""
    start = 2 * n
    if street is Street.FLOP:
        return tuple(deck[start + 1 : start + 4])
    if street is Street.TURN:
        return (deck[start + 5],)
    if street is Street.RIVER:
        return (deck[start + 7],)
    raise ValueError(f"no board cards are dealt on the {street}")


def deal_hole_cards(state: HandState) -> Iterator[HoleCardsDealt]:
    """The hole-card events, one per player in dealing order."""
    seats = state.seats
    for p, cards in enumerate(hole_cards(state.deck, state.n)):
        yield HoleCardsDealt(seats[p], cards)


def next_board(state: HandState) -> BoardDealt:
    """The board event of the next street."""
    street = NEXT_STREET[state.street]
    return BoardDealt(street, board_cards(state.deck, state.n, street))


def apply_deck(state: HandState, event: DeckSet) -> None:
    state.deck = event.deck


def apply_hole_cards(state: HandState, event: HoleCardsDealt) -> None:
    p = state.pos[event.seat]
    state.hole[p] = event.cards
    if p == state.n - 1:  # the button's cards come last: betting begins (R13)
        betting.open_preflop(state)


def apply_board(state: HandState, event: BoardDealt) -> None:
    state.board.extend(event.cards)
    state.street = event.street
    betting.open_street(state)


APPLY: dict[type[Any], Callable[[HandState, Any], None]] = {
    DeckSet: apply_deck,
    HoleCardsDealt: apply_hole_cards,
    BoardDealt: apply_board,
}
