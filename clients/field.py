"""A tournament field of bots (RULES.md T1-T9): every player registered, played to the
end, followed from table to table, through one `BotFarm` (one PlayMany stream) a dealer.

`play_field(lobby, players, tournament_id, make_bot)` plays each (player id, player
token) pair's bot: it asks the lobby where the player sits (GetTournamentSeat), joins
that seat on the farm of the table's dealer (`BotFarm.join`), and when the seat stops
(the player moved to another table, T5, T6, maybe at another dealer; busted; the
table closed) asks again, until the tournament is over; then it returns every
player's `TournamentFinish` (place, shared, prize, the tables played at), in the
order of `players`. The players' lobby calls share one channel; a player out waits
for the end on one WatchTournament stream, not by asking.
`streams="play"` plays the same field with one Play stream a bot instead
(`AsyncLobbyClient.play_tournament` each: the SDK's single-player path).

>>> async def main() -> None:                                              # doctest: +SKIP
...     finishes = await play_field(LOBBY, [("ann", ann_token), ("bo", bo_token)], "t1",
...                                 lambda player_id: RandomBot(), register=True)
...     [(f.player_id, f.place, f.prize) for f in finishes]
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from typing import Any

import grpc

from clients import tournament as tn
from clients.aio import AsyncLobbyClient
from clients.errors import ServiceError
from clients.farm import BotFarm
from clients.farm import play_field as play_field_streams
from clients.session import Bot
from clients.transport import TLS, open_aio_channel

__all__ = ["STREAMS", "Field", "play_field"]

#: How a field's bots talk to their dealers: one PlayMany stream a dealer (a farm each),
#: or one Play stream a bot.
STREAMS = ("farm", "play")
#: At most this many registrations at once (a field registers before it plays).
REGISTER_AT_ONCE = 16
#: How long a player busted at a seat the lobby still gives them waits to be ranked
#: before playing that seat again (a rebuy keeps them there).
BUST_WAIT_S = 3.0


async def play_field(lobby: str, players: Sequence[tuple[str, str]], tournament_id: str,
                     make_bot: Callable[[str], Bot], *, register: bool = False,
                     streams: str = "farm", tls: TLS | None = None,
                     dealer_address: Callable[[str], str] | None = None,
                     **options: Any) -> list[tn.TournamentFinish]:
    """A whole field of bots (`make_bot(player_id)` each) playing `tournament_id` to its end
    ((player id, token) pairs; `register`: registers each first, paying buy-in and fee);
    returns each player's finish, in order. `streams`: "farm" (one PlayMany stream a
    dealer) or "play" (one Play stream a bot). `dealer_address` maps the address the
    lobby names to the one to dial; `options` go to each BotFarm (fair_deck,
    reconnect_for), or with "play" to each table client."""
    if streams not in STREAMS:
        raise ValueError(f"streams: {streams!r}, not one of {STREAMS}")
    if register:
        await register_field(lobby, players, tournament_id, tls=tls)
    if streams == "play":
        return await play_field_streams(lobby, players, tournament_id, make_bot,
                                        dealer_address=dealer_address, tls=tls, **options)
    field = Field(lobby, tournament_id, tls=tls, dealer_address=dealer_address, **options)
    try:
        return await field.play(players, make_bot)
    finally:
        await field.close()


async def register_field(lobby: str, players: Sequence[tuple[str, str]], tournament_id: str,
                         *, tls: TLS | None = None) -> None:
    """Registers every player (each with their own token), a few at a time."""
    channel = open_aio_channel(lobby, tls)
    limit = asyncio.Semaphore(REGISTER_AT_ONCE)

    async def one(token: str) -> None:
        async with limit, AsyncLobbyClient(lobby, token, channel=channel) as me:
            await me.register(tournament_id)

    try:
        await asyncio.gather(*(one(token) for _, token in players))
    finally:
        await channel.close()


class Field:
    """The players of one tournament, one `BotFarm` a dealer (made when a table of that
    dealer first seats one of them), serving until the field is done."""

    def __init__(self, lobby: str, tournament_id: str, *, tls: TLS | None = None,
                 dealer_address: Callable[[str], str] | None = None, poll: float = 0.05,
                 patience: float = 120.0, **farm_options: Any) -> None:
        self.lobby, self.tournament_id, self.tls = lobby, tournament_id, tls
        self.dealer_address = dealer_address
        #: Seconds between questions to the lobby while a player is between tables.
        self.poll = poll
        #: How long a lobby that does not answer (restarting) is asked again.
        self.patience = patience
        self.farm_options = farm_options
        self.channel = open_aio_channel(lobby, tls)
        #: The farms, by the dealer address dialled.
        self.farms: dict[str, BotFarm] = {}
        self._serving: dict[str, asyncio.Task[None]] = {}
        self._over = asyncio.Event()

    async def close(self) -> None:
        for farm in self.farms.values():
            farm.stop_serving()
        for task in self._serving.values():
            if not task.done():
                task.cancel()
        # A farm's failure was raised by the join that saw it (play): not again here.
        await asyncio.gather(*self._serving.values(), return_exceptions=True)
        for farm in self.farms.values():
            await farm.close()
        await self.channel.close()

    def farm(self, address: str) -> BotFarm:
        """The farm of the dealer at `address` (made and serving on first use)."""
        farm = self.farms.get(address)
        if farm is None:
            farm = self.farms[address] = BotFarm(address, tls=self.tls, **self.farm_options)
            self._serving[address] = farm.serve()
        return farm

    async def play(self, players: Sequence[tuple[str, str]],
                   make_bot: Callable[[str], Bot]) -> list[tn.TournamentFinish]:
        """Plays every (player id, token) pair's bot to the end; their finishes, in order."""
        lobbies = [AsyncLobbyClient(self.lobby, token, channel=self.channel)
                   for _, token in players]
        tasks = [asyncio.ensure_future(self.player(player_id, me, make_bot(player_id)))
                 for (player_id, _), me in zip(players, lobbies, strict=True)]
        watcher = asyncio.ensure_future(self._watch(lobbies[0])) if lobbies else None
        every: list[asyncio.Future[Any]] = [*tasks, *([watcher] if watcher else [])]
        try:
            await asyncio.gather(*every)
            return [task.result() for task in tasks]
        finally:  # one player failed (raised): the others stop too
            for task in every:
                task.cancel()
            await asyncio.gather(*every, return_exceptions=True)

    async def player(self, player_id: str, me: AsyncLobbyClient,
                     bot: Bot) -> tn.TournamentFinish:
        """One player: seat after seat (each on its dealer's farm) until the end."""
        tables: list[str] = []
        busted: tuple[str, str, float] | None = None  # (table, token, when) of a bust
        while True:
            seat = await self._seating(me)
            if tn.over(seat.state):
                return tn.finish_of(player_id, seat, tuple(tables))
            if seat.status == tn.FINISHED:  # out: the prize comes at the end
                await self._over.wait()
                continue
            # Busted there, not yet ranked (or rebought: after a while it plays on there).
            waiting = (busted is not None and busted[:2] == (seat.table_id, seat.seat_token)
                       and time.monotonic() - busted[2] < BUST_WAIT_S)
            if seat.status != tn.PLAYING or not seat.seat_token or waiting:
                # Between tables (being moved), or out and not yet ranked: ask again soon.
                await asyncio.sleep(self.poll if not waiting else max(self.poll, 0.25))
                continue
            address = (self.dealer_address(seat.dealer_address) if self.dealer_address
                       else seat.dealer_address)
            if not tables or tables[-1] != seat.table_id:
                tables.append(seat.table_id)
            try:
                result = await self.farm(address).join(seat.table_id, seat.seat_token, bot,
                                                       seat=seat.seat)
                why = result.stopped_because
            except ServiceError as err:
                if self._serving[address].done():
                    raise  # the farm itself failed: the field cannot go on there
                why = f"refused: {err}"  # moved or closed under us: ask the lobby again
                await asyncio.sleep(self.poll)
            if why == "busted":
                busted = (seat.table_id, seat.seat_token, time.monotonic())

    async def _seating(self, me: AsyncLobbyClient) -> tn.TournamentSeating:
        down_since: float | None = None
        while True:
            try:
                return await me.tournament_seat(self.tournament_id)
            except ServiceError as err:
                if err.code not in (grpc.StatusCode.UNAVAILABLE,
                                    grpc.StatusCode.DEADLINE_EXCEEDED):
                    raise
                down_since = down_since or time.monotonic()
                if time.monotonic() - down_since > self.patience:
                    raise
                await asyncio.sleep(0.5)

    async def _watch(self, me: AsyncLobbyClient) -> None:
        """Sets `_over` once the tournament is over: one WatchTournament stream for the
        whole field (the players out wait on it), asked again if it breaks."""
        after = 0
        while True:
            try:
                async for event in me.watch_tournament(self.tournament_id, after):
                    after = event.sequence
                    if event.kind in (tn.TournamentEventKind.FINISHED,
                                      tn.TournamentEventKind.CANCELLED):
                        self._over.set()
                        return
                if tn.over((await me.tournament(self.tournament_id)).state):
                    self._over.set()
                    return
            except ServiceError:
                pass  # the lobby restarting: watch again after the last event seen
            await asyncio.sleep(1.0)
