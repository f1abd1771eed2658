"""T7 and T8 end to end: two dealer processes, a 16-player field of bots on four tables
of four, played hand for hand from the first bust (the bubble at six, 5 paid, and the
operator's pay jumps at places 4..14) to the final table, then to the end.

What the dealers logged is the truth the director is checked against: every tournament
table's events are read back from its dealer (WatchTable, service token) and

- T7: while hand for hand is on, the hands of all tables come in rounds: a table deals
  its next hand only once every table finished its hand, so between two hands of one
  table there is a moment when no table is in a hand ("every table finishes its hand
  before any deals again"); at least two rounds had hands at two tables or more;
- T8: the players who busted in one round are placed together by their stacks at the
  start of their hands (larger higher, equal shared), below those still in;
- T2: prizes by the structure's shares (shared places split them), pool paid in full,
  fees to the house; the ledger's audit is zero.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest

from clients.bots import RandomBot
from clients.farm import play_field
from poker.v1 import dealer_pb2 as dpb
from poker.v1 import dealer_pb2_grpc
from poker.v1 import lobby_pb2 as lpb
from poker.v1 import tournament_pb2 as pb
from services.lobby.tournament.payouts import prizes
from tests.tournament.test_e2e import SERVICE, Suite, _field

pytestmark = [pytest.mark.slow, pytest.mark.timeout(150)]

PLAYERS, SIZE = 16, 4
SHARES = (4000, 2500, 1500, 1200, 800)  # 5 paid: the bubble at 6 players left
PAY_JUMPS = tuple(range(4, 15))  # hand for hand at 15..5 players left (2 to 4 tables)


def _structure() -> pb.TournamentStructure:
    return pb.TournamentStructure(
        buy_in=100, fee=10, starting_stack=1000, table_size=SIZE, max_players=PLAYERS,
        payouts=[pb.PayoutTier(min_entries=2, shares_bp=list(SHARES))],
        pay_jumps=list(PAY_JUMPS), action_time_ms=5000,
        levels=[pb.TournamentLevel(small_blind=10 * 2**i, big_blind=20 * 2**i,
                                   minutes=0.1) for i in range(12)])


@dataclass(frozen=True)
class Hand:
    """One hand of one table, as its dealer logged it."""

    table_id: str
    number: int
    start_ms: int
    end_ms: int
    stacks: dict[str, int]  # player -> stack at the start (HandStarted.players)
    after: dict[str, int]  # player -> stack after it (HandEnded.stacks, by seat)
    released_ms: int = 0  # when the director let the table deal it (DealLimitSet)


def _hands(address: str, table_id: str) -> list[Hand]:
    """Every finished hand of a (closed) table: its log read from its dealer."""
    channel = grpc.insecure_channel(address)
    try:
        stub = dealer_pb2_grpc.DealerServiceStub(channel)  # type: ignore[no-untyped-call]
        stream = stub.WatchTable(dpb.WatchTableRequest(table_id=table_id),
                                 metadata=[("authorization", f"Bearer {SERVICE}")],
                                 timeout=20)
        hands: list[Hand] = []
        started: Any = None
        start_ms = released_ms = 0
        for reply in stream:
            for e in reply.events:
                kind = e.WhichOneof("event")
                if kind == "deal_limit_set":
                    released_ms = e.time_unix_ms
                elif kind == "hand_started":
                    started, start_ms = e.hand_started, e.time_unix_ms
                elif kind == "hand_ended" and started is not None:
                    by_seat = {p.seat: p.player_id for p in started.players}
                    hands.append(Hand(table_id, started.hand_number, start_ms,
                                      e.time_unix_ms,
                                      {p.player_id: p.stack for p in started.players},
                                      {by_seat[s.seat]: s.stack for s in e.hand_ended.stacks
                                       if s.seat in by_seat}, released_ms))
                    started = None
                elif kind == "table_closed":
                    stream.cancel()
                    return hands
        return hands
    finally:
        channel.close()


def _busy(hands: list[Hand]) -> list[list[Hand]]:
    """The hands in busy periods: maximal spans of time with some table in a hand."""
    periods: list[list[Hand]] = []
    end = -1
    for h in sorted(hands, key=lambda h: (h.start_ms, h.end_ms)):
        if periods and h.start_ms <= end:
            periods[-1].append(h)
            end = max(end, h.end_ms)
        else:
            periods.append([h])
            end = h.end_ms
    return periods


def _rounds(periods: list[list[Hand]]) -> list[list[Hand]]:
    """Busy periods joined into rounds of hand for hand: a table whose hand ended before
    another was released splits its round in two periods, at other tables each."""
    rounds: list[list[Hand]] = []
    for period in periods:
        if rounds and not {h.table_id for h in rounds[-1]} & {h.table_id for h in period}:
            rounds[-1] = rounds[-1] + period
        else:
            rounds.append(list(period))
    return rounds


def test_T7_T8_hand_for_hand_across_dealer_processes_to_the_end(tmp_path: Path) -> None:
    suite = Suite(tmp_path, 2)
    try:
        op, tokens = _field(suite, PLAYERS, _structure())
        out: dict[str, Any] = {}

        def run() -> None:
            try:
                out["finishes"] = asyncio.run(play_field(
                    suite.lobby_address, tokens, "tn1",
                    lambda p: RandomBot(seed=int(p[1:]), aggression=0.3, all_in=0.25)))
            except BaseException as err:  # noqa: BLE001 - reported below
                out["error"] = err

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        thread.join(100)
        assert not thread.is_alive(), "the field did not finish in 100 s"
        assert "error" not in out, out.get("error")

        t = op.tournaments.GetTournament(pb.GetTournamentRequest(tournament_id="tn1"),
                                         metadata=op._metadata, timeout=10).tournament
        assert t.state == pb.TOURNAMENT_STATE_FINISHED and not t.chip_errors
        events = [e for r in op.tournaments.WatchTournament(
            pb.WatchTournamentRequest(tournament_id="tn1"), metadata=op._metadata,
            timeout=30) for e in r.events]
        switches = [e for e in events if e.kind == pb.TOURNAMENT_EVENT_KIND_HAND_FOR_HAND]
        assert switches and switches[0].on, "hand for hand never began"
        # Every table the tournament had, on its dealer (ListTables lists them, item 2).
        listed = op.stub.ListTables(lpb.ListTablesRequest(
            include_closed=True, tournament_id="tn1"), metadata=op._metadata,
            timeout=10).tables
        assert len(listed) >= 3 and {x.tournament_id for x in listed} == {"tn1"}
        hands = [h for x in listed for h in _hands(x.dealer_address, x.table_id)]
        assert sum(1 for _ in hands) == t.hands

        # The windows of hand for hand: from each "on" to the next "off" (or the end).
        windows: list[tuple[int, int]] = []
        on_ms: int | None = None
        for e in switches:
            if e.on and on_ms is None:
                on_ms = e.time_unix_ms
            elif not e.on and on_ms is not None:
                windows.append((on_ms, e.time_unix_ms))
                on_ms = None
        if on_ms is not None:
            windows.append((on_ms, events[-1].time_unix_ms))

        places = {p.player_id: (p.place, p.shared) for p in t.players}
        bust_hand = {p: h for h in hands for p, after in h.after.items()
                     if after == 0 and places[p][0] > 1}
        assert len(bust_hand) == PLAYERS - 1
        multi_table_rounds = 0
        checked_groups = 0
        round_busts: list[int] = []
        for start, stop in windows:
            # The hands released while hand for hand was on; a hand already running when
            # it began is no round's, its busts placed by themselves (checked below).
            inside = [h for h in hands if start <= h.released_ms < stop]
            for h in hands:
                if h.released_ms < start < h.end_ms:
                    _placed_alone(h, bust_hand, places)
            periods = _busy(inside)
            for period in periods:
                tables = [h.table_id for h in period]
                # T7: one hand per table while any table is in a hand: none deals again
                # before every table finished.
                assert len(tables) == len(set(tables)), (
                    f"a table dealt twice while another was in its hand: "
                    f"{[(h.table_id, h.number, h.start_ms, h.end_ms) for h in period]}")
            for group in _rounds(periods):
                multi_table_rounds += len({h.table_id for h in group}) > 1
                # T8: the round's busts placed together, by their stacks at the start.
                busts = sorted(((bust_hand[p].stacks[p], p) for p, h in bust_hand.items()
                                if h in group), key=lambda b: (-b[0], b[1]))
                if not busts:
                    continue
                first_end = min(h.end_ms for h in group)
                gone = sum(1 for h in bust_hand.values()
                           if h not in group and h.end_ms < first_end)
                best = PLAYERS - gone - len(busts) + 1
                i = 0
                while i < len(busts):
                    j = i
                    while j < len(busts) and busts[j][0] == busts[i][0]:
                        j += 1
                    for _, player in busts[i:j]:
                        assert places[player] == (best + i, j - i), (
                            f"{player} busted in a round of {len(busts)} ({busts}): "
                            f"placed {places[player]}, T8 says {(best + i, j - i)}")
                    i = j
                checked_groups += 1
                round_busts.append(len(busts))
        print(f"T7: {len(windows)} window(s) of hand for hand, {multi_table_rounds} rounds "
              f"at two tables or more, busts per round with any: {round_busts}", flush=True)
        assert multi_table_rounds >= 2, "hand for hand with two tables or more: twice at least"
        assert checked_groups >= 1, "no bust while hand for hand"

        # T2: prizes by the shares, shared places splitting theirs; pool and fees whole.
        table = prizes(PLAYERS * 100, SHARES)
        for p in t.players:
            span = [table[k] for k in range(p.place - 1, p.place - 1 + p.shared)
                    if k < len(table)]
            each = sum(span) // p.shared
            assert each <= p.prize <= each + 1, (p.player_id, p.place, p.shared, p.prize)
        assert sum(p.prize for p in t.players) == PLAYERS * 100
        assert t.fees == PLAYERS * 10
        by_sdk = {f.player_id: (f.place, f.prize) for f in out["finishes"]}
        assert by_sdk == {p.player_id: (p.place, p.prize) for p in t.players}
        audit = op.audit()
        assert audit.ok and audit.total == 0
    finally:
        suite.stop()


def _placed_alone(hand: Hand, bust_hand: dict[str, Hand],
                  places: dict[str, tuple[int, int]]) -> None:
    """T8 for one hand out of hand for hand: its busts share a place only with each
    other, by their stacks at its start."""
    busts = [p for p, h in bust_hand.items() if h is hand]
    for p in busts:
        equal = sum(1 for q in busts if hand.stacks[q] == hand.stacks[p])
        assert places[p][1] == equal, (p, places[p], [(q, hand.stacks[q]) for q in busts])


def test_T7_the_check_sees_a_table_dealing_while_another_is_in_its_hand() -> None:
    def hand(table: str, number: int, start: int, end: int) -> Hand:
        return Hand(table, number, start, end, {}, {})

    held = [hand("a", 1, 0, 100), hand("b", 1, 10, 200), hand("a", 2, 210, 300),
            hand("b", 2, 215, 320)]
    assert [[h.table_id for h in p] for p in _busy(held)] == [["a", "b"], ["a", "b"]]
    dealt_on = [hand("a", 1, 0, 100), hand("b", 1, 10, 200), hand("a", 2, 150, 250)]
    assert [[h.table_id for h in p] for p in _busy(dealt_on)] == [["a", "b", "a"]]
    # a table whose hand ended before the next was released: one round all the same
    split = [hand("a", 1, 0, 5), hand("b", 1, 8, 200), hand("a", 2, 210, 300)]
    assert [[h.table_id for h in r] for r in _rounds(_busy(split))] == [["a", "b"], ["a"]]
