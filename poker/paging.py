"""Pagination of every list call (AIP-158): page_size, page_token, next_page_token.

A list call reads its request with `read` (page_size bounded by limits.MAX_PAGE_SIZE, 0
for the call's default; the token checked) and answers with `token` for the next page,
or "" after the last. Pages are keyset pages: a token holds the sort key of the last
item given (never an offset), so items added or removed while a client pages through
neither repeat an item nor skip one that was there when paging began. `keyset` writes
the SQL condition "after that key" for a key of one or more columns, ascending or
descending.

A token is opaque to the client: URL-safe base64 of the key, the query it belongs to
(`scope`: the call and its filters) and a check. One that does not decode, was made for
another query (another player's transfers, include_closed changed) or was altered is
INVALID_ARGUMENT naming page_token, as is a page_size past the bound.

>>> page = read(0, "", scope="ListTables:open", default=100)
>>> page.size, page.after
(100, None)
>>> nxt = token([1700000000.5, "t-9"], "ListTables:open")
>>> read(10, nxt, scope="ListTables:open", default=100).after
[1700000000.5, 't-9']
>>> read(10, nxt, scope="ListTables:all", default=100)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
poker.errors.InvalidArgument: page_token: not a token of this query ...
>>> keyset(["created_at", "id"], [5, "b"])
('(created_at > ? OR (created_at = ? AND id > ?))', [5, 5, 'b'])
>>> keyset(["id"], [7], descending=True)
('(id < ?)', [7])
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from poker import errors
from poker.limits import MAX_PAGE_SIZE, MAX_PAGE_TOKEN_CHARS

_VERSION = 1


@dataclass(frozen=True, slots=True)
class Page:
    """A page asked for: how many items at most, after which key (None: from the start)."""

    size: int
    after: list[Any] | None


def _check(payload: str) -> str:
    return hashlib.sha256(payload.encode()).hexdigest()[:12]


def token(key: Sequence[Any], scope: str) -> str:
    """The page_token of the page after the item whose sort key is `key`."""
    payload = json.dumps({"v": _VERSION, "s": scope, "k": list(key)}, separators=(",", ":"))
    data = json.dumps({"p": payload, "c": _check(payload)}, separators=(",", ":"))
    return base64.urlsafe_b64encode(data.encode()).decode().rstrip("=")


def _refuse(problem: str, error: type[errors.PokerError]) -> errors.PokerError:
    return error(f"page_token: {problem}", field="page_token")


def read(size: int, page_token: str, *, scope: str, default: int,
         maximum: int = MAX_PAGE_SIZE,
         error: type[errors.PokerError] = errors.InvalidArgument,
         size_field: str = "page_size") -> Page:
    """The page a request asks for; `error` (an INVALID_ARGUMENT kind) for a page_size
    past `maximum` or a page_token this query did not give. `size_field`: the request
    field the size came from (an older name, `limit`, says so)."""
    if not 0 <= size <= maximum:
        raise error(f"{size_field}: {size} is not in 0..{maximum} (0: {default})",
                    field=size_field)
    if not page_token:
        return Page(size or default, None)
    if len(page_token) > MAX_PAGE_TOKEN_CHARS:
        raise _refuse(f"{len(page_token)} characters; a token is at most "
                      f"{MAX_PAGE_TOKEN_CHARS}", error)
    try:
        padded = page_token + "=" * (-len(page_token) % 4)
        outer = json.loads(base64.urlsafe_b64decode(padded.encode()).decode())
        payload = outer["p"]
        inner = json.loads(payload)
        ok = (isinstance(outer, dict) and outer.get("c") == _check(payload)
              and inner.get("v") == _VERSION and isinstance(inner.get("k"), list))
    except (binascii.Error, UnicodeDecodeError, ValueError, KeyError, TypeError,
            AttributeError):
        ok = False
    if not ok:
        raise _refuse("not a token this service gave (send the next_page_token of the "
                      "previous page as it is)", error)
    if inner.get("s") != scope:
        raise _refuse("not a token of this query (a token is only good for the request "
                      "that gave it, with the same filters)", error)
    return Page(size or default, inner["k"])


def keyset(columns: Sequence[str], after: Sequence[Any],
           descending: bool = False) -> tuple[str, list[Any]]:
    """The SQL condition (and its parameters) of the rows after the key `after`, in the
    order of `columns` (each ascending, or each descending)."""
    if len(columns) != len(after):
        raise ValueError("a key has one value per column")
    op = "<" if descending else ">"
    terms, params = [], []
    for n, column in enumerate(columns):
        equal = [f"{c} = ?" for c in columns[:n]]
        terms.append("(" + " AND ".join([*equal, f"{column} {op} ?"]) + ")"
                     if equal else f"{column} {op} ?")
        params += [*after[:n], after[n]]
    return "(" + " OR ".join(terms) + ")", params


def split(rows: Sequence[Any], size: int) -> tuple[Sequence[Any], bool]:
    """The page of `rows` (read with LIMIT size + 1) and whether there is a next one."""
    return rows[:size], len(rows) > size
