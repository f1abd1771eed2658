"""Forced bets: antes (R8), blinds (R6, R7; R5's seats), late joiners' and returning
players' live posts (R10, R33) and dead small blinds (R33), short posts (R11).

`forced_bets` yields the posting events one at a time, reading the stacks as the
caller applies each one, so a short stack posts its ante first and then what is
left of its blind (R11).

>>> from poker.vocab.config import Level, PlayerIn, TableConfig
>>> from poker.vocab.events import HandStarted
>>> from services.dealer.engine.state import NOBODY, HandState
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
from poker.vocab.events import AntePosted, BlindPosted, HandStarted
from poker.vocab.seats import from_button
from services.dealer.engine import straddle
from services.dealer.engine.state import NOBODY, HandState

STRADDLE = BlindKind.STRADDLE

def forced_bets(state: HandState) -> Iterator[AntePosted | BlindPosted]:
    """The antes, then the blinds and live posts, in dealing order; apply each before the next.

    A blind the ante left no chip for is still posted, of 0 chips (all in), so every
    viewer knows who had the blinds (R11). A seat that posts late (R10, R33) posts a
    live big blind once; one that missed both blinds (R33) then the small blind dead."""
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
        if p == NOBODY:  # R5 dead: no small blind this hand
            continue
        if p == sb and state.posts_late[p]:
            # R10 decision: a late joiner who arrives in the small blind posts the
            # live big-blind-sized bet instead of the small blind (not both).
            blind, size = BlindKind.LATE, level.big_blind
        amount = min(size, stack[p])  # R11: an ante may already have taken every chip
        yield BlindPosted(seats[p], blind, amount, amount == stack[p])
    straddler = straddle.poster(state) if state.config.straddle else None
    if straddler is not None:
        yield BlindPosted(seats[straddler], BlindKind.STRADDLE, straddle.size(state), False)
    posts_late = state.posts_late
    if not any(posts_late):
        return
    dead = {player.seat for player in state.started.players if player.posts_dead_small_blind}
    for p in range(state.n):
        # R10, R33: a late joiner anywhere but the blinds posts a live big blind once (a
        # straddle, R37, is live and larger: it stands for it).
        if posts_late[p] and p != sb and p != bb and p != straddler:
            amount = min(level.big_blind, stack[p])
            if amount:
                yield BlindPosted(seats[p], BlindKind.LATE, amount, amount == stack[p])
            if seats[p] in dead:  # R33: and the small blind it missed, dead
                amount = min(level.small_blind, stack[p])
                if amount:
                    yield BlindPosted(seats[p], BlindKind.DEAD, amount, amount == stack[p])


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
    if event.blind is BlindKind.DEAD:
        # R33: dead money, whole into the main pot like a big-blind ante (R8, R22). Counted
        # in its poster's contribution it made a level of that seat's alone, a pot handed
        # back to it whenever the others matched every bet (found against PokerKit:
        # tests/dealer/test_R5_dead_button_differential.py).
        state.dead += amount
        return
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


def blind_seats(started: HandStarted) -> tuple[int | None, int]:
    """(small blind seat or None, big blind seat) of a hand: R5's seat plan when its
    HandStarted names them, else R6/R7 from the button (every hand before R5's rules).

    >>> from poker.vocab.config import PlayerIn, TableConfig
    >>> players = tuple(PlayerIn(s, str(s), 100) for s in (1, 4, 6))
    >>> blind_seats(HandStarted("h", TableConfig(), TableConfig().levels[0], players, 4))
    (6, 1)
    """
    if started.big_blind_seat is not None:
        return started.small_blind_seat, started.big_blind_seat
    ordered = from_button([p.seat for p in started.players], started.button)
    if len(ordered) == 2:
        return ordered[1], ordered[0]
    return ordered[0], ordered[1]
