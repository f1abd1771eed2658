"""R38 over gRPC: a table that allows running it twice offers every all-in player a
RUN_IT decision (TurnStarted, its own clock), takes Act RUN_IT with 1 or 2, deals the
second board from the next deck positions (R3: a spectator's FairDeckChecker proves every
card opened, the second board's included), and settles each half pot on its board."""

from __future__ import annotations

from clients.convert import event_from_proto
from clients.fairdeck import FairDeckChecker
from poker.v1 import dealer_pb2 as pb
from tests.dealer.helpers import Client, Watcher, auth, count


def _turns(events: list[pb.TableEvent]) -> list[pb.TableEvent]:
    return [e for e in events if e.HasField("turn_started")]


def _act(client: Client, table_id: str, tokens: dict[int, str], event: pb.TableEvent,
         kind: int, amount: int = 0) -> None:
    turn = event.turn_started
    client.stub.Act(pb.ActRequest(table_id=table_id, seat=turn.seat, hand_id=event.hand_id,
                                  action_number=turn.action_number, kind=kind, amount=amount),
                    metadata=auth(tokens[turn.seat]), timeout=10)


def _all_in_hand(client: Client, answer: int | None, action_time_ms: int = 10_000
                 ) -> tuple[list[pb.TableEvent], FairDeckChecker]:
    """Two players all in before the flop; each RUN_IT answered `answer` (None: never)."""
    table_id = client.create(seats=2, test_mode=True, deck_seed=38, run_it_twice=True,
                             action_time_ms=action_time_ms)
    tokens = client.seat(table_id, [1000, 1001])
    watcher = Watcher(client, table_id)
    try:
        done = 0
        while True:
            watcher.wait(lambda evs, d=done: len(_turns(evs)) > d  # type: ignore[misc]
                         or count(evs, "hand_ended") >= 1, timeout=15)
            if count(watcher.events, "hand_ended"):
                break
            event = _turns(watcher.events)[done]
            done += 1
            if event.turn_started.decision == pb.DECISION_RUN_IT:
                assert event.turn_started.time_bank_ms == 0  # the bank is for betting only
                if answer is not None:
                    _act(client, table_id, tokens, event, pb.ACTION_KIND_RUN_IT, answer)
                continue
            legal = event.turn_started.legal_actions
            _act(client, table_id, tokens, event,
                 pb.ACTION_KIND_ALL_IN if legal.can_all_in else pb.ACTION_KIND_CALL)
        watcher.wait(lambda evs: count(evs, "deck_revealed") >= 1)
        events = list(watcher.events)
    finally:
        watcher.cancel()
    checker = FairDeckChecker()
    for e in events:
        checker.feed(event_from_proto(e))
    return events, checker


def test_R38_twice_over_grpc_deals_a_second_board_and_halves_the_pot(client: Client) -> None:
    events, checker = _all_in_hand(client, 2)
    chosen = [e.run_it_chosen for e in events if e.HasField("run_it_chosen")]
    assert [(c.times) for c in chosen] == [2, 2] and {c.seat for c in chosen} == {0, 1}
    second = [e.second_board_dealt for e in events if e.HasField("second_board_dealt")]
    assert [len(s.cards) for s in second] == [3, 1, 1] and all(s.salts for s in second)
    first = [c for e in events if e.HasField("board_dealt") for c in e.board_dealt.cards]
    assert len(first) == 5 and not set(first) & {c for s in second for c in s.cards}
    awards = [e.pot_awarded for e in events if e.HasField("pot_awarded")]
    assert sorted(a.run for a in awards) == [1, 2]
    assert sum(a.amount for a in awards) == 2000  # 1 chip went back uncalled (R21)
    ended = next(e.hand_ended for e in events if e.HasField("hand_ended"))
    assert sum(s.stack for s in ended.stacks) == 2001
    assert checker.verified == 1 and not checker.violations  # every card proven (R3)


def test_R38_once_when_one_player_says_once(client: Client) -> None:
    events, checker = _all_in_hand(client, 1)
    assert [e.run_it_chosen.times for e in events if e.HasField("run_it_chosen")] == [1]
    assert not any(e.HasField("second_board_dealt") for e in events)
    assert {e.pot_awarded.run for e in events if e.HasField("pot_awarded")} == {0}
    assert checker.verified == 1


def test_R38_no_answer_in_time_is_once(client: Client) -> None:
    events, _ = _all_in_hand(client, None, action_time_ms=300)
    timed_out = [e for e in events if e.HasField("turn_timed_out")]
    chosen = [e.run_it_chosen for e in events if e.HasField("run_it_chosen")]
    assert len(timed_out) == 1 and [c.times for c in chosen] == [1]
    assert not any(e.HasField("second_board_dealt") for e in events)
    assert not any(e.HasField("player_sat_out") for e in events)  # R32's sit-out: bets only
