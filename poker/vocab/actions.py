"""What a player may do (R14, R27) and the bounds of it for the player to act.

>>> legal = LegalActions(seat=2, decision=Decision.BET, can_fold=True, can_check=False,
...                      can_call=True, call_amount=100, bet_kind=ActionKind.RAISE,
...                      min_to=200, max_to=1000, all_in_to=1000, can_all_in=True)
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
    def bet(cls, amount: int) -> Action:
        """Open the betting of a round with a total of `amount`."""
        return cls(ActionKind.BET, amount)

    @classmethod
    def raise_to(cls, amount: int) -> Action:
        """Raise so that this player's bet in the round reaches `amount`."""
        return cls(ActionKind.RAISE, amount)

    @classmethod
    def all_in(cls) -> Action:
        return cls(ActionKind.ALL_IN)

    @classmethod
    def show(cls) -> Action:
        return cls(ActionKind.SHOW)

    @classmethod
    def muck(cls) -> Action:
        return cls(ActionKind.MUCK)

    @classmethod
    def run_it(cls, times: int) -> Action:
        """R38: answer a RUN_IT decision: run the rest of the board `times` (1 or 2)."""
        return cls(ActionKind.RUN_IT, times)

    def __str__(self) -> str:
        if self.kind is ActionKind.RAISE:
            return f"raise to {self.amount}"
        if self.kind is ActionKind.BET:
            return f"bet {self.amount}"
        if self.kind is ActionKind.RUN_IT:
            return "run it twice" if self.amount == 2 else "run it once"
        return "all-in" if self.kind is ActionKind.ALL_IN else self.kind.value


@dataclass(frozen=True, slots=True)
class LegalActions:
    """The choices of the player to act and their bounds.

    call_amount: the chips a call adds (capped at the stack: a call all-in).
    bet_kind: BET when nobody has bet this round, RAISE otherwise, None when the
    player may not bet or raise. min_to/max_to: the smallest and largest total the
    bet or raise may reach; an all-in below the minimum has min_to == max_to.
    all_in_to: the total an all-in reaches (bet plus stack), 0 at a showdown.
    can_all_in: whether putting the whole stack in is a legal call, bet or raise.
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
    can_all_in: bool = False
    all_in_to: int = 0

    @property
    def can_bet(self) -> bool:
        return self.bet_kind is ActionKind.BET

    @property
    def can_raise(self) -> bool:
        return self.bet_kind is ActionKind.RAISE

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
            return self.can_all_in
        if kind is ActionKind.SHOW:
            return self.can_show
        if kind is ActionKind.RUN_IT:  # R38
            return self.decision is Decision.RUN_IT and action.amount in (1, 2)
        return kind is ActionKind.MUCK and self.can_muck

    def options(self) -> list[Option]:
        """The legal actions, in the order a person reads them, with their amounts.

        >>> [str(o) for o in LegalActions(seat=0, decision=Decision.BET, can_check=True,
        ...                               bet_kind=ActionKind.BET, min_to=100, max_to=900,
        ...                               can_all_in=True, all_in_to=900).options()]
        ['check', 'bet 100..900', 'all-in 900']
        """
        out: list[Option] = []
        if self.decision is Decision.RUN_IT:  # R38: once or twice
            return [Option(ActionKind.RUN_IT, 1, 2)]
        if self.decision is Decision.SHOW_OR_MUCK:
            if self.can_show:
                out.append(Option(ActionKind.SHOW))
            if self.can_muck:
                out.append(Option(ActionKind.MUCK))
            return out
        for allowed, kind in ((self.can_fold, ActionKind.FOLD),
                              (self.can_check, ActionKind.CHECK)):
            if allowed:
                out.append(Option(kind))
        if self.can_call:
            out.append(Option(ActionKind.CALL, self.call_amount, self.call_amount))
        if self.bet_kind is not None:
            out.append(Option(self.bet_kind, self.min_to, self.max_to))
        if self.can_all_in:
            out.append(Option(ActionKind.ALL_IN, self.all_in_to, self.all_in_to))
        return out


@dataclass(frozen=True, slots=True)
class Option:
    """One legal action with its amounts: a call's chips, a bet's or raise's range of totals."""

    kind: ActionKind
    low: int = 0
    high: int = 0

    def __str__(self) -> str:
        if self.kind in (ActionKind.BET, ActionKind.RAISE):
            word = "bet" if self.kind is ActionKind.BET else "raise to"
            return f"{word} {self.low}" + (f"..{self.high}" if self.high != self.low else "")
        if self.kind is ActionKind.CALL:
            return f"call {self.low}"
        if self.kind is ActionKind.ALL_IN:
            return f"all-in {self.low}"
        if self.kind is ActionKind.RUN_IT:
            return "run it 1 or 2 times"
        return self.kind.value
