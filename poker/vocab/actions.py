"""What a player may do (R14, R27) and the bounds of it for the player to act.

>>> legal = LegalActions(seat=2, decision=Decision.BET, can_fold=True, can_check=False,
...                      can_call=True, call_amount=100, bet_kind=ActionKind.RAISE,
...                      min_to=200, max_to=1000, all_in_to=1000, all_in_allowed=True)
>>> legal.allows(Action.raise_to(200)), legal.allows(Action.raise_to(150))
(True, False)
>>> legal.allows(Action.check()), legal.allows(Action.all_in())
(False, True)
"""

from __future__ import annotations

from dataclasses import dataclass

from poker.vocab.enums import ActionKind, Decision


@dataclass(frozen=True, slots=True)
class Action:
    """An action; for BET and RAISE `amount` is the total the bet reaches this round ("to").

    >>> Action.raise_to(300), Action.fold().kind
    (Action(kind=<ActionKind.RAISE: 'raise'>, amount=300), <ActionKind.FOLD: 'fold'>)
    """

    kind: ActionKind
    amount: int = 0

    @classmethod
    def fold(cls) -> Action:
        return cls(ActionKind.FOLD)

    @classmethod
    def check(cls) -> Action:
        return cls(ActionKind.CHECK)

    @classmethod
    def call(cls) -> Action:
        return cls(ActionKind.CALL)

    @classmethod
    def bet(cls, to: int) -> Action:
        return cls(ActionKind.BET, to)

    @classmethod
    def raise_to(cls, to: int) -> Action:
        return cls(ActionKind.RAISE, to)

    @classmethod
    def all_in(cls) -> Action:
        return cls(ActionKind.ALL_IN)

    @classmethod
    def show(cls) -> Action:
        return cls(ActionKind.SHOW)

    @classmethod
    def muck(cls) -> Action:
        return cls(ActionKind.MUCK)


@dataclass(frozen=True, slots=True)
class LegalActions:
    """The choices of the player to act and their bounds.

    call_amount: the chips a call adds (capped at the stack: a call all-in).
    bet_kind: BET when nobody has bet this round, RAISE otherwise, None when the
    player may not bet or raise. min_to/max_to: the smallest and largest total the
    bet or raise may reach; an all-in below the minimum has min_to == max_to.
    all_in_to: the total an all-in reaches (bet plus stack), 0 at a showdown.
    all_in_allowed: whether putting the whole stack in is a legal call, bet or raise.
    """

    seat: int
    decision: Decision
    can_fold: bool = False
    can_check: bool = False
    can_call: bool = False
    call_amount: int = 0
    bet_kind: ActionKind | None = None
    min_to: int = 0
    max_to: int = 0
    can_show: bool = False
    can_muck: bool = False
    all_in_to: int = 0
    all_in_allowed: bool = False

    def allows(self, action: Action) -> bool:
        """Whether the engine accepts this action now."""
        kind = action.kind
        if kind is ActionKind.FOLD:
            return self.can_fold
        if kind is ActionKind.CHECK:
            return self.can_check
        if kind is ActionKind.CALL:
            return self.can_call
        if kind is ActionKind.BET or kind is ActionKind.RAISE:
            return self.bet_kind is kind and self.min_to <= action.amount <= self.max_to
        if kind is ActionKind.ALL_IN:
            return self.all_in_allowed
        if kind is ActionKind.SHOW:
            return self.can_show
        return kind is ActionKind.MUCK and self.can_muck
