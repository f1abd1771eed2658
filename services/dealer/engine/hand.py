"""A hand of Texas Hold'em from the forced bets to the last pot: the engine's public object.

A Hand is its events: every change is an event applied by the same small apply
function whether it happens live or is replayed (`Hand.from_events`). Between
players' decisions the dealer's part (returning an uncalled bet, exposing all-in
hands, dealing the board, showing and awarding pots) is a pure function of the
state that names the next event.

>>> from services.dealer.engine import Action, PlayerIn, TableConfig
>>> players = [PlayerIn(0, "ann", 1000), PlayerIn(1, "bob", 1000), PlayerIn(2, "cat", 1000)]
>>> hand = Hand.start(TableConfig(), players, button=0, deck=range(52))
>>> hand.actor, hand.legal_actions().call_amount, hand.bets
(0, 100, {0: 0, 1: 50, 2: 100})
>>> _ = hand.act(0, Action.raise_to(300))
>>> _ = hand.act(1, Action.fold())
>>> [type(e).__name__ for e in hand.act(2, Action.fold())]
['ActionTaken', 'BetReturned', 'PotAwarded', 'HandEnded']
>>> hand.stacks, hand.is_over
({0: 1150, 1: 950, 2: 900}, True)
>>> Hand.from_events(hand.events).stacks == hand.stacks
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from poker.limits import MAX_CHIPS
from poker.vocab.actions import Action, LegalActions
from poker.vocab.config import Level, PlayerIn, TableConfig
from poker.vocab.enums import Decision, Street
from poker.vocab.errors import ConfigError, IllegalAction, NotYourTurn
from poker.vocab.events import (
    DeckSet,
    Event,
    HandEnded,
    HandStarted,
    PotAwarded,
    RunItChosen,
    SecondBoardDealt,
    Viewer,
    redact,
)
from services.dealer.engine import betting, blinds, dealing, rake, runout, showdown
from services.dealer.engine.pots import Pot, build_pots
from services.dealer.engine.ranking import HandRanker
from services.dealer.engine.state import NOBODY, HandState

APPLY: dict[type[Any], Callable[[HandState, Any], None]] = {
    **blinds.APPLY,
    **dealing.APPLY,
    **betting.APPLY,
    **showdown.APPLY,
    **rake.APPLY,
    RunItChosen: runout.apply_chosen,  # R38
    SecondBoardDealt: runout.apply_second,
}


def _apply_ended(state: HandState, event: HandEnded) -> None:
    state.over = True
    state.street = Street.COMPLETE
    state.actor = NOBODY
    state.decision = None


APPLY[HandEnded] = _apply_ended
RIVER = Street.RIVER
BET_DECISION = Decision.BET
_DECK = frozenset(range(52))


def apply(state: HandState, event: Event) -> None:
    """Fold one event into the state (the live path and the replay use this alone)."""
    APPLY[type(event)](state, event)
    if state.actor == NOBODY:
        _maybe_showdown(state)
        if state.config.run_it_twice:
            runout.after_apply(state)  # R38: the offer, once it is due


def _maybe_showdown(state: HandState) -> None:
    rit = state.runout
    if rit is not None and rit.times == 2:
        runout.settle(state)  # R38: both boards, once they are out
    elif (
        state.street is RIVER
        and showdown.ready(state)
        and betting.uncalled(state) is None  # R21 before the pots are formed
    ):
        showdown.begin(state)


def next_event(state: HandState) -> Event | None:
    """The dealer's next event when no player's decision is awaited, else None."""
    if state.over or state.actor != NOBODY:
        return None
    if state.in_showdown:
        if state.config.rake is not None and (taken := rake.due(state)) is not None:
            return taken  # R36: before any pot is awarded
        if state.sd_auto != NOBODY:
            return showdown.auto_show(state)
        if state.sd_award != NOBODY:
            return showdown.award(state)
        return _ended(state)
    if state.runout is not None and state.runout.awards is not None:  # R38
        return runout.next_award(state) or _ended(state)
    returned = betting.bet_returned(state)
    if returned is not None:
        return returned
    if state.live == 1:  # R23: everyone else folded
        if state.config.rake is not None and (taken := rake.due(state)) is not None:
            return taken  # R36: a hand that saw a flop is raked however it ends
        return showdown.fold_award(state) or _ended(state)
    if state.config.all_in_exposure and state.with_chips() <= 1:
        exposure = showdown.next_exposure(state)  # R28
        if exposure is not None:
            return exposure
    rit = state.runout
    if rit is not None and rit.times == 2 and state.street is RIVER:
        return runout.next_second(state)  # R38: the second run
    return dealing.next_board(state)


def _ended(state: HandState) -> HandEnded:
    return HandEnded(tuple(sorted(zip(state.seats, state.stack, strict=True))))


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended: final stacks and net winnings by seat, the awards, the cards shown."""

    stacks: dict[int, int]
    net: dict[int, int]
    awards: tuple[PotAwarded, ...]
    shown: dict[int, tuple[int, ...]]


class Hand:
    """One hand at a table; see the contract (docs/engine-contract.md)."""

    __slots__ = ("_state", "events")

    def __init__(self, state: HandState, events: list[Event]) -> None:
        self._state = state
        self.events = events

    # ------------------------------------------------------------ making a hand

    @classmethod
    def start(
        cls,
        config: TableConfig,
        players: Sequence[PlayerIn],
        button: int,
        deck: Iterable[int],
        *,
        level: Level | None = None,
        hand_id: str = "",
        commitment: str = "",
        ranker: HandRanker | None = None,
        blind_seats: tuple[int | None, int] | None = None,
    ) -> Hand:
        """Post antes and blinds (R6-R11), deal the hole cards (R12), await the first actor.

        `blind_seats`: (small blind seat or None for none, big blind seat), the table's seat
        plan under R5's button rules; the button may then be a seat nobody dealt in holds
        (a dead button). None: R6/R7 from the button."""
        deck = tuple(deck)
        level = config.levels[0] if level is None else level
        _check_start(config, players, button, deck, level, blind_seats)
        small, big = (None, None) if blind_seats is None else blind_seats
        started = HandStarted(hand_id, config, level, tuple(players), button, commitment,
                              small, big)
        state = HandState(started, ranker)
        hand = cls(state, [started])
        hand._emit(DeckSet(deck))
        for event in blinds.forced_bets(state):
            hand._emit(event)
        for dealt in dealing.deal_hole_cards(state):
            hand._emit(dealt)
        hand._run()
        return hand

    @classmethod
    def from_events(cls, events: Sequence[Event], ranker: HandRanker | None = None) -> Hand:
        """The hand the events describe: the same state as the live hand that made them."""
        if not events or not isinstance(events[0], HandStarted):
            raise ValueError("a hand's events begin with HandStarted")
        state = HandState(events[0], ranker)
        for event in events[1:]:
            apply(state, event)
        return cls(state, list(events))

    def _emit(self, event: Event) -> None:
        apply(self._state, event)
        self.events.append(event)

    def _run(self) -> None:
        state = self._state
        while (event := next_event(state)) is not None:
            apply(state, event)
            self.events.append(event)

    def fork(self) -> Hand:
        """A copy to try a decision on (the table's `decide`): the same state with its own
        lists, so the copy's events leave this hand as it was."""
        return Hand(self._state.copy(), list(self.events))

    def fold(self, event: Event) -> None:
        """Folds one event the hand's own decisions made (on a fork) into this hand."""
        apply(self._state, event)
        self.events.append(event)

    # ------------------------------------------------------------ decisions

    def legal_actions(self) -> LegalActions:
        """What the player to act may do; IllegalAction when nobody is to act."""
        state = self._state
        if state.decision is BET_DECISION:
            return betting.legal_actions(state)
        if state.actor == NOBODY:
            raise IllegalAction("nobody is to act: the hand is over", reason="HAND_OVER")
        if state.decision is Decision.SHOW_OR_MUCK:
            return LegalActions(
                state.seats[state.actor], Decision.SHOW_OR_MUCK, can_show=True, can_muck=True
            )
        if state.decision is Decision.RUN_IT:
            return runout.legal(state)
        return betting.legal_actions(state)

    def act(self, seat: int, action: Action) -> list[Event]:
        """Take the action of `seat`; the events it produced (the dealer's that follow included)."""
        state = self._state
        if type(action.amount) is not int:  # noqa: E721 - bool, float, NaN: not chips
            raise IllegalAction(f"amount: {action.amount!r} is not a whole number of chips "
                                "(a plain int)")
        p = state.actor
        if p == NOBODY or state.seats[p] != seat:
            p = self._actor_position(seat)  # raises NotYourTurn
        events = self.events
        mark = len(events)
        if state.decision is BET_DECISION:
            taken = betting.resolve(state, p, action)
            betting.apply_action(state, taken)
            events.append(taken)
            if state.actor == NOBODY:
                _maybe_showdown(state)
                if state.config.run_it_twice:
                    runout.after_apply(state)
        elif state.decision is Decision.RUN_IT:
            chosen = runout.resolve(state, p, action)
            apply(state, chosen)
            events.append(chosen)
        else:
            shown = showdown.resolve(state, p, action)
            apply(state, shown)
            events.append(shown)
        if state.actor == NOBODY:
            self._run()
        return events[mark:]

    def time_out(self, seat: int) -> list[Event]:
        """R32: the player checks if they can, else folds; at a showdown they muck (R27)."""
        state = self._state
        p = self._actor_position(seat)
        if state.decision is Decision.SHOW_OR_MUCK:
            return self.act(seat, Action.muck())
        if state.decision is Decision.RUN_IT:
            return self.act(seat, runout.time_out())
        if betting.target(state, p) > state.bet[p]:
            return self.act(seat, Action.fold())
        return self.act(seat, Action.check())

    def _actor_position(self, seat: int) -> int:
        state = self._state
        p = state.actor
        if p == NOBODY:
            raise NotYourTurn("nobody is to act: the hand is over", None, reason="HAND_OVER")
        if state.seats[p] != seat:
            actor = state.seats[p]
            raise NotYourTurn(f"it is seat {actor}'s turn, not seat {seat}'s", actor)
        return p

    def events_for(self, viewer: Viewer) -> list[Event]:
        """The events as `viewer` may see them (R27, STYLE §5: no other player's hole cards)."""
        visible = []
        for event in self.events:
            shown = redact(event, viewer)
            if shown is not None:
                visible.append(shown)
        return visible

    # ------------------------------------------------------------ the state, read only

    @property
    def config(self) -> TableConfig:
        return self._state.config

    @property
    def level(self) -> Level:
        return self._state.level

    @property
    def button(self) -> int:
        return self._state.started.button

    @property
    def started(self) -> HandStarted:
        """The hand's first event: options, level, players, button, blinds' seats (R5)."""
        return self._state.started

    @property
    def hand_id(self) -> str:
        return self._state.started.hand_id

    @property
    def players(self) -> tuple[PlayerIn, ...]:
        """The players dealt in, in seat order."""
        return tuple(sorted(self._state.started.players, key=lambda p: p.seat))

    @property
    def street(self) -> Street:
        return self._state.street

    @property
    def is_over(self) -> bool:
        return self._state.over

    @property
    def actor(self) -> int | None:
        """The seat whose decision is awaited, if any."""
        p = self._state.actor
        return None if p == NOBODY else self._state.seats[p]

    @property
    def decision(self) -> Decision | None:
        return self._state.decision

    @property
    def decision_time_ms(self) -> int:
        """The time limit of the awaited decision (R32; R27 for show or muck)."""
        config = self._state.config
        if self._state.decision is Decision.SHOW_OR_MUCK:
            return config.show_time_ms
        return config.action_time_ms

    @property
    def full_raise_to(self) -> int:
        """The smallest total that is a full bet or raise this round (R17-R19), whether or
        not the player to act can afford it; an all-in below it does not reopen."""
        return self._state.full_to

    @property
    def rake(self) -> int:
        """The chips the house took from this hand's pots (R36), 0 until (or unless) taken."""
        return sum(self._state.rake)

    @property
    def board(self) -> tuple[int, ...]:
        return tuple(self._state.board)

    @property
    def stacks(self) -> dict[int, int]:
        """Chips behind, by seat."""
        state = self._state
        return dict(sorted(zip(state.seats, state.stack, strict=True)))

    @property
    def bets(self) -> dict[int, int]:
        """Chips in front of each seat this round."""
        state = self._state
        return dict(sorted(zip(state.seats, state.bet, strict=True)))

    @property
    def contributions(self) -> dict[int, int]:
        """Every chip each seat has put in this hand (a big-blind ante aside, R22)."""
        state = self._state
        return dict(sorted(zip(state.seats, state.total, strict=True)))

    @property
    def pots(self) -> tuple[Pot, ...]:
        """The pots formed so far and not yet awarded, main pot first (this round's bets are
        still in front of the players)."""
        state = self._state
        if state.over:
            return ()
        if state.in_showdown:  # the pots not yet awarded
            raw = state.sd_pots[: state.sd_k + 1]
        else:
            collected = [t - b for t, b in zip(state.total, state.bet, strict=True)]
            raw = build_pots(collected, state.folded, state.dead)
        seats = state.seats
        return tuple(
            Pot(amount, tuple(sorted(seats[p] for p in eligible))) for amount, eligible in raw
        )

    @property
    def in_hand(self) -> tuple[int, ...]:
        """Seats that have not folded (or mucked), in seat order."""
        state = self._state
        return tuple(
            sorted(
                state.seats[p]
                for p in range(state.n)
                if not state.folded[p] and not state.mucked[p]
            )
        )

    def hole_cards(self, seat: int) -> tuple[int, ...]:
        """A seat's hole cards (the unredacted state: for the dealer and the auditor)."""
        return self._state.hole[self._state.pos[seat]]

    @property
    def result(self) -> HandResult | None:
        state = self._state
        if not state.over:
            return None
        stacks = self.stacks
        start = dict(zip(state.seats, state.start_stack, strict=True))
        return HandResult(
            stacks=stacks,
            net={seat: stacks[seat] - start[seat] for seat in stacks},
            awards=tuple(state.awards),
            shown={state.seats[p]: state.hole[p] for p in range(state.n) if state.shown[p]},
        )

    def __repr__(self) -> str:
        return (
            f"Hand(id={self.hand_id!r}, street={self.street.value}, actor={self.actor}, "
            f"stacks={self.stacks}, board={self.board})"
        )


def _check_start(
    config: TableConfig,
    players: Sequence[PlayerIn],
    button: int,
    deck: tuple[int, ...],
    level: Level,
    blinds: tuple[int | None, int] | None = None,
) -> None:
    if not isinstance(config, TableConfig):
        raise ConfigError(f"config: expected a TableConfig, got {type(config).__name__}")
    if not 2 <= len(players) <= config.seats:
        raise ConfigError(
            f"players: {len(players)} dealt in; a hand needs 2 to {config.seats} "
            "(the table's seats)"
        )
    seen: set[int] = set()
    for player in players:
        if not isinstance(player, PlayerIn):
            raise ConfigError(f"players: {player!r} is not a PlayerIn")
        if not 0 <= player.seat < config.seats:
            raise ConfigError(f"players: seat {player.seat} is not a seat 0..{config.seats - 1}")
        if player.seat in seen:
            raise ConfigError(f"players: seat {player.seat} is given twice")
        seen.add(player.seat)
        if isinstance(player.stack, bool) or not isinstance(player.stack, int) or player.stack < 1:
            raise ConfigError(
                f"players: seat {player.seat} has stack {player.stack!r}; a player dealt in "
                "has chips (R29, R30)"
            )
        if player.stack > MAX_CHIPS:
            raise ConfigError(f"players: seat {player.seat} has stack {player.stack}, past the "
                              f"maximum of {MAX_CHIPS} chips")
    if sum(p.stack for p in players) > MAX_CHIPS:
        raise ConfigError(f"players: {sum(p.stack for p in players)} chips together, past the "
                          f"maximum of {MAX_CHIPS} (every pot must fit)")
    if blinds is not None:
        _check_blinds(config, seen, button, blinds)
    elif button not in seen:
        raise ConfigError(f"button: seat {button} is not one of the players dealt in (R5)")
    if len(deck) != 52 or not _DECK.issubset(deck):
        raise ConfigError("deck: give the 52 cards 0..51, each once, in deal order (R1, R12)")
    problem = level.problem() if isinstance(level, Level) else f"{level!r} is not a Level"
    if problem is not None:
        raise ConfigError(f"level: {problem}")


def _check_blinds(config: TableConfig, seen: set[int], button: int,
                  blinds: tuple[int | None, int]) -> None:
    """R5: the big blind is dealt in, the small blind too (or None), the button a seat."""
    small, big = blinds
    if big not in seen:
        raise ConfigError(f"blinds: big blind seat {big!r} is not one of the players dealt in")
    if small is not None and (small not in seen or small == big):
        raise ConfigError(f"blinds: small blind seat {small!r} is not another player dealt in")
    if type(button) is not int or not 0 <= button < config.seats:  # noqa: E721
        raise ConfigError(f"button: {button!r} is not a seat 0..{config.seats - 1} (R5)")
