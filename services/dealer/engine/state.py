"""The one state value of a hand, changed only by the apply functions of the event modules.

Players are kept by *position*: 0 is the first player to the left of the button,
n-1 the button, so "clockwise" is `p + 1 mod n` and the dealing order of R12 is
the position order. Seats appear only at the edges (events, the Hand's surface).
Per-position values are plain lists, changed in place: no copies per action.

>>> from poker.vocab.config import PlayerIn, TableConfig
>>> from poker.vocab.events import HandStarted
>>> players = (PlayerIn(1, "a", 500), PlayerIn(4, "b", 700), PlayerIn(6, "c", 900))
>>> state = HandState(HandStarted("h1", TableConfig(), TableConfig().levels[0], players, 4), None)
>>> state.seats, state.stack, state.bb_pos
([6, 1, 4], [900, 500, 700], 1)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from poker.vocab.enums import Decision, MinRaiseRule, Street, Structure
from poker.vocab.events import HandStarted, PotAwarded
from poker.vocab.seats import from_button

if TYPE_CHECKING:
    from services.dealer.engine.ranking import HandRanker

NOBODY = -1


class HandState:
    """Everything a hand is at one moment; see the module doc for positions."""

    __slots__ = (
        # set once
        "started",
        "config",
        "level",
        "n",
        "seats",
        "pos",
        "start_stack",
        "posts_late",
        "sb_pos",
        "bb_pos",
        "big_blind",
        "double_rule",
        "fixed",
        "pot_limit",
        "ranker",
        "deck",
        # chips
        "stack",
        "bet",
        "total",
        "dead",
        # players
        "folded",
        "live",
        "hole",
        "board",
        "street",
        # the betting round
        "current",
        "top",
        "full_inc",
        "raises",
        "street_min",
        "full_to",
        "acted",
        "reopen",
        "actor",
        "decision",
        "aggressor",
        # showdown
        "exposed",
        "shown",
        "mucked",
        "ranks",
        "in_showdown",
        "sd_pots",
        "sd_k",
        "sd_order",
        "sd_i",
        "sd_best",
        "sd_auto",
        "sd_award",
        "awards",
        "over",
        "rake",  # R36: what each pot gave to the rake, main pot first; () before it is taken
        "straddle",  # R37: the straddler's position, NOBODY when nobody straddles
        "runout",
    )

    def __init__(self, started: HandStarted, ranker: HandRanker | None) -> None:
        config = started.config
        self.started = started
        self.config = config
        self.level = started.level
        by_seat = {p.seat: p for p in started.players}
        n = len(by_seat)
        # Dealing order starts left of the button (R12), the button last.
        ordered = [by_seat[seat] for seat in from_button(by_seat, started.button)]
        self.n = n
        self.seats = [p.seat for p in ordered]
        self.pos = {seat: i for i, seat in enumerate(self.seats)}
        self.start_stack = [p.stack for p in ordered]
        self.posts_late = [p.posts_late for p in ordered]
        # R6: small blind left of the button, big blind next; R7 heads-up: the
        # button (position 1) posts the small blind, the other (position 0) the big.
        # R5: the table's seat plan may name them (no small blind: NOBODY).
        if started.big_blind_seat is None:
            self.sb_pos, self.bb_pos = (1, 0) if n == 2 else (0, 1)
        else:
            small = started.small_blind_seat
            self.sb_pos = NOBODY if small is None else self.pos[small]
            self.bb_pos = self.pos[started.big_blind_seat]
        self.big_blind = started.level.big_blind
        self.double_rule = config.effective_min_raise_rule is MinRaiseRule.DOUBLE
        self.fixed = config.structure is Structure.FIXED_LIMIT
        self.pot_limit = config.structure is Structure.POT_LIMIT
        self.ranker = ranker
        self.deck: tuple[int, ...] = ()
        self.stack = list(self.start_stack)
        self.bet = [0] * n
        self.total = [0] * n  # every chip put in this hand, each-player antes included
        self.dead = 0  # a big-blind ante: whole into the main pot (R22)
        self.folded = [False] * n
        self.live = n
        self.hole: list[tuple[int, ...]] = [()] * n
        self.board: list[int] = []
        self.street = Street.PREFLOP
        self.current = 0
        self.top = 0
        self.full_inc = 0
        self.raises = 0
        self.street_min = self.big_blind
        self.full_to = self.big_blind
        self.acted = [False] * n
        self.reopen = [0] * n
        self.actor = NOBODY
        self.decision: Decision | None = None
        self.aggressor = NOBODY
        self.exposed = False
        self.shown = [False] * n
        self.mucked = [False] * n
        self.ranks: list[int] = []
        self.in_showdown = False
        self.sd_pots: list[tuple[int, tuple[int, ...]]] = []
        self.sd_k = 0
        self.sd_order: list[int] = []
        self.sd_i = 0
        self.sd_best = -1
        self.sd_auto = NOBODY
        self.sd_award = NOBODY
        self.awards: list[PotAwarded] = []
        self.over = False
        self.rake: tuple[int, ...] = ()
        self.straddle = NOBODY
        self.runout: Any = None  # R38: a services.dealer.engine.runout.Runout once offered

    def copy(self) -> HandState:
        """The same state with its own lists (a fork to try a decision on): every slot,
        written out, since a loop over the slots costs five times as much per decision."""
        new = HandState.__new__(HandState)
        new.started = self.started
        new.config = self.config
        new.level = self.level
        new.n = self.n
        new.seats = self.seats.copy()
        new.pos = self.pos
        new.start_stack = self.start_stack.copy()
        new.posts_late = self.posts_late.copy()
        new.sb_pos = self.sb_pos
        new.bb_pos = self.bb_pos
        new.big_blind = self.big_blind
        new.double_rule = self.double_rule
        new.fixed = self.fixed
        new.pot_limit = self.pot_limit
        new.ranker = self.ranker
        new.deck = self.deck
        new.stack = self.stack.copy()
        new.bet = self.bet.copy()
        new.total = self.total.copy()
        new.dead = self.dead
        new.folded = self.folded.copy()
        new.live = self.live
        new.hole = self.hole.copy()
        new.board = self.board.copy()
        new.street = self.street
        new.current = self.current
        new.top = self.top
        new.full_inc = self.full_inc
        new.raises = self.raises
        new.street_min = self.street_min
        new.full_to = self.full_to
        new.acted = self.acted.copy()
        new.reopen = self.reopen.copy()
        new.actor = self.actor
        new.decision = self.decision
        new.aggressor = self.aggressor
        new.exposed = self.exposed
        new.shown = self.shown.copy()
        new.mucked = self.mucked.copy()
        new.ranks = self.ranks.copy()
        new.in_showdown = self.in_showdown
        new.sd_pots = self.sd_pots.copy()
        new.sd_k = self.sd_k
        new.sd_order = self.sd_order.copy()
        new.sd_i = self.sd_i
        new.sd_best = self.sd_best
        new.sd_auto = self.sd_auto
        new.sd_award = self.sd_award
        new.awards = self.awards.copy()
        new.over = self.over
        new.rake = self.rake
        new.straddle = self.straddle
        new.runout = None if self.runout is None else self.runout.copy()
        return new

    def with_chips(self) -> int:
        """How many players still in the hand have chips behind."""
        stack = self.stack
        folded = self.folded
        return sum(1 for p in range(self.n) if stack[p] and not folded[p])
