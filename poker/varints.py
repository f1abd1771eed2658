"""Varints of the protobuf wire format, written fast: the one pair of functions
poker.mapping (events, the store's encoding) and poker.timefields (AIP-142's typed
times) both use.

>>> varint(300), uvarint(300), uvarint(1_764_600_000_000) == varint(1_764_600_000_000)
(b'\\xac\\x02', b'\\xac\\x02', True)
>>> len(uvarint(-1))  # an int64 below zero: its 10-byte two's complement
10
"""

from __future__ import annotations


def varint(value: int) -> bytes:
    """A non-negative integer in the protobuf wire format's varint encoding."""
    if value < 0x80:
        return bytes((value,))
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def uvarint(value: int) -> bytes:
    """A varint of any int64 (a negative one as its 10-byte two's complement)."""
    if 0 <= value < 0x4000:
        if value < 0x80:
            return ONE_BYTE[value]
        return bytes(((value & 0x7F) | 0x80, value >> 7))
    if 0 < value < 0x200000:
        return bytes(((value & 0x7F) | 0x80, ((value >> 7) & 0x7F) | 0x80, value >> 14))
    if 0 < value < 0x10000000:
        return _PAIRS[value & 0x3FFF] + bytes((((value >> 14) & 0x7F) | 0x80, value >> 21))
    if 0 < value < 0x400000000000:  # up to 46 bits: chips, times in ms since 1970
        high = value >> 28
        return (_PAIRS[value & 0x3FFF] + _PAIRS[(value >> 14) & 0x3FFF]
                + (ONE_BYTE[high] if high < 0x80 else
                   bytes(((high & 0x7F) | 0x80, high >> 7)) if high < 0x4000 else
                   bytes(((high & 0x7F) | 0x80, ((high >> 7) & 0x7F) | 0x80, high >> 14))))
    return varint(value & 0xFFFFFFFFFFFFFFFF)


#: The varint of each value below 128 (one byte): what a caller may look up itself instead
#: of a call, e.g. a length before its body.
ONE_BYTE = [bytes((i,)) for i in range(0x80)]
#: The two varint bytes (continuation bits set) of each 14-bit group: a time in ms
#: since 1970 is three groups, not six rounds of a loop.
_PAIRS = [bytes(((i & 0x7F) | 0x80, ((i >> 7) & 0x7F) | 0x80)) for i in range(0x4000)]
