"""The lobby's request journal (poker/journal.py): its adapter, its rules, its migration.

The answer journaled for JoinTable, Rebuy, LeaveTable, CloseLobbyTable and OpenTable is
the operation the request made (`{"op": id}`), written in the transaction that creates
it: a repeat drives that operation on or reads how it ended (operations.py keeps the
work in flight; the journal, which request made it). A refusal before anything was
written is journaled when it is an answer (NOT_FOUND, ALREADY_EXISTS,
PERMISSION_DENIED); one that says "not now" (FAILED_PRECONDITION, UNAVAILABLE) or that
the request is malformed (INVALID_ARGUMENT) is not: the same request may be sent again.

The same request_id with other fields is INVALID_ARGUMENT, reason REQUEST_ID_REUSED
(lobby.proto, as the dealer answers it). Entries are kept
for --journal-retention-hours (default 24) and at most --journal-max-entries of each
RPC.

A database of an older version has no journal: at start every operation becomes the
entry of the request that made it (its fingerprint, or for a row without one its kind,
table and amount, compared field by field under the key it was stored with).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import structlog

from poker import journal
from poker.journal import Entry, Key, Retention
from services.lobby import errors
from services.lobby import operations as ops
from services.lobby.storage import Storage, Tx

log = structlog.get_logger(__name__)

#: The RPC each kind of operation answers.
CALLS = {"open": "OpenTable", "join": "JoinTable", "rebuy": "Rebuy", "leave": "LeaveTable",
         "close": "CloseLobbyTable"}
#: The refusals journaled as answers (the others say "not now" or "malformed").
REMEMBERED = frozenset({"NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED"})

TABLE, INDEX = journal.TABLE, journal.INDEX  # schema.py creates them with the others

_INSERT = ("INSERT INTO journal (call, scope, request_id, fingerprint, what, answer, at_ms)"
           " VALUES (?, ?, ?, ?, ?, ?, ?)")
_KEY = "call = ? AND scope = ? AND request_id = ?"


class LobbyJournal:
    """poker.journal's adapter for the lobby's `journal` table (SQLite or PostgreSQL)."""

    def __init__(self, storage: Storage, retention: Retention | None = None) -> None:
        self.storage, self.retention = storage, retention or Retention()

    def find(self, key: Key, tx: Tx | None = None) -> Entry | None:
        def run(t: Tx) -> Entry | None:
            row = t.one(f"SELECT fingerprint, what, answer, at_ms FROM journal WHERE {_KEY}",
                        (key.call, key.scope, key.request_id))
            return None if row is None else Entry(row["fingerprint"], row["what"],
                                                  row["answer"], int(row["at_ms"]))

        return run(tx) if tx is not None else self.storage.transact(run)

    def put(self, key: Key, entry: Entry, tx: Tx | None = None) -> None:
        assert tx is not None, "the lobby's entries are written in the request's transaction"
        tx.execute(_INSERT, (key.call, key.scope, key.request_id, entry.fingerprint,
                             entry.what, entry.answer, entry.at_ms))

    def put_alone(self, key: Key, entry: Entry) -> None:
        # A copy that raced this one may have written its refusal first: the same answer.
        self.storage.transact(lambda tx: tx.execute(
            _INSERT + " ON CONFLICT DO NOTHING",
            (key.call, key.scope, key.request_id, entry.fingerprint, entry.what,
             entry.answer, entry.at_ms)))

    def prune(self, limit: int = journal.PRUNE_BATCH) -> int:
        """Deletes at most `limit` entries: older than the retention, or past a call's
        newest max_entries (one transaction)."""
        cutoff, keep = self.retention.cutoff_ms(), self.retention.max_entries

        def run(tx: Tx) -> int:
            old: list[dict[str, Any]] = []
            for call in CALLS.values():
                if len(old) < limit:
                    old += tx.all("SELECT call, scope, request_id FROM journal"
                                  " WHERE call = ? AND at_ms < ? LIMIT ?",
                                  (call, cutoff, limit - len(old)))
                if len(old) < limit:
                    old += tx.all("SELECT call, scope, request_id FROM journal WHERE call = ?"
                                  " ORDER BY at_ms DESC LIMIT ? OFFSET ?",
                                  (call, limit - len(old), keep))
            old = list({(r["call"], r["scope"], r["request_id"]): r for r in old}.values())
            for row in old:
                tx.execute(f"DELETE FROM journal WHERE {_KEY}",
                           (row["call"], row["scope"], row["request_id"]))
            return len(old)

        return self.storage.transact(run)


def request_key(call: str, arguments: Mapping[str, Any], what: str,
                scope: str | None = None) -> Key:
    """The journal key of a lobby request: its RPC, its caller's scope, its request_id
    (required: checked here, before anything is looked up)."""
    from services.lobby import checks

    request_id = checks.request_id(arguments["request_id"], what)
    if scope is None:
        scope = ops.scope(arguments.get("by"), arguments["player_id"])
    return Key(call, scope, request_id)


def _fingerprint(call: str, caller: str, fields: Mapping[str, Any]) -> str:
    return ops.fingerprint(call, caller, **fields)


def _code_of(err: Exception) -> str | None:
    if isinstance(err, errors.RequestReused) or not isinstance(err, errors.LobbyError):
        return None
    return err.status if err.status in REMEMBERED else None


def _refused_again(code: str, message: str) -> Exception:
    kind = next((k for k in _KINDS if k.category.name == code), errors.LobbyError)
    return kind(message)


_KINDS = (errors.NotFound, errors.AlreadyExists, errors.PermissionDenied,
          errors.FailedPrecondition, errors.InvalidArgument, errors.Unavailable)


def _reused(key: Key, done: Entry) -> Exception:
    return ops.reused(key.request_id, done.what or "another request")


#: How the lobby answers from its journal: a reused id is INVALID_ARGUMENT (lobby.proto).
RULES = journal.Rules(errors=(errors.LobbyError,), fingerprint=_fingerprint,
                      code_of=_code_of, refused_again=_refused_again, reused=_reused)


def migrate(tx: Tx, now_ms: int) -> int:
    """Journals every operation that has no entry yet (a database of an older version)."""
    made = 0
    known = {(r["call"], r["scope"], r["request_id"])
             for r in tx.all("SELECT call, scope, request_id FROM journal")}
    for row in tx.all("SELECT id, idempotency_key, kind, player_id, table_id, amount,"
                      " fingerprint FROM operations"):
        key = _key_of(row)
        if key is None or (key.call, key.scope, key.request_id) in known:
            continue
        op = ops.get(tx, row["id"])
        fingerprint = row["fingerprint"] or journal.legacy_fingerprint(
            {"table_id": row["table_id"], "amount": int(row["amount"])})
        tx.execute(_INSERT, (key.call, key.scope, key.request_id, fingerprint,
                             ops.describe(op), json.dumps({"op": row["id"]}), now_ms))
        known.add((key.call, key.scope, key.request_id))
        made += 1
    if made:
        log.info("journal_migrated", entries=made)
    return made


def _key_of(row: Mapping[str, Any]) -> Key | None:
    """The journal key of an operation from its idempotency key `<kind>:<scope>:<id>`
    (a scope is `*`, the player's id or, for an older close, the table's id)."""
    kind, stored = str(row["kind"]), str(row["idempotency_key"])
    call = CALLS.get(kind)
    if call is None or not stored.startswith(kind + ":"):
        return None
    rest = stored[len(kind) + 1:]
    if kind == "open":
        return Key(call, ops.OPERATOR_SCOPE, rest)
    for scope in (ops.OPERATOR_SCOPE, str(row["player_id"]), str(row["table_id"])):
        if scope and rest.startswith(scope + ":"):
            return Key(call, scope, rest[len(scope) + 1:])
    return None
