"""End to end: the lobby, two dealers and an evaluator as processes. Players are created and
funded, sit down, the button draw is recorded and correct (R4), hands are played, a player
busts and rebuys (R30), players leave (R31), tables close, and every chip is accounted for.
Then the crash cases: the lobby or the dealer dies between the steps of a buy-in, and after
a restart the transfer is completed or refunded; and a buy-in's SeatPlayer delivered to the
dealer late, after the recovery settled it, changes nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from lobby_pg import fresh_pg_dsn

from poker.cards import parse_card
from poker.procs import ServiceProcess, start_service
from poker.v1 import dealer_pb2 as dpb
from poker.v1 import dealer_pb2_grpc, lobby_pb2_grpc
from poker.v1 import lobby_pb2 as pb
from services.lobby.storage import Row, open_storage

OPERATOR, SERVICE = "e2e-operator", "e2e-service"
pytestmark = pytest.mark.slow


class Stub:
    """A gRPC stub that sends one bearer token with every call."""

    def __init__(self, stub: Any, token: str | None) -> None:
        self._stub = stub
        self._metadata = [("authorization", f"Bearer {token}")] if token else []

    def __getattr__(self, name: str) -> Callable[[Any], Any]:
        method = getattr(self._stub, name)
        return lambda request, **kw: method(request, metadata=self._metadata,
                                            timeout=kw.get("timeout", 15))


class Suite:
    """The processes of one test and clients to them; stops everything at the end."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.procs: list[ServiceProcess] = []
        self.channels: dict[str, grpc.Channel] = {}

    def start(self, name: str, args: list[str], env: dict[str, str] | None = None,
              log: str = "") -> ServiceProcess:
        proc = start_service(name, args, env=env, log_path=self.tmp / f"{log or name}.log")
        self.procs.append(proc)
        return proc

    def dealer(self, evaluator: str | None, db: str, port: int = 0) -> ServiceProcess:
        args = ["--db", str(self.tmp / db), "--service-token", SERVICE]
        args += ["--evaluator", evaluator] if evaluator else []
        args += ["--port", str(port)] if port else []
        return self.start("dealer", args, log=db)

    def lobby(self, dealers: list[str], backend: list[str],
              fault: str = "") -> ServiceProcess:
        args = ["--operator-token", OPERATOR, "--service-token", SERVICE,
                "--recovery-interval", "0.2", "--lease-seconds", "2", *backend]
        for address in dealers:
            args += ["--dealer", address]
        env = {"POKER_LOBBY_FAULT": fault} if fault else {}
        return self.start("lobby", args, env=env)

    def channel(self, address: str) -> grpc.Channel:
        if address not in self.channels:
            self.channels[address] = grpc.insecure_channel(address)
        return self.channels[address]

    def lobby_stub(self, address: str, token: str | None = OPERATOR) -> Any:
        return Stub(lobby_pb2_grpc.LobbyServiceStub(self.channel(address)), token)

    def dealer_stub(self, address: str, token: str | None = SERVICE) -> Any:
        return Stub(dealer_pb2_grpc.DealerServiceStub(self.channel(address)), token)

    def stop(self) -> None:
        for channel in self.channels.values():
            channel.close()
        for proc in reversed(self.procs):
            proc.stop()


@pytest.fixture
def suite(tmp_path: Path) -> Iterator[Suite]:
    running = Suite(tmp_path)
    yield running
    running.stop()


def evaluator(suite: Suite) -> str:
    """Starts an evaluator; the dealers rank their showdowns there."""
    return suite.start("evaluator", []).address


def backend_args(kind: str, request: pytest.FixtureRequest, tmp: Path) -> list[str]:
    if kind == "sqlite":
        return ["--db", str(tmp / "lobby.sqlite")]
    return ["--dsn", fresh_pg_dsn(request.getfixturevalue("pg_server"))]


def game(pause_ms: int = 300) -> dpb.TableConfig:
    return dpb.TableConfig(seats=3, levels=[dpb.Level(small_blind=5, big_blind=10)],
                           pause_between_hands_ms=pause_ms, action_time_ms=5000)


def open_table(op: Any, table_id: str) -> Any:
    return op.OpenTable(pb.OpenTableRequest(
        table_id=table_id, name=table_id, config=game(), request_id=f"open-{table_id}",
        rules=pb.TableRules(min_buy_in=100, max_buy_in=500, max_rebuys=2))).table


def new_player(op: Any, player_id: str, amount: int) -> str:
    token: str = op.CreatePlayer(pb.CreatePlayerRequest(
        player_id=player_id, display_name=player_id.title())).token
    for _ in range(2):  # a retried deposit moves money once
        op.Deposit(pb.DepositRequest(player_id=player_id, amount=amount,
                                     request_id=f"fund-{player_id}"))
    return token


def wait_for(check: Callable[[], Any], timeout: float = 30.0, what: str = "") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = check()
        if result:
            return result
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what or check}")


def play_until_bust(seats: dict[int, Any], table_id: str, max_hands: int = 40) -> dict[int, int]:
    """Both seats go all in every hand until one has no chips; returns the stacks."""
    any_stub = next(iter(seats.values()))

    def step() -> dict[int, int] | None:
        view = any_stub.GetTable(dpb.GetTableRequest(table_id=table_id)).table
        stacks = {s.seat: s.stack for s in view.seats}
        assert view.hands_played <= max_hands, "nobody busted"
        if not view.HasField("hand") and 0 in stacks.values():
            return stacks
        if view.HasField("hand") and view.hand.HasField("actor"):
            _act(seats[view.hand.actor], table_id, view.hand.actor)
        return None

    result: dict[int, int] = wait_for(step, 120, "a player to bust")
    return result


def _act(stub: Any, table_id: str, seat: int) -> None:
    hand = stub.GetTable(dpb.GetTableRequest(table_id=table_id)).table.hand
    if not hand.HasField("legal_actions") or hand.actor != seat:
        return
    legal = hand.legal_actions
    kind = (dpb.ACTION_KIND_SHOW if legal.decision == dpb.DECISION_SHOW_OR_MUCK
            else dpb.ACTION_KIND_ALL_IN)
    try:
        stub.Act(dpb.ActRequest(table_id=table_id, seat=seat, hand_id=hand.hand_id,
                                action_number=hand.action_number, kind=kind))
    except grpc.RpcError as err:  # the hand moved on (a time-out) between the two calls
        assert err.code() == grpc.StatusCode.FAILED_PRECONDITION, err.details()


def table_events(stub: Any, table_id: str, until: Callable[[Any], bool]) -> list[Any]:
    events: list[Any] = []
    stream = stub._stub.WatchTable(dpb.WatchTableRequest(table_id=table_id), timeout=30)
    for reply in stream:
        events.extend(reply.events)
        if any(until(e) for e in reply.events):
            stream.cancel()
            break
    return events


def check_R4_draw(draw: Any, seated: set[int]) -> None:
    assert {c.seat for c in draw.cards} == seated
    assert len({c.card for c in draw.cards}) == len(draw.cards)
    best = max(draw.cards, key=lambda c: parse_card(c.card))  # index order: rank, then suit
    assert draw.button == best.seat


def leave(stub: Any, table_id: str, request_id: str) -> Any:
    def done() -> Any:
        reply = stub.LeaveTable(pb.LeaveTableRequest(table_id=table_id, request_id=request_id))
        return reply if reply.status == pb.LEAVE_STATUS_DONE else None

    return wait_for(done, 60, "the player to leave")


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_the_whole_story_every_chip_accounted_for(
    suite: Suite, request: pytest.FixtureRequest, tmp_path: Path, backend: str
) -> None:
    ev = evaluator(suite)
    dealers = [suite.dealer(ev, "dealer-a.sqlite").address,
               suite.dealer(ev, "dealer-b.sqlite").address]
    lobby = suite.lobby(dealers, backend_args(backend, request, tmp_path)).address
    op = suite.lobby_stub(lobby)
    tokens = {name: new_player(op, name, 1000) for name in ("ann", "bob", "cy")}
    players = {name: suite.lobby_stub(lobby, token) for name, token in tokens.items()}
    main, side = open_table(op, "main"), open_table(op, "side")
    assert {main.dealer_address, side.dealer_address} == set(dealers)  # spread across dealers

    ann = players["ann"].JoinTable(pb.JoinTableRequest(table_id="main", buy_in=300,
                                                       request_id="j1"))
    bob = players["bob"].JoinTable(pb.JoinTableRequest(table_id="main", buy_in=300,
                                                       request_id="j1"))
    assert ann.player.balance == 700 and bob.seat != ann.seat
    draw = op.GetButtonDraw(pb.GetButtonDrawRequest(table_id="main")).draw
    check_R4_draw(draw, {ann.seat, bob.seat})
    assert bob.button_draw == draw
    dealer = suite.dealer_stub(main.dealer_address)
    started = table_events(dealer, "main", lambda e: e.WhichOneof("event") == "hand_started")
    assert [e.button_set.seat for e in started if e.HasField("button_set")] == [draw.button]
    first_hand = next(e.hand_started for e in started if e.HasField("hand_started"))
    assert first_hand.button == draw.button  # the first hand uses the draw

    seats = {s.seat: suite.dealer_stub(main.dealer_address, s.seat_token) for s in (ann, bob)}
    stacks = play_until_bust(seats, "main")
    busted = next(s for s, chips in stacks.items() if chips == 0)
    loser = "ann" if busted == ann.seat else "bob"
    rebuy = players[loser].Rebuy(pb.RebuyRequest(table_id="main", amount=200, request_id="r1"))
    assert rebuy.stack == 200 and rebuy.player.balance == 500

    players["cy"].JoinTable(pb.JoinTableRequest(table_id="side", buy_in=250, request_id="j1"))
    assert leave(players["cy"], "side", "l1").player.balance == 1000
    gone = leave(players["ann"], "main", "l1")
    rebought = 200 if loser == "ann" else 0
    assert gone.player.balance == 700 - rebought + gone.stack
    op.Withdraw(pb.WithdrawRequest(player_id="cy", amount=100, request_id="w1"))

    for table_id in ("main", "side"):
        closed = op.CloseLobbyTable(pb.CloseLobbyTableRequest(
            table_id=table_id, void_hand_in_progress=True, request_id=f"close-{table_id}"))
        assert closed.table.status == pb.TABLE_STATUS_CLOSED and closed.table.chips == 0
    balances = sum(op.GetPlayer(pb.GetPlayerRequest(player_id=p)).player.balance
                   for p in players)
    assert balances == 3000 - 100
    audit = op.AuditLedger(pb.AuditLedgerRequest())
    assert audit.ok and audit.total == 0 and audit.table_chips == 0
    assert audit.operator_balance == -(3000 - 100)


def _seated_at_dealer(suite: Suite, address: str, table_id: str) -> dict[str, int]:
    view = suite.dealer_stub(address).GetTable(dpb.GetTableRequest(table_id=table_id)).table
    return {s.player_id: s.stack for s in view.seats}


@pytest.mark.parametrize("step", ["after_debit", "after_seat"])
def test_lobby_killed_between_buy_in_steps_completes_or_refunds_after_restart(
    suite: Suite, request: pytest.FixtureRequest, tmp_path: Path, step: str
) -> None:
    dealer = suite.dealer(None, "dealer.sqlite").address
    backend = backend_args("postgresql", request, tmp_path)
    first = suite.lobby([dealer], backend, fault=step)
    op = suite.lobby_stub(first.address)
    new_player(op, "ann", 1000)
    open_table(op, "t1")
    with pytest.raises(grpc.RpcError) as died:
        op.JoinTable(pb.JoinTableRequest(table_id="t1", player_id="ann", buy_in=300,
                                         request_id="j1"))
    assert died.value.code() == grpc.StatusCode.UNAVAILABLE
    assert first.popen.wait(10) == 17  # the lobby died at the step
    lobby = suite.lobby([dealer], backend).address
    op = suite.lobby_stub(lobby)

    def settled() -> bool:
        return op.GetLobbyTable(pb.GetLobbyTableRequest(table_id="t1")).table.seats == [] or all(
            s.status == pb.SEAT_STATUS_SEATED
            for s in op.GetLobbyTable(pb.GetLobbyTableRequest(table_id="t1")).table.seats)

    wait_for(settled, 30, "the recovery pass")
    balance = op.GetPlayer(pb.GetPlayerRequest(player_id="ann")).player.balance
    at_dealer = _seated_at_dealer(suite, dealer, "t1")
    # after_debit: the dealer never heard of it; after_seat: the dealer's answer died with
    # the lobby. Either way the buy-in's SeatPlayer sent again completes it.
    assert (balance, at_dealer) == (700, {"ann": 300})
    again = op.JoinTable(pb.JoinTableRequest(table_id="t1", player_id="ann", buy_in=300,
                                             request_id="j1"))
    assert again.seat_token and again.player.balance == 700
    mine = suite.dealer_stub(dealer, again.seat_token).GetTable(dpb.GetTableRequest(
        table_id="t1")).table  # the token the lobby asked for again is the seat's own
    assert [s.player_id for s in mine.seats] == ["ann"]
    assert op.AuditLedger(pb.AuditLedgerRequest()).ok


def test_dealer_killed_during_a_buy_in_is_completed_when_it_is_back(
    suite: Suite, tmp_path: Path
) -> None:
    first = suite.dealer(None, "dealer.sqlite")
    port = int(first.address.rsplit(":", 1)[1])
    lobby = suite.lobby([first.address], ["--db", str(tmp_path / "lobby.sqlite")]).address
    op = suite.lobby_stub(lobby)
    new_player(op, "ann", 1000)
    open_table(op, "t1")
    first.kill()
    with pytest.raises(grpc.RpcError) as held:
        op.JoinTable(pb.JoinTableRequest(table_id="t1", player_id="ann", buy_in=300,
                                         request_id="j1"))
    assert held.value.code() == grpc.StatusCode.UNAVAILABLE
    assert "held" in (held.value.details() or "")
    assert op.GetPlayer(pb.GetPlayerRequest(player_id="ann")).player.balance == 700
    audit = op.AuditLedger(pb.AuditLedgerRequest())
    assert audit.ok and audit.table_chips == 300  # not lost: on the table's account
    suite.dealer(None, "dealer.sqlite", port=port)  # back, on the same address and store
    reply = _ann_joins_at_last(op, "the buy-in to complete")
    assert reply.seat_token and reply.player.balance == 700
    assert _seated_at_dealer(suite, first.address, "t1") == {"ann": 300}
    assert op.AuditLedger(pb.AuditLedgerRequest()).ok


def buy_in_row(backend: list[str], player_id: str, request_id: str) -> Row:
    """A JoinTable the operator sent for `player_id`: its operation, read from the lobby's
    database directly (the operator's request ids are keyed `join:*:<request_id>`)."""
    flag, where = backend
    storage = open_storage(where if flag == "--dsn" else None, where if flag == "--db" else None)
    try:
        row = storage.transact(lambda tx: tx.one(
            "SELECT * FROM operations WHERE idempotency_key = ? AND player_id = ?",
            (f"join:*:{request_id}", player_id)))
    finally:
        storage.close()
    assert row is not None and row["dealer_request_id"] == row["id"]
    return row


def late_copy(row: Row) -> dpb.SeatPlayerRequest:
    """The buy-in's SeatPlayer exactly as the lobby sent it."""
    return dpb.SeatPlayerRequest(
        table_id=row["table_id"], seat=int(row["seat"]), player_id=row["player_id"],
        stack=int(row["amount"]), wait_for_big_blind=bool(row["wait_for_big_blind"]),
        request_id=row["dealer_request_id"])


def chips_everywhere(suite: Suite, op: Any, dealer: str, players: list[str]) -> int:
    """Balances plus every stack at the dealer's table: what the players own."""
    balances = sum(op.GetPlayer(pb.GetPlayerRequest(player_id=p)).player.balance
                   for p in players)
    return balances + sum(_seated_at_dealer(suite, dealer, "t1").values())


def _ann_joins_at_last(op: Any, what: str) -> Any:
    """ann's JoinTable j1 (a buy-in of 300 at t1), repeated while it is UNAVAILABLE (held
    pending) until it answers; `what` names the wait in the failure."""

    def joined() -> Any:
        try:
            return op.JoinTable(pb.JoinTableRequest(table_id="t1", player_id="ann",
                                                    buy_in=300, request_id="j1"))
        except grpc.RpcError as err:
            assert err.code() == grpc.StatusCode.UNAVAILABLE, err.details()
            return None

    return wait_for(joined, 30, what)


def _a_lobby_dies_during_a_join(suite: Suite, args: list[str], fault: str,
                                **join: Any) -> str:
    """A dealer, and a lobby that exits (code 17) at `fault` while ann's buy-in of 300 at
    t1 (JoinTable j1) is under way; the dealer's address, for the next lobby."""
    dealer: str = suite.dealer(None, "dealer.sqlite").address
    first = suite.lobby([dealer], args, fault=fault)
    op = suite.lobby_stub(first.address)
    new_player(op, "ann", 1000)
    open_table(op, "t1")
    with pytest.raises(grpc.RpcError):
        op.JoinTable(pb.JoinTableRequest(table_id="t1", player_id="ann", buy_in=300,
                                         request_id="j1", **join))
    assert first.popen.wait(10) == 17
    return dealer


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_seat_player_answered_to_a_dead_lobby_and_delivered_again_late_seats_once(
    suite: Suite, request: pytest.FixtureRequest, tmp_path: Path, backend: str
) -> None:
    args = backend_args(backend, request, tmp_path)
    # the dealer seats ann; its answer dies with the lobby
    dealer = _a_lobby_dies_during_a_join(suite, args, "after_seat")
    op = suite.lobby_stub(suite.lobby([dealer], args).address)  # its recovery asks again
    joined = _ann_joins_at_last(op, "the recovery to complete the buy-in")
    assert joined.player.balance == 700
    row = buy_in_row(args, "ann", "j1")
    # The network delivers the original request once more, late: the dealer's first answer.
    late = suite.dealer_stub(dealer).SeatPlayer(late_copy(row))
    assert (late.seat, late.seat_token) == (joined.seat, joined.seat_token)
    seated = table_events(suite.dealer_stub(dealer), "t1",
                          lambda e: e.WhichOneof("event") == "player_seated")
    view = suite.dealer_stub(dealer).GetTable(dpb.GetTableRequest(table_id="t1")).table
    assert sum(e.HasField("player_seated") for e in seated) == 1
    assert [(s.player_id, s.stack) for s in view.seats] == [("ann", 300)]
    assert chips_everywhere(suite, op, dealer, ["ann"]) == 1000  # deposits - withdrawals
    audit = op.AuditLedger(pb.AuditLedgerRequest())
    assert audit.ok and audit.total == 0 and audit.table_chips == 300


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_seat_player_delayed_past_its_refund_cannot_seat_the_player(
    suite: Suite, request: pytest.FixtureRequest, tmp_path: Path, backend: str
) -> None:
    args = backend_args(backend, request, tmp_path)
    # the lobby dies with its SeatPlayer on its way to the dealer
    dealer = _a_lobby_dies_during_a_join(suite, args, "before_seat", seat=0)
    row = buy_in_row(args, "ann", "j1")
    service = suite.dealer_stub(dealer)
    service.SeatPlayer(dpb.SeatPlayerRequest(table_id="t1", seat=0, player_id="intruder",
                                             stack=50, request_id="someone-else"))
    op = suite.lobby_stub(suite.lobby([dealer], args).address)

    def refunded() -> bool:
        ann = op.GetPlayer(pb.GetPlayerRequest(player_id="ann")).player
        return ann.balance == 1000 and not op.GetLobbyTable(
            pb.GetLobbyTableRequest(table_id="t1")).table.seats

    wait_for(refunded, 30, "the recovery to refund the refused buy-in")
    service.UnseatPlayer(dpb.UnseatPlayerRequest(table_id="t1", seat=0))  # seat 0 free again
    with pytest.raises(grpc.RpcError) as late:  # the original request arrives now
        service.SeatPlayer(late_copy(row))
    assert late.value.code() == grpc.StatusCode.ALREADY_EXISTS
    assert "seat 0 is taken" in (late.value.details() or "")
    assert _seated_at_dealer(suite, dealer, "t1") == {}  # no chips made
    assert chips_everywhere(suite, op, dealer, ["ann"]) == 1000
    audit = op.AuditLedger(pb.AuditLedgerRequest())
    assert audit.ok and audit.total == 0 and audit.table_chips == 0


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_R9_set_table_level_through_the_lobby_is_the_next_hands_level(
    suite: Suite, request: pytest.FixtureRequest, tmp_path: Path, backend: str
) -> None:
    dealer = suite.dealer(None, "dealer.sqlite").address
    op = suite.lobby_stub(suite.lobby([dealer], backend_args(backend, request, tmp_path)).address)
    levels = [dpb.Level(small_blind=5, big_blind=10),
              dpb.Level(small_blind=25, big_blind=50, ante=5)]
    op.OpenTable(pb.OpenTableRequest(
        table_id="t1", name="t1", request_id="open-t1",
        config=dpb.TableConfig(seats=2, levels=levels, action_time_ms=5000),
        rules=pb.TableRules(min_buy_in=100, max_buy_in=500)))
    with pytest.raises(grpc.RpcError) as wrong:  # the dealer's own check of the schedule
        op.SetTableLevel(pb.SetTableLevelRequest(table_id="t1", level_index=2))
    assert wrong.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "0..1" in (wrong.value.details() or "")
    level = op.SetTableLevel(pb.SetTableLevelRequest(table_id="t1", level_index=1)).level
    assert (level.small_blind, level.big_blind, level.ante) == (25, 50, 5)
    for name in ("ann", "bob"):
        new_player(op, name, 1000)
        op.JoinTable(pb.JoinTableRequest(table_id="t1", player_id=name, buy_in=300,
                                         request_id=f"j1-{name}"))
    started = table_events(suite.dealer_stub(dealer), "t1",
                           lambda e: e.WhichOneof("event") == "hand_started")
    first = next(e.hand_started for e in started if e.HasField("hand_started"))
    assert (first.level.small_blind, first.level.big_blind, first.level.ante) == (25, 50, 5)


def test_lobby_killed_after_the_dealer_closed_a_table_then_the_dealer_restarted_settles(
    suite: Suite, tmp_path: Path
) -> None:
    """The lobby dies after the dealer closed the table and before it credited the stacks;
    the dealer restarts before the lobby comes back. The restarted lobby reads the closed
    table's record from the restarted dealer (which folds a closed table from its store on
    first use) and credits every stack: no chip is left on the table's account."""
    first = suite.dealer(None, "dealer.sqlite")
    port = int(first.address.rsplit(":", 1)[1])
    backend = ["--db", str(tmp_path / "lobby.sqlite")]
    dying = suite.lobby([first.address], backend, fault="after_close")
    op = suite.lobby_stub(dying.address)
    for player in ("ann", "bob"):
        new_player(op, player, 1000)
    open_table(op, "t1")
    op.JoinTable(pb.JoinTableRequest(table_id="t1", player_id="ann", buy_in=300,
                                     request_id="j1"))
    op.JoinTable(pb.JoinTableRequest(table_id="t1", player_id="bob", buy_in=400,
                                     request_id="j2"))
    with pytest.raises(grpc.RpcError) as died:
        op.CloseLobbyTable(pb.CloseLobbyTableRequest(table_id="t1", void_hand_in_progress=True,
                                                     request_id="c1"))
    assert died.value.code() == grpc.StatusCode.UNAVAILABLE
    assert dying.popen.wait(10) == 17  # died after the dealer's CloseTable answered
    first.stop()
    suite.dealer(None, "dealer.sqlite", port=port)  # back, on the same address and store
    op = suite.lobby_stub(suite.lobby([first.address], backend).address)

    def settled() -> bool:
        table = op.GetLobbyTable(pb.GetLobbyTableRequest(table_id="t1")).table
        return bool(table.status == pb.TABLE_STATUS_CLOSED)

    wait_for(settled, 30, "the close to settle")
    balances = {p: op.GetPlayer(pb.GetPlayerRequest(player_id=p)).player.balance
                for p in ("ann", "bob")}
    assert sum(balances.values()) == 2000  # every chip back, whatever the hands moved
    audit = op.AuditLedger(pb.AuditLedgerRequest())
    assert audit.ok and audit.table_chips == 0
