"""Writes the synchronous SDK (`clients/sdk.py`) from the asyncio one (`clients/aio.py`).

The SDK is written once, for asyncio; the sync clients are that source with the
asyncio spelled out of it, the way `unasync` does it: `async def` and `async for`
lose their `async`, `await` goes, and asyncio names become their sync twins
(`AsyncTableClient` -> `TableClient`, `AsyncPlayStream` -> `PlayStream`,
`call_async` -> `call`, `asyncio.sleep` -> `time.sleep`, ...). The two flavours of
what cannot be renamed (a stream's pump: a task or a thread) live side by side in
`clients/streaming.py`. `tests/sdk/test_syncgen.py` fails when the committed
`sdk.py` is not what this writes.

Run: .venv/bin/python -m clients.syncgen (or `make sdk`); `--check` only compares.

>>> unasync_line("    async def view(self) -> TableView:")
'    def view(self) -> TableView:'
>>> unasync_line("        result = await self._do(spec)")
'        result = self._do(spec)'
>>> unasync_line("from collections.abc import AsyncIterator, Callable")
'from collections.abc import Callable, Iterator'
"""

from __future__ import annotations

import io
import re
import sys
import tokenize
from pathlib import Path

__all__ = ["SOURCE", "TARGET", "generate", "unasync_line"]

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "aio.py"
TARGET = HERE / "sdk.py"

#: (pattern, replacement), applied in order to every line after the module docstring.
RULES: list[tuple[re.Pattern[str], str]] = [(re.compile(p), r) for p, r in [
    (r"\basync (def|for|with) ", r"\1 "),
    (r"\bawait ", ""),
    (r"\b__aenter__\b", "__enter__"),
    (r"\b__aexit__\b", "__exit__"),
    (r"\bAsync([A-Z]\w*)", r"\1"),
    (r"\basyncio\.sleep\b", "time.sleep"),
    (r"\bcall_async\b", "call"),
    (r"\bopen_aio_channel\b", "open_channel"),
    (r"\bgrpc\.aio\.Channel\b", "grpc.Channel"),
]]

#: The generated module's docstring (the source's own describes the asyncio clients).
DOCSTRING = '''\
"""The sync SDK: `LobbyClient` for players, money and tables, `TableClient` for one seat.

GENERATED from clients/aio.py by clients/syncgen.py (`make sdk`): edit aio.py, not this.
Calls have deadlines; the safe ones are retried (see `clients.transport`); a refused
call raises `ServiceError` (a refused decision `ActionRefused`) with the server's
reason and gRPC code. Streams reconnect by themselves and resume after the last
event received; every hand followed has its fair-deck proof checked (R3).

>>> lobby = LobbyClient("127.0.0.1:50053", token="player-token")   # doctest: +SKIP
>>> table = lobby.sit("t-1", buy_in=1000)                           # doctest: +SKIP
>>> view = table.view(); view.my_cards, view.legal                  # doctest: +SKIP
>>> table.raise_to(300)                                             # doctest: +SKIP
"""
'''

_IMPORT = re.compile(r"^(from [\w.]+ import )([\w, ]+)$")


def _sort_key(name: str) -> tuple[int, str]:
    # isort's (ruff's) order by type: CONSTANTS, Classes, functions
    kind = 0 if name.isupper() else 1 if name[:1].isupper() else 2
    return kind, name


def unasync_line(line: str) -> str:
    """One line of the asyncio source, made synchronous."""
    for pattern, replacement in RULES:
        line = pattern.sub(replacement, line)
    imported = _IMPORT.match(line)
    if imported:  # a renamed name may no longer be in order
        names = sorted(imported.group(2).split(", "), key=_sort_key)
        line = imported.group(1) + ", ".join(names)
    return line


def generate(source: str) -> str:
    """The sync module for the asyncio module `source`."""
    docstring_end = source.index('"""', 3) + 3
    body = source[docstring_end:].lstrip("\n")
    lines = body.split("\n")
    out = [unasync_line(line) for line in lines]
    # A line continued inside brackets and aligned with the bracket moves with it when
    # the words before the bracket got shorter ("await call_async(" -> "call(").
    delta = [0] * len(lines)  # how far each output line's indentation moved
    for row, col, bracket_row, bracket_col in _aligned_lines(body):
        prefix = lines[bracket_row][:bracket_col]
        new_col = len(unasync_line(prefix)) + delta[bracket_row]
        delta[row] = new_col - col
        out[row] = " " * new_col + out[row].lstrip(" ")
    return DOCSTRING + "\n" + "\n".join(out)


def _aligned_lines(source: str) -> list[tuple[int, int, int, int]]:
    """(row, indent, bracket row, bracket column + 1), 0-based, of each line that goes on
    inside a bracket aligned just after that (innermost open) bracket."""
    found: list[tuple[int, int, int, int]] = []
    opened: list[tuple[int, int]] = []
    last_row = -1
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        (row, col), kind = token.start, token.type
        row -= 1
        if row != last_row and opened and kind not in (tokenize.NL, tokenize.COMMENT):
            bracket_row, bracket_col = opened[-1]
            if col == bracket_col + 1 and row != bracket_row:
                found.append((row, col, bracket_row, bracket_col + 1))
        if kind not in (tokenize.NL, tokenize.NEWLINE):
            last_row = row
        if kind == tokenize.OP and token.string in "([{":
            opened.append((row, col))
        elif kind == tokenize.OP and token.string in ")]}":
            opened.pop()
    return found


def main(argv: list[str]) -> int:
    fresh = generate(SOURCE.read_text())
    if "--check" in argv:
        if TARGET.read_text() != fresh:
            print(f"{TARGET} is stale: run `make sdk` and commit", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(fresh)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
