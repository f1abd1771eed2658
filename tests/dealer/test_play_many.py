"""PlayMany end to end on a real dealer process: a bot farm drives many seats, at several
tables, over one stream; each seat sees only what its own stream would show it."""

from __future__ import annotations

import queue
import random
from collections.abc import Iterator

import grpc
import pytest

from poker.v1 import dealer_pb2 as pb
from tests.dealer.helpers import AUDITOR_TOKEN, SVC, Client, Watcher, auth, count

#: The default stream lingering, so that lingering seats ride along on others' messages.
DEALER_ARGS = ("--stream-linger-ms", "10")

Key = tuple[str, int]


class Farm:
    """A PlayMany stream read in this thread: requests queued, responses iterated."""

    def __init__(self, client: Client, seats: list[pb.PlaySeat]) -> None:
        self.requests: queue.Queue[pb.PlayManyRequest | None] = queue.Queue()
        self.requests.put(pb.PlayManyRequest(open=seats))
        self.call = client.stub.PlayMany(self._outgoing(), timeout=60)

    def _outgoing(self) -> Iterator[pb.PlayManyRequest]:
        while (item := self.requests.get()) is not None:
            yield item

    def close(self) -> None:
        self.requests.put(None)
        self.call.cancel()


def passive(legal: pb.LegalActions, rng: random.Random) -> tuple[int, int]:
    """Checks or calls, raises a little, shows or mucks: nobody busts in a few hands."""
    if legal.decision == pb.DECISION_SHOW_OR_MUCK:
        return (pb.ACTION_KIND_SHOW if rng.random() < 0.5 else pb.ACTION_KIND_MUCK), 0
    if legal.bet_kind and rng.random() < 0.1:
        return legal.bet_kind, legal.min_to
    return (pb.ACTION_KIND_CHECK if legal.can_check else pb.ACTION_KIND_CALL), 0


def status(call: object) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.RpcError) as info:
        call()  # type: ignore[operator]
    return info.value.code(), info.value.details()


def test_play_many_drives_seats_at_two_tables_each_redacted_for_its_seat(
        client: Client) -> None:
    tables = {client.create(seats=3, test_mode=True, deck_seed=41): [100_000] * 3,
              client.create(seats=2, test_mode=True, deck_seed=42): [80_000, 120_000]}
    tokens = {table_id: client.seat(table_id, stacks) for table_id, stacks in tables.items()}
    auditors = {table_id: Watcher(client, table_id, AUDITOR_TOKEN)
                for table_id in tables}
    farm = Farm(client, [pb.PlaySeat(table_id=t, seat_token=token)
                         for t, seated in tokens.items() for token in seated.values()])
    rng = random.Random(5)
    seen: dict[Key, list[pb.TableEvent]] = {(t, s): [] for t, seated in tokens.items()
                                            for s in seated}
    results: list[pb.SeatActionResult] = []
    refused_once = False
    hands_wanted = 6
    for response in farm.call:
        actions = []
        for batch in response.events:
            key = (batch.table_id, batch.seat)
            seen[key].extend(batch.events)
            for event in batch.events:
                if event.HasField("turn_started") and event.turn_started.seat == batch.seat:
                    turn = event.turn_started
                    kind, amount = passive(turn.legal_actions, rng)
                    actions.append(pb.PlaySeatAction(
                        table_id=batch.table_id, seat=batch.seat, action=pb.PlayAction(
                            hand_id=event.hand_id, action_number=turn.action_number,
                            kind=kind, amount=amount)))
        if actions and not refused_once:  # a seat this stream never opened
            refused_once = True
            actions.insert(0, pb.PlaySeatAction(table_id=actions[0].table_id, seat=7,
                                                action=actions[0].action))
        results.extend(response.results)
        if actions:
            farm.requests.put(pb.PlayManyRequest(actions=actions))
        if all(count(seen[(t, 0)], "hand_ended") >= hands_wanted for t in tables):
            break
    farm.close()

    # Every seat got its table's events in order, with no gap and nothing twice.
    for (table_id, seat), events in seen.items():
        assert [e.sequence for e in events] == list(range(1, len(events) + 1)), (table_id, seat)
    # Redaction per seat: its own hole cards, nobody else's until shown (R27, R28).
    for (table_id, seat), events in seen.items():
        own = [e for e in events if e.HasField("hole_cards_dealt")
               and e.hole_cards_dealt.seat == seat]
        other = [e for e in events if e.HasField("hole_cards_dealt")
                 and e.hole_cards_dealt.seat != seat]
        assert own and all(len(e.hole_cards_dealt.cards) == 2 for e in own)
        assert other and all(not e.hole_cards_dealt.cards for e in other), (table_id, seat)
        assert not any(e.HasField("deck_set") for e in events)
        assert all(not e.cards_mucked.cards for e in events if e.HasField("cards_mucked"))
    # Answers: the unopened seat refused, every other decision accepted or stale.
    refused = [r for r in results if r.seat == 7]
    assert refused and refused[0].result.code == grpc.StatusCode.PERMISSION_DENIED.value[0]
    assert "not open on this stream" in refused[0].result.message
    accepted = [r for r in results if r.result.code == 0]
    assert len(accepted) > 10 and all(r.result.sequence > 0 for r in accepted)
    # The farm's decisions are the table's: the auditor saw them, and chips add up.
    for table_id, stacks in tables.items():
        auditor = auditors[table_id]
        last = max(e.sequence for e in seen[(table_id, 0)])
        auditor.wait(lambda ev, n=last: bool(ev) and ev[-1].sequence >= n)
        taken = [e for e in auditor.events if e.HasField("action_taken")]
        assert len(taken) >= hands_wanted
        view = client.view(table_id)
        in_pots = sum(p.amount for p in view.hand.pots) if view.HasField("hand") else 0
        bets = sum(s.bet for s in view.seats)
        assert sum(s.stack for s in view.seats) + bets + in_pots == sum(stacks)
        auditor.cancel()


def test_play_many_refusals_name_the_seat(client: Client) -> None:
    table_id = client.create(seats=2, test_mode=True, deck_seed=43)
    other_table = client.create(seats=2, test_mode=True, deck_seed=44)
    tokens = client.seat(table_id, [1000, 1000])
    others = client.seat(other_table, [1000, 1000])

    def first(*requests: pb.PlayManyRequest) -> pb.PlayManyResponse:
        return next(iter(client.stub.PlayMany(iter(requests), timeout=10)))

    code, message = status(lambda: first(pb.PlayManyRequest(actions=[pb.PlaySeatAction()])))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "open" in message
    code, message = status(lambda: first(pb.PlayManyRequest(open=[
        pb.PlaySeat(table_id=table_id, seat_token="not-a-token")])))
    assert code == grpc.StatusCode.UNAUTHENTICATED and table_id in message
    code, message = status(lambda: first(pb.PlayManyRequest(open=[
        pb.PlaySeat(table_id=table_id, seat_token=others[0])])))
    assert code == grpc.StatusCode.PERMISSION_DENIED and "another table" in message
    code, message = status(lambda: first(pb.PlayManyRequest(open=[
        pb.PlaySeat(table_id="no-such-table", seat_token=tokens[0])])))
    assert code == grpc.StatusCode.NOT_FOUND and "no-such-table" in message
    code, message = status(lambda: first(pb.PlayManyRequest(open=[
        pb.PlaySeat(table_id=table_id)])))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "seat_token" in message
    code, message = status(lambda: first(pb.PlayManyRequest(open=[
        pb.PlaySeat(table_id=table_id, seat_token=tokens[0], after_sequence=10**6)])))
    assert code == grpc.StatusCode.FAILED_PRECONDITION and "after_sequence" in message
    # The same seat twice; a seat token in metadata is not needed and not used.
    stream = client.stub.PlayMany(iter([
        pb.PlayManyRequest(open=[pb.PlaySeat(table_id=table_id, seat_token=tokens[1])]),
        pb.PlayManyRequest(open=[pb.PlaySeat(table_id=table_id, seat_token=tokens[1])]),
    ]), metadata=auth(tokens[0]), timeout=10)
    with pytest.raises(grpc.RpcError) as info:
        for _response in stream:
            pass
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "open on this stream already" in (info.value.details() or "")


def test_play_many_resumes_each_seat_from_its_own_sequence(client: Client) -> None:
    table_id = client.create(seats=2, test_mode=True, deck_seed=45)
    tokens = client.seat(table_id, [1000, 1000])
    watcher = Watcher(client, table_id)
    watcher.wait(lambda ev: any(e.HasField("turn_started") for e in ev))
    last = watcher.events[-1].sequence
    watcher.cancel()
    farm = Farm(client, [pb.PlaySeat(table_id=table_id, seat_token=tokens[0],
                                     after_sequence=last - 1),
                         pb.PlaySeat(table_id=table_id, seat_token=tokens[1])])
    firsts: dict[int, int] = {}
    for response in farm.call:
        for batch in response.events:
            firsts.setdefault(batch.seat, batch.events[0].sequence)
        if len(firsts) == 2:
            break
    farm.close()
    assert firsts == {0: last, 1: 1}


def test_play_many_goes_on_after_one_of_its_tables_closes(client: Client) -> None:
    first = client.create(seats=2, test_mode=True, deck_seed=46)
    second = client.create(seats=2, test_mode=True, deck_seed=47)
    tokens = {first: client.seat(first, [1000, 1000]), second: client.seat(second, [1000, 1000])}
    farm = Farm(client, [pb.PlaySeat(table_id=t, seat_token=tokens[t][0])
                         for t in (first, second)])
    closed: list[str] = []
    for response in farm.call:
        for batch in response.events:
            if any(e.HasField("table_closed") for e in batch.events):
                closed.append(batch.table_id)
        if not closed and any(b.table_id == first for b in response.events):
            client.stub.CloseTable(pb.CloseTableRequest(
                table_id=first, void_hand_in_progress=True), metadata=SVC, timeout=10)
        if closed == [first]:
            client.stub.CloseTable(pb.CloseTableRequest(
                table_id=second, void_hand_in_progress=True), metadata=SVC, timeout=10)
            closed.append("asked")
        if closed[-1:] == [second]:
            break
    farm.close()
    assert closed == [first, "asked", second]
