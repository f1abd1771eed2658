"""The evaluator's lookup tables: the 7,462 hand classes and how card sums index them (R25).

Every five-card hand falls into one of 7,462 classes (suits only matter for
flushes). They are numbered 1 (7-5-4-3-2, no flush) to 7462 (royal flush):
higher is better, equal is a tie.

Lookup works on sums, so a hand costs one addition per card:

* each rank has a key (`RANK_KEYS`) chosen so that the key sums of two different
  multisets of up to seven ranks (at most four of a rank) never collide; the sum
  of the rank keys indexes the best non-flush class of those ranks;
* each suit adds one to its own 4-bit counter; a counter of 5 or more is a flush,
  found without a branch by adding 3 to every counter and testing bit 3;
* a flush is then ranked from the 13-bit mask of its suit's ranks (`FLUSH_RANK`).

>>> CLASSES[7462 - 1]
(<HandCategory.ROYAL_FLUSH: 10>, (12, 11, 10, 9, 8))
>>> CLASSES[0]
(<HandCategory.HIGH_CARD: 1>, (5, 3, 2, 1, 0))
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator
from enum import IntEnum

import numpy as np
import numpy.typing as npt

RANK_COUNT = 13
CLASS_COUNT = 7462

#: Rank keys (deuce .. ace): every multiset of exactly n <= 7 ranks with at most four
#: of each has its own sum (the keys of SKPokerEval, checked when the tables are built).
RANK_KEYS: tuple[int, ...] = (
    0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181,
)
#: Largest sum of seven rank keys: four aces and three kings.
MAX_RANK_SUM = 4 * RANK_KEYS[12] + 3 * RANK_KEYS[11]


class HandCategory(IntEnum):
    """Hand categories, weakest first; values are those of `poker.v1.HandCategory`."""

    HIGH_CARD = 1
    PAIR = 2
    TWO_PAIR = 3
    THREE_OF_A_KIND = 4
    STRAIGHT = 5
    FLUSH = 6
    FULL_HOUSE = 7
    FOUR_OF_A_KIND = 8
    STRAIGHT_FLUSH = 9
    ROYAL_FLUSH = 10


#: A class: its category and the ranks that decide ties, in read order (the ranks
#: of the combination first, then kickers; a straight's five ranks from its top
#: card down, the wheel as 5-4-3-2-A).
HandClass = tuple[HandCategory, tuple[int, ...]]

# The straights by top rank index (3 = five-high, the wheel .. 12 = ace-high).
STRAIGHTS: dict[int, tuple[int, ...]] = {
    top: (3, 2, 1, 0, 12) if top == 3 else tuple(range(top, top - 5, -1))
    for top in range(3, 13)
}
_STRAIGHT_MASKS: list[tuple[int, int]] = sorted(
    ((sum(1 << r for r in ranks), top) for top, ranks in STRAIGHTS.items()),
    key=lambda mask_top: -mask_top[1],
)


def straight_top(rank_mask: int) -> int | None:
    """The top rank of the best straight in a 13-bit rank mask, or None.

    >>> straight_top(0b1000000001111), straight_top(0b1111100000000), straight_top(0b111)
    (3, 12, None)
    """
    for mask, top in _STRAIGHT_MASKS:
        if rank_mask & mask == mask:
            return top
    return None


def _all_classes() -> Iterator[HandClass]:
    for ranks in itertools.combinations(range(12, -1, -1), 5):
        top = straight_top(sum(1 << r for r in ranks))
        if top is None:
            yield HandCategory.HIGH_CARD, ranks
            yield HandCategory.FLUSH, ranks
        else:
            yield HandCategory.STRAIGHT, STRAIGHTS[top]
            category = HandCategory.ROYAL_FLUSH if top == 12 else HandCategory.STRAIGHT_FLUSH
            yield category, STRAIGHTS[top]
    for big, small in itertools.permutations(range(12, -1, -1), 2):
        yield HandCategory.FULL_HOUSE, (big,) * 3 + (small,) * 2
        yield HandCategory.FOUR_OF_A_KIND, (big,) * 4 + (small,)
    for trips in range(12, -1, -1):
        for kickers in itertools.combinations([r for r in range(12, -1, -1) if r != trips], 2):
            yield HandCategory.THREE_OF_A_KIND, (trips,) * 3 + kickers
    for high, low in itertools.combinations(range(12, -1, -1), 2):
        for kicker in (r for r in range(12, -1, -1) if r not in (high, low)):
            yield HandCategory.TWO_PAIR, (high, high, low, low, kicker)
    for pair in range(12, -1, -1):
        for kicks in itertools.combinations([r for r in range(12, -1, -1) if r != pair], 3):
            yield HandCategory.PAIR, (pair, pair, *kicks)


def _order_key(hand_class: HandClass) -> tuple[int, ...]:
    category, ranks = hand_class
    if category in (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH):
        return (category, ranks[0])  # the wheel's ace plays low
    return (category, *ranks)


#: Every class, weakest first: CLASSES[rank - 1] describes rank `rank`.
CLASSES: tuple[HandClass, ...] = tuple(sorted(_all_classes(), key=_order_key))
assert len(CLASSES) == CLASS_COUNT
_RANK_OF_CLASS: dict[HandClass, int] = {c: i + 1 for i, c in enumerate(CLASSES)}


def best_class_of_ranks(counts: tuple[int, ...]) -> HandClass:
    """The best non-flush class made from rank counts (index 0 = deuces).

    >>> best_class_of_ranks((0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3, 0))
    (<HandCategory.FULL_HOUSE: 7>, (11, 11, 11, 3, 3))
    """
    present = [r for r in range(12, -1, -1) if counts[r]]
    quads = [r for r in present if counts[r] == 4]
    trips = [r for r in present if counts[r] == 3]
    pairs = [r for r in present if counts[r] == 2]
    if quads:
        q = quads[0]
        return HandCategory.FOUR_OF_A_KIND, (q,) * 4 + tuple(r for r in present if r != q)[:1]
    if trips and (len(trips) > 1 or pairs):
        big = trips[0]
        small = max([*trips[1:], *pairs])
        return HandCategory.FULL_HOUSE, (big,) * 3 + (small,) * 2
    top = straight_top(sum(1 << r for r in present))
    if top is not None:
        return HandCategory.STRAIGHT, STRAIGHTS[top]
    if trips:
        t = trips[0]
        return HandCategory.THREE_OF_A_KIND, (t,) * 3 + tuple(r for r in present if r != t)[:2]
    if len(pairs) >= 2:
        high, low = pairs[0], pairs[1]
        kicker = next(r for r in present if r not in (high, low))
        return HandCategory.TWO_PAIR, (high, high, low, low, kicker)
    if pairs:
        p = pairs[0]
        return HandCategory.PAIR, (p, p, *tuple(r for r in present if r != p)[:3])
    return HandCategory.HIGH_CARD, tuple(present[:5])


def best_class_of_flush(rank_mask: int) -> HandClass:
    """The best class made from the ranks (13-bit mask, five or more) of one suit.

    >>> best_class_of_flush(0b1000000001111)
    (<HandCategory.STRAIGHT_FLUSH: 9>, (3, 2, 1, 0, 12))
    """
    top = straight_top(rank_mask)
    if top == 12:
        return HandCategory.ROYAL_FLUSH, STRAIGHTS[12]
    if top is not None:
        return HandCategory.STRAIGHT_FLUSH, STRAIGHTS[top]
    return HandCategory.FLUSH, tuple(r for r in range(12, -1, -1) if rank_mask >> r & 1)[:5]


def rank_of_class(hand_class: HandClass) -> int:
    """The rank 1..7462 of a class."""
    return _RANK_OF_CLASS[hand_class]


def rank_multisets(size: int) -> npt.NDArray[np.int64]:
    """Rank counts (one row of 13) of every multiset of `size` ranks with at most four of each.

    >>> rank_multisets(5).shape
    (6175, 13)
    """
    combos = np.array(
        list(itertools.combinations_with_replacement(range(RANK_COUNT), size)), dtype=np.int64
    )
    counts = np.zeros((len(combos), RANK_COUNT), dtype=np.int64)
    for column in combos.T:
        counts[np.arange(len(combos)), column] += 1
    kept: npt.NDArray[np.int64] = counts[counts.max(axis=1) <= 4]
    return kept


@functools.cache
def nonflush_sorted(size: int) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint16]]:
    """Rank sums of every multiset of `size` (5..7) ranks, sorted, and the rank of its best hand.

    Five ranks are classed directly; six or seven take the best of the hands left
    after removing each of their ranks once in turn (every five-card subset is
    reached that way).
    """
    counts = rank_multisets(size)
    sums = (counts @ np.array(RANK_KEYS, dtype=np.int64)).astype(np.uint64)
    order = np.argsort(sums)
    counts, sums = counts[order], sums[order]
    if len(np.unique(sums)) != len(sums):
        raise AssertionError(f"rank keys collide for {size} cards")
    if size == 5:
        ranks = np.array(
            [rank_of_class(best_class_of_ranks(tuple(row))) for row in counts.tolist()],
            dtype=np.uint16,
        )
        return sums, ranks
    smaller_sums, smaller_ranks = nonflush_sorted(size - 1)
    ranks = np.zeros(len(sums), dtype=np.uint16)
    for r, key in enumerate(RANK_KEYS):
        has = np.flatnonzero(counts[:, r])
        at = np.searchsorted(smaller_sums, sums[has] - np.uint64(key))
        assert (smaller_sums[at] == sums[has] - np.uint64(key)).all()
        ranks[has] = np.maximum(ranks[has], smaller_ranks[at])
    return sums, ranks


@functools.cache
def nonflush_by_sum(size: int) -> dict[int, int]:
    """Rank sum -> rank of the best non-flush hand, for hands of `size` (5..7) cards.

    >>> nonflush_by_sum(5)[4 * RANK_KEYS[12] + RANK_KEYS[11]]  # four aces, king
    7452
    """
    sums, ranks = nonflush_sorted(size)
    return dict(zip(sums.tolist(), ranks.tolist(), strict=True))


@functools.cache
def nonflush_table() -> npt.NDArray[np.uint16]:
    """Dense form of `nonflush_sorted(7)`: rank sum -> rank, 0 where no hand sums so.

    15.6 MB, for the fastest lookups, so only for the common seven-card hands.
    """
    table = np.zeros(MAX_RANK_SUM + 1, dtype=np.uint16)
    sums, ranks = nonflush_sorted(7)
    table[sums] = ranks
    return table


def nonflush_ranks(size: int, rank_sums: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint16]:
    """Ranks of the best non-flush hands of `size` cards with these rank sums.

    >>> nonflush_ranks(5, np.array([RANK_KEYS[12] * 4 + RANK_KEYS[11]], dtype=np.uint64))
    array([7452], dtype=uint16)
    """
    if size == 7:
        return np.take(nonflush_table(), rank_sums)
    sums, ranks = nonflush_sorted(size)
    at = np.searchsorted(sums, rank_sums)
    return np.take(ranks, at, mode="clip")  # a sum no hand makes (unchecked input) clips


def _flush_ranks() -> npt.NDArray[np.uint16]:
    table = np.zeros(1 << RANK_COUNT, dtype=np.uint16)
    for mask in range(1 << RANK_COUNT):
        if mask.bit_count() >= 5:
            table[mask] = rank_of_class(best_class_of_flush(mask))
    return table


#: 13-bit rank mask of one suit -> rank of its best hand (0 below five cards).
FLUSH_RANK: npt.NDArray[np.uint16] = _flush_ranks()
FLUSH_RANK_LIST: list[int] = FLUSH_RANK.tolist()
