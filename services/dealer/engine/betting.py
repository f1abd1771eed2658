"""Betting rounds: order of action, legal bounds, validation and the ActionTaken event (R13-R21).

The bounds come from a few integers kept on the state: `current` (the bet to
match), `full_inc` (the largest full bet or raise increment, R18 standard),
`raises` (full bets and raises, for the fixed-limit cap), `street_min` (R17,
or the fixed-limit bet size) and per player `acted`/`reopen` (R19).

Decisions where the rule book is silent, as a careful card room plays them:

* R15/R6: before the flop the bet to match is the full big blind even when the
  big blind was posted short (R11); nobody is asked to call more than some
  opponent still in the hand could put in.
* R17/R18: the minimum raise increment is never less than the street's minimum
  bet (R17), so under the seed preset a raise of a short all-in turn bet must add
  two big blinds; the double rule is "at least twice the bet and one minimum bet
  more".
* R19: a short all-in *bet* (less than the minimum bet) does not reopen the
  betting either; a short all-in is not a bet or raise for the fixed-limit cap
  (R16), and the next raise is one full bet above it.
* Folding is always allowed in a betting decision (the contract), even when
  checking is free.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from poker.vocab.actions import Action, LegalActions
from poker.vocab.enums import ActionKind, Decision, Street
from poker.vocab.errors import IllegalAction
from poker.vocab.events import ActionTaken, BetReturned
from services.dealer.engine.state import NOBODY, HandState

FOLD, CHECK, CALL, BET, RAISE, ALL_IN = (
    ActionKind.FOLD,
    ActionKind.CHECK,
    ActionKind.CALL,
    ActionKind.BET,
    ActionKind.RAISE,
    ActionKind.ALL_IN,
)


# ---------------------------------------------------------------- opening a round


def open_preflop(state: HandState) -> None:
    """Betting before the flop: the big blind counts as the bet (R15, R16)."""
    big_blind = state.big_blind
    state.current = max(big_blind, state.top)
    # R37: a straddle is the bet, and a raise adds at least as much again.
    state.full_inc = big_blind if state.straddle == NOBODY else state.top
    state.raises = 1  # R16: the big blind is the bet for the fixed-limit cap
    state.street_min = big_blind
    state.full_to = min_full_to(state)
    state.aggressor = NOBODY
    # R13: first to act is left of the big blind (heads-up: the button, R7), or of
    # the straddle (R37).
    last_blind = state.bb_pos if state.straddle == NOBODY else state.straddle
    state.actor = next_actor(state, last_blind + 1)
    state.decision = Decision.BET if state.actor != NOBODY else None


def open_street(state: HandState) -> None:
    """A new betting round after board cards (R13: first in the hand left of the button)."""
    n = state.n
    bet = state.bet
    acted = state.acted
    for p in range(n):
        bet[p] = 0
        acted[p] = False
    state.current = state.top = state.full_inc = state.raises = 0
    big_blind = state.big_blind
    late = state.street is Street.TURN or state.street is Street.RIVER
    if state.fixed:
        state.street_min = 2 * big_blind if late else big_blind  # R16 small bet / big bet
    else:
        times = state.config.effective_turn_river_min_bet if late else 1
        state.street_min = big_blind * times  # R17
    state.full_to = state.street_min
    actor = next_actor(state, 0)
    if actor != NOBODY:
        state.aggressor = NOBODY  # a new betting round: R26 looks at the last one
    state.actor = actor
    state.decision = Decision.BET if actor != NOBODY else None


# ---------------------------------------------------------------- whose turn


def next_actor(state: HandState, start: int) -> int:
    """The first player from `start` clockwise who must still act, or NOBODY (R20)."""
    if state.live < 2:
        return NOBODY
    n = state.n
    folded = state.folded
    stack = state.stack
    bet = state.bet
    able = 0
    last = NOBODY
    for p in range(n):
        if stack[p] and not folded[p]:
            able += 1
            if able > 1:
                break
            last = p
    if able < 2:
        if not able:
            return NOBODY
        # R20: one player with chips acts only when owing a call to a bet made.
        owed = max(bet[p] for p in range(n) if p != last and not folded[p])
        return last if bet[last] < owed else NOBODY
    acted = state.acted
    current = state.current
    short_blind = current > state.top
    q = start % n
    for _ in range(n):
        if stack[q] and not folded[q]:
            if not acted[q]:
                return q
            if bet[q] < (target(state, q) if short_blind else current):
                return q
        q += 1
        if q == n:
            q = 0
    return NOBODY


def target(state: HandState, p: int) -> int:
    """The bet player p must match: the current bet, but no more than an opponent could put in."""
    current = state.current
    if current <= state.top:
        return current
    # Only with a short big blind (R15 decision): the full big blind is owed only as
    # far as some opponent still in the hand could match it.
    bet, stack, folded = state.bet, state.stack, state.folded
    reach = max(bet[q] + stack[q] for q in range(state.n) if q != p and not folded[q])
    return min(current, max(reach, state.top))


def min_full_to(state: HandState) -> int:
    """The smallest total that is a full bet or raise now (R16-R18); kept in state.full_to."""
    current = state.current
    if current == 0:
        return state.street_min
    if state.fixed:
        return current + state.street_min
    if state.double_rule:
        return max(2 * current, current + state.street_min)
    return current + max(state.full_inc, state.street_min)


def _raise_refusal(state: HandState, p: int, owe: int) -> str | None:
    """Why player p may not bet or raise now, or None."""
    if state.stack[p] <= owe:
        return "your stack only covers a call"
    if state.acted[p] and state.current < state.reopen[p]:
        # R19: only short all-ins since this player acted, not adding up to a full raise.
        return "the all-in for less than a full raise did not reopen the betting"
    if state.fixed and state.raises >= state.config.fixed_limit_cap:
        return f"the betting is capped at {state.config.fixed_limit_cap} bets this round (R16)"
    level = state.bet[p] + owe
    bet, stack, folded = state.bet, state.stack, state.folded
    for q in range(state.n):
        if q != p and not folded[q] and stack[q] and bet[q] + stack[q] > level:
            return None
    return "nobody left in the hand could call a raise"


# ---------------------------------------------------------------- bounds


def legal_actions(state: HandState) -> LegalActions:
    """The choices of the player to act in a betting decision, with their bounds."""
    p = state.actor
    stack = state.stack[p]
    bet = state.bet[p]
    owe = target(state, p) - bet
    if owe < 0:
        owe = 0
    all_to = bet + stack
    if _raise_refusal(state, p, owe) is None:
        min_to, max_to = _raise_bounds(state, p, owe)
        return LegalActions(
            state.seats[p],
            Decision.BET,
            True,
            owe == 0,
            owe > 0,
            owe,  # below the stack, or no raise would be possible
            BET if state.current == 0 else RAISE,
            min_to,
            max_to,
            False,
            False,
            max_to == all_to,
            all_to,
        )
    return LegalActions(
        state.seats[p],
        Decision.BET,
        True,
        owe == 0,
        owe > 0,
        owe if owe < stack else stack,
        None,
        0,
        0,
        False,
        False,
        owe >= stack,
        all_to,
    )


def _raise_bounds(state: HandState, p: int, owe: int) -> tuple[int, int]:
    all_to = state.bet[p] + state.stack[p]
    full = state.full_to
    if all_to <= full:
        return all_to, all_to  # an all-in at or below the minimum (R19 when short)
    if state.fixed:
        return full, full
    if state.pot_limit:
        # R16: current bet + (pot + all bets in front + the amount to call first).
        cap = state.bet[p] + owe + sum(state.total) + state.dead + owe
        return full, min(all_to, max(full, cap))
    return full, all_to


# ---------------------------------------------------------------- validation


def resolve(state: HandState, p: int, action: Action) -> ActionTaken:
    """The event of a betting action, or IllegalAction in words a player understands."""
    seat = state.seats[p]
    stack = state.stack[p]
    bet = state.bet[p]
    owe = target(state, p) - bet
    if owe < 0:
        owe = 0
    kind = action.kind
    if kind is FOLD:
        return ActionTaken(seat, FOLD, bet, 0, False)
    if kind is CHECK:
        if owe:
            raise IllegalAction(f"you cannot check: {owe} to call", reason="CANNOT_CHECK",
                                metadata={"call_amount": owe})
        return ActionTaken(seat, CHECK, bet, 0, False)
    if kind is CALL:
        if not owe:
            raise IllegalAction("there is no bet to call: check instead", reason="NOTHING_TO_CALL")
        added = owe if owe < stack else stack
        return ActionTaken(seat, CALL, bet + added, added, added == stack)
    if kind is ALL_IN:
        if owe >= stack:
            return ActionTaken(seat, CALL, bet + stack, stack, True)
        refusal = _raise_refusal(state, p, owe)
        if refusal is not None:
            choice = f"call {owe} or fold" if owe else "check or fold"
            raise IllegalAction(f"you cannot go all-in: {refusal}; you may {choice}",
                                reason="RAISE_NOT_ALLOWED", metadata={"call_amount": owe})
        _, max_to = _raise_bounds(state, p, owe)
        if max_to < bet + stack:
            raise IllegalAction(
                f"you cannot go all-in: the most you may {_verb(state)} to is {max_to}",
                reason="ABOVE_MAX_RAISE", metadata={"max_to": max_to, "call_amount": owe})
        return ActionTaken(seat, BET if state.current == 0 else RAISE, bet + stack, stack, True)
    if kind is BET or kind is RAISE:
        return _resolve_bet(state, p, action, owe)
    raise IllegalAction(f"you cannot {kind.value} now: it is your turn to bet, not to show or muck",
                        reason="WRONG_DECISION")


def _verb(state: HandState) -> str:
    return "bet" if state.current == 0 else "raise"


def _resolve_bet(state: HandState, p: int, action: Action, owe: int) -> ActionTaken:
    seat = state.seats[p]
    stack = state.stack[p]
    bet = state.bet[p]
    kind = action.kind
    to = action.amount
    if state.current == 0 and kind is RAISE:
        raise IllegalAction("you cannot raise: nobody has bet; bet instead",
                            reason="NO_BET_TO_RAISE")
    if state.current and kind is BET:
        raise IllegalAction(f"you cannot bet: the bet is already {state.current}; raise instead",
                            reason="BET_ALREADY_MADE", metadata={"current_bet": state.current})
    refusal = _raise_refusal(state, p, owe)
    if refusal is not None:
        choice = f"call {owe} or fold" if owe else "check or fold"
        raise IllegalAction(f"you cannot {kind.value}: {refusal}; you may {choice}",
                            reason="RAISE_NOT_ALLOWED", metadata={"call_amount": owe})
    min_to, max_to = _raise_bounds(state, p, owe)
    if min_to <= to <= max_to:
        added = to - bet
        return ActionTaken(seat, kind, to, added, added == stack)
    bounds = {"min_to": min_to, "max_to": max_to, "call_amount": owe, "stack": stack}
    word = "bet of" if kind is BET else "raise to"
    if to < min_to:
        if kind is BET:
            raise IllegalAction(f"bet of {to} is below the minimum bet of {min_to}",
                                reason="BELOW_MIN_BET", metadata=bounds)
        raise IllegalAction(f"raise to {to} is below the minimum raise to {min_to}",
                            reason="BELOW_MIN_RAISE", metadata=bounds)
    if to > bet + stack:
        raise IllegalAction(f"{word} {to} is more than you have: all-in is {bet + stack}",
                            reason="ABOVE_STACK", metadata=bounds)
    if state.fixed:
        raise IllegalAction(f"{word} {to} is not allowed: in fixed limit it is exactly {max_to}",
                            reason="ABOVE_MAX_RAISE", metadata=bounds)
    raise IllegalAction(f"{word} {to} is above the pot limit of {max_to}",
                        reason="ABOVE_MAX_RAISE", metadata=bounds)


# ---------------------------------------------------------------- applying


def apply_action(state: HandState, event: ActionTaken) -> None:
    p = state.pos[event.seat]
    kind = event.action
    if kind is FOLD:
        state.folded[p] = True
        state.live -= 1
    else:
        added = event.added
        if added:
            state.stack[p] -= added
            state.bet[p] += added
            state.total[p] += added
        to = state.bet[p]
        if kind is BET or kind is RAISE:
            if to >= state.full_to:  # a full bet or raise (R18); else a short all-in (R19)
                if to - state.current > state.full_inc:
                    state.full_inc = to - state.current
                state.raises += 1
            state.current = to
            state.aggressor = p
            state.full_to = min_full_to(state)
        if to > state.top:
            state.top = to
    state.acted[p] = True
    # R19: this player may raise again only once the bet reaches a full raise over it.
    state.reopen[p] = state.full_to
    actor = next_actor(state, p + 1)
    state.actor = actor
    if actor == NOBODY:
        state.decision = None


def uncalled(state: HandState) -> tuple[int, int] | None:
    """R21: (position, chips) of the part of the top bet that nobody called, if any."""
    high = second = -1
    who = NOBODY
    for p, amount in enumerate(state.bet):
        if amount > high:
            second = high
            high = amount
            who = p
        elif amount > second:
            second = amount
    if high > second >= 0:
        return who, high - second
    return None


def bet_returned(state: HandState) -> BetReturned | None:
    """The BetReturned event due now, if any."""
    found = uncalled(state)
    if found is None:
        return None
    return BetReturned(state.seats[found[0]], found[1])


def apply_bet_returned(state: HandState, event: BetReturned) -> None:
    p = state.pos[event.seat]
    state.stack[p] += event.amount
    state.bet[p] -= event.amount
    state.total[p] -= event.amount
    state.top = max(state.bet)


APPLY: dict[type[Any], Callable[[HandState, Any], None]] = {
    ActionTaken: apply_action,
    BetReturned: apply_bet_returned,
}
