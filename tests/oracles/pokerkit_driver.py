"""PokerKit, the test-only oracle, driven in our terms: same deck, same seats, same decisions.

The differential test and the benchmark play one hand through our engine and through
PokerKit and compare them; this module is the PokerKit side. It speaks the engine's
language (docs/engine-contract.md): players `p1..pN` in dealing order from the left
of the button, the button last (heads-up: p1 is the big blind, p2 the button and
small blind, as in PokerKit and PHH); cards are `poker.cards` ints, dealt from a
52-card deck exactly as RULES.md R12 says; bets are "to" totals for the round.

Everything that is not a betting decision is automated (antes, blinds, collecting
bets, dealing with burns, showing every hand at showdown, awarding pots).

>>> hand = PokerKitHand(Spec("no_limit", (1000, 1000, 1000), 5, 10), list(range(52)))
>>> hand.actor, hand.bounds().call_amount, hand.bounds().min_to, hand.bounds().max_to
(2, 10, 20, 1000)
>>> hand.bet_raise_to(30); hand.fold(); hand.fold()
>>> hand.is_over, hand.stacks()
(True, [995, 990, 1015])

PokerKit conventions the engine must match (or knowingly differ from):
- Forced bets are listed by position: `blinds_or_straddles = (small, big, 0, ...)`,
  and heads-up PokerKit swaps them, so player 0 (p1) posts the big blind. Antes the
  same way: a big-blind ante is `raw_antes = [0, ante, 0, ...]` and lands on the big
  blind for any player count, posted before the blind (R11: ante first, then what
  is left towards the blind).
- Uniform antes count in each player's contribution (`ante_trimming_status=True`,
  R22); a big-blind ante is dead money that goes whole into the main pot
  (`ante_trimming_status=False`), as R22 says.
- A blind posted short (all-in) is what the others call: the call is the largest
  amount actually posted, not the nominal big blind; a raise is then to at least
  that amount plus one big blind.
- Minimum raise ("standard" R18): the largest bet or raise increment of the round,
  at least the big blind (fixed limit: the small or big bet), on top of the current
  bet; an all-in below it is allowed (min_to == max_to == the all-in total).
- Odd chips of a split pot go to the winner with the lowest index, i.e. first to
  the left of the button (R24), pot by pot.
- Fixed limit: PokerKit counts every bet or raise of a round towards the cap, a
  short all-in included, and does not count the big blind; the driver sets the
  pre-flop cap one lower so that the big blind counts as the bet (R16).
- R19 (short all-in does not reopen) is where PokerKit 0.7.7 and the rule book part:
  PokerKit treats the first all-in of a round as a full raise even when it is below
  the minimum bet, and tracks a run of short all-ins from the last full raise rather
  than from each player's last action. The driver applies R19 itself on top of
  PokerKit and says so in `Bounds.divergence` (it can only take a raise away; where
  the book would allow a raise PokerKit refuses, the divergence says that instead).
- No bet or raise is offered when no other player in the hand could put in more
  than the current bet (all folded or all-in, or covered).
- R20: when nobody else in the hand has chips and the actor owes nothing, PokerKit
  still asks the actor to check or fold; the driver checks for them, so such a
  spot is never a decision.
- R36 rake: `Spec.rake_basis_points`/`rake_cap` hand PokerKit its own `rake` function
  (percentage, cap, no flop no drop), which rakes and caps each pot on its own and
  rounds to the nearest chip; the book rakes the hand's pots together, rounded down,
  main pot first (tests/engine/test_R36_rake.py counts where the two part).
- R37 straddle: `Spec.straddle` makes p3's straddle PokerKit's third blind
  (`blinds_or_straddles`). PokerKit 0.7.7's smallest raise over it adds the big blind;
  the book's reaches twice the straddle, and the driver applies that before the flop.
- Folding when a check is free is allowed (PokerKit's cash-game mode, as the
  engine); the hand is played as one runout.
"""

from __future__ import annotations

import functools
import math
import random
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

from pokerkit import (
    Automation,
    FixedLimitTexasHoldem,
    Mode,
    NoLimitTexasHoldem,
    PotLimitPokerMixin,
    State,
    TexasHoldemMixin,
    UnfixedLimitHoldem,
    rake,
)

from poker.cards import DECK_SIZE, card_text, parse_card
from services.dealer.phh import PhhHand

__all__ = [
    "Bounds",
    "Choice",
    "Policy",
    "PokerKitHand",
    "RandomHand",
    "Spec",
    "expected_finishing_stacks",
    "mixed_policy",
    "random_hand",
    "random_spec",
    "replay_phh",
]

STRUCTURES = ("no_limit", "fixed_limit", "pot_limit")
CHOICE_KINDS = ("fold", "check_call", "raise_to", "all_in")

# Dealing stays manual so that PokerKit deals our deck in R12 order; showing stays
# manual so that every hand is shown (PokerKit's automation mucks losing hands).
_AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
# PokerKit's own words when it refuses a raise for its version of R19.
_POKERKIT_R19_REFUSALS = (
    "Short all-in cannot be raised.",
    "The player already acted and hence cannot raise in face of a non-full all-in wager",
)


class PotLimitTexasHoldem(PotLimitPokerMixin, TexasHoldemMixin, UnfixedLimitHoldem):
    """Pot-limit Texas hold'em, which PokerKit 0.7.7 does not name, from PokerKit's own
    parts (its pot-limit Omaha is the same mixin on Omaha's hands)."""


@dataclass(frozen=True)
class Spec:
    """One hand's setup. `stacks` are p1..pN: dealing order from the left of the button.

    structure: "no_limit", "pot_limit" or "fixed_limit" (small bet = big blind, big bet =
    2 big blinds).
    ante: per player, or posted by the big blind alone for the table when big_blind_ante.
    fixed_limit_cap: bets + raises a round in fixed limit, the big blind being the
    pre-flop bet (R16).
    """

    structure: str
    stacks: tuple[int, ...]
    small_blind: int
    big_blind: int
    ante: int = 0
    big_blind_ante: bool = False
    fixed_limit_cap: int = 4
    # R36: PokerKit's own rake function with this percentage (in basis points: 500 is
    # 5%), cap (0: none) and no flop, no drop; 0: no rake.
    rake_basis_points: int = 0
    rake_cap: int = 0
    # R37: p3 (left of the big blind) posts a straddle of twice the big blind.
    straddle: bool = False
    # R5 `dead`, R10, R33: PokerKit's `blinds_or_straddles` and antes by position, as
    # given (empty: from small_blind, big_blind and ante): a hand with no small blind,
    # live big blinds posted out of turn, missed small blinds posted dead as antes.
    # Antes that differ by position go whole into the main pot (no trimming: trimmed,
    # PokerKit returns the part of one player's ante no other matched, as uncalled).
    blinds: tuple[int, ...] = ()
    antes: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.structure not in STRUCTURES:
            raise ValueError(f"structure {self.structure!r}: expected one of {STRUCTURES}")
        if not 2 <= len(self.stacks) <= 10:
            raise ValueError(f"{len(self.stacks)} players: a hand has 2 to 10")
        if min(self.stacks) <= 0:
            raise ValueError(f"stacks {self.stacks}: every player dealt in has chips (R29)")
        if not 0 < self.small_blind <= self.big_blind or self.ante < 0:
            raise ValueError(
                f"blinds {self.small_blind}/{self.big_blind}, ante {self.ante}: "
                "need 0 < small blind <= big blind and ante >= 0"
            )
        if self.fixed_limit_cap < 2:
            raise ValueError(f"fixed_limit_cap {self.fixed_limit_cap}: at least a bet and a raise")
        if self.straddle and (len(self.stacks) < 3 or self.structure == "fixed_limit"):
            raise ValueError("straddle: three players or more, no limit or pot limit (R37)")

    @property
    def players(self) -> int:
        return len(self.stacks)


@dataclass(frozen=True)
class Bounds:
    """What the actor may do, in the engine's terms (compare with engine LegalActions).

    player: 0-based index in p1..pN order.
    can_fold: always True at a betting decision (the engine allows folding when a
    check is free; PokerKit's cash-game mode does too).
    call_amount: chips a call adds, capped at the stack; 0 when checking.
    bet_kind: "bet" when nobody has bet this round, "raise" otherwise, None when no
    bet or raise is allowed (then min_to == max_to == 0).
    min_to, max_to: the totals this player's bet may reach this round.
    stack, bet: the actor's chips behind and in front (this round).
    divergence: empty, or why these bounds differ from what PokerKit alone says.
    """

    player: int
    can_fold: bool
    can_check: bool
    can_call: bool
    call_amount: int
    can_bet_or_raise: bool
    bet_kind: str | None
    min_to: int
    max_to: int
    stack: int
    bet: int
    divergence: str = ""


class Choice(NamedTuple):
    """A decision either engine can play: fold, check_call, raise_to `to`, all_in.

    Choice("fold"), Choice("check_call"), Choice("raise_to", 300), Choice("all_in");
    "all_in" is the call, bet or raise that puts the whole stack in.
    """

    kind: str
    to: int = 0


class PokerKitHand:
    """One hand played through PokerKit; `actor` is None once the hand is over.

    `run_it`: R38, each player's answer (1 or 2, by 0-based index) when PokerKit asks for
    the number of runouts (cash-game mode, an all-in before the river); PokerKit runs
    the board twice when every player asked chose 2. Unset: one runout, automated.
    """

    def __init__(self, spec: Spec, deck: Sequence[int],
                 run_it: Callable[[int], int] | None = None) -> None:
        if sorted(deck) != list(range(DECK_SIZE)):
            raise ValueError("deck: expected the 52 card indexes 0..51, each once")
        self.spec = spec
        self.deck = tuple(deck)
        self.run_it = run_it
        self.state = self._create_state(spec, run_it is not None)
        self._next_card = 2 * spec.players  # the first burn (R12)
        # R19 bookkeeping for the current round, see _book_allows_raise.
        self._round: int | None = None
        self._full_raise = 0
        self._since_last_action: dict[int, int] = {}
        self._advance()

    @staticmethod
    def _create_state(spec: Spec, runouts: bool = False) -> State:
        n, ante = spec.players, spec.ante
        automations = tuple(a for a in _AUTOMATIONS
                            if not (runouts and a is Automation.RUNOUT_COUNT_SELECTION))
        if spec.antes:
            raw_antes: int | list[int] = list(spec.antes)
        elif spec.big_blind_ante:
            # Position order: index 1 is the big blind, heads-up included (PokerKit swaps).
            raw_antes = [0, ante] + [0] * (n - 2)
        else:
            raw_antes = ante
        # Trimming on: antes are contributions like any chip (R22); off for the
        # big-blind ante, which PokerKit then puts whole into the main pot.
        trimming = not spec.big_blind_ante and len(set(spec.antes)) <= 1
        blinds: tuple[int, ...] = spec.blinds or (spec.small_blind, spec.big_blind)
        if spec.straddle:  # R37: PokerKit's blinds_or_straddles, p3 the straddle
            blinds += (2 * spec.big_blind,)
        extra: dict[str, object] = {}
        if spec.rake_basis_points:
            extra["rake"] = functools.partial(
                rake, percentage=spec.rake_basis_points / 10_000,
                cap=spec.rake_cap or math.inf, no_flop_no_drop=True)
        game: NoLimitTexasHoldem | FixedLimitTexasHoldem | PotLimitTexasHoldem
        if spec.structure == "no_limit":
            game = NoLimitTexasHoldem(
                automations, trimming, raw_antes, blinds, spec.big_blind, mode=Mode.CASH_GAME,
                **extra,  # type: ignore[arg-type]
            )
        elif spec.structure == "pot_limit":
            game = PotLimitTexasHoldem(
                automations, trimming, raw_antes, blinds, spec.big_blind, mode=Mode.CASH_GAME,
                **extra,  # type: ignore[arg-type]
            )
        else:
            game = FixedLimitTexasHoldem(
                automations,
                trimming,
                raw_antes,
                blinds,
                spec.big_blind,
                2 * spec.big_blind,
                mode=Mode.CASH_GAME,
                **extra,  # type: ignore[arg-type]
            )
            # R16: the big blind is the pre-flop bet, so one raise fewer before the flop.
            cap = spec.fixed_limit_cap
            first, *rest = game.streets
            game.streets = (
                replace(first, max_completion_betting_or_raising_count=cap - 1),
                *(replace(s, max_completion_betting_or_raising_count=cap) for s in rest),
            )
        # Cash-game mode: folding with a free check is allowed (with a warning), as in
        # the engine; the one-runout choice is automated.
        return game(spec.stacks, n)

    # ------------------------------------------------------------ reading the hand

    @property
    def actor(self) -> int | None:
        """The 0-based index of the player to act, None when the hand is over."""
        return self.state.actor_index

    @property
    def is_over(self) -> bool:
        return not self.state.status

    @property
    def board(self) -> list[int]:
        return [parse_card(repr(card)) for card in self.state.get_board_cards(0)]

    def hole_cards(self) -> list[list[int]]:
        """Each player's hole cards, p1..pN."""
        return [[parse_card(repr(card)) for card in cards] for cards in self.state.hole_cards]

    def stacks(self) -> list[int]:
        """Chips behind each player; once the hand is over, the final stacks."""
        return list(self.state.stacks)

    def bounds(self) -> Bounds:
        """The actor's bounds; raises ValueError when nobody is to act."""
        state, player = self.state, self.actor
        if player is None:
            raise ValueError("nobody is to act: the hand is over")
        self._sync_round()
        call = state.checking_or_calling_amount
        assert call is not None
        stack, bet = state.stacks[player], state.bets[player]
        can_raise = state.can_complete_bet_or_raise_to()
        divergence = ""
        book = self._book_allows_raise(player)
        if can_raise and not book:
            can_raise = False
            divergence = (
                "R19: an all-in short of a full raise does not reopen the betting for "
                "a player who already acted; PokerKit 0.7.7 would allow a raise here"
            )
        elif not can_raise and book and self._pokerkit_r19_refusal():
            divergence = (
                "R19: the increments since this player last acted add up to a full "
                "raise, so the rule book allows a raise; PokerKit 0.7.7 does not"
            )
        min_to = max_to = 0
        if can_raise:
            low = state.min_completion_betting_or_raising_to_amount
            high = state.max_completion_betting_or_raising_to_amount
            assert low is not None and high is not None
            min_to, max_to = low, high
            floor = max(state.bets) + self._full_raise
            if self.spec.straddle and state.street_index == 0 and low < floor:
                # R37: a raise reaches at least twice the straddle; PokerKit 0.7.7's
                # smallest raise adds only the big blind to it.
                all_to = stack + bet
                min_to, max_to = (all_to, all_to) if all_to <= floor else (floor, max(high, floor))
        return Bounds(
            player=player,
            can_fold=True,
            can_check=call == 0,
            can_call=call > 0,
            call_amount=call,
            can_bet_or_raise=can_raise,
            bet_kind=("raise" if max(state.bets) > 0 else "bet") if can_raise else None,
            min_to=min_to,
            max_to=max_to,
            stack=stack,
            bet=bet,
            divergence=divergence,
        )

    # ------------------------------------------------------------ decisions

    def fold(self) -> None:
        player = self._require_actor()
        with warnings.catch_warnings():
            # "There is no reason for this player to fold": legal in the engine too.
            warnings.simplefilter("ignore", UserWarning)
            self.state.fold()
        self._since_last_action.pop(player, None)
        self._advance()

    def check_call(self) -> None:
        player = self._require_actor()
        self.state.check_or_call()
        self._since_last_action[player] = 0
        self._advance()

    def bet_raise_to(self, to: int) -> None:
        """Bet or raise so that the actor's bet this round totals `to`."""
        player = self._require_actor()
        bounds = self.bounds()
        if not bounds.can_bet_or_raise or not bounds.min_to <= to <= bounds.max_to:
            allowed = (
                f"{bounds.min_to}..{bounds.max_to}" if bounds.can_bet_or_raise else "no raise"
            )
            raise ValueError(f"p{player + 1} cannot bet or raise to {to}: allowed {allowed}")
        increment = to - max(self.state.bets)
        self.state.complete_bet_or_raise_to(to)
        if increment >= self._full_raise:
            self._full_raise = increment
        for other in self._since_last_action:
            self._since_last_action[other] += increment
        self._since_last_action[player] = 0
        self._advance()

    def all_in(self) -> None:
        """The call, bet or raise that puts the actor's whole stack in."""
        bounds = self.bounds()
        total = bounds.stack + bounds.bet
        if bounds.can_bet_or_raise and bounds.min_to <= total <= bounds.max_to:
            self.bet_raise_to(total)
        elif bounds.call_amount == bounds.stack:
            self.check_call()
        else:
            raise ValueError(
                f"p{bounds.player + 1} cannot go all-in for {total}: "
                f"call {bounds.call_amount}, raise to {bounds.min_to}..{bounds.max_to}"
            )

    def apply(self, choice: Choice) -> None:
        """Play a Choice (see Choice for the kinds)."""
        if choice.kind == "fold":
            self.fold()
        elif choice.kind == "check_call":
            self.check_call()
        elif choice.kind == "raise_to":
            self.bet_raise_to(choice.to)
        elif choice.kind == "all_in":
            self.all_in()
        else:
            raise ValueError(f"choice {choice!r}: kind must be one of {CHOICE_KINDS}")

    # ------------------------------------------------------------ internals

    def _require_actor(self) -> int:
        if self.actor is None:
            raise ValueError("nobody is to act: the hand is over")
        self._sync_round()
        return self.actor

    def _advance(self) -> None:
        """Do every step up to the next betting decision or the end: deal, burn, show."""
        state, deck, n = self.state, self.deck, self.spec.players
        while state.status:
            if state.actor_index is not None:
                if not self._betting_is_over():
                    return
                # R20: nobody else has chips and nothing is owed, so no decision is
                # left; PokerKit still asks (check or fold), the engine does not.
                state.check_or_call()
            elif self.run_it is not None and state.can_select_runout_count():
                # R38. PokerKit 0.7.7 passes a given player_index on as the runout
                # count when it checks it; it takes the first selector by itself.
                player = next(iter(state.runout_count_selector_indices))
                state.select_runout_count(self.run_it(player))
            elif state.can_deal_hole():
                # R12: one card at a time from the left of the button, two rounds.
                for round_ in range(2):
                    for player in range(n):
                        state.deal_hole(card_text(deck[round_ * n + player]), player)
            elif state.can_burn_card():
                state.burn_card(card_text(deck[self._next_card]))
                self._next_card += 1
            elif state.can_deal_board():
                count = state.board_dealing_count
                assert count is not None
                cards = deck[self._next_card : self._next_card + count]
                state.deal_board("".join(map(card_text, cards)))
                self._next_card += count
            elif state.can_show_or_muck_hole_cards(True):
                state.show_or_muck_hole_cards(True)
            else:
                raise AssertionError(f"PokerKit waits for a step the driver does not take: {state}")

    def _betting_is_over(self) -> bool:
        state = self.state
        others_with_chips = sum(
            1
            for i, (in_hand, stack) in enumerate(zip(state.statuses, state.stacks, strict=True))
            if in_hand and stack > 0 and i != state.actor_index
        )
        return others_with_chips == 0 and state.checking_or_calling_amount == 0

    def _sync_round(self) -> None:
        if self.state.street_index != self._round:
            self._round = self.state.street_index
            street = self.state.street
            assert street is not None
            # The big blind (small or big bet in fixed limit) is the smallest full raise;
            # with a straddle (R37), the straddle before the flop.
            self._full_raise = street.min_completion_betting_or_raising_amount
            if self.spec.straddle and self._round == 0:
                self._full_raise = 2 * self.spec.big_blind
            self._since_last_action = {}

    def _book_allows_raise(self, player: int) -> bool:
        # R19: a player who has acted this round may raise again only if the
        # increments since their last action add up to a full raise. Posting a
        # blind is not acting, so the big blind keeps its option.
        since = self._since_last_action.get(player)
        return since is None or since >= self._full_raise

    def _pokerkit_r19_refusal(self) -> bool:
        state, player = self.state, self.actor
        assert player is not None
        if state.stacks[player] <= max(state.bets) - state.bets[player]:
            return False  # PokerKit says "short all-in" too when the call takes every chip
        try:
            self.state.verify_completion_betting_or_raising_to()
        except ValueError as err:
            return str(err) in _POKERKIT_R19_REFUSALS
        return False


# ---------------------------------------------------------------- random hands

Policy = Callable[[Bounds, random.Random], Choice]


def mixed_policy(bounds: Bounds, rng: random.Random) -> Choice:
    """A decision heavy in min-raises and all-ins, the spots where rules go wrong.

    About 10% fold, 45% check or call, 20% min-raise, 10% all-in, 15% a raise of
    random size (skewed small); an unavailable raise becomes a check or call.
    """
    roll = rng.random()
    if roll < 0.10:
        return Choice("fold")
    if roll < 0.55:
        return Choice("check_call")
    all_in_total = bounds.stack + bounds.bet
    if not bounds.can_bet_or_raise:
        # Still exercise "all-in" when it is the call that takes the whole stack.
        if 0.75 <= roll < 0.85 and bounds.call_amount == bounds.stack:
            return Choice("all_in")
        return Choice("check_call")
    if roll < 0.75:
        return Choice("raise_to", bounds.min_to)
    if roll < 0.85:
        if bounds.max_to == all_in_total:
            return Choice("all_in")
        return Choice("raise_to", bounds.max_to)  # fixed limit: the most it allows
    span = bounds.max_to - bounds.min_to
    return Choice("raise_to", bounds.min_to + math.floor(span * rng.random() ** 3))


class RandomHand(NamedTuple):
    """A hand played by a policy: replay `decisions` on `deck` to get `final_stacks`."""

    deck: tuple[int, ...]
    decisions: list[tuple[Bounds, Choice]]
    final_stacks: list[int]


def random_hand(spec: Spec, rng: random.Random, policy: Policy = mixed_policy) -> RandomHand:
    """Shuffle a deck with `rng` and play the hand through PokerKit with `policy`.

    >>> played = random_hand(Spec("no_limit", (300, 40, 500), 5, 10), random.Random(7))
    >>> sum(played.final_stacks), len(played.deck)
    (840, 52)
    """
    deck = list(range(DECK_SIZE))
    rng.shuffle(deck)
    hand = PokerKitHand(spec, deck)
    decisions: list[tuple[Bounds, Choice]] = []
    while not hand.is_over:
        bounds = hand.bounds()
        choice = policy(bounds, rng)
        decisions.append((bounds, choice))
        hand.apply(choice)
    return RandomHand(tuple(deck), decisions, hand.stacks())


def random_spec(rng: random.Random, structure: str | None = None) -> Spec:
    """A random table: 2-9 players, NL or FL (or `structure`), deep, short and
    below-the-blind stacks, antes.

    >>> random_spec(random.Random(1)).structure in STRUCTURES
    True
    """
    players = rng.randint(2, 9)
    small_blind = rng.choice((1, 5, 25, 50))
    big_blind = 2 * small_blind
    depth = rng.choice(("deep", "short", "mixed"))
    stacks = []
    for _ in range(players):
        if depth == "deep":
            stacks.append(rng.randint(50, 300) * big_blind)
        elif depth == "short":
            stacks.append(rng.randint(1, 8 * big_blind))
        else:
            short, deep = rng.randint(1, 2 * big_blind), rng.randint(5, 60) * big_blind
            stacks.append(rng.choice((short, deep)))
    ante_form = rng.choice(("none", "none", "each", "big_blind"))
    ante = 0 if ante_form == "none" else rng.randint(1, big_blind)
    return Spec(
        # pot limit only when asked: the differential test's seeds keep their tables
        structure=structure or rng.choice(("no_limit", "fixed_limit")),
        stacks=tuple(stacks),
        small_blind=small_blind,
        big_blind=big_blind,
        ante=ante,
        big_blind_ante=ante_form == "big_blind",
    )


# ---------------------------------------------------------------- PHH replay


def _spec_of(hand: PhhHand) -> Spec:
    blinds = hand.blinds_or_straddles
    if any(blinds[2:]) or not 0 < blinds[0] <= blinds[1]:
        raise ValueError(f"blinds_or_straddles {blinds}: only small and big blinds are supported")
    big_blind = blinds[1]
    if hand.variant == "NT":
        structure = "no_limit"
        if hand.min_bet != big_blind:
            raise ValueError(f"min_bet {hand.min_bet}: the driver's minimum bet is the big blind")
    elif hand.variant == "FT":
        structure = "fixed_limit"
        if (hand.small_bet, hand.big_bet) != (big_blind, 2 * big_blind):
            raise ValueError(
                f"small/big bet {hand.small_bet}/{hand.big_bet}: "
                f"the driver's are the big blind and twice it ({big_blind}/{2 * big_blind})"
            )
    else:
        raise ValueError(f"variant {hand.variant!r}: only NT and FT hold'em are replayed")
    antes = hand.antes
    if len(set(antes)) == 1:
        ante, big_blind_ante = antes[0], False
    elif antes[1] > 0 and not any(a for i, a in enumerate(antes) if i != 1):
        ante, big_blind_ante = antes[1], True
    else:
        raise ValueError(f"antes {antes}: expected equal antes or the big blind's alone")
    return Spec(structure, tuple(hand.starting_stacks), blinds[0], big_blind, ante, big_blind_ante)


def _deck_of(hand: PhhHand) -> list[int]:
    n = hand.player_count
    slots: list[int | None] = [None] * DECK_SIZE
    dealt = [0] * n
    board_slots = iter([2 * n + 1, 2 * n + 2, 2 * n + 3, 2 * n + 5, 2 * n + 7])
    for action in hand.actions:
        if action.verb == "dh":
            assert action.dealt_to is not None
            player = action.dealt_to - 1
            positions = [(dealt[player] + k) * n + player for k in range(len(action.cards))]
            dealt[player] += len(action.cards)
        elif action.verb == "db":
            positions = [next(board_slots) for _ in action.cards]
        else:
            continue
        for position, card in zip(positions, action.cards, strict=True):
            slots[position] = card
    known = [card for card in slots if card is not None]
    if len(set(known)) != len(known):
        raise ValueError("the hand deals the same card twice")
    spare = iter(sorted(set(range(DECK_SIZE)) - set(known)))  # for "??" and burns
    return [next(spare) if card is None else card for card in slots]


def replay_phh(hand: PhhHand) -> list[int]:
    """Play a PHH hold'em hand through PokerKit with this driver; the final stacks.

    Cards come from the PHH ("??" and burns: any card not dealt elsewhere); `sm`
    entries are not needed, as the driver shows every hand at showdown.
    """
    spec = _spec_of(hand)
    driven = PokerKitHand(spec, _deck_of(hand))
    for i, action in enumerate(hand.actions):
        if action.actor is None or action.verb == "sm":
            continue
        where = f"actions[{i}] p{action.actor} {action.verb}"
        if driven.actor != action.actor - 1:
            expected = "nobody" if driven.actor is None else f"p{driven.actor + 1}"
            raise ValueError(f"{where}: out of turn, PokerKit has {expected} to act")
        if action.verb == "f":
            driven.fold()
        elif action.verb == "cc":
            driven.check_call()
        elif action.verb == "cbr":
            assert action.amount is not None
            driven.bet_raise_to(action.amount)
        else:
            raise ValueError(f"{where}: verb {action.verb!r} is not part of hold'em")
    if not driven.is_over:
        raise ValueError(f"the PHH hand stops while p{driven.actor} is still to act")
    return driven.stacks()


def expected_finishing_stacks(hand: PhhHand) -> list[int]:
    """The PHH's finishing_stacks in whole chips, odd chips given as R24 says.

    Some published hands split an odd chip in halves (`10112.5`); under R24 the
    leftover chips of a split go to the tied winner first to the left of the button,
    i.e. the lowest-numbered player with a fraction.

    >>> expected_finishing_stacks(PhhHand("NT", [0] * 3, [1, 2, 0], 2, None, None,
    ...     [10, 10, 10], [], [12.5, 5, 12.5]))
    [13, 5, 12]
    """
    if hand.finishing_stacks is None:
        raise ValueError("the PHH hand has no finishing_stacks")
    whole = [math.floor(s) for s in hand.finishing_stacks]
    leftover = round(sum(hand.finishing_stacks) - sum(whole))
    fractional = [i for i, s in enumerate(hand.finishing_stacks) if s != math.floor(s)]
    if leftover:
        whole[fractional[0]] += leftover
    return whole
