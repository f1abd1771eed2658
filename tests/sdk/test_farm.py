"""`clients.farm.BotFarm` against real processes: bots seated through the lobby at a 3-handed
and a heads-up table play over one PlayMany stream with every deck proven and every chip
conserved, each bot sees only its own cards, a stream dropped mid-hand resumes without a
gap, and an illegal action raises out of `play`; and, on a stand-in stream, that events
received just before a break still reach the bots' sessions."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from types import SimpleNamespace

import grpc
import pytest

from clients.accounts import Seating
from clients.aio import AsyncTableClient
from clients.bots import CallingStation, RandomBot
from clients.errors import ActionRefused, ServiceError
from clients.events import (
    ActionTaken,
    CardsMucked,
    CardsShown,
    DeckRevealed,
    Event,
    HandEnded,
    HandStarted,
    HoleCardsDealt,
    TurnTimedOut,
)
from clients.farm import BotFarm
from clients.models import Action, SeatView, TableView
from clients.sdk import LobbyClient
from clients.session import Bot, Follower, PlayResult
from clients.stack import LocalSuite
from clients.tracker import TableTracker
from poker.v1 import dealer_pb2 as pb
from tests.sdk.conftest import (
    Player,
    close_after_restart,
    conserved,
    contiguous,
    funded,
    open_table,
    restart_dealer_after,
)

Key = tuple[str, int]


@dataclass
class Farmer:
    """A funded player seated through the lobby, played by the farm; its seat's events."""

    player: Player
    table_id: str
    seating: Seating
    client: AsyncTableClient | None = None
    events: list[Event] = field(default_factory=list)
    rebuys: int = 0
    # Called with each batch of the seat's events once they are recorded, on the farm's
    # event loop: a test's hook that must happen at a known point of the game.
    watch: Callable[[list[Event]], None] | None = None

    def record(self, events: list[Event]) -> None:
        self.events.extend(events)
        if self.watch is not None:
            self.watch(events)

    @property
    def key(self) -> Key:
        return (self.table_id, self.seating.seat)

    def rebuy(self) -> bool:
        try:
            self.player.lobby.rebuy(self.table_id)
        except ServiceError:  # the balance is spent: this player is done
            return False
        self.rebuys += 1
        return True


def seat_farmers(suite: LocalSuite, operator: LobbyClient,
                 sizes: tuple[int, ...] = (3, 2)) -> tuple[list[str], list[Farmer]]:
    """Opens a table of each size and seats that many funded players at it (lobby JoinTable)."""
    table_ids, farmers = [], []
    for size in sizes:
        # the first hand waits for every seat (R10 would have a newcomer sitting after the
        # first deal wait for the button: that seat would play a hand fewer)
        table = open_table(operator, size, min_players_to_start=size)
        table_ids.append(table.table_id)
        for player in funded(suite, operator, size):
            seating = player.lobby.join(table.table_id, buy_in=1000)
            farmers.append(Farmer(player, table.table_id, seating))
    return table_ids, farmers


def play_farm(farmers: list[Farmer], bots: list[Bot],
              ready: Callable[[BotFarm], None] = lambda farm: None, *,
              hands: int) -> dict[Key, PlayResult]:
    """Adds every farmer's seat to one BotFarm and plays `hands` at each; closes the farm."""
    (address,) = {f.seating.dealer_address for f in farmers}  # one dealer: one stream

    async def main() -> dict[Key, PlayResult]:
        farm = BotFarm(address)
        for farmer, bot in zip(farmers, bots, strict=True):
            farmer.client = farm.add(farmer.table_id, farmer.seating.seat_token, bot,
                                     on_events=farmer.record, rebuy=farmer.rebuy)
        ready(farm)
        try:
            return await asyncio.wait_for(farm.play(hands=hands), 60)
        except TimeoutError:
            raise AssertionError("the farm did not finish: " + "; ".join(
                f"{seat.key}: {seat.session.result if seat.session else None} "
                f"stopped={seat.stopped} winding_down="
                f"{seat.session.winding_down if seat.session else None} "
                f"me={seat.follower.tracker.view().me if seat.follower else None}"
                for seat in farm.seats)) from None
        finally:
            await farm.close()

    return asyncio.run(main())


def played_and_proven(farmer: Farmer, result: PlayResult) -> None:
    """The seat's events arrived once each and in order, and every hand it was dealt into
    had its deck revealed and verified by its own fair-deck check."""
    sequences = [e.sequence for e in farmer.events]
    assert sequences and contiguous(sequences), f"{farmer.key}: events missing or repeated"
    seat = farmer.seating.seat
    played = {e.hand_id for e in farmer.events
              if isinstance(e, HandStarted) and any(p.seat == seat for p in e.players)}
    revealed = {e.hand_id for e in farmer.events if isinstance(e, DeckRevealed)}
    assert len(played) == result.hands and played <= revealed, played - revealed
    checker = farmer.client.fair_deck if farmer.client else None
    assert checker is not None and not checker.violations
    assert checker.verified == len(revealed)


def test_a_farm_plays_a_three_handed_and_a_heads_up_table_on_one_stream(
        suite: LocalSuite, operator: LobbyClient) -> None:
    table_ids, farmers = seat_farmers(suite, operator)
    # The RandomBot plays heads-up: a bust there holds the next deal until the rebuy lands,
    # so every seat reaches its hands (three-handed, a bust could miss a deal).
    bots: list[Bot] = [CallingStation(), CallingStation(), CallingStation(),
                       RandomBot(seed=7, aggression=0.3), CallingStation()]
    results = play_farm(farmers, bots, hands=15)
    assert set(results) == {f.key for f in farmers}
    for farmer in farmers:
        result = results[farmer.key]
        assert result.stopped_because == "played its last hand", result.stopped_because
        assert result.hands >= 15 and result.actions > 0 and not result.refused
        assert result.reconnects == 0 and result.view is not None
        assert result.view.your_seat == farmer.seating.seat
        played_and_proven(farmer, result)
    conserved(operator, [f.player for f in farmers], table_ids)
    for table_id in table_ids:
        operator.close_table(table_id)
    conserved(operator, [f.player for f in farmers], [])  # every stack back in a balance


class OwnCardsOnly:
    """Wraps a bot; at each decision asserts the view shows its own two hole cards (those
    dealt to it) and no other seat's unless that seat showed them this hand."""

    def __init__(self, bot: Bot, farmer: Farmer) -> None:
        self.bot, self.farmer = bot, farmer
        self.decisions = self.saw_shown = 0

    def act(self, view: TableView) -> Action:
        assert view.hand is not None and view.your_seat == self.farmer.seating.seat
        this_hand = [e for e in self.farmer.events if e.hand_id == view.hand.hand_id]
        dealt = [e.cards for e in this_hand
                 if isinstance(e, HoleCardsDealt) and e.seat == view.your_seat]
        assert len(view.my_cards) == 2
        if any(isinstance(e, HandStarted) for e in this_hand):  # not dealt before the farm
            assert [view.my_cards] == dealt
        shown = {e.seat for e in this_hand if isinstance(e, CardsShown)}
        for seat in view.seats:
            if seat.seat != view.your_seat and seat.hole_cards:
                assert seat.seat in shown, f"seat {seat.seat}'s cards leaked to {view.your_seat}"
                self.saw_shown += 1
        self.decisions += 1
        return self.bot.act(view)


def test_each_bot_of_a_farm_sees_only_its_own_hole_cards(
        suite: LocalSuite, operator: LobbyClient) -> None:
    table_ids, farmers = seat_farmers(suite, operator)
    bots = [OwnCardsOnly(CallingStation(), f) for f in farmers]  # every hand to showdown
    results = play_farm(farmers, list(bots), hands=6)
    for farmer, bot in zip(farmers, bots, strict=True):
        assert results[farmer.key].hands >= 6 and bot.decisions > 0
        others = [e for e in farmer.events if isinstance(e, HoleCardsDealt | CardsMucked)
                  and e.seat != farmer.seating.seat]
        assert others and not any(e.cards for e in others)  # dealt and mucked face down
    # at showdown the later decisions see the earlier shown hands: the check is not vacuous
    assert sum(bot.saw_shown for bot in bots) > 0
    conserved(operator, [f.player for f in farmers], table_ids)
    for table_id in table_ids:
        operator.close_table(table_id)


class Dropping(CallingStation):
    """Breaks the farm's stream at some of its decisions, before answering: the answer then
    goes out on the next stream. Records every decision it was asked for."""

    def __init__(self, at: tuple[int, ...]) -> None:
        self.at = at
        self.farm: BotFarm | None = None
        self.asked: list[tuple[str, int]] = []
        self.dropped: list[tuple[str, int, Action]] = []  # hand, sequence seen, answer

    def act(self, view: TableView) -> Action:
        assert self.farm is not None and view.hand is not None
        self.asked.append((view.hand.hand_id, view.hand.action_number))
        action = super().act(view)
        if len(self.asked) in self.at:
            self.dropped.append((view.hand.hand_id, view.sequence, action))
            self.farm.drop_stream()
        return action


def test_a_farm_resumes_every_seat_after_its_stream_drops_mid_hand(
        suite: LocalSuite, operator: LobbyClient) -> None:
    table_ids, farmers = seat_farmers(suite, operator)
    dropper = Dropping(at=(3, 11))
    # nobody bets at the 3-handed table: a bust there could miss a deal and stall the stop
    bots: list[Bot] = [dropper, CallingStation(), RandomBot(seed=3, aggression=0, all_in=0),
                       RandomBot(seed=4), CallingStation()]

    def ready(farm: BotFarm) -> None:
        dropper.farm = farm

    results = play_farm(farmers, bots, ready, hands=10)
    assert len(dropper.dropped) == 2
    for farmer in farmers:
        result = results[farmer.key]
        assert result.reconnects >= 2 and result.hands >= 10 and not result.refused
        played_and_proven(farmer, result)  # no gap: a hole would have raised StreamGap
        assert not any(isinstance(e, TurnTimedOut) for e in farmer.events)
    # each decision was asked once: after a reconnect the same answer went out again
    assert len(set(dropper.asked)) == len(dropper.asked) == results[farmers[0].key].actions
    mine, seat = farmers[0].events, farmers[0].seating.seat
    for hand_id, seen, answer in dropper.dropped:
        applied = next(e for e in mine if isinstance(e, ActionTaken) and e.seat == seat
                       and e.sequence > seen)
        assert applied.hand_id == hand_id and applied.action is answer.kind
        assert any(isinstance(e, HandEnded) and e.hand_id == hand_id for e in mine)
    conserved(operator, [f.player for f in farmers], table_ids)
    for table_id in table_ids:
        operator.close_table(table_id)


def test_an_illegal_action_of_a_farmed_bot_raises_out_of_play(
        suite: LocalSuite, operator: LobbyClient) -> None:
    table_ids, farmers = seat_farmers(suite, operator, (2,))

    class Illegal:
        def act(self, view: TableView) -> Action:
            return Action.bet(1)  # never legal: under the minimum bet, or facing a bet

    with pytest.raises(ActionRefused) as refused:
        play_farm(farmers, [Illegal(), CallingStation()], hands=3)
    assert refused.value.code is grpc.StatusCode.FAILED_PRECONDITION
    assert refused.value.message and refused.value.reason, "the dealer says why"
    assert refused.value.method == "PlayMany"
    operator.close_table(table_ids[0], void_hand_in_progress=True)
    conserved(operator, [f.player for f in farmers], [])


class _Unavailable(grpc.RpcError):  # type: ignore[misc]
    def code(self) -> grpc.StatusCode:
        return grpc.StatusCode.UNAVAILABLE

    def details(self) -> str:
        return "connection reset"


class _BreakingStream:
    """A PlayMany call that delivers `responses`, then breaks."""

    def __init__(self, responses: list[pb.PlayManyResponse]) -> None:
        self.responses, self.sent = list(responses), list[pb.PlayManyRequest]()

    async def write(self, request: pb.PlayManyRequest) -> None:
        self.sent.append(request)

    async def read(self) -> pb.PlayManyResponse:
        if self.responses:
            return self.responses.pop(0)
        raise _Unavailable()

    def cancel(self) -> bool:
        return True

    def done(self) -> bool:
        return not self.responses


def test_events_that_arrive_just_before_a_break_reach_the_bots_session() -> None:
    # The reader queues a response and the stream's error before the farm takes either:
    # the response's events are folded into the seat's tracker, so its session must see
    # them too, or the hand would count for nothing (and a `hands=` stop never come).
    started = pb.TableEvent(sequence=1, hand_id="t-1", hand_started=pb.HandStarted(
        hand_number=1, button=0, level=pb.Level(small_blind=5, big_blind=10),
        players=[pb.HandPlayer(seat=0, player_id="a", stack=1000),
                 pb.HandPlayer(seat=1, player_id="b", stack=1000)], commitment="00" * 32))
    response = pb.PlayManyResponse(events=[pb.SeatEvents(table_id="t", seat=0,
                                                         events=[started])])
    streams: list[_BreakingStream] = []

    def play_many() -> _BreakingStream:
        streams.append(_BreakingStream([response] if not streams else []))
        return streams[-1]

    async def main() -> PlayResult:
        farm = BotFarm("127.0.0.1:1", fair_deck="off")
        client = farm.add("t", "seat-token", CallingStation())
        client.seat = 0
        client.tracker = TableTracker(TableView(table_id="t", your_seat=0, seats=(
            SeatView(0, "a", 1000), SeatView(1, "b", 1000))))
        client.follower = Follower(client.tracker, None, 0)
        farm.stub = SimpleNamespace(PlayMany=play_many)  # type: ignore[assignment]
        try:  # stops once a hand is dealt (no unary call needed)
            results = await farm.play(until=lambda view: view.hand is not None)
        finally:
            await farm.close()
        return results[("t", 0)]

    result = asyncio.run(main())
    assert result.hands == 1 and result.reconnects == 1 and result.stopped_because == "until"


@pytest.mark.parametrize("stop", ["SIGKILL", "SIGTERM"])
def test_the_farm_reconnects_every_seat_when_the_dealer_restarts(
        suite: LocalSuite, operator: LobbyClient, stop: str) -> None:
    """SIGKILL (a crash) or SIGTERM (a stop: the dealer ends its streams at once) the dealer
    mid-hand and start it again on its port: every seat of the farm resumes from its last
    event, with no gap, and its hands end with the chips conserved."""
    table_ids, farmers = seat_farmers(suite, operator, (2, 2))
    # on the farm's own event loop, which stalls while the dealer restarts
    farmers[0].watch, restarted = restart_dealer_after(suite, farmers[0].events, 40, stop)
    results = play_farm(farmers, [CallingStation() for _ in farmers], hands=12)
    assert restarted, "the dealer was never restarted"
    for farmer in farmers:
        result = results[farmer.key]
        assert result.reconnects >= 1 and result.hands >= 12, result
        assert contiguous([e.sequence for e in farmer.events])
        assert farmer.client is not None and farmer.client.fair_deck is not None
        assert not farmer.client.fair_deck.violations
    conserved(operator, [f.player for f in farmers], table_ids)
    for table_id in table_ids:
        close_after_restart(operator, table_id, void_hand_in_progress=True)
