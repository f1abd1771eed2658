"""R38, running it twice: the rest of the board dealt twice, each pot split over the two.

Where the table allows it (`TableConfig.run_it_twice`), once the betting is over before
the river because players are all in (at most one player still in has chips behind,
and any uncalled bet went back, R21), every player still in is asked, one by one in
dealing order, to run the rest of the board once or twice: a RUN_IT decision with its
own clock (R32's time; no answer is once), answered with `Action.run_it(times)` and
recorded as `RunItChosen`. The first "once" ends the asking. With every player agreeing
to twice:

* the first run is dealt as usual (R12's positions, `BoardDealt`);
* the second run follows it in deck order: for each street the first run dealt after
  the all-in, a burn and the street's cards, from the position after the first run's
  river (2n + 8 on), as `SecondBoardDealt` (R3 opens those positions like any board
  card);
* every hand still in is shown (R28 turned them up already unless the table turned
  exposure off; then they are shown now): there is no show-or-muck decision;
* each pot, from the last side pot to the main pot, is split in two halves (the odd
  chip to the first run), each settled on its own board: `PotAwarded` with `run` 1
  and 2, ties split as R24 says.

The module keeps its state in one slot of the hand's state (`HandState.runout`), folded
from the same events live and on replay; hand.py calls it at three points.
"""

from __future__ import annotations

from poker.vocab.actions import Action, LegalActions
from poker.vocab.enums import ActionKind, Decision, ShowReason, Street
from poker.vocab.errors import ConfigError, IllegalAction
from poker.vocab.events import CardsShown, Event, PotAwarded, RunItChosen, SecondBoardDealt
from services.dealer.engine import betting
from services.dealer.engine.pots import build_pots, split
from services.dealer.engine.state import NOBODY, HandState

#: The streets after each street, and how many board cards each deals.
_AFTER = {Street.PREFLOP: (Street.FLOP, Street.TURN, Street.RIVER),
          Street.FLOP: (Street.TURN, Street.RIVER), Street.TURN: (Street.RIVER,)}
_CARDS = {Street.FLOP: 3, Street.TURN: 1, Street.RIVER: 1}


class Runout:
    """Where running it twice stands: who is asked, the answer, the second board."""

    __slots__ = ("asked", "i", "times", "first", "streets", "board2", "awards")

    def __init__(self, asked: list[int], first: int, streets: tuple[Street, ...]) -> None:
        self.asked = asked  # positions, in dealing order
        self.i = 0  # the next to answer
        self.times = 0  # 0 while asking, then 1 or 2
        self.first = first  # board cards dealt before the all-in
        self.streets = streets  # the streets run twice
        self.board2: list[int] = []  # the second run's cards
        self.awards: list[PotAwarded] | None = None  # the settlement, once both boards are out

    def copy(self) -> Runout:
        new = Runout(self.asked, self.first, self.streets)  # asked is never changed
        new.i, new.times = self.i, self.times
        new.board2 = self.board2.copy()
        new.awards = None if self.awards is None else self.awards.copy()
        return new


# ------------------------------------------------------------------ the offer

def after_apply(state: HandState) -> None:
    """After each event with nobody to act: offer the run-out when it is due."""
    if state.runout is None and _due(state):
        live = [p for p in range(state.n) if not state.folded[p]]
        state.runout = Runout(live, len(state.board), _AFTER[state.street])
        state.actor = live[0]
        state.decision = Decision.RUN_IT


def _due(state: HandState) -> bool:
    return (not state.over and not state.in_showdown and state.live > 1
            and len(state.board) < 5 and state.street in _AFTER
            and bool(state.hole[state.n - 1])  # every hole card is out
            and state.with_chips() <= 1 and betting.uncalled(state) is None)


def legal(state: HandState) -> LegalActions:
    return LegalActions(state.seats[state.actor], Decision.RUN_IT)


def resolve(state: HandState, p: int, action: Action) -> RunItChosen:
    if action.kind is not ActionKind.RUN_IT or action.amount not in (1, 2) \
            or isinstance(action.amount, bool):
        raise IllegalAction(
            f"you cannot {action.kind.value} now: choose to run the rest of the board once "
            "or twice (R38: run_it with 1 or 2)")
    return RunItChosen(state.seats[p], action.amount)


def apply_chosen(state: HandState, event: RunItChosen) -> None:
    runout = state.runout
    assert runout is not None
    runout.i += 1
    if event.times == 1:
        runout.times = 1
    elif runout.i == len(runout.asked):
        runout.times = 2
    if runout.times:
        state.actor = NOBODY
        state.decision = None
    else:
        state.actor = runout.asked[runout.i]


def time_out() -> Action:
    """No answer in time is once (R38)."""
    return Action.run_it(1)


# ------------------------------------------------------------------ the second run

def next_second(state: HandState) -> Event:
    """After the first run: the second run's next street, then the hands not yet shown."""
    runout = state.runout
    assert runout is not None
    dealt = len(runout.board2)
    n = state.n
    position = 2 * n + 8  # the burn after the first run's river (R12)
    for street in runout.streets:
        count = _CARDS[street]
        if dealt == 0:
            cards = state.deck[position + 1 : position + 1 + count]
            return SecondBoardDealt(street, tuple(cards))
        dealt -= count
        position += 1 + count
    for p in runout.asked:
        if not state.shown[p]:
            return CardsShown(state.seats[p], state.hole[p], ShowReason.SHOWDOWN)
    raise AssertionError("the second run is complete and every hand shown")


def apply_second(state: HandState, event: SecondBoardDealt) -> None:
    runout = state.runout
    assert runout is not None
    runout.board2.extend(event.cards)


def settle(state: HandState) -> None:
    """Both boards out and every hand shown: the awards of each half pot (R38, R24)."""
    runout = state.runout
    assert runout is not None
    if runout.awards is not None or len(state.board) < 5 \
            or runout.first + len(runout.board2) < 5 \
            or any(not state.shown[p] for p in runout.asked):
        return
    ranker = state.ranker
    if ranker is None:
        raise ConfigError("this hand reached a showdown without a ranker: start it (or "
                          "rebuild it from its events) with ranker=")
    live = runout.asked
    holes = [state.hole[p] for p in live]
    boards = (state.board, state.board[: runout.first] + runout.board2)
    ranks = [dict(zip(live, ranker.rank_holdings(board, holes), strict=True))
             for board in boards]
    for p in range(state.n):
        state.bet[p] = 0
    state.street = Street.SHOWDOWN
    seats = state.seats
    awards: list[PotAwarded] = []
    pots = build_pots(state.total, state.folded, state.dead)
    for k in range(len(pots) - 1, -1, -1):
        amount, eligible = pots[k]
        halves = (amount - amount // 2, amount // 2)  # the odd chip to the first run
        for run, (half, by) in enumerate(zip(halves, ranks, strict=True), start=1):
            if not half:
                continue
            contenders = [p for p in eligible if not state.folded[p]]
            best = max(by[p] for p in contenders)
            winners = [p for p in contenders if by[p] == best]
            awards.append(PotAwarded(k, half, tuple(seats[p] for p in eligible),
                                     tuple(seats[p] for p in winners),
                                     tuple(split(half, winners)), run))
    runout.awards = awards


def next_award(state: HandState) -> PotAwarded | None:
    """The next half pot's award, None once every one is paid."""
    runout = state.runout
    assert runout is not None and runout.awards is not None
    paid = sum(1 for a in state.awards if a.run)
    return runout.awards[paid] if paid < len(runout.awards) else None
