"""Work that spans the lobby and a dealer, recorded step by step so a restart can finish it.

An operation is written in the same transaction as its first money movement; each
later step updates its state. States, by kind:

- open:   requested -> done | failed
- join:   debited -> seated -> done, or debited -> refunded
- rebuy:  debited -> done | refunded
- leave:  requested -> done
- close:  requested -> done

`attempts` counts dealer calls that may have taken effect without the lobby
hearing the answer. A join's SeatPlayer calls all carry `dealer_request_id` (the
operation's id), so a repeat gets the dealer's answer to the first (seating.py); a
join sent before that column existed has it empty, and `dealer_sequence` (the
table's event number before the first call) tells from the dealer's events what
happened. Leaving and closing use `dealer_sequence` the same way.

The seat token of a join is never stored: `Operation.seat_token` carries it in
memory from the dealer's answer to the caller.

Idempotency: which request made an operation is the request journal's to say
(services/lobby/journal.py, poker/journal.py): a request_id belongs to its caller (the
operator, or one player) and one RPC; its entry holds the fingerprint (`fingerprint`:
the hash of the RPC, the caller and every field) and the operation made. An operation
keeps the key `<kind>:<caller's scope>:<request_id>` it was made under (a readable
label; the key of one whose entry was pruned takes its id when the same key is used
again, `create`) and the fingerprint.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from poker.limits import quote
from services.lobby.errors import RequestReused
from services.lobby.storage import Tx

#: The scope of the operator's request ids (a character no player id has).
OPERATOR_SCOPE = "*"


class OpKind(StrEnum):
    """What the operation does."""

    OPEN = "open"
    JOIN = "join"
    REBUY = "rebuy"
    LEAVE = "leave"
    CLOSE = "close"


class OpState(StrEnum):
    """Where the operation is."""

    REQUESTED = "requested"
    DEBITED = "debited"
    SEATED = "seated"
    DONE = "done"
    REFUNDED = "refunded"
    FAILED = "failed"


FINAL = (OpState.DONE, OpState.REFUNDED, OpState.FAILED)


@dataclass(frozen=True, slots=True)
class Operation:
    """One recorded operation."""

    id: str
    key: str
    kind: OpKind
    player_id: str
    table_id: str
    seat: int
    amount: int
    state: OpState
    seat_token: str = ""  # in memory only (a join's answer); never in the database
    wait_for_big_blind: bool = False
    attempts: int = 0
    dealer_sequence: int = 0
    void_hand: bool = False
    result: int = 0
    error_status: str = ""
    error: str = ""
    dealer_request_id: str = ""
    fingerprint: str = ""
    resumed: bool = False  # in memory only: a JoinTable answered with the seat already had

    @property
    def final(self) -> bool:
        return self.state in FINAL


def _op(row: dict[str, Any]) -> Operation:
    return Operation(
        row["id"], row["idempotency_key"], OpKind(row["kind"]), row["player_id"],
        row["table_id"], int(row["seat"]), int(row["amount"]), OpState(row["state"]),
        wait_for_big_blind=bool(row["wait_for_big_blind"]), attempts=int(row["attempts"]),
        dealer_sequence=int(row["dealer_sequence"]), void_hand=bool(row["void_hand"]),
        result=int(row["result"]), error_status=row["error_status"], error=row["error"],
        dealer_request_id=row["dealer_request_id"], fingerprint=row.get("fingerprint") or "",
    )


def scope(by: str | None, player_id: str) -> str:
    """Whose request ids a request's is: `by` (a player id, or OPERATOR_SCOPE), or the
    player acted for when `by` is None (the player themself)."""
    return player_id if by is None else by


def fingerprint(rpc: str, caller: str, **fields: Any) -> str:
    """The hash of a request: its RPC, its caller and every field, as sent."""
    text = json.dumps({"rpc": rpc, "caller": caller, **fields}, sort_keys=True,
                      separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def reused(request_id: str, what: str) -> RequestReused:
    """The refusal of a request_id sent again with other fields."""
    return RequestReused(
        f"request id {quote(request_id)} was already used for {what} with other fields; "
        "send a retry with exactly the same fields, or use a new request id for a new request")


def create(tx: Tx, key: str, kind: OpKind, table_id: str, state: OpState, *,
           player_id: str = "", seat: int = -1, amount: int = 0,
           wait_for_big_blind: bool = False, void_hand: bool = False,
           lease_seconds: float = 0.0, fingerprint: str = "") -> Operation:
    """Records a new operation under its idempotency key, leased to its creator."""
    op_id = f"op_{secrets.token_hex(8)}"
    now = time.time()
    # An operation of the same key is one whose journal entry was pruned (the request
    # is a new one now): its key takes its id, so the new operation has the key.
    tx.execute("UPDATE operations SET idempotency_key = idempotency_key || '@' || id"
               " WHERE idempotency_key = ?", (key,))
    tx.execute(
        "INSERT INTO operations (id, idempotency_key, kind, player_id, table_id, seat, amount,"
        " state, wait_for_big_blind, void_hand, lease_until, created_at, updated_at,"
        " fingerprint) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (op_id, key, kind.value, player_id, table_id, seat, amount, state.value,
         int(wait_for_big_blind), int(void_hand), now + lease_seconds, now, now, fingerprint),
    )
    return Operation(op_id, key, kind, player_id, table_id, seat, amount, state,
                     wait_for_big_blind=wait_for_big_blind, void_hand=void_hand,
                     fingerprint=fingerprint)


def describe(op: Operation) -> str:
    """What an operation did, for a message."""
    what = {OpKind.OPEN: "opening", OpKind.JOIN: "a buy-in", OpKind.REBUY: "a rebuy",
            OpKind.LEAVE: "leaving", OpKind.CLOSE: "closing"}[op.kind]
    who = f" by {op.player_id}" if op.player_id else ""
    chips = f" of {op.amount}" if op.amount else ""
    return f"{what}{chips}{who} at table {op.table_id}"


def get(tx: Tx, op_id: str) -> Operation:
    row = tx.one("SELECT * FROM operations WHERE id = ?", (op_id,))
    assert row is not None, op_id
    return _op(row)


def update(tx: Tx, op_id: str, **fields: Any) -> Operation:
    """Sets fields of an operation (state, attempts, result, ...)."""
    values = {k: (v.value if isinstance(v, StrEnum) else v) for k, v in fields.items()}
    values["updated_at"] = time.time()
    assignments = ", ".join(f"{name} = ?" for name in values)
    tx.execute(f"UPDATE operations SET {assignments} WHERE id = ?", (*values.values(), op_id))
    return get(tx, op_id)


def pending(tx: Tx, table_id: str | None = None) -> list[Operation]:
    """Unfinished operations, oldest first, of one table or all."""
    finals = tuple(s.value for s in FINAL)
    sql = "SELECT * FROM operations WHERE state NOT IN (?, ?, ?)"
    params: tuple[Any, ...] = finals
    if table_id is not None:
        sql += " AND table_id = ?"
        params += (table_id,)
    return [_op(r) for r in tx.all(sql + " ORDER BY created_at", params)]


def last_join(tx: Tx, table_id: str, player_id: str) -> Operation | None:
    """The completed buy-in that seated a player at a table (the latest), or None."""
    row = tx.one("SELECT * FROM operations WHERE table_id = ? AND player_id = ? AND kind = ?"
                 " AND state = ? ORDER BY created_at DESC LIMIT 1",
                 (table_id, player_id, OpKind.JOIN.value, OpState.DONE.value))
    return _op(row) if row is not None else None


def take_lease(tx: Tx, op_id: str, seconds: float, force: bool = False) -> bool:
    """Claims an operation for one driver (one thread of one lobby) for `seconds`."""
    now = time.time()
    sql = "UPDATE operations SET lease_until = ? WHERE id = ?"
    if not force:
        sql += " AND lease_until < ?"
    params: tuple[Any, ...] = (now + seconds, op_id) + (() if force else (now,))
    return tx.execute(sql, params) == 1


def release(tx: Tx, op_id: str) -> None:
    """Lets another driver take the operation."""
    tx.execute("UPDATE operations SET lease_until = 0 WHERE id = ?", (op_id,))
