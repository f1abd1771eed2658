"""Win, tie and equity of 2 to 10 players, exact by enumeration or by Monte Carlo.

Players hold known cards or a range (`services.evaluator.ranges`); the board has
0, 3, 4 or 5 known cards; dead cards are out of the deck. Exact answers enumerate
every deal: each consistent assignment of range combos (grouped by suit symmetry)
times every completion of the board. Monte Carlo draws `trials` deals from `seed`.

>>> from poker.cards import parse_cards as p
>>> result = equity([p("AhKh"), p("QsQd")], board=p("2h 7h Qc"))
>>> result.method.name, result.deals, [round(r.equity, 4) for r in result.players]
('EXACT', 990, [0.2556, 0.7444])
"""

from __future__ import annotations

import itertools
import math
import secrets
import time
from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass
from enum import IntEnum

import numpy as np
import numpy.typing as npt

from poker.cards import card_text
from poker.limits import quote
from poker.log import get_logger
from services.evaluator import boards as board_sets
from services.evaluator.boards import BoardSet, combination_table
from services.evaluator.core import ranks_of_bits
from services.evaluator.errors import InvalidHand, InvalidRange, InvalidRequest, LimitExceeded
from services.evaluator.ranges import Combo, available, parse_range

log = get_logger(__name__)

#: Hand evaluations in one slice of exact work (about 5 ms on one core).
_EXACT_SLICE = 1 << 18
#: Hand evaluations in one slice of Monte Carlo work (5 to 60 ms: wide ranges cost most).
_MC_SLICE = 1 << 18
#: Rejection rounds of a Monte Carlo draw between two slices (narrow ranges redraw a lot).
_ROUNDS_PER_SLICE = 8
_PROGRESS_S = 2.0  # seconds between progress lines on long work


class Method(IntEnum):
    """How equity is computed; values are those of `poker.v1.EquityMethod`."""

    AUTO = 0
    EXACT = 1
    MONTE_CARLO = 2


@dataclass(frozen=True, slots=True)
class Limits:
    """What one equity question may cost; over them, a request is refused, not cut short."""

    #: AUTO answers exactly up to this many hand evaluations (deals x players), else by Monte Carlo.
    auto_exact_evaluations: int = 40_000_000
    #: EXACT is refused beyond this many hand evaluations (70-85 million a second on one
    #: core: at most about 3 s).
    max_exact_evaluations: int = 200_000_000
    #: Range combinations enumerated one by one for an exact answer.
    max_exact_holdings: int = 20_000
    #: Monte Carlo trials when none are asked for.
    default_trials: int = 200_000
    #: Monte Carlo trials allowed.
    max_trials: int = 2_000_000
    #: Monte Carlo hand evaluations allowed (trials x players): ten players with wide
    #: ranges (the costliest to sample) take 1 to 2 s a million on one core, known
    #: cards a few hundredths, so one call stays within seconds.
    max_monte_carlo_evaluations: int = 3_000_000


@dataclass(frozen=True, slots=True)
class PlayerEquity:
    """One player's share: win alone, tie, equity (expected pot share), counts, standard error."""

    win: float
    tie: float
    equity: float
    std_error: float
    wins: int
    ties: int


@dataclass(frozen=True, slots=True)
class EquityResult:
    """The players' shares in request order, the method used, the deals it counted, the seed."""

    players: tuple[PlayerEquity, ...]
    method: Method
    deals: int
    seed: int = 0


@dataclass
class _Tally:
    """Per-player counts of deals by how many players shared the best hand (index 1 = alone)."""

    by_split: npt.NDArray[np.float64]  # (players, players + 1) weighted counts
    sq_share: npt.NDArray[np.float64]  # sum of squared shares, for the standard error
    deals: int = 0

    @classmethod
    def empty(cls, players: int) -> _Tally:
        return cls(np.zeros((players, players + 1)), np.zeros(players))

    def add(self, ranks: npt.NDArray[np.uint16], weight: int = 1) -> None:
        best = np.max(ranks, axis=0)
        is_best = ranks == best
        split = is_best.sum(axis=0, dtype=np.uint8)
        players = ranks.shape[0]
        for p in range(players):
            counts = np.bincount(split[is_best[p]], minlength=players + 1)
            self.by_split[p] += weight * counts
        self.deals += weight * ranks.shape[1]

    def result(self, method: Method, seed: int = 0) -> EquityResult:
        players = self.by_split.shape[0]
        splits = np.arange(players + 1, dtype=np.float64)
        splits[0] = 1.0
        share = (self.by_split / splits).sum(axis=1)
        sq_share = (self.by_split / splits**2).sum(axis=1)
        out = []
        for p in range(players):
            wins = int(round(self.by_split[p, 1]))
            ties = int(round(self.by_split[p, 2:].sum()))
            mean = float(share[p]) / self.deals
            if method is Method.MONTE_CARLO and self.deals > 1:
                variance = max(float(sq_share[p]) / self.deals - mean * mean, 0.0)
                std_error = math.sqrt(variance / (self.deals - 1))
            else:
                std_error = 0.0
            out.append(
                PlayerEquity(wins / self.deals, ties / self.deals, mean, std_error, wins, ties)
            )
        return EquityResult(tuple(out), method, self.deals, seed)


@dataclass(frozen=True, slots=True)
class _Question:
    known: tuple[tuple[int, int] | None, ...]  # per player: known hole cards, or None
    combos: tuple[tuple[Combo, ...], ...]  # per player: the combos left (one for known cards)
    board: tuple[int, ...]
    dead: tuple[int, ...]


def equity(
    players: Sequence[Sequence[int] | str],
    board: Sequence[int] = (),
    dead: Sequence[int] = (),
    method: Method | int = Method.AUTO,
    trials: int = 0,
    seed: int = 0,
    limits: Limits = Limits(),
) -> EquityResult:
    """Win, tie and equity of each player: two known card indexes or a range text each.

    `trials` and `seed` are for Monte Carlo (0: the default trials, a random seed).
    Raises InvalidRequest, InvalidHand, InvalidRange or LimitExceeded saying what is wrong.

    >>> from poker.cards import parse_cards as p
    >>> result = equity(["AA", "KK"], board=p("Ac Kd 2s 7h"))
    >>> result.deals, round(result.players[0].equity, 4)
    (396, 0.9773)
    """
    work = plan(players, board, dead, method, trials, seed, limits).steps()
    while True:
        try:
            next(work)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]


@dataclass(frozen=True, slots=True)
class Plan:
    """An equity question checked against the limits, and how it will be answered.

    `steps()` is the work: a generator that yields between slices of a few
    milliseconds (so a server can share its cores fairly and stop work nobody waits
    for) and returns the EquityResult.
    """

    method: Method
    #: Hand evaluations the work takes: holdings x boards x players, or trials x players.
    evaluations: int
    question: _Question
    groups: dict[tuple[Combo, ...], int] | None
    trials: int = 0
    seed: int = 0

    def steps(self) -> Generator[None, None, EquityResult]:
        if self.method is Method.EXACT:
            assert self.groups is not None
            return _exact(self.question, self.groups)
        return _monte_carlo(self.question, self.trials, self.seed)


def plan(
    players: Sequence[Sequence[int] | str],
    board: Sequence[int] = (),
    dead: Sequence[int] = (),
    method: Method | int = Method.AUTO,
    trials: int = 0,
    seed: int = 0,
    limits: Limits = Limits(),
) -> Plan:
    """Checks an equity question and chooses how to answer it; raises what `equity` raises.

    >>> from poker.cards import parse_cards as p
    >>> plan([p("AhKh"), p("QsQd")], method=Method.MONTE_CARLO, trials=1000).evaluations
    2000
    """
    try:
        method = Method(method)
    except ValueError:
        raise InvalidRequest(
            f"method {quote(method)} is not an EquityMethod: 0 (UNSPECIFIED, the server "
            "chooses), 1 (EXACT) or 2 (MONTE_CARLO)") from None
    question = _question(players, board, dead)
    holdings = math.prod(len(c) for c in question.combos)
    deck = 52 - len(question.board) - len(question.dead) - 2 * len(players)
    boards = math.comb(deck, 5 - len(question.board))
    budget = min(limits.auto_exact_evaluations, limits.max_exact_evaluations)
    # Grouping takes up to half a second of Python for 20,000 holdings: not for Monte
    # Carlo, nor for AUTO when even the fewest groups it could make (one per suit
    # symmetry class) would be over the exact budget.
    symmetries = len(_suit_maps([question.board, question.dead]))
    fewest = -(-holdings // symmetries) * boards * len(players)
    grouped = holdings <= limits.max_exact_holdings and (
        method is Method.EXACT or (method is Method.AUTO and fewest <= budget))
    groups = _holding_groups(question) if grouped else None
    evaluations = (len(groups) if groups is not None else holdings) * boards * len(players)
    if method is Method.AUTO:
        exact = groups is not None and evaluations <= budget
        method = Method.EXACT if exact else Method.MONTE_CARLO
    if method is Method.EXACT:
        if groups is None:
            raise LimitExceeded(
                f"exact equity would enumerate {holdings:,} combinations of the ranges; "
                f"the limit is {limits.max_exact_holdings:,}: ask for Monte Carlo"
            )
        if evaluations > limits.max_exact_evaluations:
            raise LimitExceeded(
                f"exact equity would take {evaluations:,} hand evaluations ({len(groups):,} "
                f"distinct holdings x {boards:,} boards x {len(players)} players); the limit "
                f"is {limits.max_exact_evaluations:,}: ask for Monte Carlo"
            )
        return Plan(method, evaluations, question, groups)
    most = min(limits.max_trials, limits.max_monte_carlo_evaluations // len(players))
    trials = trials or min(limits.default_trials, most)
    if trials > limits.max_trials:
        raise LimitExceeded(f"{trials:,} trials asked; the limit is {limits.max_trials:,}")
    if trials * len(players) > limits.max_monte_carlo_evaluations:
        raise LimitExceeded(
            f"{trials:,} trials x {len(players)} players is {trials * len(players):,} hand "
            f"evaluations; the limit is {limits.max_monte_carlo_evaluations:,} "
            f"(at most {most:,} trials for {len(players)} players)")
    return Plan(method, trials * len(players), question, None, trials,
                seed or secrets.randbits(63))


def _question(
    players: Sequence[Sequence[int] | str], board: Sequence[int], dead: Sequence[int]
) -> _Question:
    if not 2 <= len(players) <= 10:
        raise InvalidRequest(f"equity needs 2 to 10 players, not {len(players)}")
    if len(board) not in (0, 3, 4, 5):
        raise InvalidRequest(f"a board has 0, 3, 4 or 5 cards, not {len(board)}")
    used: dict[int, str] = {}  # card -> where it is, for the message about a second use

    def claim(cards: Sequence[int], index: int | None, what: str, where: str) -> None:
        for card in cards:
            if not isinstance(card, int | np.integer) or not 0 <= card < 52:
                raise InvalidHand(f"card index {quote(card)} is out of range 0..51", index, what)
            if card in used:
                raise InvalidHand(f"card {card_text(card)} is already {used[card]}", index, what)
            used[int(card)] = where

    claim(board, None, "board", "on the board")
    claim(dead, None, "dead", "dead")
    known: list[tuple[int, int] | None] = []
    for i, player in enumerate(players):
        if isinstance(player, str):
            known.append(None)
            continue
        if len(player) != 2:
            raise InvalidHand(f"{len(player)} cards; a player holds 2", i, "player")
        claim(player, i, "player", f"held by player {i}")
        known.append((max(player), min(player)))
    combos: list[tuple[Combo, ...]] = []
    for i, player in enumerate(players):
        if not isinstance(player, str):
            combos.append((known[i],))  # type: ignore[arg-type]
            continue
        try:
            parsed = parse_range(player)
        except InvalidRange as err:
            raise InvalidRange(f"player {i}: {err}") from None
        left = available(parsed, used)
        if not left:
            raise InvalidRange(
                f"player {i}: range {quote(player)} is impossible: every combo uses a card "
                "already on the board, dead or held"
            )
        combos.append(tuple(left))
    if 52 - len(used) - 2 * sum(k is None for k in known) < 5 - len(board):
        raise InvalidRequest("not enough cards left in the deck to complete the board")
    question = _Question(tuple(known), tuple(combos), tuple(board), tuple(dead))
    if _one_deal(question.combos) is None:
        raise InvalidRange(
            "the ranges are impossible together: no deal gives every player a combo "
            "without two players sharing a card"
        )
    return question


_SEARCH_BUDGET = 100_000  # combos tried before giving up the proof (Monte Carlo then tells)


def _one_deal(combos: Sequence[Sequence[Combo]]) -> list[Combo] | None:
    # Depth-first search for one assignment of combos with no card twice; None when
    # there is none. A search over its budget assumes there is one (the sampler
    # refuses later if it cannot find deals).
    order = sorted(range(len(combos)), key=lambda i: len(combos[i]))
    chosen: dict[int, Combo] = {}
    tried = 0

    def search(depth: int, taken: frozenset[int]) -> bool:
        nonlocal tried
        if depth == len(order) or tried > _SEARCH_BUDGET:
            return True
        player = order[depth]
        for combo in combos[player]:
            tried += 1
            if combo[0] not in taken and combo[1] not in taken:
                chosen[player] = combo
                if search(depth + 1, taken | set(combo)):
                    return True
        return False

    if not search(0, frozenset()):
        return None
    return [chosen.get(i, combos[i][0]) for i in range(len(combos))]


# --- exact --------------------------------------------------------------------------


def _exact(
    question: _Question, groups: dict[tuple[Combo, ...], int]
) -> Generator[None, None, EquityResult]:
    tally = _Tally.empty(len(question.combos))
    started = last = time.monotonic()
    pending = 0
    for done, (holdings, weight) in enumerate(groups.items(), 1):
        for evaluations in _enumerate_boards(question, holdings, weight, tally):
            pending += evaluations
            if pending >= _EXACT_SLICE:
                pending = 0
                yield
        if time.monotonic() - last > _PROGRESS_S:
            last = time.monotonic()
            log.info("equity_progress", holdings_done=done, holdings=len(groups),
                     deals=tally.deals, seconds=round(last - started, 1))
    return tally.result(Method.EXACT)


def _suit_maps(fixed: Sequence[Sequence[int]]) -> list[tuple[int, ...]]:
    # The suit permutations that leave each fixed set of cards (board, dead) as it is:
    # applying one to a deal gives a deal with the same outcome.
    keep = []
    for perm in itertools.permutations(range(4)):
        if all({4 * (c >> 2) + perm[c & 3] for c in cards} == set(cards) for cards in fixed):
            keep.append(perm)
    return keep


def _holding_groups(question: _Question) -> dict[tuple[Combo, ...], int]:
    # Every consistent assignment of combos, grouped under suit symmetry: canonical form -> count.
    perms = _suit_maps([question.board, question.dead])
    groups: dict[tuple[Combo, ...], int] = {}
    for deal in itertools.product(*question.combos):
        cards = [c for combo in deal for c in combo]
        if len(set(cards)) != len(cards):
            continue
        canonical = min(tuple(_mapped(combo, perm) for combo in deal) for perm in perms)
        groups[canonical] = groups.get(canonical, 0) + 1
    return groups


def _mapped(combo: Combo, perm: tuple[int, ...]) -> Combo:
    a, b = (4 * (c >> 2) + perm[c & 3] for c in combo)
    return (a, b) if a > b else (b, a)


def _enumerate_boards(
    question: _Question, holdings: tuple[Combo, ...], weight: int, tally: _Tally
) -> Iterator[int]:
    # Yields the hand evaluations of each piece once it is counted.
    used = {*question.board, *question.dead, *(c for h in holdings for c in h)}
    deck = np.array([c for c in range(52) if c not in used], dtype=np.uint8)
    k = 5 - len(question.board)
    table = combination_table(deck.size, k)
    base_key = int(board_sets.CARD_KEY[list(question.board)].sum()) if question.board else 0
    base_bits = int(board_sets.CARD_BIT[list(question.board)].sum()) if question.board else 0
    total = table.shape[1]
    piece = max(1024, _EXACT_SLICE // len(holdings))
    for start in range(0, total, piece):
        columns = [np.take(deck, row[start : start + piece]) for row in table]
        boards = BoardSet.from_columns(columns, base_key, base_bits)
        ranks = np.stack([boards.rank(h) for h in holdings])
        tally.add(ranks, weight)
        yield ranks.size


# --- Monte Carlo --------------------------------------------------------------------


def _monte_carlo(
    question: _Question, trials: int, seed: int
) -> Generator[None, None, EquityResult]:
    # Cards are handled as bits (1 << (16 * suit + rank)): a deal shares a card
    # exactly when the sum of its bits has fewer bits set than it has cards.
    rng = np.random.default_rng(seed)
    players = len(question.combos)
    tally = _Tally.empty(players)
    bit = board_sets.CARD_BIT
    combo_bits = [bit[np.array(c)[:, 0]] + bit[np.array(c)[:, 1]] for c in question.combos]
    fixed = {*question.board, *question.dead,
             *(c for k in question.known if k is not None for c in k)}
    deck_bits = bit[[c for c in range(52) if c not in fixed]]
    board_bits = np.uint64(sum(int(bit[c]) for c in question.board))
    started = last = time.monotonic()
    log.info("equity_monte_carlo", trials=trials, seed=seed, players=players)
    piece = max(1024, _MC_SLICE // players)
    for start in range(0, trials, piece):
        n = min(piece, trials - start)
        holes, held = yield from _draw_holdings(rng, combo_bits, n)
        board = _draw_board(rng, deck_bits, held, 5 - len(question.board)) + board_bits
        tally.add(np.stack([ranks_of_bits(board + holes[p], 7) for p in range(players)]))
        yield
        if time.monotonic() - last > _PROGRESS_S:
            last = time.monotonic()
            log.info("equity_progress", trials_done=start + n, trials=trials,
                     seconds=round(last - started, 1))
    return tally.result(Method.MONTE_CARLO, seed)


_MAX_ROUNDS = 100_000


def _draw_holdings(
    rng: np.random.Generator, combo_bits: list[npt.NDArray[np.uint64]], n: int
) -> Generator[None, None, tuple[list[npt.NDArray[np.uint64]], npt.NDArray[np.uint64]]]:
    # Per player, n combos uniform in its range (as bits), and each deal's held bits.
    # A deal with a card twice is drawn again: rejection keeps the joint draw
    # uniform over the deals where no card is held twice.
    holes = [c[rng.integers(0, len(c), n)] for c in combo_bits]
    held: npt.NDArray[np.uint64] = np.sum(holes, axis=0, dtype=np.uint64)
    cards = 2 * len(combo_bits)
    rows = np.flatnonzero(np.bitwise_count(held) != cards)
    for round_ in range(1, _MAX_ROUNDS + 1):
        if not rows.size:
            return holes, held
        if round_ % _ROUNDS_PER_SLICE == 0:
            yield
        again = [c[rng.integers(0, len(c), rows.size)] for c in combo_bits]
        for hole, new in zip(holes, again, strict=True):
            hole[rows] = new
        held[rows] = np.sum(again, axis=0, dtype=np.uint64)
        rows = rows[np.bitwise_count(held[rows]) != cards]
    raise InvalidRange("the ranges are too unlikely together to sample; ask for exact equity")


def _draw_board(
    rng: np.random.Generator, deck_bits: npt.NDArray[np.uint64], held: npt.NDArray[np.uint64],
    k: int,
) -> npt.NDArray[np.uint64]:
    # Bits of k distinct deck cards per deal, none of them held in that deal (rejection).
    out = np.zeros(held.size, dtype=np.uint64)
    rows = np.arange(held.size) if k else np.zeros(0, dtype=np.intp)
    while rows.size:
        drawn = np.zeros(rows.size, dtype=np.uint64)
        for _ in range(k):
            drawn += np.take(deck_bits, rng.integers(0, deck_bits.size, rows.size))
        good = (np.bitwise_count(drawn) == k) & ((drawn & held[rows]) == 0)
        out[rows[good]] = drawn[good]
        rows = rows[~good]
    return out
