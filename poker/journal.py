"""One request journal: the answer to every retried call, kept for a while, so a repeat gets it.

An entry is keyed by (call, scope, request id): `scope` is whose ids they are (a
player, the operator, a table). It holds the request's fingerprint (a hash of the
call, the caller and every field) and the answer given, a refusal too. A repeat
with the same fingerprint gets the same answer without acting again; the same key
with another fingerprint is refused with the service's documented status (the
dealer's INVALID_ARGUMENT, the lobby's ALREADY_EXISTS).

The answer is written in the same transaction as what the request did: the handler
calls `Pending.record(answer)` from inside the write of its effect. A refusal is
written in a transaction of its own before it is sent (nothing else was written).

Entries are kept for `Retention.hours` and at most `Retention.max_entries` of each
call (the newest: a call made thousands of times a second, the dealer's decisions,
does not push the others' answers out); `prune` deletes the rest and runs
periodically off the request path, a bounded batch per transaction. A repeat after
that is a new request. (The dealer keeps a hand's decisions as one entry that each
decision appends to: services.dealer.store.HAND_ACTS.)

>>> j = MemoryJournal()
>>> class Doubler:
...     journal = j
...     calls = 0
...     @journaled("double", RULES, key=lambda a: Key("double", "", a["request_id"]),
...                fields=lambda a: {"n": a["n"]})
...     def double(self, n: int, request_id: str, entry: Pending | None = None) -> int:
...         self.calls += 1
...         if entry is not None:
...             entry.record(2 * n)
...         return 2 * n
>>> d = Doubler()
>>> d.double(2, request_id="r"), d.double(2, request_id="r"), d.calls
(4, 4, 1)
>>> d.double(3, request_id="r")
Traceback (most recent call last):
...
poker.journal.Reused: request id 'r' was already used for another request (n 2)
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import hashlib
import inspect
import json
import os
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

import structlog

from poker.errors import PokerError
from poker.limits import quote

F = TypeVar("F", bound=Callable[..., Any])

# Lazy: modules load (for --help) before poker.log configures the process.
log = structlog.get_logger(__name__)

#: How long an answer is kept by default, in hours (both services' --journal-retention-hours).
DEFAULT_RETENTION_HOURS = 24.0
#: At most this many entries of each call are kept by default (--journal-max-entries).
DEFAULT_MAX_ENTRIES = 1_000_000
#: How often the services prune, in seconds.
PRUNE_EVERY_S = 300.0
#: At most this many entries are deleted in one transaction (a round repeats until done).
PRUNE_BATCH = 1_000

#: The journal's table, the same on the dealer's SQLite and the lobby's SQLite or
#: PostgreSQL (BIGINT is an INTEGER column to SQLite): one row an answered request.
TABLE = """CREATE TABLE IF NOT EXISTS journal (
    call TEXT NOT NULL,
    scope TEXT NOT NULL,
    request_id TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    what TEXT NOT NULL,
    answer TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (call, scope, request_id)
)"""
#: Pruning reads entries by call and age.
INDEX = "CREATE INDEX IF NOT EXISTS journal_at ON journal (call, at_ms)"


@dataclass(frozen=True, slots=True)
class Key:
    """Which request: the call, whose ids (`scope`) and the request id."""

    call: str
    scope: str
    request_id: str


@dataclass(frozen=True, slots=True)
class Entry:
    """What the journal keeps of a request: its fingerprint, what it was (for a message),
    the answer (JSON; a refusal is `{"refused": {"code": ..., "message": ..., "reason": ...,
    "metadata": {...}}}`) and when. An entry written before refusals kept their reason
    has none: `refused` gives it the code's name (NOT_FOUND, ...), the generic reason of
    its kind, never a made-up one."""

    fingerprint: str
    what: str
    answer: str
    at_ms: int

    @property
    def refusal(self) -> tuple[str, str] | None:
        data = json.loads(self.answer)
        refused = data.get("refused") if isinstance(data, dict) else None
        return (str(refused["code"]), str(refused["message"])) if refused else None

    @property
    def refused(self) -> tuple[str, str, str, dict[str, str]] | None:
        """(code, message, reason, metadata) of a refusal; None for an answer."""
        data = json.loads(self.answer)
        refused = data.get("refused") if isinstance(data, dict) else None
        if not refused:
            return None
        code = str(refused["code"])
        metadata = refused.get("metadata") or {}
        return (code, str(refused["message"]), str(refused.get("reason") or code),
                {str(k): str(v) for k, v in metadata.items()})


@dataclass(frozen=True, slots=True)
class Retention:
    """How long answers are kept (hours) and how many of each call at most; `clock`
    gives seconds."""

    hours: float = DEFAULT_RETENTION_HOURS
    max_entries: int = DEFAULT_MAX_ENTRIES
    clock: Callable[[], float] = field(default=time.time)

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    def cutoff_ms(self) -> int:
        """Entries written before this are pruned."""
        return self.now_ms() - int(self.hours * 3_600_000)


class Journal(Protocol):
    """A store's journal table (one small adapter per store)."""

    retention: Retention

    def find(self, key: Key, tx: Any = None) -> Entry | None:
        """The entry of a request, or None (pruned, or never seen); `tx`: the store's open
        transaction, where it has to be named (the lobby's)."""
        ...

    def put(self, key: Key, entry: Entry, tx: Any = None) -> None:
        """Writes an entry in the transaction open now (the one of the request's effect)."""
        ...

    def put_alone(self, key: Key, entry: Entry) -> None:
        """Writes an entry in a transaction of its own (a refusal)."""
        ...

    def prune(self, limit: int = PRUNE_BATCH) -> int:
        """Deletes at most `limit` entries past the retention; returns how many."""
        ...


def fingerprint(call: str, caller: str, fields: Mapping[str, Any] | Any) -> str:
    """The hash of a request: its call, its caller and every field.

    `fields` is a mapping (hashed as canonical JSON) or a protobuf message (hashed in
    its deterministic wire form: every field set, unknown ones included)."""
    if isinstance(fields, Mapping):
        body = json.dumps(dict(fields), sort_keys=True, separators=(",", ":"), default=str)
        data = body.encode()
    else:
        data = fields.SerializeToString(deterministic=True)
    digest = hashlib.sha256()
    for part in (call.encode(), caller.encode(), data):
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.hexdigest()


def describe(fields: Mapping[str, Any]) -> str:
    """A request's fields, for the message refusing its id used again."""
    return ", ".join(f"{k} {quote(v) if isinstance(v, str) else v}" for k, v in fields.items())


class Reused(Exception):
    """A request id sent again with other fields (the default `Rules.reused`)."""


class Raced(Exception):
    """Another copy of the request recorded its entry first (`Pending.claim`)."""


class Refused(Exception):
    """A refusal answered again from the journal (the default `Rules.refused_again`)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Rules:
    """How a service answers from its journal: which of its errors are refusals worth
    remembering (`code_of` gives the status name, None for one not to remember), how a
    remembered refusal is raised again, and what refuses a reused id."""

    errors: tuple[type[Exception], ...] = ()
    fingerprint: Callable[[str, str, Mapping[str, Any]], str] = fingerprint
    code_of: Callable[[Exception], str | None] = lambda err: None
    refused_again: Callable[[str, str], Exception] = Refused
    reused: Callable[[Key, Entry], Exception] = lambda key, entry: Reused(
        f"request id {quote(key.request_id)} was already used for another request "
        f"({entry.what})")


RULES = Rules()


class Pending:
    """The entry a handler records, from inside the write of its effect."""

    def __init__(self, journal: Journal, key: Key, fingerprint: str, what: str,
                 encode: Callable[[Any], Any]) -> None:
        self.journal, self.key, self.fingerprint, self.what = journal, key, fingerprint, what
        self._encode = encode
        self.recorded = False

    def claim(self, tx: Any = None) -> None:
        """Raises Raced if another copy of the request has its entry by now (call it first
        in the transaction that will record the answer, where copies run concurrently)."""
        if self.journal.find(self.key, tx) is not None:
            raise Raced(self.key)

    def record(self, answer: Any, tx: Any = None, what: str = "") -> None:
        """Writes the answer in the transaction open now (`tx` where the store needs it);
        `what`: what the request did, for the message refusing its id reused."""
        if what:
            self.what = what
        entry = self._entry(json.dumps(self._encode(answer), sort_keys=True))
        self.journal.put(self.key, entry, tx)
        self.recorded = True

    def refuse(self, code: str, message: str, reason: str = "",
               metadata: Mapping[str, str] | None = None) -> None:
        """Writes a refusal in a transaction of its own, with its reason and metadata
        (poker/errors.py), so that its repeat is refused for the same reason."""
        refused: dict[str, Any] = {"code": code, "message": message}
        if reason:
            refused["reason"], refused["metadata"] = reason, dict(metadata or {})
        answer = json.dumps({"refused": refused}, sort_keys=True)
        self.journal.put_alone(self.key, self._entry(answer))
        self.recorded = True

    def _entry(self, answer: str) -> Entry:
        return Entry(self.fingerprint, self.what, answer, self.journal.retention.now_ms())


def journaled(call: str, rules: Rules, *, key: Callable[[dict[str, Any]], Key | None],
              fields: Callable[[dict[str, Any]], Mapping[str, Any]],
              caller: Callable[[dict[str, Any]], str] = lambda a: "",
              encode: Callable[[Any], Any] = lambda answer: answer,
              decode: Callable[[Any, Any, dict[str, Any]], Any] = lambda self, data, a: data,
              journal: Callable[[Any], Journal] = lambda self: self.journal,
              legacy: Callable[[dict[str, Any]], tuple[Key, Mapping[str, Any]]] | None = None,
              ) -> Callable[[F], F]:
    """Makes a handler (a method with an `entry` keyword) answer each request once.

    `key`, `fields` and `caller` read the call's arguments (by name); `key` returning
    None means the request carries no id (acted on each time, nothing recorded). A
    known key with the same fingerprint is answered from the journal (`decode(self,
    stored answer, arguments)`, or the refusal raised again); with another, `rules.reused`. Else
    the handler runs with `entry`: it calls `entry.record(answer)` inside the write of
    its effect (`encode(answer)` is stored); a refusal it raises (`rules.errors`) is
    recorded before it propagates. A handler that raises Raced (`Pending.claim`) lost a
    race with another copy: the copy's answer is given.

    `legacy` gives the key an older version stored the request under and the fields it
    is compared by: an entry there whose fingerprint is `legacy_fingerprint(fields)` is
    the request's when every field given (not empty) is the same.
    """

    def wrap(fn: F) -> F:
        signature = inspect.signature(fn)

        @functools.wraps(fn)
        def run(self: Any, *args: Any, **kwargs: Any) -> Any:
            bound = signature.bind(self, *args, **kwargs)
            bound.apply_defaults()
            arguments = dict(bound.arguments)
            k = key(arguments)
            if k is None:
                return fn(self, *args, **kwargs)
            store = journal(self)
            request = fields(arguments)
            fp = rules.fingerprint(call, caller(arguments), request)

            def answered() -> tuple[bool, Any]:
                done, compared = store.find(k), None
                if legacy is not None:
                    old_key, compared = legacy(arguments)
                    if done is None:
                        done = store.find(old_key)
                        if done is not None and not done.fingerprint.startswith(LEGACY):
                            done = None  # a new entry under a key that looks old: not this one
                if done is None:
                    return False, None
                if done.fingerprint.startswith(LEGACY):
                    if compared is None or not _same_legacy(done, compared):
                        raise rules.reused(k, done)
                elif done.fingerprint != fp:
                    raise rules.reused(k, done)
                refusal = done.refused
                if refusal is not None:
                    code, message, reason, metadata = refusal
                    again = rules.refused_again(code, message)
                    if isinstance(again, PokerError):  # the reason it was refused for
                        again.reason, again.metadata = reason, metadata
                    raise again
                return True, decode(self, json.loads(done.answer), arguments)

            found, answer = answered()
            if found:
                return answer
            entry = Pending(store, k, fp, describe(request), encode)
            try:
                return fn(self, *args, entry=entry, **kwargs)
            except Raced:
                found, answer = answered()
                if not found:
                    raise
                return answer
            except rules.errors as err:
                code = rules.code_of(err)
                if code is not None and not entry.recorded:
                    entry.refuse(code, str(err), getattr(err, "reason", ""),
                                 getattr(err, "metadata", None))
                raise

        return run  # type: ignore[return-value]

    return wrap


#: The fingerprint of an entry an older version stored, compared field by field.
LEGACY = "legacy:"


def legacy_fingerprint(fields: Mapping[str, Any]) -> str:
    """The fingerprint of a migrated entry that has only some fields of its request."""
    return LEGACY + json.dumps(dict(fields), sort_keys=True, separators=(",", ":"))


def _same_legacy(done: Entry, fields: Mapping[str, Any]) -> bool:
    stored = json.loads(done.fingerprint[len(LEGACY):])
    return all(not value or stored.get(name) == value for name, value in fields.items())


class MemoryJournal:
    """A journal in a dict: for tests and the examples above."""

    def __init__(self, retention: Retention | None = None) -> None:
        self.retention = retention or Retention()
        self.entries: dict[Key, Entry] = {}

    def find(self, key: Key, tx: Any = None) -> Entry | None:
        return self.entries.get(key)

    def put(self, key: Key, entry: Entry, tx: Any = None) -> None:
        if key in self.entries:
            raise KeyError(key)
        self.entries[key] = entry

    def put_alone(self, key: Key, entry: Entry) -> None:
        self.put(key, entry)

    def prune(self, limit: int = PRUNE_BATCH) -> int:
        cutoff, seen = self.retention.cutoff_ms(), dict[str, int]()
        old = []
        for k, e in sorted(self.entries.items(), key=lambda kv: kv[1].at_ms, reverse=True):
            seen[k.call] = seen.get(k.call, 0) + 1
            if seen[k.call] > self.retention.max_entries or e.at_ms < cutoff:
                old.append(k)
        old = old[:limit]
        for k in old:
            del self.entries[k]
        return len(old)


# ------------------------------------------------------------------- running


def add_arguments(parser: argparse.ArgumentParser, env_prefix: str) -> None:
    """--journal-retention-hours and --journal-max-entries (env <PREFIX>_JOURNAL_...)."""
    env = os.environ.get
    parser.add_argument(
        "--journal-retention-hours", type=float,
        default=float(env(f"{env_prefix}_JOURNAL_RETENTION_HOURS", DEFAULT_RETENTION_HOURS)),
        help="how long the answer to a request with an id is kept, so a retry gets it "
             f"again (default {DEFAULT_RETENTION_HOURS:g}; env "
             f"{env_prefix}_JOURNAL_RETENTION_HOURS)")
    parser.add_argument(
        "--journal-max-entries", type=int,
        default=int(env(f"{env_prefix}_JOURNAL_MAX_ENTRIES", DEFAULT_MAX_ENTRIES)),
        help="at most this many answers of each call are kept, the oldest pruned first (default "
             f"{DEFAULT_MAX_ENTRIES}; env {env_prefix}_JOURNAL_MAX_ENTRIES)")


def retention_from_args(args: argparse.Namespace) -> Retention:
    hours = float(getattr(args, "journal_retention_hours", DEFAULT_RETENTION_HOURS))
    entries = int(getattr(args, "journal_max_entries", DEFAULT_MAX_ENTRIES))
    if hours <= 0 or entries <= 0:
        raise ValueError("--journal-retention-hours and --journal-max-entries must be above 0")
    return Retention(hours, entries)


def prune_all(journal: Journal) -> int:
    """Prunes in transactions of PRUNE_BATCH entries until nothing is past the retention."""
    gone = 0
    while (round_ := journal.prune(PRUNE_BATCH)) > 0:
        gone += round_
    return gone


async def prune_on_loop(journal: Journal, every_s: float = PRUNE_EVERY_S) -> None:
    """Prunes now and every `every_s` seconds, a batch per turn of the loop (for a store
    the loop owns)."""
    while True:
        gone = 0
        try:
            while (round_ := journal.prune(PRUNE_BATCH)) > 0:
                gone += round_
                await asyncio.sleep(0)
        except Exception as err:  # noqa: BLE001 - the next round retries
            log.warning("journal_prune_failed", error=repr(err))
        if gone:
            log.info("journal_pruned", entries=gone)
        await asyncio.sleep(every_s)


class Pruner(threading.Thread):
    """Prunes every `every_s` seconds on a thread of its own (a store safe across threads)."""

    def __init__(self, journal: Journal, every_s: float = PRUNE_EVERY_S) -> None:
        super().__init__(name="journal-pruner", daemon=True)
        self.journal, self.every_s = journal, every_s
        self._stopping = threading.Event()

    def run(self) -> None:
        while not self._stopping.wait(self.every_s):
            try:
                gone = prune_all(self.journal)
            except Exception as err:  # noqa: BLE001 - the next round retries
                log.warning("journal_prune_failed", error=repr(err))
                continue
            if gone:
                log.info("journal_pruned", entries=gone)

    def stop(self) -> None:
        self._stopping.set()
