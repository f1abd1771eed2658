"""Ranks hands of 5, 6 or 7 cards (R25): one at a time in pure Python, or in numpy batches.

A rank is an integer 1..7462: higher is better, equal is a tie. Cards are indexes
0..51 (R1, `poker.cards`).

>>> from poker.cards import parse_cards
>>> evaluate(parse_cards("AsKsQsJsTs2c3d"))
7462
>>> evaluate(parse_cards("5c4d3h2sAc")) < evaluate(parse_cards("6c5d4h3s2c"))
True
>>> evaluate_batch(np.array([parse_cards("AhAdKcKs2c"), parse_cards("7c5d4h3s2c")])).tolist()
[4985, 1]
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from poker.cards import card_text
from poker.limits import quote
from services.evaluator import tables
from services.evaluator.errors import InvalidHand
from services.evaluator.tables import CLASSES, HandCategory

__all__ = [
    "HandCategory",
    "category_of",
    "check_cards",
    "evaluate",
    "evaluate_batch",
    "evaluate_checked",
    "ranks_of_bits",
    "validate_batch",
]

HAND_SIZES = (5, 6, 7)

# --- one hand at a time -------------------------------------------------------------
# Seven cards: a rank-key sum and a suit-key sum, both small enough for Python's
# fast single-digit integer paths. The suit keys (0, 1, 29, 37) give every mix of
# seven suits its own sum, so a 512-entry list says whether (and in which suit) a
# hand is a flush. Each list's second half is None so that a negative index fails
# (None + int) instead of wrapping to a real card.
_SUIT_KEYS = (0, 1, 29, 37)
_R: list[int | None] = [tables.RANK_KEYS[c >> 2] for c in range(52)] + [None] * 52
_S: list[int | None] = [_SUIT_KEYS[c & 3] for c in range(52)] + [None] * 52


def _flush_suits() -> list[int]:
    # suit sum of seven cards -> 1 + the suit with five or more, else 0
    table = [0] * 512
    for suits in itertools.combinations_with_replacement(range(4), 7):
        total = sum(_SUIT_KEYS[s] for s in suits)
        flush = next((1 + s for s in range(4) if suits.count(s) >= 5), 0)
        assert table[total] in (0, flush), "suit keys collide"
        table[total] = flush
    return table


_FLUSH_SUIT7 = _flush_suits()
_NF7: memoryview = tables.nonflush_table().data  # the fastest lookup from Python
# Five or six cards: one key a card, rank key << 16 plus a 4-bit counter for its suit.
_K: list[int | None] = [
    (tables.RANK_KEYS[c >> 2] << 16) | (1 << (4 * (c & 3))) for c in range(52)
] + [None] * 52
_NF6 = tables.nonflush_by_sum(6)
_NF5 = tables.nonflush_by_sum(5)
_FLUSH = tables.FLUSH_RANK_LIST


def evaluate(cards: Sequence[int]) -> int:
    """The rank 1..7462 of the best five of 5, 6 or 7 card indexes (the fast path).

    Raises InvalidHand (a ValueError) for a wrong length or an index out of 0..51.
    The cards are taken to be distinct, as dealt from one deck: a card given twice
    is not detected here (that would double the cost); `evaluate_checked` and the
    service check it.

    >>> evaluate([51, 47, 43, 39, 35])   # As Ks Qs Js Ts
    7462
    >>> evaluate([48, 0, 4, 8, 12])      # Ac 2c 3c 4c 5c: the steel wheel
    7453
    """
    r = _R
    q = _S
    try:
        a, b, c, d, e, f, g = cards
        rank_sum = r[a] + r[b] + r[c] + r[d] + r[e] + r[f] + r[g]  # type: ignore[operator]
        suit_sum = q[a] + q[b] + q[c] + q[d] + q[e] + q[f] + q[g]  # type: ignore[operator]
    except ValueError:  # not seven cards
        return _evaluate_five_or_six(cards)
    except (TypeError, IndexError):
        raise _invalid(cards) from None
    flush = _FLUSH_SUIT7[suit_sum]
    if flush:
        return _flush_rank(cards, flush - 1)
    rank: int = _NF7[rank_sum]
    return rank


def _evaluate_five_or_six(cards: Sequence[int]) -> int:
    k = _K
    try:
        if len(cards) == 6:
            a, b, c, d, e, f = cards
            s = k[a] + k[b] + k[c] + k[d] + k[e] + k[f]  # type: ignore[operator]
            table = _NF6
        elif len(cards) == 5:
            a, b, c, d, e = cards
            s = k[a] + k[b] + k[c] + k[d] + k[e]  # type: ignore[operator]
            table = _NF5
        else:
            raise _invalid(cards)
    except (TypeError, IndexError, ValueError):
        raise _invalid(cards) from None
    counters = ((s & 0xFFFF) + 0x3333) & 0x8888
    if counters:
        return _flush_rank(cards, (counters.bit_length() >> 2) - 1)
    return table[s >> 16]


def _flush_rank(cards: Sequence[int], suit: int) -> int:
    mask = 0
    for card in cards:
        if card & 3 == suit:
            mask |= 1 << (card >> 2)
    return _FLUSH[mask]


def evaluate_checked(cards: Sequence[int]) -> int:
    """`evaluate`, after checking that the cards are 5..7 distinct indexes 0..51.

    >>> evaluate_checked([0, 4, 8, 12, 12])
    Traceback (most recent call last):
    ...
    services.evaluator.errors.InvalidHand: hand 0: card 5c appears twice
    """
    check_cards(cards)
    return evaluate(cards)


def check_cards(cards: Sequence[int], index: int | None = 0, what: str = "hand") -> None:
    """Raises InvalidHand saying why `cards` is not a hand of 5, 6 or 7 distinct cards.

    >>> check_cards([0, 1, 2, 3, 0])
    Traceback (most recent call last):
    ...
    services.evaluator.errors.InvalidHand: hand 0: card 2c appears twice
    """
    for card in cards:
        if not isinstance(card, int | np.integer) or isinstance(card, bool):
            raise InvalidHand(f"{quote(card)} is not a card index", index, what)
        if not 0 <= card < 52:
            raise InvalidHand(f"card index {card} is out of range 0..51", index, what)
    seen: set[int] = set()
    for card in cards:
        if card in seen:
            raise InvalidHand(f"card {card_text(int(card))} appears twice", index, what)
        seen.add(int(card))
    if len(cards) not in HAND_SIZES:
        raise InvalidHand(f"{len(cards)} cards; a hand has 5, 6 or 7", index, what)


def _invalid(cards: Sequence[int]) -> InvalidHand:
    try:
        check_cards(list(cards))
    except InvalidHand as err:
        return err
    except TypeError:
        pass
    return InvalidHand(f"{quote(cards)} is not a hand of card indexes")


def category_of(rank: int) -> HandCategory:
    """The category of a rank.

    >>> category_of(7462).name, category_of(1).name
    ('ROYAL_FLUSH', 'HIGH_CARD')
    """
    return CLASSES[rank - 1][0]


# --- batches --------------------------------------------------------------------
# One bit per card at 16 * suit + rank: the four 16-bit lanes of a hand's sum are
# its four suits' rank masks, and its popcount is its number of distinct cards.
_CARD_BIT = np.zeros(256, dtype=np.uint64)
_CARD_BIT[:52] = [1 << (16 * (c & 3) + (c >> 2)) for c in range(52)]
_PAIR_BIT = _CARD_BIT[np.arange(1 << 16) & 0xFF] + _CARD_BIT[np.arange(1 << 16) >> 8]


def _lane_table() -> npt.NDArray[np.uint64]:
    # A suit's 13-bit rank mask -> its rank-key sum (low 32 bits) | its flush rank << 32.
    masks = np.arange(1 << 13)
    keys = np.zeros(1 << 13, dtype=np.uint64)
    for r, key in enumerate(tables.RANK_KEYS):
        keys += ((masks >> r) & 1).astype(np.uint64) * np.uint64(key)
    table = np.zeros(1 << 16, dtype=np.uint64)  # lanes never exceed 13 bits
    table[: 1 << 13] = keys | (tables.FLUSH_RANK.astype(np.uint64) << np.uint64(32))
    return table


_LANE = _lane_table()
_LOW32 = np.uint64(0xFFFFFFFF)
_SHIFT32 = np.uint64(32)
_CHUNK = 1 << 16  # hands per piece of work: temporaries stay in cache


def validate_batch(hands: npt.NDArray[np.uint8], first_index: int = 0) -> None:
    """Raises InvalidHand naming the first hand (row) with a card out of range or twice.

    >>> validate_batch(np.array([[0, 1, 2, 3, 4], [0, 1, 2, 3, 60]], dtype=np.uint8))
    Traceback (most recent call last):
    ...
    services.evaluator.errors.InvalidHand: hand 1: card index 60 is out of range 0..51
    """
    _check_shape(hands)
    _check_bits(hands, _card_bits(hands), first_index)


def _check_bits(hands: npt.NDArray[np.uint8], bits: npt.NDArray[np.uint64], first: int) -> None:
    # A card out of range has no bit and a card twice carries into another: either
    # way the hand has fewer bits than cards.
    bad = np.bitwise_count(bits) != hands.shape[1]
    if bad.any():
        row = int(np.argmax(bad))
        check_cards(hands[row].tolist(), first + row)


def evaluate_batch(hands: npt.NDArray[np.uint8], *, check: bool = True) -> npt.NDArray[np.uint16]:
    """Ranks of many hands: `hands` has one row of 5, 6 or 7 card indexes per hand.

    With `check` (the default) a hand with a card out of range or twice raises
    InvalidHand naming its row; without it such a row gets a meaningless rank.
    Work goes in pieces of 65,536 hands so that the temporaries stay in cache.

    >>> evaluate_batch(np.array([[51, 47, 43, 39, 35, 0, 1]], dtype=np.uint8)).tolist()
    [7462]
    """
    hands = np.ascontiguousarray(hands, dtype=np.uint8)
    _check_shape(hands)
    out = np.empty(hands.shape[0], dtype=np.uint16)
    for start in range(0, hands.shape[0], _CHUNK):
        _rank_chunk(hands[start : start + _CHUNK], out[start : start + _CHUNK], check, start)
    return out


def _check_shape(hands: npt.NDArray[np.uint8]) -> None:
    if hands.ndim != 2 or hands.shape[1] not in HAND_SIZES:
        raise InvalidHand(
            f"a batch is rows of 5, 6 or 7 cards, not an array of shape {hands.shape}", 0, "batch"
        )


def _card_bits(hands: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint64]:
    # Two cards at a time: each row's bytes 0-1, 2-3, 4-5 read as one little-endian
    # uint16 index into the table of pair bits (fewer gathers, the costly step).
    count, size = hands.shape
    if count == 0:
        return np.zeros(0, dtype=np.uint64)
    pairs = np.ndarray((count, size // 2), dtype="<u2", buffer=hands, strides=(size, 2))
    bits = np.take(_PAIR_BIT, pairs[:, 0])
    for i in range(1, size // 2):
        bits += np.take(_PAIR_BIT, pairs[:, i])
    if size % 2:
        bits += np.take(_CARD_BIT, hands[:, size - 1])
    return bits


def _rank_chunk(
    hands: npt.NDArray[np.uint8], out: npt.NDArray[np.uint16], check: bool, first: int
) -> None:
    bits = _card_bits(hands)
    if check:
        _check_bits(hands, bits, first)
    ranks_of_bits(bits, hands.shape[1], out)


def ranks_of_bits(
    bits: npt.NDArray[np.uint64], size: int, out: npt.NDArray[np.uint16] | None = None
) -> npt.NDArray[np.uint16]:
    """Ranks of hands of `size` distinct cards given as sums of `1 << (16 * suit + rank)`.

    >>> ranks_of_bits(np.array([0b11111 << 8], dtype=np.uint64), 5).tolist()  # Ac Kc Qc Jc Tc
    [7462]
    """
    lanes = bits.view(np.uint16).reshape(-1, 4)
    keys = np.take(_LANE, lanes[:, 0])
    for suit in range(1, 4):
        keys += np.take(_LANE, lanes[:, suit])
    nonflush = tables.nonflush_ranks(size, keys & _LOW32)
    # A flush beats every hand its cards could otherwise make (no full house or
    # quads fit beside a five-card flush in seven cards), so the larger rank wins.
    return np.maximum(nonflush, (keys >> _SHIFT32).astype(np.uint16), out=out)
