"""Tables and seats as the lobby books them: which dealer runs a table, who sits where.

The button draw (R4) is recorded here, card by card, the moment it is made.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from poker.limits import quote
from services.lobby import checks, ledger
from services.lobby.draw import ButtonDraw, DrawCard, draw_button
from services.lobby.errors import FailedPrecondition, InvalidArgument, NotFound, SeatUnavailable
from services.lobby.rules import TableRules
from services.lobby.storage import Tx


class TableStatus(StrEnum):
    """A table's life: opening at its dealer, open, closing, closed."""

    OPENING = "opening"
    OPEN = "open"
    CLOSING = "closing"
    CLOSED = "closed"


class SeatState(StrEnum):
    """A seat's booking: a buy-in on its way, a player seated, a player leaving."""

    JOINING = "joining"
    SEATED = "seated"
    LEAVING = "leaving"


@dataclass(frozen=True, slots=True)
class Seat:
    """A booked seat."""

    seat: int
    player_id: str
    display_name: str
    state: SeatState
    bought_in: int
    rebuys: int


@dataclass(frozen=True, slots=True)
class Table:
    """A table, its rules, where it runs and who sits at it."""

    table_id: str
    name: str
    rules: TableRules
    game: dict[str, Any]
    dealer: str
    status: TableStatus
    button_seat: int | None
    created_at: float
    chips: int = 0
    seats: tuple[Seat, ...] = field(default_factory=tuple)

    def seat_of(self, player_id: str) -> Seat | None:
        return next((s for s in self.seats if s.player_id == player_id), None)

    def minutes_open(self) -> float:
        """Minutes since the table opened (the clock of `rebuy_until_minutes`)."""
        return (time.time() - self.created_at) / 60

    def free_seats(self) -> list[int]:
        taken = {s.seat for s in self.seats}
        return [n for n in range(self.rules.seats) if n not in taken]


def insert(tx: Tx, table_id: str, name: str, rules: TableRules, game: dict[str, Any],
           dealer: str) -> None:
    """Books a new table (status opening) and its account."""
    tx.execute(
        "INSERT INTO tables (id, name, config, dealer, status, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (table_id, name, json.dumps({"rules": rules.to_json(), "game": game}), dealer,
         TableStatus.OPENING.value, time.time()),
    )
    ledger.open_account(tx, ledger.table_account(table_id), ledger.AccountKind.TABLE)


def exists(tx: Tx, table_id: str) -> bool:
    return tx.one("SELECT id FROM tables WHERE id = ?", (table_id,)) is not None


def get(tx: Tx, table_id: str) -> Table:
    """A table with its seats; NotFound for an unknown id."""
    checks.lookup_id("table_id", table_id)
    row = tx.one("SELECT * FROM tables WHERE id = ?", (table_id,))
    if row is None:
        raise NotFound(f"there is no table {quote(table_id)}")
    return _table(tx, row)


def listing(tx: Tx, include_closed: bool = False) -> list[Table]:
    """Every table, oldest first."""
    rows = tx.all("SELECT * FROM tables ORDER BY created_at, id")
    return [_table(tx, r) for r in rows if include_closed or r["status"] != TableStatus.CLOSED]


def _table(tx: Tx, row: dict[str, Any]) -> Table:
    config = json.loads(row["config"])
    seats = tuple(
        Seat(int(s["seat"]), s["player_id"], s["display_name"], SeatState(s["state"]),
             int(s["bought_in"]), int(s["rebuys"]))
        for s in tx.all(
            "SELECT s.*, p.display_name FROM seats s JOIN players p ON p.id = s.player_id"
            " WHERE s.table_id = ? ORDER BY s.seat", (row["id"],))
    )
    return Table(
        row["id"], row["name"], TableRules.from_json(config["rules"]), config["game"],
        row["dealer"], TableStatus(row["status"]),
        None if row["button_seat"] is None else int(row["button_seat"]),
        float(row["created_at"]), ledger.balance(tx, ledger.table_account(row["id"])), seats,
    )


def set_status(tx: Tx, table_id: str, status: TableStatus) -> None:
    closed_at = time.time() if status is TableStatus.CLOSED else None
    tx.execute("UPDATE tables SET status = ?, closed_at = ? WHERE id = ?",
               (status.value, closed_at, table_id))


def delete(tx: Tx, table_id: str) -> None:
    """Forgets a table that never opened (its account never held a chip)."""
    tx.execute("DELETE FROM tables WHERE id = ?", (table_id,))
    tx.execute("DELETE FROM accounts WHERE id = ? AND balance = 0",
               (ledger.table_account(table_id),))


def require_open(table: Table) -> None:
    """Refuses seating at a table that is not open."""
    if table.status is TableStatus.OPENING:
        raise FailedPrecondition(
            f"table {table.table_id} is still opening at its dealer; try again shortly")
    if table.status is not TableStatus.OPEN:
        raise FailedPrecondition(f"table {table.table_id} is {table.status.value}")


def place(tx: Tx, dealers: Sequence[str]) -> str:
    """The dealer with the fewest tables not closed; ties go to the first listed."""
    if not dealers:
        raise FailedPrecondition("the lobby has no dealer to open a table on (--dealer)")
    counts = {
        r["dealer"]: int(r["n"])
        for r in tx.all("SELECT dealer, COUNT(*) AS n FROM tables WHERE status <> ?"
                        " GROUP BY dealer", (TableStatus.CLOSED.value,))
    }
    return min(dealers, key=lambda d: (counts.get(d, 0), dealers.index(d)))


def choose_seat(table: Table, wanted: int | None) -> int:
    """The seat asked for if free, else the first free one; refuses a full table."""
    free = table.free_seats()
    if wanted is None:
        if not free:
            raise SeatUnavailable(
                f"table {table.table_id} is full ({table.rules.seats} seats taken)",
                reason="TABLE_FULL")
        return free[0]
    if not 0 <= wanted < table.rules.seats:
        raise InvalidArgument(
            f"seat {wanted} does not exist: table {table.table_id} has seats "
            f"0..{table.rules.seats - 1}")
    if wanted not in free:
        shown = ", ".join(map(str, free)) or "none"
        raise SeatUnavailable(f"seat {wanted} is taken; free seats: {shown}", reason="SEAT_TAKEN",
                              metadata={"seat": str(wanted)})
    return wanted


def book_seat(tx: Tx, table_id: str, seat: int, player_id: str, amount: int) -> None:
    tx.execute(
        "INSERT INTO seats (table_id, seat, player_id, state, bought_in, joined_at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (table_id, seat, player_id, SeatState.JOINING.value, amount, time.time()),
    )


def update_seat(tx: Tx, table_id: str, seat: int, **fields: Any) -> None:
    values = {k: (v.value if isinstance(v, StrEnum) else v) for k, v in fields.items()}
    assignments = ", ".join(f"{name} = ?" for name in values)
    tx.execute(f"UPDATE seats SET {assignments} WHERE table_id = ? AND seat = ?",
               (*values.values(), table_id, seat))


def free_seat(tx: Tx, table_id: str, seat: int) -> None:
    tx.execute("DELETE FROM seats WHERE table_id = ? AND seat = ?", (table_id, seat))


def draw_if_due(tx: Tx, table_id: str, deck: Sequence[int] | None = None,
                joining: tuple[int, str] | None = None) -> ButtonDraw | None:
    """R4: the first time two players sit (counting one about to), deals the draw, records it.

    The dealer deals as soon as two players are in, so the lobby draws, and gives
    the dealer the button, just before it seats the second player.
    """
    row = tx.one("SELECT button_seat FROM tables WHERE id = ?", (table_id,))
    if row is None or row["button_seat"] is not None:
        return None
    seated = [
        (int(r["seat"]), r["player_id"])
        for r in tx.all("SELECT seat, player_id FROM seats WHERE table_id = ? AND state = ?",
                        (table_id, SeatState.SEATED.value))
    ]
    if joining is not None and joining not in seated:
        seated.append(joining)
    if len(seated) < 2:
        return None
    draw = draw_button(seated, deck)
    now = time.time()
    for card in draw.cards:
        tx.execute(
            "INSERT INTO button_draws (table_id, seat, player_id, card, drawn_at)"
            " VALUES (?, ?, ?, ?, ?)", (table_id, card.seat, card.player_id, card.card, now))
    tx.execute("UPDATE tables SET button_seat = ?, button_told = 0 WHERE id = ?",
               (draw.button, table_id))
    return draw


def undo_draw_with(tx: Tx, table_id: str, seat: int, player_id: str) -> bool:
    """Forgets a draw that dealt a card to a player who then never sat (a refunded buy-in).

    No hand can have been played with that draw: the table had one player besides them.
    """
    if tx.one("SELECT seat FROM button_draws WHERE table_id = ? AND seat = ? AND player_id = ?",
              (table_id, seat, player_id)) is None:
        return False
    tx.execute("DELETE FROM button_draws WHERE table_id = ?", (table_id,))
    tx.execute("UPDATE tables SET button_seat = NULL, button_told = 0 WHERE id = ?", (table_id,))
    return True


def recorded_draw(tx: Tx, table_id: str) -> ButtonDraw | None:
    """The button draw of a table, as recorded; None before it was made."""
    rows = tx.all("SELECT seat, player_id, card FROM button_draws WHERE table_id = ?"
                  " ORDER BY seat", (table_id,))
    if not rows:
        return None
    cards = tuple(DrawCard(int(r["seat"]), r["player_id"], int(r["card"])) for r in rows)
    return ButtonDraw(cards, max(cards, key=lambda c: c.card))


def button_untold(tx: Tx) -> list[tuple[str, str, int]]:
    """(table, dealer, seat) of every drawn button the dealer has not acknowledged."""
    return [
        (r["id"], r["dealer"], int(r["button_seat"]))
        for r in tx.all("SELECT id, dealer, button_seat FROM tables WHERE button_seat IS NOT NULL"
                        " AND button_told = 0 AND status = ?", (TableStatus.OPEN.value,))
    ]


def mark_button_told(tx: Tx, table_id: str, outcome: int = 1) -> None:
    """1: the dealer took the button; 2: it refused (its first hand had already begun)."""
    tx.execute("UPDATE tables SET button_told = ? WHERE id = ?", (outcome, table_id))


def followed(tx: Tx, table_id: str) -> int:
    """R34: the last event of the table the lobby has followed (services/lobby/following.py);
    0 before the first. A departure the dealer made that the lobby has not recorded lies
    after it."""
    row = tx.one("SELECT sequence FROM followed WHERE table_id = ?", (table_id,))
    return 0 if row is None else int(row["sequence"])


def set_followed(tx: Tx, table_id: str, sequence: int) -> None:
    if tx.one("SELECT sequence FROM followed WHERE table_id = ?", (table_id,)) is None:
        tx.execute("INSERT INTO followed (table_id, sequence) VALUES (?, ?)",
                   (table_id, sequence))
    else:
        tx.execute("UPDATE followed SET sequence = ? WHERE table_id = ? AND sequence < ?",
                   (sequence, table_id, sequence))
