"""The rake (R36): what a cash table takes from a hand's pots, before any pot is awarded.

The rake is a percentage of every pot of the hand together (the table's
`Rake.basis_points`, rounded down to the chip), at most the cap in force for the
number of players dealt in, and nothing when the hand ends before the flop ("no
flop, no drop"). It is taken once, as one `RakeTaken` event, after the uncalled bet
went back (R21) and before the first `PotAwarded`: from the main pot first, then
from each side pot in turn while any is left to take.

>>> from poker.vocab.config import Rake
>>> share([(300, (0, 1, 2)), (200, (0, 1))], 350)
(300, 50)
>>> less([(300, (0, 1, 2)), (200, (0, 1))], (300, 50))
[(0, (0, 1, 2)), (150, (0, 1))]

Decisions where the rule book is silent:

* The percentage is of the pots as they stand once the uncalled bet is back,
  dead money (antes, R8) included: everything the winners would share.
* A hand that saw a flop is raked whether it ends in a showdown or by folds (R23).
* A pot the rake empties is still awarded (zero chips), so every pot has its event.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from poker.vocab.events import RakeTaken
from services.dealer.engine.pots import RawPot, build_pots
from services.dealer.engine.state import HandState


def share(pots: Sequence[RawPot], amount: int) -> tuple[int, ...]:
    """What each pot gives of a rake of `amount`: the main pot first, then the side pots."""
    taken = []
    left = amount
    for pot, _ in pots:
        part = pot if pot < left else left
        taken.append(part)
        left -= part
    return tuple(taken)


def less(pots: Sequence[RawPot], taken: Sequence[int]) -> list[RawPot]:
    """The pots once the rake `taken` (by pot) is out of them."""
    return [(amount - part, eligible) for (amount, eligible), part in
            zip(pots, taken, strict=True)]


def due(state: HandState) -> RakeTaken | None:
    """The rake to take now (a raked table, a flop dealt, nothing taken yet), if any."""
    rake = state.config.rake
    if rake is None or state.rake or len(state.board) < 3:
        return None
    pots = state.sd_pots if state.in_showdown else build_pots(state.total, state.folded,
                                                              state.dead)
    amount = rake.amount(sum(amount for amount, _ in pots), state.n)
    if not amount:
        return None
    return RakeTaken(amount, share(pots, amount))


def apply_taken(state: HandState, event: RakeTaken) -> None:
    state.rake = event.pots
    if state.in_showdown:
        state.sd_pots = less(state.sd_pots, event.pots)


APPLY: dict[type[Any], Callable[[HandState, Any], None]] = {RakeTaken: apply_taken}
