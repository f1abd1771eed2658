"""Vectorised ranking of many boards against a few holdings: the inner loop of equity.

A set of boards is given as the sums of its cards' keys; each holding's rank on
every board then costs one addition and one table lookup, plus a flush lookup on
the boards where three or more cards share a suit.

>>> import numpy as np
>>> from poker.cards import parse_cards
>>> boards = BoardSet.of(np.array([parse_cards("Ah Kh Qh 7c 2s")], dtype=np.uint8))
>>> boards.rank(parse_cards("Jh Th")).tolist(), boards.rank(parse_cards("Ad Ac")).tolist()
([7462], [5853])
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from services.evaluator import tables

U64 = npt.NDArray[np.uint64]

_RANK_KEY = np.array([tables.RANK_KEYS[c >> 2] for c in range(52)], dtype=np.uint64)
_NIBBLE = np.array([1 << (4 * (c & 3)) for c in range(52)], dtype=np.uint64)
#: A card's key: rank key << 16 | a 4-bit counter for its suit.
CARD_KEY = (_RANK_KEY << np.uint64(16)) | _NIBBLE
#: A card's bit at 16 * suit + rank: a sum's 16-bit lanes are the suits' rank masks.
CARD_BIT = np.array([1 << (16 * (c & 3) + (c >> 2)) for c in range(52)], dtype=np.uint64)


@functools.lru_cache(maxsize=2)
def combination_table(m: int, k: int) -> npt.NDArray[np.uint8]:
    """Every k-subset of range(m), lexicographic, as a (k, C(m, k)) array (one row a position).

    >>> combination_table(4, 2).T.tolist()
    [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
    """
    if k == 0:
        return np.zeros((0, 1), dtype=np.uint8)
    columns = [np.arange(m - k + 1, dtype=np.uint8)]  # the first element of each subset
    for j in range(1, k):
        last = columns[-1].astype(np.int32)
        # Each subset grows by every element after its last that leaves room for the rest.
        counts = (m - (k - j)) - last
        starts = np.cumsum(counts, dtype=np.int32) - counts
        ramp = np.arange(int(counts.sum()), dtype=np.int32) - np.repeat(starts, counts)
        ramp += np.repeat(last + 1, counts)
        columns = [np.repeat(c, counts) for c in columns] + [ramp.astype(np.uint8)]
    table = np.stack(columns)
    assert table.shape[1] == math.comb(m, k)
    table.flags.writeable = False
    return table


@dataclass(frozen=True, slots=True)
class BoardSet:
    """Boards summed once: rank keys and suit counters, and each board's flush suit and mask."""

    keys: U64  # rank-key sum << 16 | suit counters, per board
    flush_rows: npt.NDArray[np.intp]  # boards with three or more cards of one suit
    flush_suit: npt.NDArray[np.uint8]  # that suit, per flush row
    flush_mask: npt.NDArray[np.uint64]  # the board's ranks in that suit, per flush row

    @classmethod
    def of(cls, boards: npt.NDArray[np.uint8]) -> BoardSet:
        """From an (n, 5) array of boards."""
        return cls.from_columns([boards[:, j] for j in range(boards.shape[1])])

    @classmethod
    def from_columns(
        cls, columns: list[npt.NDArray[np.uint8]], base_key: int = 0, base_bits: int = 0
    ) -> BoardSet:
        """From the board's card columns plus the keys and bits of the cards all boards share."""
        n = columns[0].shape[0] if columns else 1
        keys = np.full(n, base_key, dtype=np.uint64)
        bits = np.full(n, base_bits, dtype=np.uint64)
        for column in columns:
            keys += np.take(CARD_KEY, column)
            bits += np.take(CARD_BIT, column)
        # A counter of 3 or more plus 5 reaches 8 (counters never pass 5 on a board).
        three = (keys + np.uint64(0x5555)) & np.uint64(0x8888)
        rows = np.flatnonzero(three)
        found = three[rows]
        suit = (
            (found > np.uint64(0x8)).astype(np.uint8)
            + (found > np.uint64(0x80))
            + (found > np.uint64(0x800))
        ).astype(np.uint8)
        mask = (bits[rows] >> (np.uint64(16) * suit.astype(np.uint64))) & np.uint64(0x1FFF)
        return cls(keys, rows, suit, mask)

    def rank(self, hole: tuple[int, int] | list[int]) -> npt.NDArray[np.uint16]:
        """The rank (1..7462) of a two-card holding on every board."""
        a, b = hole
        rank_sum = (self.keys >> np.uint64(16)) + np.uint64(
            tables.RANK_KEYS[a >> 2] + tables.RANK_KEYS[b >> 2]
        )
        ranks = np.take(tables.nonflush_table(), rank_sum)
        if self.flush_rows.size:
            hole_mask = np.zeros(4, dtype=np.uint64)
            hole_mask[a & 3] |= np.uint64(1 << (a >> 2))
            hole_mask[b & 3] |= np.uint64(1 << (b >> 2))
            masks = self.flush_mask | np.take(hole_mask, self.flush_suit)
            flush = np.take(tables.FLUSH_RANK, masks)
            ranks[self.flush_rows] = np.maximum(ranks[self.flush_rows], flush)
        return ranks
