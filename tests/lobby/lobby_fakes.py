"""An in-memory dealer for the lobby's unit tests, with switches for the failures that matter.

`down` makes every call unanswered before it acts; `lose_requests` makes the next
call of each name unanswered before it acts (the request lost or delayed on the way:
a test may deliver it later by calling the method itself); `lose_answers` makes the
next calls of those names act and then go unanswered (the answer lost on the way
back); `refuse_calls` refuses the next call of a name before it acts, as a dealer
refuses a call (not the request) for a bad credential; `hand_running` holds the
seats in a hand, so unseating and rebuys wait.

Like the real dealer, SeatPlayer remembers its answer for each request_id and
AddChips for each key (success or refusal): a repeat gets the same answer and acts
not again (services/dealer/dealer.py).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from services.lobby.dealers import (
    DealerEvent,
    DealerRefused,
    DealerSeat,
    DealerTable,
    DealerUnreachable,
    Level,
    SeatStack,
)
from services.lobby.lobby import Lobby
from services.lobby.rules import TableRules


@dataclass
class FakeTable:
    game: dict[str, Any]
    seats: dict[int, list[Any]] = field(default_factory=dict)  # seat -> [player, stack, token]
    events: list[DealerEvent] = field(default_factory=list)
    button: int | None = None
    level_index: int = 0
    hands_played: int = 0
    closed: bool = False
    chips_keys: dict[str, int] = field(default_factory=dict)
    chips_refused: dict[str, tuple[tuple[int, int], DealerRefused]] = field(default_factory=dict)
    sat_out: set[int] = field(default_factory=set)
    # Seats all in with no chips behind in the running hand (dealt in all the same).
    all_in: set[int] = field(default_factory=set)

    def in_hand(self, seat: int, running: bool) -> bool:
        """Dealt into the running hand: a seat with chips, or one all in (R29)."""
        return running and (self.seats[seat][1] > 0 or seat in self.all_in)


class FakeDealer:
    """Implements services.lobby.dealers.Dealer in memory."""

    def __init__(self) -> None:
        self.tables: dict[tuple[str, str], FakeTable] = {}
        self.down: set[str] = set()
        self.lose_requests: set[str] = set()
        self.lose_answers: set[str] = set()
        self.hand_running = False
        self.calls: list[str] = []
        self.refuse_calls: dict[str, DealerRefused] = {}
        #: (address, request_id) -> (the request's fields, its token or its refusal)
        self.seat_answers: dict[tuple[str, str], tuple[tuple[Any, ...], str | DealerRefused]] = {}
        self.chips_sent: list[str] = []  # every AddChips key, in order
        #: (address, table_id, request_id) -> the level_index a SetLevel with that id set
        self.level_answers: dict[tuple[str, str, str], int] = {}

    # switches -------------------------------------------------------------------------
    def _enter(self, address: str, name: str) -> None:
        self.calls.append(name)
        if address in self.down:
            raise DealerUnreachable(f"{address} is down")
        if name in self.lose_requests:
            self.lose_requests.discard(name)
            raise DealerUnreachable(f"the request {name} is delayed on the way")
        refused = self.refuse_calls.pop(name, None)
        if refused is not None:
            raise refused

    def _leave(self, name: str) -> None:
        if name in self.lose_answers:
            self.lose_answers.discard(name)
            raise DealerUnreachable(f"the answer to {name} was lost")

    def _table(self, address: str, table_id: str) -> FakeTable:
        table = self.tables.get((address, table_id))
        if table is None:
            raise DealerRefused("NOT_FOUND", f"no table {table_id}")
        if table.closed:
            raise DealerRefused("FAILED_PRECONDITION", f"table {table_id} is closed")
        return table

    def _event(self, table: FakeTable, kind: str, *stacks: SeatStack) -> None:
        table.events.append(DealerEvent(len(table.events) + 1, kind, tuple(stacks)))

    # the Dealer protocol ----------------------------------------------------------------
    def create_table(self, address: str, table_id: str, game: dict[str, Any]) -> None:
        self._enter(address, "create_table")
        if (address, table_id) in self.tables:
            raise DealerRefused("ALREADY_EXISTS", f"table {table_id} exists")
        if game.get("structure") == "bogus":
            raise DealerRefused("INVALID_ARGUMENT", "structure: unknown 'bogus'")
        self.tables[(address, table_id)] = FakeTable(game)
        self._leave("create_table")

    def seat_player(self, address: str, table_id: str, seat: int, player_id: str, stack: int,
                    wait_for_big_blind: bool, request_id: str) -> str:
        self._enter(address, "seat_player")
        asked = (table_id, seat, player_id, stack, wait_for_big_blind)
        done = self.seat_answers.get((address, request_id)) if request_id else None
        if done is not None:
            if done[0] != asked:
                raise DealerRefused("INVALID_ARGUMENT", f"request_id {request_id!r} was used "
                                    "for another request")
            if isinstance(done[1], DealerRefused):
                raise done[1]
            self._leave("seat_player")
            return done[1]
        try:
            token = self._seat(address, table_id, seat, player_id, stack)
        except DealerRefused as err:
            if request_id:
                self.seat_answers[(address, request_id)] = (asked, err)
            raise
        if request_id:
            self.seat_answers[(address, request_id)] = (asked, token)
        self._leave("seat_player")
        return token

    def _seat(self, address: str, table_id: str, seat: int, player_id: str, stack: int) -> str:
        table = self._table(address, table_id)
        if seat in table.seats:
            raise DealerRefused("ALREADY_EXISTS", f"seat {seat} is taken")
        if any(s[0] == player_id for s in table.seats.values()):
            raise DealerRefused("ALREADY_EXISTS", f"player {player_id} is already seated")
        token = secrets.token_hex(8)
        table.seats[seat] = [player_id, stack, token]
        self._event(table, "seated", SeatStack(seat, player_id, stack))
        return token

    def add_chips(self, address: str, table_id: str, seat: int, amount: int, key: str) -> int:
        self._enter(address, "add_chips")
        self.chips_sent.append(key)
        table = self._table(address, table_id)
        refused = table.chips_refused.get(key)
        if refused is not None:
            if refused[0] != (seat, amount):
                raise DealerRefused("INVALID_ARGUMENT", f"key {key!r} was used for another rebuy")
            raise refused[1]
        if key not in table.chips_keys:
            if self.hand_running or seat not in table.seats:
                err = DealerRefused("FAILED_PRECONDITION", "a hand is in progress"
                                    if self.hand_running else f"seat {seat} is empty")
                table.chips_refused[key] = ((seat, amount), err)
                raise err
            table.seats[seat][1] += amount
            table.chips_keys[key] = table.seats[seat][1]
            self._event(table, "chips_added", SeatStack(seat, table.seats[seat][0], amount))
        self._leave("add_chips")
        return table.chips_keys[key]

    def unseat_player(self, address: str, table_id: str, seat: int) -> SeatStack:
        self._enter(address, "unseat_player")
        table = self._table(address, table_id)
        if seat not in table.seats:
            raise DealerRefused("NOT_FOUND", f"seat {seat} is empty")
        if table.in_hand(seat, self.hand_running):
            raise DealerRefused("FAILED_PRECONDITION", "the player is still in the hand")
        player, stack, _ = table.seats.pop(seat)
        result = SeatStack(seat, player, stack)
        self._event(table, "unseated", result)
        self._leave("unseat_player")
        return result

    def sit_out(self, address: str, table_id: str, seat: int, seat_token: str) -> None:
        self._enter(address, "sit_out")
        table = self._table(address, table_id)
        if table.seats.get(seat, [None, 0, None])[2] != seat_token:
            raise DealerRefused("PERMISSION_DENIED", "not your seat")
        table.sat_out.add(seat)

    def set_button(self, address: str, table_id: str, seat: int) -> None:
        self._enter(address, "set_button")
        table = self._table(address, table_id)
        if table.hands_played:
            raise DealerRefused("FAILED_PRECONDITION", "the button is set for the first hand only")
        table.button = seat  # an empty seat is fine: the next seat dealt in gets it
        self._leave("set_button")

    def set_level(self, address: str, table_id: str, level_index: int,
                  request_id: str = "") -> Level:
        self._enter(address, "set_level")
        table = self._table(address, table_id)
        levels = table.game.get("levels") or [{"small_blind": 50, "big_blind": 100}]
        if level_index >= len(levels):
            raise DealerRefused("INVALID_ARGUMENT", f"level_index: {level_index} is not a level "
                                f"of this table (0..{len(levels) - 1})")
        done = self.level_answers.get((address, table_id, request_id)) if request_id else None
        if done is not None and done != level_index:
            raise DealerRefused("INVALID_ARGUMENT", f"request_id {request_id!r} was used for "
                                "another request")
        if done is None:  # a repeat sets nothing again
            table.level_index = level_index
            if request_id:
                self.level_answers[(address, table_id, request_id)] = level_index
        self._leave("set_level")
        level = levels[level_index]
        return Level(int(level["small_blind"]), int(level["big_blind"]), int(level.get("ante", 0)))

    def close_table(self, address: str, table_id: str, void_hand: bool) -> list[SeatStack]:
        self._enter(address, "close_table")
        table = self._table(address, table_id)
        if self.hand_running and not void_hand:
            raise DealerRefused("FAILED_PRECONDITION", "a hand is in progress")
        stacks = [SeatStack(s, p, st) for s, (p, st, _) in sorted(table.seats.items())]
        table.seats.clear()
        table.closed = True
        self._event(table, "closed", *stacks)
        self._leave("close_table")
        return stacks

    def table(self, address: str, table_id: str) -> DealerTable:
        self._enter(address, "table")
        table = self.tables.get((address, table_id))
        if table is None:
            raise DealerRefused("NOT_FOUND", f"no table {table_id}")
        seats = {s: DealerSeat(s, p, st, table.in_hand(s, self.hand_running))
                 for s, (p, st, _) in table.seats.items()}
        return DealerTable(table_id, len(table.events), seats, table.hands_played,
                           self.hand_running, table.closed)

    def events(self, address: str, table_id: str, after: int, until: int) -> list[DealerEvent]:
        self._enter(address, "events")
        table = self.tables[(address, table_id)]
        return [e for e in table.events if after < e.sequence <= until]

    # helpers for tests ----------------------------------------------------------------
    def play(self, address: str, table_id: str, moves: dict[int, int]) -> None:
        """A hand: adds `moves[seat]` (may be negative) to each stack; the sum must be zero."""
        assert sum(moves.values()) == 0
        table = self.tables[(address, table_id)]
        for seat, delta in moves.items():
            table.seats[seat][1] += delta
            assert table.seats[seat][1] >= 0
        table.hands_played += 1

    def take_off(self, address: str, table_id: str, seat: int) -> SeatStack:
        """R34: the dealer takes a seat sat out past the limit off by itself."""
        table = self.tables[(address, table_id)]
        player, stack, _ = table.seats.pop(seat)
        result = SeatStack(seat, player, stack)
        table.events.append(DealerEvent(len(table.events) + 1, "unseated", (result,),
                                        "sit_out_limit"))
        return result

    def stacks(self, address: str, table_id: str) -> dict[int, int]:
        return {s: v[1] for s, v in self.tables[(address, table_id)].seats.items()}


def ann_and_bob_at_t1(lobby: Lobby, rules: TableRules) -> Lobby:
    """`lobby` with players ann and bob, 1000 deposited each, and table t1 open with `rules`."""
    for name in ("ann", "bob"):
        lobby.create_player(name, name.title())
        lobby.deposit(name, 1000, f"fund-{name}")
    lobby.open_table("T", rules, {}, "o1", table_id="t1")
    return lobby
