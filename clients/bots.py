"""Ready-made bots: a random bot, a calling station, and an equity bot that asks the evaluator.

A bot is any object with `act(view) -> Action`; `TableClient.play(bot, hands=...)` runs it.

>>> from clients.models import Decision, LegalActions, SeatView, TableView, HandView, Street
>>> legal = LegalActions(seat=0, decision=Decision.BET, can_fold=True, can_call=True,
...                      call_amount=100, can_all_in=True, all_in_to=900)
>>> view = TableView(table_id="t", your_seat=0, seats=(SeatView(0, "me", 900),),
...     hand=HandView(hand_id="t-1", hand_number=1, street=Street.PREFLOP, legal=legal))
>>> CallingStation().act(view)
Action(kind=<ActionKind.CALL: 'call'>, amount=0)
>>> RandomBot(seed=1).act(view).kind in {ActionKind.FOLD, ActionKind.CALL, ActionKind.ALL_IN}
True
"""

from __future__ import annotations

import random

from clients.errors import ServiceError
from clients.evaluator import ANY_TWO, EvaluatorClient
from clients.models import Action, ActionKind, Decision, LegalActions, TableView
from clients.transport import TLS

__all__ = ["CallingStation", "EquityBot", "RandomBot", "passive"]


def passive(legal: LegalActions) -> Action:
    """Check when free, else call; at showdown show; run the board once (R38)."""
    if legal.decision is Decision.SHOW_OR_MUCK:
        return Action.show() if legal.can_show else Action.muck()
    if legal.decision is Decision.RUN_IT:
        return Action.run_it(1)
    return Action.check() if legal.can_check else Action.call()


class CallingStation:
    """Never folds, never raises: checks or calls everything, shows at showdown."""

    def act(self, view: TableView) -> Action:
        assert view.legal is not None
        return passive(view.legal)


class RandomBot:
    """Picks a legal action at random: bets and raises (sized between the minimum and a
    pot-sized amount) with probability `aggression`, all-in rarely, folds only when
    facing a bet."""

    def __init__(self, seed: int | None = None, aggression: float = 0.2,
                 all_in: float = 0.02) -> None:
        self.rng = random.Random(seed)
        self.aggression, self.all_in = aggression, all_in

    def act(self, view: TableView) -> Action:
        legal = view.legal
        assert legal is not None
        r = self.rng.random()
        if legal.decision is Decision.SHOW_OR_MUCK:
            return Action.show() if r < 0.5 and legal.can_show else Action.muck()
        if legal.decision is Decision.RUN_IT:  # R38: once or twice, at random
            return Action.run_it(1 if r < 0.5 else 2)
        if r < self.all_in and legal.can_all_in:
            return Action.all_in()
        if legal.bet_kind is not None and r < self.all_in + self.aggression:
            high = min(legal.max_to, max(legal.min_to, legal.min_to + view.pot_total))
            amount = self.rng.randint(legal.min_to, high)
            return Action(legal.bet_kind, amount)
        if legal.can_check:
            return Action.check()
        return Action.call() if r < 0.7 else Action.fold()


class EquityBot:
    """Asks the evaluator's Equity RPC how its cards fare against the players still in
    (each holding any two cards), then plays the pot odds: raises with a big edge,
    calls when the equity covers the price, checks when free, folds otherwise.

    If the evaluator cannot be reached it checks or folds, and counts it in `errors`.
    """

    def __init__(self, evaluator: str | EvaluatorClient, *, trials: int = 1500,
                 edge: float = 1.6, tls: TLS | None = None, seed: int | None = None) -> None:
        self.evaluator = (evaluator if isinstance(evaluator, EvaluatorClient)
                          else EvaluatorClient(evaluator, tls=tls, timeout=5.0))
        self.trials, self.edge = trials, edge
        self.rng = random.Random(seed)
        self.errors = 0
        self.last_equity: float | None = None
        self._known: dict[tuple[object, ...], float] = {}

    def equity(self, view: TableView) -> float:
        """This seat's equity against every other player still in the hand (asked once per
        cards, board and number of opponents)."""
        opponents = max(1, min(9, len(view.active_seats) - 1))
        key = (view.my_cards, view.board, opponents)
        if key not in self._known:
            results = self.evaluator.equity([view.my_cards, *[ANY_TWO] * opponents],
                                            board=view.board, trials=self.trials,
                                            seed=self.rng.randrange(1, 2**63))
            self._known = {key: results[0].equity}
        return self._known[key]

    def act(self, view: TableView) -> Action:
        legal = view.legal
        assert legal is not None
        if legal.decision is Decision.SHOW_OR_MUCK:
            return Action.show() if legal.can_show else Action.muck()
        if legal.decision is Decision.RUN_IT:  # R38: twice lowers the variance, not the odds
            return Action.run_it(2)
        try:
            equity = self.last_equity = self.equity(view)
        except ServiceError:
            self.errors += 1
            return Action.check() if legal.can_check else Action.fold()
        fair = 1 / max(2, len(view.active_seats))
        pot = view.pot_total
        if legal.bet_kind is not None and equity > fair * self.edge:
            target = legal.min_to + int(pot * (equity - fair))
            return Action(legal.bet_kind, max(legal.min_to, min(legal.max_to, target)))
        if legal.can_check:
            return Action.check()
        price = legal.call_amount / (pot + legal.call_amount) if legal.call_amount else 0.0
        return Action.call() if equity >= price else Action(ActionKind.FOLD)
