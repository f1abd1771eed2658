"""Forced bets: antes (R8), blinds (R6, R7), late joiners' live posts (R10), short posts (R11).

`forced_bets` yields the posting events one at a time, reading the stacks as the
caller applies each one, so a short stack posts its ante first and then what is
left of its blind (R11).

>>> from poker.vocab.config import Level, PlayerIn, TableConfig
>>> from poker.vocab.events import HandStarted
>>> from services.dealer.engine.state import HandState
>>> players = (PlayerIn(0, "a", 1000), PlayerIn(1, "b", 1000), PlayerIn(2, "c", 60))
>>> state = HandState(HandStarted("h", TableConfig(), Level(50, 100, 10), players, 0), None)
>>> for event in forced_bets(state):
...     APPLY[type(event)](state, event)
...     print(event)
AntePosted(seat=1, amount=10, all_in=False)
AntePosted(seat=2, amount=10, all_in=False)
AntePosted(seat=0, amount=10, all_in=False)
BlindPosted(seat=1, blind=<BlindKind.SMALL: 'small'>, amount=50, all_in=False)
BlindPosted(seat=2, blind=<BlindKind.BIG: 'big'>, amount=50, all_in=True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from poker.vocab.enums import AnteForm, BlindKind
from poker.vocab.events import AntePosted, BlindPosted
from services.dealer.engine import straddle
from services.dealer.engine.state import HandState

STRADDLE = BlindKind.STRADDLE

def forced_bets(state: HandState) -> Iterator[AntePosted | BlindPosted]:
    """The antes, then the blinds and live posts, in dealing order; apply each before the next."""
    level = state.level
    stack = state.stack
    seats = state.seats
    if level.ante:
        # R8: antes come before the blinds; a big-blind ante is the big blind's alone.
        if state.config.ante_form is AnteForm.BIG_BLIND:
            posters: list[int] = [state.bb_pos]
        else:
            posters = list(range(state.n))
        for p in posters:
            amount = min(level.ante, stack[p])
            yield AntePosted(seats[p], amount, amount == stack[p])
    sb, bb = state.sb_pos, state.bb_pos
    for p, blind, size in (
        (sb, BlindKind.SMALL, level.small_blind),
        (bb, BlindKind.BIG, level.big_blind),
    ):
        if p == sb and state.posts_late[p]:
            # R10 decision: a late joiner who arrives in the small blind posts the
            # live big-blind-sized bet instead of the small blind (not both).
            blind, size = BlindKind.LATE, level.big_blind
        amount = min(size, stack[p])
        if amount:  # R11: an ante may already have taken every chip
            yield BlindPosted(seats[p], blind, amount, amount == stack[p])
    straddler = straddle.poster(state) if state.config.straddle else None
    if straddler is not None:
        yield BlindPosted(seats[straddler], BlindKind.STRADDLE, straddle.size(state), False)
    for p in range(state.n):
        # R10: a late joiner anywhere but the blinds posts a live big blind once (a
        # straddle, R37, is live and larger: it stands for it).
        if state.posts_late[p] and p not in (sb, bb) and p != straddler:
            amount = min(level.big_blind, stack[p])
            if amount:
                yield BlindPosted(seats[p], BlindKind.LATE, amount, amount == stack[p])


def apply_ante(state: HandState, event: AntePosted) -> None:
    p = state.pos[event.seat]
    state.stack[p] -= event.amount
    if state.config.ante_form is AnteForm.BIG_BLIND:
        state.dead += event.amount  # R22: a big-blind ante goes whole into the main pot
    else:
        state.total[p] += event.amount  # R22: an ante counts in its poster's contribution


def apply_blind(state: HandState, event: BlindPosted) -> None:
    p = state.pos[event.seat]
    amount = event.amount
    state.stack[p] -= amount
    state.bet[p] += amount
    state.total[p] += amount
    if state.bet[p] > state.top:
        state.top = state.bet[p]
    if event.blind is STRADDLE:
        state.straddle = p


APPLY: dict[type[Any], Callable[[HandState, Any], None]] = {
    AntePosted: apply_ante,
    BlindPosted: apply_blind,
}
