"""ListTables lists the tournament tables beside the cash tables, in one keyset order.

A cash table is a row of `tables`; a tournament table is a row of `tournament_tables`
(store.py, written with the tournament's document) and its seats are the document's
entries. A page is read from both at once, oldest first by (created_at, id) as
poker/paging.py pages every list: a token holds the last table's key, so tables made
while a client pages come in a later page, none twice. Given a tournament id, only its
tables (NOT_FOUND for a tournament that does not exist).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from poker import paging
from services.lobby import tables
from services.lobby.storage import Tx
from services.lobby.tables import Table, TableStatus
from services.lobby.tournament import store
from services.lobby.tournament.director import table_game


@dataclass(frozen=True, slots=True)
class TournamentSeat:
    """A player at a tournament table, as the director last saw them."""

    seat: int
    player_id: str
    display_name: str
    stack: int
    rebuys: int


@dataclass(frozen=True, slots=True)
class TournamentTable:
    """A tournament table as ListTables shows it."""

    table_id: str
    name: str
    tournament_id: str
    game: dict[str, Any]
    dealer: str
    open: bool
    button: int | None
    seats: tuple[TournamentSeat, ...]

    @property
    def chips(self) -> int:
        return sum(s.stack for s in self.seats)


_CASH = ("SELECT id, created_at, '' AS tournament_id,"
         " CASE WHEN status = ? THEN 1 ELSE 0 END AS closed FROM tables")
_TOURNAMENT = ("SELECT table_id AS id, created_at, tournament_id, closed"
               " FROM tournament_tables")


def page(tx: Tx, include_closed: bool, asked: paging.Page, scope: str,
         tournament_id: str = "") -> tuple[list[Table | TournamentTable], str]:
    """At most `asked.size` tables (cash and tournament, or `tournament_id`'s only),
    oldest first after the key `asked.after`; and the next page's token, or ""."""
    if tournament_id:
        store.get(tx, tournament_id)  # NotFound
        sql, params = f"SELECT * FROM ({_TOURNAMENT}) listed", []
        where, params = ["tournament_id = ?"], [tournament_id]
    else:
        sql = f"SELECT * FROM ({_CASH} UNION ALL {_TOURNAMENT}) listed"
        where, params = [], [TableStatus.CLOSED.value]
    if not include_closed:
        where.append("closed = 0")
    if asked.after is not None:
        condition, values = paging.keyset(["created_at", "id"], asked.after)
        where.append(condition)
        params += values
    if where:
        sql += " WHERE " + " AND ".join(where)
    rows, more = paging.split(tx.all(sql + " ORDER BY created_at, id LIMIT ?",
                                     (*params, asked.size + 1)), asked.size)
    docs: dict[str, store.Tournament] = {}
    names: dict[str, str] = {}
    found: list[Table | TournamentTable] = []
    for row in rows:
        if not row["tournament_id"]:
            found.append(tables.get(tx, row["id"]))
            continue
        tid = row["tournament_id"]
        if tid not in docs:
            docs[tid] = store.get(tx, tid)
            names.update(_names(tx, list(docs[tid].entries)))
        found.append(_table(docs[tid], row["id"], names))
    token = paging.token([rows[-1]["created_at"], rows[-1]["id"]], scope) if more else ""
    return found, token


def one(tx: Tx, table_id: str) -> Table | TournamentTable:
    """A table by id, as `page` lists it: a cash table, else a tournament's; NotFound
    (the cash table's error) when it is neither."""
    row = tx.one("SELECT tournament_id FROM tournament_tables WHERE table_id = ?", (table_id,))
    if row is None:
        return tables.get(tx, table_id)
    t = store.get(tx, row["tournament_id"])
    return _table(t, table_id, _names(tx, list(t.entries)))


def _names(tx: Tx, player_ids: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for start in range(0, len(player_ids), 500):
        chunk = player_ids[start:start + 500]
        marks = ", ".join("?" for _ in chunk)
        for r in tx.all(f"SELECT id, display_name FROM players WHERE id IN ({marks})",
                        chunk):
            out[r["id"]] = r["display_name"]
    return out


def _table(t: store.Tournament, table_id: str, names: dict[str, str]) -> TournamentTable:
    x = t.tables[table_id]
    seats = tuple(sorted(
        (TournamentSeat(e.seat, e.player_id, names.get(e.player_id, e.player_id),
                        e.stack, e.rebuys)
         for e in t.players_left() if e.table_id == table_id and x.open and e.seat >= 0),
        key=lambda s: s.seat))
    return TournamentTable(table_id, f"{t.name} table {x.number}", t.tournament_id,
                           table_game(t), x.dealer, x.open, x.button, seats)
