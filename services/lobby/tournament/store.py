"""A tournament in the lobby's database (SQLite or PostgreSQL): one row holds its
document (structure, entries, tables: `Tournament` as JSON), `tournament_events` what
WatchTournament streams (numbered from 1 per tournament), `tournament_moves` the moves
between tables in flight (T5, T6) so a restart completes them.

A database of an older version has none of these tables: `schema.create` makes them
(CREATE TABLE IF NOT EXISTS), and nothing else changes. `tournament_tables` (the
tables ListTables lists) came later: `list_old_tables` fills it from the documents of a
database written before it, once, when the director starts.
"""

from __future__ import annotations

import dataclasses
import json
import time
from dataclasses import dataclass, field
from typing import Any

from poker.limits import quote
from services.lobby.errors import NotFound
from services.lobby.storage import StorageConflict, Tx
from services.lobby.tournament.structure import Structure

STATEMENTS: tuple[str, ...] = (
    """CREATE TABLE IF NOT EXISTS tournaments (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        state TEXT NOT NULL,
        doc TEXT NOT NULL,
        version BIGINT NOT NULL DEFAULT 0,
        director TEXT NOT NULL DEFAULT '',
        lease_until DOUBLE PRECISION NOT NULL DEFAULT 0,
        created_at DOUBLE PRECISION NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS tournament_events (
        tournament_id TEXT NOT NULL,
        seq BIGINT NOT NULL,
        kind TEXT NOT NULL,
        body TEXT NOT NULL,
        at_ms BIGINT NOT NULL,
        PRIMARY KEY (tournament_id, seq)
    )""",
    """CREATE TABLE IF NOT EXISTS tournament_moves (
        id TEXT PRIMARY KEY,
        tournament_id TEXT NOT NULL,
        player_id TEXT NOT NULL,
        from_table TEXT NOT NULL,
        from_seat INTEGER NOT NULL,
        from_sequence BIGINT NOT NULL,
        to_table TEXT NOT NULL,
        to_seat INTEGER NOT NULL,
        stack BIGINT NOT NULL DEFAULT 0,
        attempt INTEGER NOT NULL DEFAULT 0,
        state TEXT NOT NULL,
        why TEXT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS tournament_moves_state ON tournament_moves(state)",
    # ListTables lists tournament tables beside the cash tables: one row per table of
    # a document's `tables`, written by `save` (`closed` 1 once it is no longer open).
    """CREATE TABLE IF NOT EXISTS tournament_tables (
        table_id TEXT PRIMARY KEY,
        tournament_id TEXT NOT NULL,
        number INTEGER NOT NULL,
        closed INTEGER NOT NULL DEFAULT 0,
        created_at DOUBLE PRECISION NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS tournament_tables_by_tournament"
    " ON tournament_tables(tournament_id, created_at, table_id)",
)

#: Tournament states.
REGISTERING, STARTING, RUNNING, FINISHED, CANCELLED = (
    "registering", "starting", "running", "finished", "cancelled")
#: Entry states.
REGISTERED, PLAYING, BUSTED = "registered", "playing", "busted"
#: Move states: planned (the player still at the first table), unseated (stack known,
#: at no table: only the move record holds them), done.
PLANNED, UNSEATED, DONE = "planned", "unseated", "done"


@dataclass
class Entry:
    """A player in a tournament."""

    player_id: str
    entries: int = 1  # 1 + re-entries
    rebuys: int = 0
    add_ons: int = 0
    status: str = REGISTERED
    table_id: str = ""
    seat: int = -1
    seat_request: str = ""  # the SeatPlayer request_id of the seat held (its token again)
    seat_stack: int = 0  # ... and the stack and wait_for_big_blind it was sent with
    seat_wait: bool = False
    stack: int = 0  # at the start of the table's next hand, as last seen
    pending_chips: int = 0  # bought (rebuy, add-on), added at the table's next hold
    chips_keys: int = 0  # AddChips keys used
    place: int = 0
    shared: int = 1
    prize: int = 0
    busted_at_ms: int = 0
    paid: int = 0  # money paid in: buy-ins, rebuys, add-ons (fees apart)
    fees: int = 0


@dataclass
class TTable:
    """A tournament table at a dealer."""

    table_id: str
    number: int
    dealer: str
    released: int = 0  # the deal limit set: hands the table may deal up to
    seen: int = 0  # hands played that the director has taken account of
    level: int = 0  # the dealer level index set
    button: int | None = None
    open: bool = True
    final: bool = False
    #: T7, T8: the round of hand for hand its hand was released in (0: released outside
    #: hand for hand; a hand already running when hand for hand begins is not a round's).
    round: int = 0


@dataclass
class Tournament:
    """The director's whole state of one tournament."""

    tournament_id: str
    name: str
    structure: Structure
    state: str = REGISTERING
    created_ms: int = 0
    started_ms: int = 0
    finished_ms: int = 0
    entries: dict[str, Entry] = field(default_factory=dict)
    tables: dict[str, TTable] = field(default_factory=dict)
    next_table: int = 1
    pool: int = 0
    fees: int = 0
    chips: int = 0  # every chip issued: starting stacks, rebuys, add-ons
    level: int = 0  # schedule index (breaks included)
    hand_for_hand: bool = False
    rounds: int = 0  # T7: rounds of hand for hand released so far
    final_table: str = ""
    moves: int = 0
    max_gap: int = 0  # the largest gap between table sizes after a pass's moves
    max_gap_held: int = 0  # ... after a pass with every table between hands (T5: 1)
    hands: int = 0
    chip_checks: int = 0
    chip_errors: list[str] = field(default_factory=list)
    seq: int = 0  # the last event's number
    version: int = 0  # the row's version when read (save refuses a stale copy)
    #: Not stored: each table's `open` as `tournament_tables` holds it (None: not known;
    #: `save` writes only what changed).
    listed: dict[str, bool] | None = field(default=None, compare=False, repr=False)
    _listing: dict[str, bool] | None = field(default=None, compare=False, repr=False)

    def players_left(self) -> list[Entry]:
        return [e for e in self.entries.values() if e.status == PLAYING]

    def open_tables(self) -> list[TTable]:
        return [t for t in self.tables.values() if t.open]

    def to_json(self) -> str:
        # By hand, not dataclasses.asdict: it deep-copies every value, and a field of
        # hundreds of players is saved after every hand.
        data = {name: getattr(self, name) for name in _TOURNAMENT_FIELDS}
        data["structure"] = _structure_json(self.structure)
        data["entries"] = {k: _plain(e, _ENTRY_FIELDS) for k, e in self.entries.items()}
        data["tables"] = {k: _plain(x, _TABLE_FIELDS) for k, x in self.tables.items()}
        data["chip_errors"] = list(self.chip_errors)
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Tournament:
        data = json.loads(text)
        data["structure"] = Structure.from_json(data["structure"])
        data["entries"] = {k: Entry(**v) for k, v in data["entries"].items()}
        data["tables"] = {k: TTable(**v) for k, v in data["tables"].items()}
        return cls(**data)


_ENTRY_FIELDS = tuple(f.name for f in dataclasses.fields(Entry))
_TABLE_FIELDS = tuple(f.name for f in dataclasses.fields(TTable))
_TOURNAMENT_FIELDS = tuple(f.name for f in dataclasses.fields(Tournament)
                           if f.name not in ("listed", "_listing"))
_STRUCTURES: dict[int, tuple[Structure, dict[str, Any]]] = {}


def _plain(obj: Any, names: tuple[str, ...]) -> dict[str, Any]:
    return {name: getattr(obj, name) for name in names}


def _structure_json(s: Structure) -> dict[str, Any]:
    """A structure's JSON, made once per structure (it never changes)."""
    kept = _STRUCTURES.get(id(s))
    if kept is None or kept[0] is not s:
        kept = _STRUCTURES[id(s)] = (s, s.to_json())
    return kept[1]


def exists(tx: Tx, tournament_id: str) -> bool:
    return tx.one("SELECT id FROM tournaments WHERE id = ?", (tournament_id,)) is not None


def saved(t: Tournament) -> None:
    """After the transaction that saved `t` committed: its copy is of the new version."""
    t.version += 1
    t.listed = t._listing


def insert(tx: Tx, t: Tournament) -> None:
    tx.execute("INSERT INTO tournaments (id, name, state, doc, created_at) VALUES (?, ?, ?, ?, ?)",
               (t.tournament_id, t.name, t.state, t.to_json(), time.time()))


def get(tx: Tx, tournament_id: str) -> Tournament:
    row = tx.one("SELECT doc, version FROM tournaments WHERE id = ?", (tournament_id,))
    if row is None:
        raise NotFound(f"there is no tournament {quote(tournament_id)}")
    t = Tournament.from_json(row["doc"])
    t.version = int(row["version"])
    return t


class StaleTournament(StorageConflict):
    """Another lobby process saved the tournament since this copy was read."""


def save(tx: Tx, t: Tournament) -> None:
    """Writes the document if nobody wrote it since it was read (several lobby processes
    on one PostgreSQL: a money call on one, the director on another)."""
    if tx.execute("UPDATE tournaments SET doc = ?, state = ?, version = version + 1"
                  " WHERE id = ? AND version = ?",
                  (t.to_json(), t.state, t.tournament_id, t.version)) != 1:
        raise StaleTournament(f"tournament {t.tournament_id} changed meanwhile; ask again")
    now = {x.table_id: x.open for x in t.tables.values()}
    t._listing = now if now == t.listed else _list_tables(tx, t, now, t.listed)


def _list_tables(tx: Tx, t: Tournament, now: dict[str, bool],
                 listed: dict[str, bool] | None, at: float | None = None) -> dict[str, bool]:
    """`tournament_tables` as `now` says (`listed`: as it was, None: read it)."""
    if listed is None:
        listed = {r["table_id"]: not int(r["closed"]) for r in tx.all(
            "SELECT table_id, closed FROM tournament_tables WHERE tournament_id = ?",
            (t.tournament_id,))}
    for table_id, is_open in now.items():
        if table_id not in listed:
            number = t.tables[table_id].number
            created = time.time() if at is None else at + number / 1000
            tx.execute("INSERT INTO tournament_tables (table_id, tournament_id, number,"
                       " closed, created_at) VALUES (?, ?, ?, ?, ?)",
                       (table_id, t.tournament_id, number, 0 if is_open else 1, created))
        elif listed[table_id] != is_open:
            tx.execute("UPDATE tournament_tables SET closed = ? WHERE table_id = ?",
                       (0 if is_open else 1, table_id))
    return dict(now)


def list_old_tables(tx: Tx) -> int:
    """Fills `tournament_tables` for the tournaments of a database written before it
    (their tables listed as made when the tournament was); the number of tournaments."""
    rows = tx.all("SELECT id, doc, created_at FROM tournaments t WHERE NOT EXISTS"
                  " (SELECT 1 FROM tournament_tables x WHERE x.tournament_id = t.id)"
                  " AND state <> ?", (REGISTERING,))
    done = 0
    for row in rows:
        t = Tournament.from_json(row["doc"])
        if t.tables:
            _list_tables(tx, t, {x.table_id: x.open for x in t.tables.values()}, {},
                         at=float(row["created_at"]))
            done += 1
    return done


def take_lease(tx: Tx, tournament_id: str, holder: str, seconds: float,
               force: bool = False) -> bool:
    """One lobby process directs a tournament at a time: the holder renews its lease, any
    process takes one that ran out (`force`: at once, the one lobby of a SQLite file)."""
    now = time.time()
    return tx.execute("UPDATE tournaments SET director = ?, lease_until = ? WHERE id = ?"
                      " AND (director = ? OR lease_until < ? OR ?)",
                      (holder, now + seconds, tournament_id, holder, now, force)) == 1


def active_ids(tx: Tx) -> list[str]:
    return [r["id"] for r in tx.all(
        "SELECT id FROM tournaments WHERE state IN (?, ?, ?) ORDER BY id",
        (REGISTERING, STARTING, RUNNING))]


def page(tx: Tx, size: int, after: str) -> tuple[list[Tournament], str]:
    rows = tx.all("SELECT id, doc FROM tournaments WHERE id > ? ORDER BY id LIMIT ?",
                  (after, size + 1))
    more = len(rows) > size
    rows = rows[:size]
    return [Tournament.from_json(r["doc"]) for r in rows], (rows[-1]["id"] if more else "")


def add_event(tx: Tx, t: Tournament, kind: str, **body: Any) -> int:
    """Appends an event to the tournament's stream (the caller saves `t` in the same tx)."""
    t.seq += 1
    tx.execute("INSERT INTO tournament_events (tournament_id, seq, kind, body, at_ms)"
               " VALUES (?, ?, ?, ?, ?)",
               (t.tournament_id, t.seq, kind, json.dumps(body, separators=(",", ":")),
                int(time.time() * 1000)))
    return t.seq


def notify(tx: Tx, t: Tournament) -> None:
    """PostgreSQL: the other lobby processes hear of the events up to `t.seq` once this
    transaction commits (watch.PgListener)."""
    tx.execute("SELECT pg_notify(?, ?)", ("tournament_events", f"{t.tournament_id} {t.seq}"))


@dataclass(frozen=True, slots=True)
class Event:
    """One event of a tournament's stream."""

    sequence: int
    kind: str
    body: dict[str, Any]
    at_ms: int


def events(tx: Tx, tournament_id: str, after: int, limit: int) -> list[Event]:
    rows = tx.all("SELECT seq, kind, body, at_ms FROM tournament_events"
                  " WHERE tournament_id = ? AND seq > ? ORDER BY seq LIMIT ?",
                  (tournament_id, after, limit))
    return [Event(int(r["seq"]), r["kind"], json.loads(r["body"]), int(r["at_ms"]))
            for r in rows]


@dataclass
class MoveRecord:
    """A move in flight (T5, T6): see PLANNED, UNSEATED, DONE."""

    id: str
    tournament_id: str
    player_id: str
    from_table: str
    from_seat: int
    from_sequence: int
    to_table: str
    to_seat: int
    stack: int
    attempt: int
    state: str
    why: str

    @property
    def request_id(self) -> str:
        return f"{self.id}:{self.attempt}"


def add_move(tx: Tx, m: MoveRecord) -> None:
    tx.execute("INSERT INTO tournament_moves (id, tournament_id, player_id, from_table,"
               " from_seat, from_sequence, to_table, to_seat, stack, attempt, state, why,"
               " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
               (m.id, m.tournament_id, m.player_id, m.from_table, m.from_seat,
                m.from_sequence, m.to_table, m.to_seat, m.stack, m.attempt, m.state, m.why,
                time.time()))


def update_move(tx: Tx, m: MoveRecord) -> None:
    tx.execute("UPDATE tournament_moves SET to_seat = ?, stack = ?, attempt = ?, state = ?"
               " WHERE id = ?", (m.to_seat, m.stack, m.attempt, m.state, m.id))


def pending_moves(tx: Tx, tournament_id: str) -> list[MoveRecord]:
    rows = tx.all("SELECT * FROM tournament_moves WHERE tournament_id = ? AND state <> ?"
                  " ORDER BY created_at, id", (tournament_id, DONE))
    return [MoveRecord(r["id"], r["tournament_id"], r["player_id"], r["from_table"],
                       int(r["from_seat"]), int(r["from_sequence"]), r["to_table"],
                       int(r["to_seat"]), int(r["stack"]), int(r["attempt"]), r["state"],
                       r["why"]) for r in rows]
