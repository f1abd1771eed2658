"""T5 balancing and T6 breaking tables, on plain values: which player moves where.

A table is its occupied seats and the last hand's button. Seats are numbered 0..size-1
clockwise. The director asks after every hand (T5 "moves happen between hands"):

- `table_to_break`: when the players left fit in one table fewer, the table that breaks,
  in the announced order (the highest table number first); `break_moves` seats its
  players by draw into the open seats of the others, each to a shortest table.
- `final_table_due`: when every player left fits in one table, all tables break into a
  final table, seats and button drawn anew (R4).
- `balance_moves`: while a table has two or more players fewer than the fullest, the
  player of the fullest due the big blind next moves to the seat of the shortest
  closest to posting the big blind (right after its last big blind, never between its
  button and big blind).

>>> a = TableSeats("a", 1, {0: "p0", 1: "p1", 2: "p2", 3: "p3", 4: "p4"}, button=0, size=6)
>>> b = TableSeats("b", 2, {0: "q0", 3: "q3", 5: "q5"}, button=3, size=6)
>>> last_big_blind(a), due_big_blind(a)[0]
(2, 3)
>>> balance_moves([a, b])
[Move(player_id='p3', from_table='a', from_seat=3, to_table='b', to_seat=1)]
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace


@dataclass(frozen=True, slots=True)
class TableSeats:
    """One tournament table: `number` is its place in the announced breaking order."""

    table_id: str
    number: int
    players: dict[int, str] = field(default_factory=dict)  # seat -> player id
    button: int | None = None  # the last hand's button (None: no hand played yet)
    size: int = 9

    @property
    def count(self) -> int:
        return len(self.players)

    def open_seats(self) -> list[int]:
        return [s for s in range(self.size) if s not in self.players]


@dataclass(frozen=True, slots=True)
class Move:
    """One player to move between hands, chips and all."""

    player_id: str
    from_table: str
    from_seat: int
    to_table: str
    to_seat: int


def _clockwise(start: int, size: int) -> list[int]:
    """Every seat, clockwise, starting with the seat after `start`."""
    return [(start + i) % size for i in range(1, size + 1)]


def last_big_blind(table: TableSeats) -> int | None:
    """The seat that posted the big blind in the last hand: heads-up the seat after the
    button, else the second occupied seat after it (R6, R7). None before the first hand."""
    if table.button is None or len(table.players) < 2:
        return None
    after = [s for s in _clockwise(table.button, table.size) if s in table.players
             and s != table.button]
    if len(table.players) == 2 or len(after) < 2:
        return after[0] if after else None
    return after[1]


def due_big_blind(table: TableSeats) -> list[int]:
    """Occupied seats in the order they post the big blind from the next hand on (the
    dead button rule of R5: the big blind moves to the next player after the last)."""
    last = last_big_blind(table)
    if last is None:
        start = table.button if table.button is not None else -1
        return [s for s in _clockwise(start % table.size if start >= 0 else table.size - 1,
                                      table.size) if s in table.players]
    return [s for s in _clockwise(last, table.size) if s in table.players]


def newcomer_seat(table: TableSeats, taken: Sequence[int] = ()) -> int:
    """The open seat closest to posting the big blind: the first open seat clockwise after
    the last big blind (so the newcomer is the next big blind), never one between the
    button and the big blind. Before the first hand: the first open seat."""
    last = last_big_blind(table)
    order = _clockwise(last, table.size) if last is not None else list(range(table.size))
    for seat in order:
        if seat not in table.players and seat not in taken:
            return seat
    raise ValueError(f"table {table.table_id} has no open seat")


def balance_moves(tables: Sequence[TableSeats]) -> list[Move]:
    """T5: the moves that leave every table within one player of every other."""
    live = {t.table_id: t for t in tables}
    moved: list[Move] = []
    taken: dict[str, list[int]] = {t.table_id: [] for t in tables}
    due = {t.table_id: due_big_blind(t) for t in tables}
    while len(live) > 1:
        ordered = sorted(live.values(), key=lambda t: (t.count, -t.number))
        short, full = ordered[0], ordered[-1]
        if full.count - short.count < 2:
            break
        seat = due[full.table_id].pop(0)
        player = full.players[seat]
        to = newcomer_seat(short, taken[short.table_id])
        taken[short.table_id].append(to)
        moved.append(Move(player, full.table_id, seat, short.table_id, to))
        live[full.table_id] = replace(full, players={s: p for s, p in full.players.items()
                                                     if s != seat})
        live[short.table_id] = replace(short, players={**short.players, to: player})
    return moved


def table_to_break(tables: Sequence[TableSeats]) -> str | None:
    """T6: the table to break when the players left fit in one table fewer (the highest
    number first, the announced order); None when none must."""
    if len(tables) < 2:
        return None
    size = max(t.size for t in tables)
    players = sum(t.count for t in tables)
    if players > (len(tables) - 1) * size:
        return None
    return max(tables, key=lambda t: t.number).table_id


def final_table_due(tables: Sequence[TableSeats]) -> bool:
    """T6: more than one table, and every player left fits in one: the final table."""
    return len(tables) > 1 and sum(t.count for t in tables) <= max(t.size for t in tables)


def break_moves(tables: Sequence[TableSeats], broken: str, rng: random.Random) -> list[Move]:
    """T6: the players of `broken`, in a drawn order, each to a random open seat of a
    shortest remaining table."""
    gone = next(t for t in tables if t.table_id == broken)
    rest = {t.table_id: t for t in tables if t.table_id != broken}
    counts = {tid: t.count for tid, t in rest.items()}
    taken: dict[str, list[int]] = {tid: [] for tid in rest}
    order = sorted(gone.players.items())
    rng.shuffle(order)
    moves = []
    for seat, player in order:
        fewest = min(counts.values())
        candidates = sorted(tid for tid, n in counts.items() if n == fewest)
        to = rng.choice(candidates)
        table = rest[to]
        open_seats = [s for s in table.open_seats() if s not in taken[to]]
        chosen = rng.choice(open_seats)
        taken[to].append(chosen)
        counts[to] += 1
        moves.append(Move(player, broken, seat, to, chosen))
    return moves


def draw_seats(players: Sequence[str], tables: int, size: int,
               rng: random.Random) -> list[list[tuple[int, str]]]:
    """T3: seats drawn at random: the players dealt around `tables` tables as evenly as
    can be (every table within one), each to a random seat; [(seat, player)] per table."""
    order = list(players)
    rng.shuffle(order)
    dealt: list[list[str]] = [[] for _ in range(tables)]
    for i, player in enumerate(order):
        dealt[i % tables].append(player)
    out = []
    for group in dealt:
        seats = rng.sample(range(size), len(group))
        out.append(sorted(zip(seats, group, strict=True)))
    return out


def tables_for(players: int, size: int) -> int:
    """How many tables a field of `players` needs."""
    return max(1, -(-players // size))
