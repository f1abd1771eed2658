"""DealerService end to end on a real dealer process: the calls and every status they return."""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator

import grpc
import pytest

from poker.v1 import dealer_pb2 as pb
from tests.dealer.helpers import AUDIT, SVC, Client, Watcher, auth, count

#: The default stream lingering (events a viewer need not act on may wait 10 ms).
DEALER_ARGS = ("--stream-linger-ms", "10")


def status(call: object) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.RpcError) as info:
        call()  # type: ignore[operator]
    return info.value.code(), info.value.details()


def test_create_table_fills_defaults_and_refuses_bad_config(client: Client) -> None:
    reply = client.stub.CreateTable(pb.CreateTableRequest(
        table_id="api-defaults", config=pb.TableConfig()), metadata=SVC)
    config = reply.config
    assert (config.seats, config.action_time_ms, config.show_time_ms) == (6, 30_000, 5_000)
    assert [(lv.small_blind, lv.big_blind) for lv in config.levels] == [(50, 100)]
    assert config.turn_river_min_bet == 2 and config.min_raise_rule == pb.MIN_RAISE_RULE_DOUBLE
    assert config.all_in_exposure and config.pause_between_hands_ms == 2000
    code, message = status(lambda: client.stub.CreateTable(pb.CreateTableRequest(
        table_id="api-defaults"), metadata=SVC))
    assert code == grpc.StatusCode.ALREADY_EXISTS and "api-defaults" in message
    bad = pb.TableConfig(levels=[pb.Level(small_blind=50, big_blind=150)])
    code, message = status(lambda: client.stub.CreateTable(pb.CreateTableRequest(
        config=bad), metadata=SVC))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "twice the small blind" in message
    code, message = status(lambda: client.stub.CreateTable(pb.CreateTableRequest(
        config=pb.TableConfig(deck_seed=4)), metadata=SVC))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "R2" in message
    code, message = status(lambda: client.stub.CreateTable(pb.CreateTableRequest(
        table_id="bad id!"), metadata=SVC))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "table_id" in message


def test_internal_calls_need_the_service_token(client: Client) -> None:
    table_id = client.create()
    tokens = client.seat(table_id, [1000])
    request = pb.CreateTableRequest()
    code, message = status(lambda: client.stub.CreateTable(request))
    assert code == grpc.StatusCode.UNAUTHENTICATED and "service token" in message
    code, _ = status(lambda: client.stub.CreateTable(request, metadata=auth("wrong")))
    assert code == grpc.StatusCode.UNAUTHENTICATED
    code, message = status(lambda: client.stub.SetLevel(
        pb.SetLevelRequest(table_id=table_id), metadata=auth(tokens[0])))
    assert code == grpc.StatusCode.PERMISSION_DENIED and "service token" in message
    code, message = status(lambda: client.stub.SetLevel(pb.SetLevelRequest(
        table_id="nope"), metadata=SVC))
    assert code == grpc.StatusCode.NOT_FOUND and "nope" in message


def test_seating_errors_and_unseat_returns_the_stack_R31(client: Client) -> None:
    table_id = client.create(seats=2)
    client.seat(table_id, [1000])
    code, message = status(lambda: client.stub.SeatPlayer(pb.SeatPlayerRequest(
        table_id=table_id, seat=0, player_id="x", stack=5), metadata=SVC))
    assert code == grpc.StatusCode.ALREADY_EXISTS and "seat 0" in message
    code, message = status(lambda: client.stub.SeatPlayer(pb.SeatPlayerRequest(
        table_id=table_id, seat=7, player_id="x", stack=5), metadata=SVC))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "0..1" in message
    code, message = status(lambda: client.stub.SeatPlayer(pb.SeatPlayerRequest(
        table_id=table_id, player_id="x"), metadata=SVC))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "stack" in message
    reply = client.stub.UnseatPlayer(pb.UnseatPlayerRequest(table_id=table_id, seat=0),
                                     metadata=SVC)
    assert (reply.stack.player_id, reply.stack.stack) == ("p0", 1000)
    code, _ = status(lambda: client.stub.UnseatPlayer(pb.UnseatPlayerRequest(
        table_id=table_id, seat=0), metadata=SVC))
    assert code == grpc.StatusCode.NOT_FOUND


def test_player_calls_statuses_and_idempotent_act(client: Client) -> None:
    table_id = client.create(seats=3, test_mode=True, deck_seed=11)
    watcher = Watcher(client, table_id)
    client.stub.SetButton(pb.SetButtonRequest(table_id=table_id, seat=0), metadata=SVC)
    tokens = client.seat(table_id, [1000, 1000, 1000])
    watcher.wait(lambda ev: count(ev, "turn_started") >= 1)
    turn_event = next(e for e in watcher.events if e.HasField("turn_started"))
    turn, hand_id = turn_event.turn_started, turn_event.hand_id
    other = next(s for s in tokens if s != turn.seat)
    act = pb.ActRequest(table_id=table_id, seat=turn.seat, hand_id=hand_id,
                        action_number=turn.action_number, kind=pb.ACTION_KIND_CALL)
    code, message = status(lambda: client.stub.Act(act))
    assert code == grpc.StatusCode.UNAUTHENTICATED
    code, message = status(lambda: client.stub.Act(act, metadata=auth(tokens[other])))
    assert code == grpc.StatusCode.PERMISSION_DENIED and f"seat {other}" in message
    wrong_turn = pb.ActRequest(table_id=table_id, seat=other, hand_id=hand_id,
                               action_number=turn.action_number, kind=pb.ACTION_KIND_CALL)
    code, message = status(lambda: client.stub.Act(wrong_turn, metadata=auth(tokens[other])))
    assert code == grpc.StatusCode.FAILED_PRECONDITION and str(turn.seat) in message
    too_small = pb.ActRequest(table_id=table_id, seat=turn.seat, hand_id=hand_id,
                              action_number=turn.action_number, kind=pb.ACTION_KIND_RAISE,
                              amount=turn.legal_actions.min_to - 1)
    code, message = status(lambda: client.stub.Act(too_small, metadata=auth(tokens[turn.seat])))
    assert code == grpc.StatusCode.FAILED_PRECONDITION and str(turn.legal_actions.min_to) in message
    unset = pb.ActRequest(table_id=table_id, seat=turn.seat, hand_id=hand_id,
                          action_number=turn.action_number)
    code, message = status(lambda: client.stub.Act(unset, metadata=auth(tokens[turn.seat])))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "kind" in message
    stale = pb.ActRequest(table_id=table_id, seat=turn.seat, hand_id="nope-1",
                          action_number=turn.action_number, kind=pb.ACTION_KIND_CALL)
    code, message = status(lambda: client.stub.Act(stale, metadata=auth(tokens[turn.seat])))
    assert code == grpc.StatusCode.FAILED_PRECONDITION and hand_id in message
    view = client.view(table_id, tokens[turn.seat])
    assert view.hand.legal_actions.can_call and view.hand.action_number == turn.action_number
    first = client.stub.Act(act, metadata=auth(tokens[turn.seat]))
    again = client.stub.Act(act, metadata=auth(tokens[turn.seat]))
    assert first.sequence == again.sequence  # an exact retry is answered the same way
    changed = pb.ActRequest(table_id=table_id, seat=turn.seat, hand_id=hand_id,
                            action_number=turn.action_number, kind=pb.ACTION_KIND_FOLD)
    code, message = status(lambda: client.stub.Act(changed, metadata=auth(tokens[turn.seat])))
    assert code == grpc.StatusCode.FAILED_PRECONDITION and "already answered" in message
    code, _ = status(lambda: client.stub.GetTable(pb.GetTableRequest(table_id="nope")))
    assert code == grpc.StatusCode.NOT_FOUND
    watcher.cancel()


def test_get_table_shows_own_cards_only(client: Client) -> None:
    table_id = client.create(seats=2, test_mode=True, deck_seed=5)
    tokens = client.seat(table_id, [1000, 1000])
    watcher = Watcher(client, table_id)
    watcher.wait(lambda ev: count(ev, "turn_started") >= 1)
    mine = client.view(table_id, tokens[0])
    assert mine.your_seat == 0 and mine.hand.hand_id
    cards = {s.seat: list(s.hole_cards) for s in mine.seats}
    assert len(cards[0]) == 2 and cards[1] == []
    spectator = client.view(table_id)
    assert all(not s.hole_cards for s in spectator.seats)
    assert not spectator.hand.HasField("legal_actions")
    audit = client.view(table_id, "test-auditor-token")
    assert all(len(s.hole_cards) == 2 for s in audit.seats)
    watcher.cancel()


def test_sit_out_between_hands_and_close_returns_every_stack(client: Client) -> None:
    table_id = client.create(seats=2, action_time_ms=60_000)
    tokens = client.seat(table_id, [500, 700])
    watcher = Watcher(client, table_id)
    watcher.wait(lambda ev: count(ev, "turn_started") >= 1)
    client.stub.SitOut(pb.SitOutRequest(table_id=table_id, seat=1), metadata=auth(tokens[1]))
    code, message = status(lambda: client.stub.AddChips(pb.AddChipsRequest(
        table_id=table_id, seat=1, amount=100, idempotency_key="k"), metadata=SVC))
    assert code == grpc.StatusCode.FAILED_PRECONDITION and "between hands" in message
    code, message = status(lambda: client.stub.CloseTable(pb.CloseTableRequest(
        table_id=table_id), metadata=SVC))
    assert code == grpc.StatusCode.FAILED_PRECONDITION and "void_hand_in_progress" in message
    reply = client.stub.CloseTable(pb.CloseTableRequest(
        table_id=table_id, void_hand_in_progress=True), metadata=SVC)
    assert sorted((s.seat, s.stack) for s in reply.stacks) == [(0, 500), (1, 700)]
    watcher.wait(lambda ev: count(ev, "table_closed") == 1)
    assert count(watcher.events, "hand_voided") == 1


def test_sit_out_after_a_hand_answers_the_last_hand_dealt_and_is_logged(
        client: Client) -> None:
    """SitOut with after_hand: the answer names the last hand the seat is dealt (the one
    asked for; the running one when that had begun), SitOutScheduled is on the log, 0 is
    INVALID_ARGUMENT, and SitIn cancels what is still to come."""
    table_id = client.create(seats=2, action_time_ms=60_000)
    tokens = client.seat(table_id, [500, 700])
    watcher = Watcher(client, table_id)
    watcher.wait(lambda ev: count(ev, "turn_started") >= 1)  # hand 1 runs

    def sit_out(seat: int, **after: int) -> pb.SitOutResponse:
        answer: pb.SitOutResponse = client.stub.SitOut(
            pb.SitOutRequest(table_id=table_id, seat=seat, **after), metadata=auth(tokens[seat]))
        return answer

    assert sit_out(1, after_hand=3).after_hand == 3
    assert not sit_out(1).HasField("after_hand")  # no after_hand asked: none answered
    code, message = status(lambda: sit_out(0, after_hand=0))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "after_hand" in message
    client.stub.SitIn(pb.SitInRequest(table_id=table_id, seat=1), metadata=auth(tokens[1]))
    assert sit_out(0, after_hand=5).after_hand == 5
    seats = client.view(table_id).seats  # the view shows it, to everyone
    assert seats[0].sits_out_after_hand == 5 and not seats[1].HasField("sits_out_after_hand")
    client.stub.SitIn(pb.SitInRequest(table_id=table_id, seat=0), metadata=auth(tokens[0]))
    assert not client.view(table_id).seats[0].HasField("sits_out_after_hand")
    watcher.wait(lambda ev: count(ev, "sit_out_scheduled") >= 3)
    scheduled = [(e.sit_out_scheduled.seat, e.sit_out_scheduled.after_hand)
                 for e in watcher.events if e.HasField("sit_out_scheduled")]
    assert scheduled == [(1, 3), (0, 5), (0, 0)]  # seat 1's was ended by its plain SitOut
    watcher.cancel()


def test_add_chips_is_idempotent_by_key_R30(client: Client) -> None:
    table_id = client.create(seats=2)
    client.seat(table_id, [500])
    request = pb.AddChipsRequest(table_id=table_id, seat=0, amount=100, idempotency_key="r1")
    assert client.stub.AddChips(request, metadata=SVC).stack == 600
    assert client.stub.AddChips(request, metadata=SVC).stack == 600
    code, message = status(lambda: client.stub.AddChips(pb.AddChipsRequest(
        table_id=table_id, seat=0, amount=200, idempotency_key="r1"), metadata=SVC))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "r1" in message
    code, _ = status(lambda: client.stub.AddChips(pb.AddChipsRequest(
        table_id=table_id, seat=0, amount=200), metadata=SVC))
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    assert client.view(table_id).seats[0].stack == 600


def test_watch_resumes_without_gap_or_duplicate(client: Client) -> None:
    # nobody acts: the clocks (150 ms) make the table go on
    table_id = client.create(seats=2, test_mode=True, deck_seed=3, action_time_ms=150)
    client.seat(table_id, [1000, 1000])
    first = Watcher(client, table_id)
    first.wait(lambda ev: len(ev) >= 5)
    first.cancel()
    last = first.events[-1].sequence
    second = Watcher(client, table_id, after=last)
    second.wait(lambda ev: len(ev) >= 1)
    assert second.events[0].sequence == last + 1
    full = Watcher(client, table_id)
    full.wait(lambda ev: len(ev) >= last + 1)
    assert [e.sequence for e in full.events[: last + 1]] == list(range(1, last + 2))
    second.cancel()
    full.cancel()
    code, message = status(lambda: next(iter(client.stub.WatchTable(pb.WatchTableRequest(
        table_id=table_id, after_sequence=10**9)))))
    assert code == grpc.StatusCode.FAILED_PRECONDITION and "beyond" in message


def test_auditor_sees_the_deck(client: Client) -> None:
    table_id = client.create(seats=2, test_mode=True, deck_seed=9)
    client.seat(table_id, [1000, 1000])
    response = next(iter(client.stub.WatchTable(pb.WatchTableRequest(table_id=table_id),
                                                metadata=AUDIT)))
    while True:
        events = list(response.events)
        if any(e.HasField("deck_set") for e in events):
            break
        pytest.fail("no deck_set in the auditor's first batch")
    deck = next(e.deck_set for e in events if e.HasField("deck_set"))
    assert len(deck.deck) == 52


def _bot(client: Client, table_id: str, seat: int, token: str, actions: int,
         out: dict[int, tuple[list[pb.TableEvent], list[pb.PlayActionResult]]]) -> None:
    """A Play-stream bot: first an illegal raise (refused in its result), then checks/calls."""
    requests: queue.Queue[pb.PlayRequest | None] = queue.Queue()

    def outgoing() -> Iterator[pb.PlayRequest]:
        yield pb.PlayRequest(start=pb.PlayStart(table_id=table_id))
        while (item := requests.get()) is not None:
            yield item

    events: list[pb.TableEvent] = []
    results: list[pb.PlayActionResult] = []
    stream = client.stub.Play(outgoing(), metadata=auth(token))
    for response in stream:
        events.extend(response.events)
        if response.HasField("action_result"):
            results.append(response.action_result)
            if len(results) >= actions:
                break
        for e in response.events:
            turn = e.turn_started
            if not e.HasField("turn_started") or turn.seat != seat:
                continue
            legal = turn.legal_actions
            if not results and legal.decision == pb.DECISION_BET:
                requests.put(pb.PlayRequest(action=pb.PlayAction(
                    hand_id=e.hand_id, action_number=turn.action_number,
                    kind=pb.ACTION_KIND_RAISE, amount=1)))
            kind = pb.ACTION_KIND_CHECK if legal.can_check else pb.ACTION_KIND_CALL
            if legal.decision == pb.DECISION_SHOW_OR_MUCK:
                kind = pb.ACTION_KIND_SHOW
            requests.put(pb.PlayRequest(action=pb.PlayAction(
                hand_id=e.hand_id, action_number=turn.action_number, kind=kind)))
    requests.put(None)
    stream.cancel()
    out[seat] = (events, results)


def test_play_stream_events_down_actions_up(client: Client) -> None:
    table_id = client.create(seats=2, test_mode=True, deck_seed=31)
    tokens = client.seat(table_id, [1000, 1000])
    out: dict[int, tuple[list[pb.TableEvent], list[pb.PlayActionResult]]] = {}
    bots = [threading.Thread(target=_bot, args=(client, table_id, seat, tokens[seat], 5, out))
            for seat in (0, 1)]
    for bot in bots:
        bot.start()
    for bot in bots:
        bot.join(30)
    for seat in (0, 1):
        events, results = out[seat]
        assert results[0].code == grpc.StatusCode.FAILED_PRECONDITION.value[0]
        assert "below the minimum raise" in results[0].message
        assert all(r.code == 0 and r.sequence > 0 for r in results[1:]), results
        assert [e.sequence for e in events] == list(range(1, len(events) + 1))
        other = [e for e in events if e.HasField("hole_cards_dealt")
                 and e.hole_cards_dealt.seat != seat]
        assert other and all(not e.hole_cards_dealt.cards for e in other)
        assert count(events, "turn_timed_out") == 0
    code, message = status(lambda: next(client.stub.Play(
        iter([pb.PlayRequest(start=pb.PlayStart(table_id=table_id))]))))
    assert code == grpc.StatusCode.UNAUTHENTICATED
    code, message = status(lambda: next(client.stub.Play(
        iter([pb.PlayRequest(action=pb.PlayAction())]), metadata=auth(tokens[0]))))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "start" in message
