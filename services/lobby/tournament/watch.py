"""WatchTournament by push: the director says when it appended a tournament's events, and
each watcher waits for that (no polling of the store).

`Watchers` holds one condition per tournament watched. The director calls
`published(tournament_id, sequence)` after every transaction that appended events
commits; a watcher (`Watcher`, one per stream) reads the store only when the last
sequence published is past the last one it sent, so an idle stream reads nothing, and
a burst of events costs one read (of at most `TOURNAMENT_EVENTS_PER_MESSAGE`).
Resuming from a sequence number is the store's: the first read is of the events after
the request's `after_sequence`.

Bounds (poker/limits.py): a lobby serves calls on a pool of threads and each stream
holds one while it is open, so at most `MAX_WATCH_STREAMS` streams in the process and
`MAX_TOURNAMENT_WATCHERS` per tournament; past either, RESOURCE_EXHAUSTED
(TOO_MANY_WATCHERS) with a RetryInfo, and nothing is held.

Several lobby processes on one PostgreSQL: a money call served by another process
(or the director there) appends events this one must hear of. Each transaction that
appends events also sends `NOTIFY tournament_events` (delivered on commit) and each
lobby process LISTENs (`PgListener`, one connection), publishing what it hears. While
that connection is down (`shared=True`) a watcher also reads every `SHARED_RECHECK_S`
seconds while idle; with SQLite (one process) never.

>>> w = Watchers(per_tournament=1, total=2)
>>> one = w.join("t1")
>>> w.join("t1")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
poker.errors.ResourceExhausted: tournament 't1' has 1 watchers, at most 1; ...
>>> w.published("t1", 3); one.wait(0, timeout=0.0)
True
>>> one.wait(3, timeout=0.0), one.leave(), w.watching("t1")
(False, None, 0)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from poker.errors import ResourceExhausted
from poker.limits import MAX_TOURNAMENT_WATCHERS, MAX_WATCH_STREAMS, quote

#: With several lobby processes (PostgreSQL), an idle watcher reads this often for the
#: events another process appended.
SHARED_RECHECK_S = 5.0
#: How long a refused watcher is told to wait (google.rpc.RetryInfo).
RETRY_AFTER_S = 5.0
#: The PostgreSQL channel of tournament events: payload "<tournament id> <sequence>".
CHANNEL = "tournament_events"


class Watchers:
    """Every WatchTournament stream of this lobby process, by tournament."""

    def __init__(self, per_tournament: int = MAX_TOURNAMENT_WATCHERS,
                 total: int = MAX_WATCH_STREAMS, shared: bool = False) -> None:
        self.per_tournament, self.total, self.shared = per_tournament, total, shared
        self._lock = threading.Lock()
        self._conditions: dict[str, threading.Condition] = {}
        self._count: dict[str, int] = {}
        self._last: dict[str, int] = {}  # tournament -> the last sequence published
        self._pokes: dict[str, int] = {}  # tournament -> how often `wake` was called
        self._closed = False

    def published(self, tournament_id: str, sequence: int) -> None:
        """Events up to `sequence` are committed: the tournament's watchers wake (kept
        only while it has watchers: one joins before its first read of the store)."""
        with self._lock:
            condition = self._conditions.get(tournament_id)
            if condition is None or sequence <= self._last.get(tournament_id, 0):
                return
            self._last[tournament_id] = sequence
            condition.notify_all()

    def join(self, tournament_id: str) -> Watcher:
        """A stream's place, or ResourceExhausted past a bound (nothing held then)."""
        with self._lock:
            streams = sum(self._count.values())
            here = self._count.get(tournament_id, 0)
            if here >= self.per_tournament:
                raise ResourceExhausted(
                    f"tournament {quote(tournament_id)} has {here} watchers, at most "
                    f"{self.per_tournament}; watch again later",
                    reason="TOO_MANY_WATCHERS", retry_after_s=RETRY_AFTER_S,
                    metadata={"limit": self.per_tournament, "tournament_id": tournament_id})
            if streams >= self.total:
                raise ResourceExhausted(
                    f"the lobby serves {streams} WatchTournament streams, at most "
                    f"{self.total}; watch again later", reason="TOO_MANY_WATCHERS",
                    retry_after_s=RETRY_AFTER_S, metadata={"limit": self.total})
            self._count[tournament_id] = here + 1
            condition = self._conditions.get(tournament_id)
            if condition is None:
                condition = self._conditions[tournament_id] = threading.Condition(self._lock)
            return Watcher(self, tournament_id, condition)

    def watching(self, tournament_id: str) -> int:
        with self._lock:
            return self._count.get(tournament_id, 0)

    def wake(self, tournament_id: str) -> None:
        """Wakes the tournament's watchers (a stream cancelled: it looks and ends)."""
        with self._lock:
            self._pokes[tournament_id] = self._pokes.get(tournament_id, 0) + 1
            condition = self._conditions.get(tournament_id)
            if condition is not None:
                condition.notify_all()

    def close(self) -> None:
        """The server is stopping: every stream ends at once."""
        with self._lock:
            self._closed = True
            for condition in self._conditions.values():
                condition.notify_all()

    @property
    def closed(self) -> bool:
        return self._closed

    def _leave(self, tournament_id: str) -> None:
        with self._lock:
            left = self._count.get(tournament_id, 0) - 1
            if left > 0:
                self._count[tournament_id] = left
            else:
                self._count.pop(tournament_id, None)
                self._conditions.pop(tournament_id, None)
                self._pokes.pop(tournament_id, None)
                self._last.pop(tournament_id, None)

    def _last_of(self, tournament_id: str) -> int:
        return self._last.get(tournament_id, 0)


class Watcher:
    """One stream's place among a tournament's watchers."""

    def __init__(self, watchers: Watchers, tournament_id: str,
                 condition: threading.Condition) -> None:
        self._watchers, self.tournament_id, self._condition = (watchers, tournament_id,
                                                               condition)
        self._left = False
        self._checked = time.monotonic()

    def wait(self, after: int, timeout: float) -> bool:
        """Waits until an event past `after` is published (True: read the store), the
        server stops, `Watchers.wake` is called (a stream cancelled: the caller looks) or
        `timeout` seconds pass (False). With several lobby processes,
        also True once SHARED_RECHECK_S seconds passed since it last said True (read in
        case another process appended)."""
        w = self._watchers
        now = time.monotonic()
        deadline = now + timeout
        recheck = self._checked + SHARED_RECHECK_S if w.shared else float("inf")
        with self._condition:
            pokes = w._pokes.get(self.tournament_id, 0)
            while not w._closed and w._last_of(self.tournament_id) <= after:
                if w._pokes.get(self.tournament_id, 0) != pokes:
                    return False
                now = time.monotonic()
                if now >= recheck:
                    break
                if now >= deadline:
                    return False
                self._condition.wait(min(deadline, recheck) - now)
            if w._closed:
                return False
        self._checked = time.monotonic()
        return True

    def leave(self) -> None:
        if not self._left:
            self._left = True
            self._watchers._leave(self.tournament_id)


class PgListener:
    """LISTENs to `CHANNEL` on a connection of its own (a thread) and publishes every
    notification to `watchers`, then calls `heard` (the director's wake-up) for one that
    another process sent: `own(pid)` tells this process's connections (their server
    process id, `Notify.pid`), whose changes woke the director already. While it is not
    listening, `watchers.shared` is set (the streams read now and then instead)."""

    def __init__(self, dsn: str, watchers: Watchers,
                 heard: Callable[[], None] = lambda: None,
                 own: Callable[[int], bool] = lambda pid: False) -> None:
        self.dsn, self.watchers, self.heard, self.own = dsn, watchers, heard, own
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.listening = threading.Event()

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="tournament-listen",
                                        daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _run(self) -> None:
        import psycopg  # only the PostgreSQL backend needs it

        while not self._stop.is_set():
            conn: Any = None
            try:
                conn = psycopg.connect(self.dsn, autocommit=True)
                conn.execute(f"LISTEN {CHANNEL}")
                self.watchers.shared = False
                self.listening.set()
                while not self._stop.is_set():
                    for note in conn.notifies(timeout=1.0):
                        tournament_id, _, sequence = note.payload.rpartition(" ")
                        self.watchers.published(tournament_id, int(sequence))
                        if not self.own(note.pid):
                            self.heard()
            except Exception:  # noqa: BLE001 - the database away: read now and then, retry
                self.watchers.shared = True
                self.listening.clear()
                self._stop.wait(1.0)
            finally:
                if conn is not None:
                    conn.close()
