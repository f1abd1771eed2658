"""The suite's limits: every amount, string and list a caller may send, declared once.

Every service checks its requests against these numbers, the proto comments and
README's "Operate" section quote them, and an error message quotes at most
`QUOTE_CHARS` characters of what the caller sent (`quote`), so a huge bad input can
never swell a status past gRPC's metadata limit.

Chips: a balance, a stack, a pot, the chips of one table together, and any amount in
a request are at most `MAX_CHIPS` (2^53 - 1: every such number is exact in a double,
so JSON and JavaScript clients read it as sent). A ledger account that is not a
player's (the house, the outside world) may reach `MAX_LEDGER_TOTAL` in either sign,
which still fits a signed 64-bit column on SQLite and PostgreSQL alike.

>>> quote("x" * 1000)[:12], len(quote("x" * 1000)) <= QUOTE_CHARS + 20
("'xxxxxxxxxxx", True)
>>> quote("As")
"'As'"
>>> check_chips("amount", 2**53)
Traceback (most recent call last):
...
ValueError: amount: 9007199254740992 is past the maximum of 9007199254740991 chips
"""

from __future__ import annotations

MAX_CHIPS = 2**53 - 1
MAX_LEDGER_TOTAL = 2**62

#: ids a caller chooses or sends back: player, table, hand, request, tournament ids
MAX_ID_CHARS = 128
#: a person's display name, a table's name
MAX_NAME_CHARS = 64
#: a bearer token in `authorization` metadata
MAX_TOKEN_CHARS = 512
#: a card in text form is 2 characters; a field holding cards or a range holds at most this
MAX_CARDS_TEXT_CHARS = 4096
#: any other free text field (a reason, a note)
MAX_TEXT_CHARS = 1024
#: the most entries of a repeated field in one request, unless the field says less
MAX_REPEATED = 1000
#: the most items of one page of a list call (AIP-158 page_size; 0 asks for the call's default)
MAX_PAGE_SIZE = MAX_REPEATED
#: the longest page_token a list call accepts (poker/paging.py makes them far shorter)
MAX_PAGE_TOKEN_CHARS = 512
#: how much of a bad value an error message quotes
QUOTE_CHARS = 40
#: WatchTournament streams one lobby process serves at once (each holds one of the
#: server's 16 threads while open: half of them at most) ...
MAX_WATCH_STREAMS = 8
#: ... and at most this many of them on one tournament
MAX_TOURNAMENT_WATCHERS = 4
#: the most tournament events in one WatchTournamentResponse (a stream reads at most
#: this many per store read, and reads only when the director published new ones)
TOURNAMENT_EVENTS_PER_MESSAGE = 500


def quote(value: object) -> str:
    """`repr` of `value`, cut to a short prefix (with the full length said) when long."""
    text = repr(value)
    if len(text) <= QUOTE_CHARS:
        return text
    size = len(value) if isinstance(value, str | bytes | list | tuple) else len(text)
    return f"{text[:QUOTE_CHARS]}... ({size} long)"


def check_chips(field: str, amount: int, maximum: int = MAX_CHIPS) -> int:
    """`amount` if it is an int in 0..maximum; ValueError naming `field` otherwise."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise ValueError(f"{field}: {quote(amount)} is not a whole number of chips")
    if amount < 0:
        raise ValueError(f"{field}: {amount} is negative")
    if amount > maximum:
        raise ValueError(f"{field}: {amount} is past the maximum of {maximum} chips")
    return amount


def check_text(field: str, value: str, maximum: int, *, required: bool = False) -> str:
    """`value` if it has at most `maximum` characters (and, if required, is not empty)."""
    if required and not value:
        raise ValueError(f"{field}: required")
    if len(value) > maximum:
        raise ValueError(f"{field}: {len(value)} characters, at most {maximum} allowed "
                         f"(starts {quote(value[:QUOTE_CHARS])})")
    return value


def check_count(field: str, values: object, maximum: int = MAX_REPEATED) -> None:
    """ValueError unless the repeated field `values` has at most `maximum` entries."""
    size = len(values)  # type: ignore[arg-type]
    if size > maximum:
        raise ValueError(f"{field}: {size} entries, at most {maximum} allowed")
