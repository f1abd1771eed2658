"""The straddle (R37): a live third blind of twice the big blind, posted before the deal.

Where the table allows it (`TableConfig.straddle`), the player to the left of the
big blind who chose to straddle (`PlayerIn.straddles`, set by the table from the
seat's standing choice) posts twice the big blind after the blinds and before
the cards. It is a third blind: the first to act before the flop is the player to
its left, the straddler acts last and has the big blind's option (R15: check or
raise when nobody raised), and a raise must reach at least twice the straddle.

Decisions where the rule book is silent:

* With two players dealt in there is no straddle (the seat left of the big blind
  is the small blind, R7), nor in fixed limit (the table refuses the option).
* A straddle is posted whole or not at all: a player whose stack after the ante
  is not more than twice the big blind does not straddle that hand (a short
  all-in straddle would set a bet below the straddle; rooms forbid it).
* The straddle is the pre-flop bet: the minimum raise adds at least the straddle
  (standard rule, R18) or doubles it (double rule), either way to twice the
  straddle, as R37 says.

>>> from poker.vocab.config import Level, PlayerIn, TableConfig
>>> from poker.vocab.events import HandStarted
>>> from services.dealer.engine.state import HandState
>>> players = (PlayerIn(0, "a", 900), PlayerIn(1, "b", 900, straddles=True), PlayerIn(2, "c", 900))
>>> config = TableConfig(straddle=True)
>>> state = HandState(HandStarted("h", config, Level(50, 100), players, 1), None)
>>> state.seats[poster(state)], size(state)
(1, 200)
"""

from __future__ import annotations

from services.dealer.engine.state import HandState


def size(state: HandState) -> int:
    """R37: twice the big blind."""
    return 2 * state.level.big_blind


def poster(state: HandState) -> int | None:
    """The position that straddles this hand, if any (left of the big blind, position 2)."""
    if not state.config.straddle or state.n < 3:
        return None
    seat = state.seats[2]
    if not any(p.straddles for p in state.started.players if p.seat == seat):
        return None
    return 2 if state.stack[2] > size(state) else None
