"""End to end: the real evaluator process, every RPC through the generated stubs, every refusal."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import grpc
import numpy as np
import numpy.typing as npt
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from poker.procs import ServiceProcess, start_service
from poker.v1 import cards_pb2
from poker.v1 import evaluator_pb2 as pb
from poker.v1.evaluator_pb2_grpc import EvaluatorServiceStub
from services.evaluator import core

Hands = Callable[[int, int, int], npt.NDArray[np.uint8]]
SERVICE = "poker.v1.EvaluatorService"


def refused(call: Callable[[], object], code: grpc.StatusCode, *words: str) -> str:
    with pytest.raises(grpc.RpcError) as info:
        call()
    err: grpc.Call = info.value
    assert err.code() == code, err.details()
    for word in words:
        assert word in err.details(), err.details()
    return str(err.details())


def test_health_is_serving_and_reflection_lists_the_service(
    evaluator_process: ServiceProcess,
) -> None:
    with grpc.insecure_channel(evaluator_process.address) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        for name in ("", SERVICE):
            reply = health.Check(health_pb2.HealthCheckRequest(service=name), timeout=5)
            assert reply.status == health_pb2.HealthCheckResponse.SERVING
        reflection = reflection_pb2_grpc.ServerReflectionStub(channel)
        answers = reflection.ServerReflectionInfo(
            iter([reflection_pb2.ServerReflectionRequest(list_services="")]), timeout=5
        )
        names = {s.name for a in answers for s in a.list_services_response.service}
    assert SERVICE in names


def test_R25_evaluate_hand_explains_the_hand(stub: EvaluatorServiceStub) -> None:
    cards = ["Kh", "Kd", "5s", "5c", "Kc", "2d", "9h"]
    reply = stub.EvaluateHand(pb.EvaluateHandRequest(cards=cards))
    assert reply.rank == core.evaluate([45, 46, 15, 12, 44, 1, 30])
    assert reply.category == cards_pb2.HAND_CATEGORY_FULL_HOUSE
    assert list(reply.best_five) == ["Kh", "Kd", "Kc", "5s", "5c"]
    assert reply.description == "Full house, kings full of fives"
    wheel = stub.EvaluateHand(pb.EvaluateHandRequest(cards=["Ac", "2d", "3h", "4s", "5c"]))
    assert wheel.description == "Straight, five high"
    assert list(wheel.best_five) == ["5c", "4s", "3h", "2d", "Ac"]
    royal = stub.EvaluateHand(pb.EvaluateHandRequest(cards=["As", "Ks", "Qs", "Js", "Ts", "9s"]))
    assert (royal.rank, royal.category) == (7462, cards_pb2.HAND_CATEGORY_ROYAL_FLUSH)


@pytest.mark.parametrize(
    ("cards", "words"),
    [
        (["As", "Ks", "Qs", "Js", "As"], ("hand 0", "card As appears twice")),
        (["As", "Ks", "Qs", "Js"], ("hand 0", "4 cards")),
        (["As", "Ks", "Qs", "Js", "1x"], ("hand 0", "'1x' is not a card")),
    ],
)
def test_a_bad_hand_is_invalid_argument_saying_why(
    stub: EvaluatorServiceStub, cards: list[str], words: tuple[str, ...]
) -> None:
    refused(lambda: stub.EvaluateHand(pb.EvaluateHandRequest(cards=cards)),
            grpc.StatusCode.INVALID_ARGUMENT, *words)


@pytest.mark.parametrize("size", [5, 6, 7])
def test_batch_ranks_agree_with_the_core(
    stub: EvaluatorServiceStub, random_hands: Hands, size: int
) -> None:
    hands = random_hands(20_000, size, size)
    reply = stub.EvaluateBatch(pb.EvaluateBatchRequest(cards_per_hand=size, hands=hands.tobytes()))
    ranks = np.frombuffer(reply.ranks, dtype="<u2")
    assert ranks.tolist() == core.evaluate_batch(hands).tolist()


def test_a_bad_batch_is_invalid_argument_naming_its_first_bad_hand(
    stub: EvaluatorServiceStub, random_hands: Hands
) -> None:
    hands = random_hands(1000, 7, 3)

    def batch(data: npt.NDArray[np.uint8] | bytes, size: int = 7) -> Callable[[], object]:
        packed = data if isinstance(data, bytes) else data.tobytes()
        return lambda: stub.EvaluateBatch(pb.EvaluateBatchRequest(cards_per_hand=size,
                                                                  hands=packed))

    bad = hands.copy()
    bad[123, 6] = 60
    bad[456, 0] = bad[456, 1]
    refused(batch(bad), grpc.StatusCode.INVALID_ARGUMENT, "hand 123", "index 60 is out of range")
    bad[123] = hands[123]
    refused(batch(bad), grpc.StatusCode.INVALID_ARGUMENT, "hand 456", "appears twice")
    refused(batch(hands.tobytes()[:-1]), grpc.StatusCode.INVALID_ARGUMENT,
            "not a whole number of 7-card hands")
    refused(batch(hands, 4), grpc.StatusCode.INVALID_ARGUMENT, "cards_per_hand is 4")


def test_a_batch_over_the_limit_is_refused_saying_the_limit(
    stub: EvaluatorServiceStub, random_hands: Hands
) -> None:
    hands = random_hands(50_001, 5, 4)  # the fixture's server allows 50,000
    refused(
        lambda: stub.EvaluateBatch(pb.EvaluateBatchRequest(cards_per_hand=5,
                                                           hands=hands.tobytes())),
        grpc.StatusCode.INVALID_ARGUMENT, "50,001 hands in one message", "the limit is 50,000",
    )


def test_the_stream_answers_each_chunk_in_order(
    stub: EvaluatorServiceStub, random_hands: Hands
) -> None:
    chunks = [random_hands(30_000, size, 10 + i) for i, size in enumerate([7, 5, 6, 7, 7])]

    def requests() -> Iterator[pb.EvaluateBatchStreamRequest]:
        for chunk in chunks:
            yield pb.EvaluateBatchStreamRequest(cards_per_hand=chunk.shape[1],
                                                hands=chunk.tobytes())

    replies = list(stub.EvaluateBatchStream(requests()))
    assert [r.chunk for r in replies] == [0, 1, 2, 3, 4]
    for reply, chunk in zip(replies, chunks, strict=True):
        assert np.frombuffer(reply.ranks, "<u2").tolist() == core.evaluate_batch(chunk).tolist()


def test_a_bad_stream_chunk_is_refused_naming_the_chunk(
    stub: EvaluatorServiceStub, random_hands: Hands
) -> None:
    good, bad = random_hands(100, 7, 1), random_hands(100, 7, 2)
    bad[7, 2] = 99
    requests = [pb.EvaluateBatchStreamRequest(cards_per_hand=7, hands=h.tobytes())
                for h in (good, good, bad)]

    def call() -> object:
        return list(stub.EvaluateBatchStream(iter(requests)))

    refused(call, grpc.StatusCode.INVALID_ARGUMENT,
            "chunk 2, hand 7: card index 99 is out of range")


def test_R25_showdown_places_ties_and_winners(stub: EvaluatorServiceStub) -> None:
    reply = stub.Showdown(pb.ShowdownRequest(
        board=["Qh", "Jh", "Td", "3s", "4d"],
        holdings=[pb.Holding(cards=c.split()) for c in ("Ah Kc", "As Kd", "Qc Qd", "2c 2d")],
    ))
    assert [r.place for r in reply.results] == [1, 1, 3, 4]
    assert list(reply.winners) == [0, 1]
    assert reply.results[0].description == "Straight, ace high"
    assert reply.results[2].description == "Three of a kind, queens"
    assert list(reply.results[2].best_five) == ["Qh", "Qd", "Qc", "Jh", "Td"]


@pytest.mark.parametrize(
    ("board", "holdings", "words"),
    [
        ("Qh Jh Td 3s", ["Ah Kc", "2c 2d"], ("board has 5 cards",)),
        ("Qh Jh Td 3s 4d", ["Ah Kc", "Ah 2d"], ("holding 1", "card Ah is already dealt")),
        ("Qh Jh Td 3s 4d", ["Ah Kc", "Qh 2d"], ("holding 1", "card Qh appears twice")),
        ("Qh Jh Td 3s 4d", ["Ah Kc 2c"], ("holding 0", "3 cards")),
        ("Qh Jh Td 3s 4x", ["Ah Kc"], ("board", "'4x' is not a card")),
    ],
)
def test_a_bad_showdown_is_invalid_argument_saying_why(
    stub: EvaluatorServiceStub, board: str, holdings: list[str], words: tuple[str, ...]
) -> None:
    request = pb.ShowdownRequest(board=board.split(),
                                 holdings=[pb.Holding(cards=h.split()) for h in holdings])
    refused(lambda: stub.Showdown(request), grpc.StatusCode.INVALID_ARGUMENT, *words)


def player(cards: str = "", range_text: str = "") -> pb.EquityPlayer:
    return pb.EquityPlayer(cards=cards.split(), range=range_text)


def test_equity_exact_monte_carlo_and_ranges(stub: EvaluatorServiceStub) -> None:
    exact = stub.Equity(pb.EquityRequest(players=[player("Ah Kh"), player("Qs Qd")]))
    assert exact.method == pb.EQUITY_METHOD_EXACT and exact.deals == 1_712_304
    assert (exact.results[0].wins, exact.results[0].ties) == (787_966, 6_732)
    assert round(100 * exact.results[0].equity, 4) == 46.2145
    sampled = stub.Equity(pb.EquityRequest(
        players=[player("Ah Kh"), player("Qs Qd")], method=pb.EQUITY_METHOD_MONTE_CARLO,
        trials=100_000, seed=3,
    ))
    assert sampled.method == pb.EQUITY_METHOD_MONTE_CARLO and sampled.seed == 3
    assert sampled.deals == 100_000
    error = sampled.results[0].std_error
    assert abs(sampled.results[0].equity - exact.results[0].equity) < 3 * error
    ranged = stub.Equity(pb.EquityRequest(players=[player(range_text="AA"),
                                                   player(range_text="KK")],
                                          method=pb.EQUITY_METHOD_EXACT))
    assert 0.819 < ranged.results[0].equity < 0.820
    drawn = stub.Equity(pb.EquityRequest(players=[player("Ah Kh"), player("Qs Qd")],
                                         method=pb.EQUITY_METHOD_MONTE_CARLO, trials=1000))
    assert drawn.seed != 0  # a random seed is reported so the answer can be repeated


@pytest.mark.parametrize(
    ("request_", "words"),
    [
        (pb.EquityRequest(players=[player("Kh Kd"), player(range_text="AA")],
                          board=["As", "Ah", "2c"], dead=["Ad"]),
         ("player 1", "range 'AA' is impossible")),
        (pb.EquityRequest(players=[player("Kh Kd"), player(range_text="AKx")]),
         ("player 1", "'AKx' is not range notation")),
        (pb.EquityRequest(players=[player("Kh Kd")]), ("2 to 10 players",)),
        (pb.EquityRequest(players=[player("Kh Kd"), player("Kh Qd")]),
         ("player 1", "card Kh is already held by player 0")),
        (pb.EquityRequest(players=[player("Kh Kd"), player("Qs Qd")],
                          method=pb.EQUITY_METHOD_MONTE_CARLO, trials=3_000_000),
         ("3,000,000 trials asked; the limit is 2,000,000",)),
        (pb.EquityRequest(players=[player(range_text="22+, A2+, K2+")] * 4,
                          method=pb.EQUITY_METHOD_EXACT),
         ("exact equity would enumerate", "the limit is 20,000")),
    ],
)
def test_a_bad_equity_request_is_invalid_argument_saying_why(
    stub: EvaluatorServiceStub, request_: pb.EquityRequest, words: tuple[str, ...]
) -> None:
    refused(lambda: stub.Equity(request_), grpc.StatusCode.INVALID_ARGUMENT, *words)


def test_the_process_stays_under_150_mb_resident_under_concurrent_work(
    stub: EvaluatorServiceStub, evaluator_process: ServiceProcess, random_hands: Hands
) -> None:
    hands = random_hands(50_000, 7, 8)
    batch = pb.EvaluateBatchRequest(cards_per_hand=7, hands=hands.tobytes())
    three_way = pb.EquityRequest(players=[player("Ah Kh"), player("Qs Qd"), player("Jc Tc")])
    calls = [stub.EvaluateBatch.future(batch) for _ in range(8)]
    calls += [stub.Equity.future(three_way) for _ in range(4)]
    expected = core.evaluate_batch(hands).tolist()
    for call in calls[:8]:
        assert np.frombuffer(call.result(timeout=60).ranks, "<u2").tolist() == expected
    for call in calls[8:]:
        assert call.result(timeout=60).deals == 1_370_754
    with open(f"/proc/{evaluator_process.popen.pid}/status") as status:
        rss_kb = int(next(line for line in status if line.startswith("VmRSS")).split()[1])
    assert rss_kb < 150 * 1024, f"resident {rss_kb / 1024:.0f} MB"


def test_sigterm_stops_the_server_with_exit_code_0() -> None:
    proc = start_service("evaluator")
    with grpc.insecure_channel(proc.address) as channel:
        stub = EvaluatorServiceStub(channel)  # type: ignore[no-untyped-call]
        reply = stub.EvaluateHand(pb.EvaluateHandRequest(cards=["As", "Ks", "Qs", "Js", "Ts"]),
                                  timeout=10)
    assert reply.rank == 7462
    assert proc.stop(timeout=15) == 0
    assert any(line.startswith("listening on 127.0.0.1:") for line in proc.output)
