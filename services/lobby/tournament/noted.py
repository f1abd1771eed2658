"""The director follows the dealers through the lobby's one follower (FollowTables,
services/lobby/follower.py), not by asking its tables again and again.

A tournament table in a hand changes nothing the director acts on until the hand ends,
and the dealer says so on its FollowTables stream (HAND_ENDED, BUSTED, SEAT_FREED,
TABLE_CLOSED ... notes, in the table's sequence order). `TableNotes` subscribes to the
lobby's `TableFollower` and remembers each table's last noted sequence; the director's
`HeldViews` keeps the view of a table in a hand while no note past the view's sequence
came (and for at most `REREAD_S`), so a pass asks GetTable of a table once per hand
instead of every POLL_S. While a dealer's stream is down (or the lobby runs with
--poll-dealers: no follower) it asks every pass, as before.

>>> class F:
...     addresses, connected = ["d1"], {"d1"}
>>> notes = TableNotes(F())
>>> notes.current("t1", sequence=10, since=time.monotonic())
True
>>> from services.lobby.follower import DealerNote
>>> notes(DealerNote("t1", 11, "HAND_ENDED", 0, "", 0, 3))
>>> notes.current("t1", sequence=10, since=time.monotonic())
False
"""

from __future__ import annotations

import threading
import time
from typing import Any

from services.lobby.follower import DealerNote

#: A kept view of a table in a hand is asked again after this long all the same (a note
#: lost would otherwise hold the director).
REREAD_S = 2.0


class TableNotes:
    """Each tournament table's last sequence the dealers noted (a follower handler)."""

    def __init__(self, follower: Any) -> None:
        self.follower = follower
        self._last: dict[str, int] = {}
        self._lock = threading.Lock()

    def __call__(self, note: DealerNote) -> None:
        with self._lock:
            if note.sequence > self._last.get(note.table_id, 0):
                self._last[note.table_id] = note.sequence

    def live(self) -> bool:
        """Every dealer's stream is up: a note would have come."""
        f = self.follower
        return bool(f.connected.issuperset(f.addresses))

    def current(self, table_id: str, sequence: int, since: float) -> bool:
        """A view of `table_id` at `sequence`, read at `since` (monotonic), is still the
        table as it is: no note past it, the streams up, not older than REREAD_S."""
        return (self.live() and time.monotonic() - since < REREAD_S
                and self._last.get(table_id, 0) <= sequence)
