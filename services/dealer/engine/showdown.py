"""The showdown: order of showing (R26), show or muck (R27), all-in exposure (R28), awards.

Pots are settled from the last side pot to the main pot. In each pot, players
are called in R26's order; one whose hand beats or ties the best hand face up in
that pot shows automatically (the first always does); any other decides to show
or muck (R27). The ranker is called once, when the showdown begins.

Decisions where the rule book is silent:

* A side pot with a single contender is awarded without anyone showing.
* A player who cannot win a side pot is not asked to show or muck there: every
  player still in contests the main pot, so they are asked there, once (a muck
  gives up every pot). Since only a hand that cannot win is ever asked, show or
  muck never changes who wins what.
* Cards already face up (an earlier pot, or R28) count as shown in every pot.
* If the last round had no voluntary bet (blinds are not bets), the first to
  show is the first player left of the button (R26). All-in exposure (R28) turns
  the hands up in the same order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from poker.vocab.actions import Action
from poker.vocab.enums import ActionKind, Decision, ShowReason, Street
from poker.vocab.errors import ConfigError, IllegalAction
from poker.vocab.events import CardsMucked, CardsShown, PotAwarded
from services.dealer.engine.pots import build_pots, split
from services.dealer.engine.rake import less
from services.dealer.engine.state import NOBODY, HandState

NO_RANK = -(1 << 62)


def order(state: HandState, contenders: list[int]) -> list[int]:
    """R26: the last round's aggressor first, else the first left of the button; clockwise."""
    if not contenders:
        return []
    first = state.aggressor if state.aggressor in contenders else contenders[0]
    i = contenders.index(first)
    return contenders[i:] + contenders[:i]


def next_exposure(state: HandState) -> CardsShown | None:
    """R28: the next hand still in to turn face up before the rest of the board, if any."""
    folded, shown = state.folded, state.shown
    for p in order(state, [p for p in range(state.n) if not folded[p]]):
        if not shown[p]:
            return CardsShown(state.seats[p], state.hole[p], ShowReason.ALL_IN)
    return None


def ready(state: HandState) -> bool:
    """Whether betting is over on a full board with two or more hands still in."""
    return (
        state.actor == NOBODY
        and state.street is Street.RIVER
        and state.live > 1
        and not state.in_showdown
        and len(state.board) == 5
    )


def begin(state: HandState) -> None:
    """Rank every hand still in (one ranker call), form the pots, call the first player."""
    n = state.n
    folded = state.folded
    live = [p for p in range(n) if not folded[p]]
    ranker = state.ranker
    if ranker is None:
        raise ConfigError("this hand reached a showdown without a ranker: start it (or "
                          "rebuild it from its events) with ranker=, e.g. "
                          "services.evaluator.ranker.DEFAULT_RANKER")
    ranks = ranker.rank_holdings(state.board, [state.hole[p] for p in live])
    state.ranks = [NO_RANK] * n
    for p, rank in zip(live, ranks, strict=True):
        state.ranks[p] = rank
    state.in_showdown = True
    state.street = Street.SHOWDOWN
    for p in range(n):
        state.bet[p] = 0
    state.sd_pots = build_pots(state.total, folded, state.dead)
    state.sd_k = len(state.sd_pots) - 1
    _begin_pot(state)


def _begin_pot(state: HandState) -> None:
    mucked, shown, ranks = state.mucked, state.shown, state.ranks
    contenders = [p for p in state.sd_pots[state.sd_k][1] if not mucked[p]]
    state.sd_order = order(state, contenders)
    state.sd_i = 0
    state.sd_best = max((ranks[p] for p in contenders if shown[p]), default=NO_RANK)
    _advance(state)


def _advance(state: HandState) -> None:
    """Move to the next player who must show or decide, or to the pot's award."""
    state.actor = NOBODY
    state.decision = None
    state.sd_auto = NOBODY
    state.sd_award = NOBODY
    sd_order = state.sd_order
    if len(sd_order) > 1:
        shown, mucked, ranks = state.shown, state.mucked, state.ranks
        while state.sd_i < len(sd_order):
            p = sd_order[state.sd_i]
            if shown[p] or mucked[p]:
                state.sd_i += 1
            elif ranks[p] >= state.sd_best:
                state.sd_auto = p  # R27: beats or ties the best shown: shows at once
                return
            elif state.sd_k > 0:
                state.sd_i += 1  # cannot win this side pot; decides in the main pot
            else:
                state.actor = p
                state.decision = Decision.SHOW_OR_MUCK
                return
    state.sd_award = state.sd_k


def auto_show(state: HandState) -> CardsShown:
    p = state.sd_auto
    return CardsShown(state.seats[p], state.hole[p], ShowReason.SHOWDOWN)


def award(state: HandState) -> PotAwarded:
    """The award of the pot being settled: the best hand face up wins, ties split (R24)."""
    k = state.sd_award
    amount, eligible = state.sd_pots[k]
    contenders = [p for p in eligible if not state.mucked[p]]
    if len(contenders) > 1:
        ranks, shown = state.ranks, state.shown
        best = max(ranks[p] for p in contenders if shown[p])
        contenders = [p for p in contenders if shown[p] and ranks[p] == best]
    return _pot_event(state, k, amount, eligible, contenders)


def fold_award(state: HandState) -> PotAwarded | None:
    """R23: with everyone else folded, the next pot to the last player (None when all are paid)."""
    pots = build_pots(state.total, state.folded, state.dead)
    if state.rake:
        pots = less(pots, state.rake)  # R36
    k = len(pots) - 1 - len(state.awards)
    if k < 0:
        return None
    amount, eligible = pots[k]
    return _pot_event(state, k, amount, eligible, list(eligible))


def _pot_event(
    state: HandState, k: int, amount: int, eligible: tuple[int, ...], winners: list[int]
) -> PotAwarded:
    seats = state.seats
    return PotAwarded(
        k,
        amount,
        tuple(seats[p] for p in eligible),
        tuple(seats[p] for p in winners),
        tuple(split(amount, winners)),
    )


def resolve(state: HandState, p: int, action: Action) -> CardsShown | CardsMucked:
    """The event of a show-or-muck choice (R27)."""
    if action.kind is ActionKind.SHOW:
        return CardsShown(state.seats[p], state.hole[p], ShowReason.SHOWDOWN)
    if action.kind is ActionKind.MUCK:
        return CardsMucked(state.seats[p], state.hole[p])
    raise IllegalAction(
        f"you cannot {action.kind.value} now: the showdown is on; show or muck your hand",
        reason="WRONG_DECISION")


def apply_shown(state: HandState, event: CardsShown) -> None:
    p = state.pos[event.seat]
    state.shown[p] = True
    if event.reason is ShowReason.ALL_IN:
        state.exposed = True
    if state.in_showdown:
        if state.ranks[p] > state.sd_best:
            state.sd_best = state.ranks[p]
        state.sd_i += 1
        _advance(state)


def apply_mucked(state: HandState, event: CardsMucked) -> None:
    p = state.pos[event.seat]
    state.mucked[p] = True
    state.sd_i += 1
    _advance(state)


def apply_awarded(state: HandState, event: PotAwarded) -> None:
    stack, pos, bet = state.stack, state.pos, state.bet
    for seat, share in zip(event.winners, event.shares, strict=True):
        stack[pos[seat]] += share
    for p in range(state.n):
        bet[p] = 0
    state.awards.append(event)
    if state.in_showdown:
        state.sd_k -= 1
        if state.sd_k >= 0:
            _begin_pot(state)
        else:
            state.sd_award = NOBODY


APPLY: dict[type[Any], Callable[[HandState, Any], None]] = {
    CardsShown: apply_shown,
    CardsMucked: apply_mucked,
    PotAwarded: apply_awarded,
}
