"""A dealer in memory for the director's tests: tables, seats, the deal limit, and hands
played on command (`play`: new stacks for the seats, the button moved), with the calls
that can be made to fail (`fail`: the next call of a name is unanswered after it acts,
as a dealer killed mid-call); `serve_lobby` serves a lobby and its director in process."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

import grpc

from poker.serving import Running, Service, start
from poker.v1 import lobby_pb2_grpc, tournament_pb2_grpc
from services.lobby.dealers import (
    DealerEvent,
    DealerRefused,
    DealerSeat,
    DealerTable,
    DealerUnreachable,
    Level,
    SeatStack,
)
from services.lobby.server import SERVICE_NAME, LobbyServicer
from services.lobby.tournament.service import SERVICE_NAME as TOURNAMENTS
from services.lobby.tournament.service import TournamentServicer


@dataclass
class Table:
    game: dict[str, Any]
    seats: dict[int, list[Any]] = field(default_factory=dict)  # seat -> [player, stack]
    sequence: int = 0
    events: list[DealerEvent] = field(default_factory=list)
    hands: int = 0
    until: int | None = None
    button: int | None = None
    level: int = 0
    closed: bool = False
    waits: dict[int, bool] = field(default_factory=dict)
    ended_ms: int = 0  # when its last hand ended (a clock of the fake's own)

    def event(self, kind: str, *stacks: SeatStack) -> None:
        self.sequence += 1
        self.events.append(DealerEvent(self.sequence, kind, stacks))


class HandDealer:
    """Implements services.lobby.dealers.Dealer in memory."""

    def __init__(self) -> None:
        self.tables: dict[str, Table] = {}
        self.clock_ms = 1_000  # each hand played ends a millisecond after the last
        self.answers: dict[str, Any] = {}
        self.fail_after: set[str] = set()
        self.down = False
        self.calls: list[tuple[str, str]] = []

    def _t(self, table_id: str) -> Table:
        if self.down:
            raise DealerUnreachable("down")
        if table_id not in self.tables:
            raise DealerRefused("NOT_FOUND", f"no table {table_id}")
        return self.tables[table_id]

    def _done(self, name: str) -> None:
        if name in self.fail_after:
            self.fail_after.discard(name)
            raise DealerUnreachable(f"{name}: killed after acting")

    def create_table(self, address: str, table_id: str, game: dict[str, Any]) -> None:
        if self.down:
            raise DealerUnreachable("down")
        if table_id in self.tables:
            raise DealerRefused("ALREADY_EXISTS", table_id)
        self.tables[table_id] = Table(game)

    def seat_player(self, address: str, table_id: str, seat: int, player_id: str, stack: int,
                    wait_for_big_blind: bool, request_id: str) -> str:
        t = self._t(table_id)
        self.calls.append(("seat", f"{table_id}/{seat}/{player_id}"))
        if request_id in self.answers:
            return str(self.answers[request_id])
        if seat in t.seats:
            raise DealerRefused("ALREADY_EXISTS", f"seat {seat} is taken")
        t.seats[seat] = [player_id, stack]
        t.waits[seat] = wait_for_big_blind
        t.event("seated", SeatStack(seat, player_id, stack))
        token = self.answers[request_id] = secrets.token_hex(4)
        self._done("seat_player")
        return str(token)

    def add_chips(self, address: str, table_id: str, seat: int, amount: int, key: str) -> int:
        t = self._t(table_id)
        if key in self.answers:
            return int(self.answers[key])
        t.seats[seat][1] += amount
        self.answers[key] = t.seats[seat][1]
        return int(t.seats[seat][1])

    def unseat_player(self, address: str, table_id: str, seat: int) -> SeatStack:
        t = self._t(table_id)
        if seat not in t.seats:
            raise DealerRefused("NOT_FOUND", f"seat {seat} is empty")
        player, stack = t.seats.pop(seat)
        t.event("unseated", SeatStack(seat, player, stack))
        self._done("unseat_player")
        return SeatStack(seat, player, stack)

    def sit_out(self, address: str, table_id: str, seat: int, seat_token: str) -> None:
        pass

    def set_button(self, address: str, table_id: str, seat: int) -> None:
        self._t(table_id).button = seat

    def set_level(self, address: str, table_id: str, level_index: int,
                  request_id: str = "") -> Level:
        t = self._t(table_id)
        t.level = level_index
        lv = t.game["levels"][level_index]
        return Level(lv["smallBlind"], lv["bigBlind"], lv["ante"])

    def close_table(self, address: str, table_id: str, void_hand: bool) -> list[SeatStack]:
        t = self._t(table_id)
        if t.closed:
            raise DealerRefused("FAILED_PRECONDITION", "the table is closed")
        out = [SeatStack(s, p, k) for s, (p, k) in t.seats.items()]
        t.seats.clear()
        t.closed = True
        return out

    def table(self, address: str, table_id: str) -> DealerTable:
        t = self._t(table_id)
        return DealerTable(table_id, t.sequence,
                           {s: DealerSeat(s, p, k, False) for s, (p, k) in t.seats.items()},
                           t.hands, False, t.closed, t.button, t.ended_ms)

    def events(self, address: str, table_id: str, after: int, until: int) -> list[DealerEvent]:
        return [e for e in self._t(table_id).events if after < e.sequence <= until]

    def set_deal_limit(self, address: str, table_id: str, until_hand: int | None) -> int:
        t = self._t(table_id)
        t.until = until_hand
        return t.hands

    # ------------------------------------------------------------------ for the tests

    def can_deal(self, table_id: str) -> bool:
        t = self.tables[table_id]
        return (not t.closed and (t.until is None or t.hands < t.until)
                and sum(1 for _, k in t.seats.values() if k > 0) >= 2)

    def play(self, table_id: str, stacks: dict[str, int] | None = None) -> None:
        """One hand: the seats' new stacks (by player; the total must not change), the
        button to the next seat with chips."""
        t = self.tables[table_id]
        assert self.can_deal(table_id), f"{table_id} cannot deal"
        before = sum(k for _, k in t.seats.values())
        for seat, (player, _) in t.seats.items():
            if stacks and player in stacks:
                t.seats[seat][1] = stacks[player]
        assert sum(k for _, k in t.seats.values()) == before, "chips made or lost"
        live = sorted(s for s, (_, k) in t.seats.items() if k > 0)
        if live:
            after = [s for s in live if t.button is None or s > t.button]
            t.button = after[0] if after else live[0]
        t.hands += 1
        t.sequence += 1
        self.clock_ms += 1
        t.ended_ms = self.clock_ms

    def play_all(self, fn: Any = None) -> int:
        """Every table that can deal plays one hand (stacks from fn(table_id, seats))."""
        n = 0
        for tid in list(self.tables):
            if self.can_deal(tid):
                self.play(tid, fn(tid, self.tables[tid].seats) if fn else None)
                n += 1
        return n


def serve_lobby(lobby: Any, director: Any, operator_token: str) -> tuple[Running, grpc.Channel]:
    """The LobbyService and the TournamentService of `lobby` and `director` on a free
    port of 127.0.0.1, and a channel to them (close it, then stop the server)."""
    servicer = LobbyServicer(lobby, operator_token)
    tournaments = TournamentServicer(director, servicer)

    def add(server: Any) -> None:
        lobby_pb2_grpc.add_LobbyServiceServicer_to_server(servicer, server)  # type: ignore[no-untyped-call]
        tournament_pb2_grpc.add_TournamentServiceServicer_to_server(  # type: ignore[no-untyped-call]
            tournaments, server)

    running = start([Service([SERVICE_NAME, TOURNAMENTS], add)], "127.0.0.1", 0)
    return running, grpc.insecure_channel(f"127.0.0.1:{running.port}")
