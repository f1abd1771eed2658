"""`BotFarm.serve` / `BotFarm.join` against real processes: seats join a farm's one PlayMany
stream and leave it (the player unseated: sat out, R34) while the others play on; a newcomer seated
where a farm's player just left opens on the same stream and plays there; a token that
no longer holds a seat is refused at its join and the farm goes on."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from clients.bots import passive
from clients.errors import ServiceError
from clients.farm import BotFarm
from clients.models import Action, TableView
from clients.sdk import LobbyClient
from clients.session import PlayResult
from clients.stack import LocalSuite
from tests.sdk.conftest import funded, open_table


class CheckFold:
    """Checks when it may, else folds (shows or mucks at the end): its stack barely moves."""

    def act(self, view: TableView) -> Action:
        legal = view.legal
        assert legal is not None
        return Action.fold() if legal.can_fold and not legal.can_check else passive(legal)


def test_seats_join_and_leave_one_farm_stream_and_a_newcomer_takes_a_left_seat(
        suite: LocalSuite, operator: LobbyClient) -> None:
    table = open_table(operator, 3, min_players_to_start=2)
    a, b, c, d = funded(suite, operator, 4)
    seatings = {p.player_id: p.lobby.join(table.table_id, buy_in=1000) for p in (a, b, c)}
    address = seatings[a.player_id].dealer_address

    async def hands(farm: BotFarm, player_seat: int, at_least: int) -> None:
        while not any(s.key == (table.table_id, player_seat) and s.session is not None
                      and s.session.result.hands >= at_least and not s.stopped
                      for s in farm.seats):
            await asyncio.sleep(0.05)

    async def leave(farm: BotFarm, player_seat: int) -> None:
        """Sits the player out: the dealer unseats them after R34's hands sat out (a table
        of bots deals hundreds a second), so no LeaveTable races a hand."""
        seat = next((s for s in farm.seats if s.key == (table.table_id, player_seat)), None)
        assert seat is not None, [(s.key, s.stopped, s.session.result.stopped_because
                                   if s.session else None) for s in farm.seats]
        await seat.client.sit_out()

    async def seat_at(player: Any, number: int) -> Any:
        """Joins at seat `number` once the lobby has freed it (it follows the unseat)."""
        for _ in range(100):
            try:
                return await asyncio.to_thread(player.lobby.join, table.table_id, 1000,
                                               seat=number)
            except ServiceError:
                await asyncio.sleep(0.1)
        raise AssertionError(f"seat {number} was not freed")

    async def main() -> tuple[dict[str, PlayResult], int, BaseException | None]:
        farm = BotFarm(address)
        opened: list[Any] = []
        real = farm.stub.PlayMany

        def counted(*args: Any, **kwargs: Any) -> Any:
            opened.append(1)
            return real(*args, **kwargs)

        farm.stub = SimpleNamespace(PlayMany=counted)  # type: ignore[assignment]
        serving = farm.serve()
        joins = {p.player_id: asyncio.ensure_future(farm.join(
            table.table_id, seatings[p.player_id].seat_token, CheckFold()))
            for p in (a, b, c)}
        results: dict[str, PlayResult] = {}
        refused: BaseException | None = None
        try:
            await asyncio.wait_for(hands(farm, seatings[c.player_id].seat, 2), 30)
            await leave(farm, seatings[c.player_id].seat)
            results[c.player_id] = await asyncio.wait_for(joins.pop(c.player_id), 30)
            # the newcomer at the seat just left: the same stream, once that seat's part ends
            seating = await seat_at(d, seatings[c.player_id].seat)
            joins[d.player_id] = asyncio.ensure_future(farm.join(
                table.table_id, seating.seat_token, CheckFold()))
            await asyncio.wait_for(hands(farm, seating.seat, 2), 30)
            try:  # c's token holds no seat any more: refused at its join, nothing opened
                await farm.join(table.table_id, seatings[c.player_id].seat_token, CheckFold())
            except ServiceError as err:
                refused = err
            for p, at in ((d, seating.seat), (a, seatings[a.player_id].seat)):
                await leave(farm, at)
                results[p.player_id] = await asyncio.wait_for(joins.pop(p.player_id), 30)
            # b alone at the table: its seat stops by itself (no one else plays)
            results[b.player_id] = await asyncio.wait_for(joins.pop(b.player_id), 30)
            farm.stop_serving()
            await asyncio.wait_for(serving, 10)
        finally:
            for join in joins.values():
                join.cancel()
            serving.cancel()
            await farm.close()
        return results, len(opened), refused

    results, streams, refused = asyncio.run(main())
    assert results[c.player_id].stopped_because == "unseated"
    assert results[d.player_id].stopped_because == "unseated"
    # the last two: one sat out, and each may see the other gone first
    alone = {"unseated", "no one else at the table plays"}
    assert {results[p.player_id].stopped_because for p in (a, b)} <= alone
    assert results[c.player_id].hands >= 2 and results[d.player_id].hands >= 2
    assert all(r.hands >= 2 for r in results.values())
    # a, b, c opened together; c left and d came while a and b played on: one stream
    assert streams == 1
    assert isinstance(refused, ServiceError)


@pytest.mark.parametrize("serving", [False, True])
def test_a_farm_that_does_not_serve_refuses_a_join(serving: bool) -> None:
    async def main() -> None:
        farm = BotFarm("127.0.0.1:1", fair_deck="off")
        task = farm.serve() if serving else None
        if task is not None:
            farm.stop_serving()
            await asyncio.wait_for(task, 5)
        try:
            with pytest.raises(ServiceError, match="does not serve"):
                await farm.join("t", "token", CheckFold())
        finally:
            await farm.close()

    asyncio.run(main())
