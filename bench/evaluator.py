"""Benchmark: the hand evaluator against phevaluator, eval7, treys and PokerKit, in one run.

Every evaluator ranks the same random 7-card hands, each given its native input
made before the clock starts (as a user would keep it). Printed: evaluations per
second of each, the ratios, gRPC throughput against a separate server process on
loopback, exact equity times and the server's resident memory. Rates are
wall-clock, best of a few repeats (the machine is shared).

    .venv/bin/python bench/evaluator.py [--hands N] [--json PATH] [--full-enumeration]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from poker.cards import CARD_TEXT, parse_cards  # noqa: E402
from services.evaluator import core  # noqa: E402
from services.evaluator.equity import Method, equity  # noqa: E402

Hands = npt.NDArray[np.uint8]


def random_hands(count: int, size: int = 7, seed: int = 1) -> Hands:
    """`count` uniform hands of distinct cards (made in pieces to keep memory small)."""
    rng = np.random.default_rng(seed)
    out = np.empty((count, size), dtype=np.uint8)
    for start in range(0, count, 1 << 16):
        n = min(1 << 16, count - start)
        out[start : start + n] = np.argsort(rng.random((n, 52)), axis=1)[:, :size]
    return out


def best_rate(work: Callable[[], object], count: int, repeats: int = 3) -> float:
    """Evaluations per second of `work` (which evaluates `count` hands), best of `repeats`."""
    best = math.inf
    for _ in range(repeats):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return count / best


def bench_in_process(hands: Hands, per_call: int) -> dict[str, float]:
    """Batch and one-call-per-hand rates of this evaluator and of the other libraries."""
    import eval7
    import treys
    from phevaluator import evaluate_cards
    from pokerkit import Card, StandardHighHand

    rates: dict[str, float] = {}
    core.evaluate_batch(hands[:1000])  # tables built before timing
    rates["batch"] = best_rate(lambda: core.evaluate_batch(hands), len(hands), 5)
    rates["batch_unchecked"] = best_rate(
        lambda: core.evaluate_batch(hands, check=False), len(hands), 5
    )
    lists = hands[:per_call].tolist()
    evaluate = core.evaluate

    def single() -> None:
        for hand in lists:
            evaluate(hand)

    def phevaluator() -> None:
        for hand in lists:
            evaluate_cards(*hand)

    deck7 = [eval7.Card(text) for text in CARD_TEXT]
    e7_hands = [[deck7[c] for c in hand] for hand in lists]
    e7 = eval7.evaluate

    def eval7_() -> None:
        for hand in e7_hands:
            e7(hand)

    # Interleaved rounds, best of each: load from other work hits all of them alike.
    for _ in range(5):
        for name, work in (("single", single), ("phevaluator", phevaluator), ("eval7", eval7_)):
            rates[name] = max(rates.get(name, 0.0), best_rate(work, len(lists), 1))
    treys_eval = treys.Evaluator()
    treys_cards = [treys.Card.new(text) for text in CARD_TEXT]
    t_hands = [([treys_cards[c] for c in h[2:]], [treys_cards[c] for c in h[:2]])
               for h in lists[: max(1, per_call // 10)]]

    def treys_() -> None:
        for board, hole in t_hands:
            treys_eval.evaluate(board, hole)

    rates["treys"] = best_rate(treys_, len(t_hands), 1)
    pk_deck = [next(iter(Card.parse(text))) for text in CARD_TEXT]
    pk_hands = [([pk_deck[c] for c in h[:2]], [pk_deck[c] for c in h[2:]])
                for h in lists[: max(1, per_call // 100)]]

    def pokerkit_() -> None:
        for hole, board in pk_hands:
            StandardHighHand.from_game(hole, board)

    rates["pokerkit"] = best_rate(pokerkit_, len(pk_hands), 1)
    return rates


def bench_grpc(hands: Hands, batch: int, rounds: int) -> dict[str, float]:
    """Throughput over gRPC on loopback against a separate server process, and its RSS."""
    import grpc

    from poker.procs import start_service
    from poker.v1 import evaluator_pb2 as pb
    from poker.v1 import evaluator_pb2_grpc

    proc = start_service("evaluator")
    try:
        options = [("grpc.max_send_message_length", 64 << 20),
                   ("grpc.max_receive_message_length", 64 << 20)]
        chunks = [hands[i : i + batch].tobytes() for i in range(0, len(hands), batch)]
        with grpc.insecure_channel(proc.address, options=options) as channel:
            stub = evaluator_pb2_grpc.EvaluatorServiceStub(channel)  # type: ignore[no-untyped-call]
            stream_requests = [pb.EvaluateBatchStreamRequest(cards_per_hand=7, hands=c)
                               for c in chunks]
            unary_requests = [pb.EvaluateBatchRequest(cards_per_hand=7, hands=c) for c in chunks]

            def requests() -> Iterator[pb.EvaluateBatchStreamRequest]:
                for _ in range(rounds):
                    yield from stream_requests

            def stream() -> None:
                for _ in stub.EvaluateBatchStream(requests()):
                    pass

            def unary_pipelined(window: int = 4) -> None:
                pending: list[Any] = []
                for _ in range(rounds):
                    for request in unary_requests:
                        pending.append(stub.EvaluateBatch.future(request))
                        if len(pending) >= window:
                            pending.pop(0).result()
                for future in pending:
                    future.result()

            total = rounds * len(hands)
            stream()  # warm
            rates = {
                "grpc_stream": best_rate(stream, total),
                "grpc_unary": best_rate(unary_pipelined, total),
            }
            stub.Equity(pb.EquityRequest(players=[pb.EquityPlayer(cards=["Ah", "Kh"]),
                                                  pb.EquityPlayer(cards=["Qs", "Qd"]),
                                                  pb.EquityPlayer(cards=["Jc", "Tc"])]))
        with open(f"/proc/{proc.popen.pid}/status") as status:
            rss_kb = int(next(line for line in status if line.startswith("VmRSS")).split()[1])
        rates["rss_mb"] = rss_kb / 1024
    finally:
        proc.stop()
    return rates


def bench_equity() -> dict[str, float]:
    """Seconds for the exact preflop questions (tables warm), and a Monte Carlo rate."""
    hu = [parse_cards("AhKh"), parse_cards("QsQd")]
    three = [*hu, parse_cards("JcTc")]
    started = time.perf_counter()
    equity(hu, method=Method.EXACT)
    cold = time.perf_counter() - started
    times = {"equity_hu_exact_cold_s": cold}
    for name, players in (("equity_hu_exact_s", hu), ("equity_3way_exact_s", three)):
        best = math.inf
        for _ in range(3):
            started = time.perf_counter()
            equity(players, method=Method.EXACT)
            best = min(best, time.perf_counter() - started)
        times[name] = best
    started = time.perf_counter()
    equity(three, method=Method.MONTE_CARLO, trials=1_000_000, seed=1)
    times["equity_mc_3way_trials_per_s"] = 1_000_000 / (time.perf_counter() - started)
    started = time.perf_counter()
    equity(["AA", "KK"], method=Method.EXACT)
    times["equity_AA_vs_KK_exact_s"] = time.perf_counter() - started
    return times


def full_enumeration() -> float:
    """Seconds to rank all 133,784,560 seven-card hands (as the test suite also does)."""
    from services.evaluator.boards import CARD_BIT, combination_table

    started = time.perf_counter()
    table = combination_table(52, 5)
    table = table[:, np.lexsort(tuple(table))]
    five = np.zeros(table.shape[1], dtype=np.uint64)
    for row in table:
        five += np.take(CARD_BIT, row)
    counts = np.zeros(7463, dtype=np.int64)
    for b in range(52):
        for a in range(5, b):
            ranks = core.ranks_of_bits(five[: math.comb(a, 5)] + CARD_BIT[a] + CARD_BIT[b], 7)
            counts += np.bincount(ranks, minlength=7463)
    assert counts.sum() == 133_784_560
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000, help="hands in the batch")
    parser.add_argument("--per-call", type=int, default=200_000,
                        help="hands for one-call-per-hand evaluators (treys /10, PokerKit /100)")
    parser.add_argument("--grpc-batch", type=int, default=10_000, help="hands per gRPC message")
    parser.add_argument("--grpc-rounds", type=int, default=3, help="passes over the hands")
    parser.add_argument("--full-enumeration", action="store_true",
                        help="also time ranking all 133,784,560 seven-card hands")
    parser.add_argument("--json", type=Path, help="write the figures as one JSON object here")
    args = parser.parse_args(argv)

    hands = random_hands(args.hands)
    r = bench_in_process(hands, args.per_call)
    g = bench_grpc(hands, args.grpc_batch, args.grpc_rounds)
    e = bench_equity()
    figures: dict[str, float] = {
        "batch_evals_per_s": r["batch"],
        "batch_unchecked_evals_per_s": r["batch_unchecked"],
        "single_evals_per_s": r["single"],
        "grpc_evals_per_s": max(g["grpc_stream"], g["grpc_unary"]),
        "grpc_stream_evals_per_s": g["grpc_stream"],
        "grpc_unary_pipelined_evals_per_s": g["grpc_unary"],
        "phevaluator_evals_per_s": r["phevaluator"],
        "eval7_evals_per_s": r["eval7"],
        "treys_evals_per_s": r["treys"],
        "pokerkit_evals_per_s": r["pokerkit"],
        "batch_vs_phevaluator": r["batch"] / r["phevaluator"],
        "single_vs_eval7": r["single"] / r["eval7"],
        "rss_mb": g["rss_mb"],
        **e,
    }
    if args.full_enumeration:
        figures["full_enumeration_7_card_s"] = full_enumeration()

    def m(x: float) -> str:
        return f"{x / 1e6:8.2f} M/s" if x >= 1e5 else f"{x / 1e3:8.2f} k/s"

    print(f"7-card hands: {args.hands:,} random (seed 1); gRPC batches of {args.grpc_batch:,}")
    print(f"  this evaluator, numpy batch   {m(r['batch'])}   "
          f"(unchecked {m(r['batch_unchecked'])})")
    print(f"  this evaluator, one per call  {m(r['single'])}")
    print(f"  this evaluator, over gRPC     {m(figures['grpc_evals_per_s'])}   "
          f"(stream {m(g['grpc_stream'])}, pipelined unary {m(g['grpc_unary'])})")
    print(f"  phevaluator evaluate_cards    {m(r['phevaluator'])}")
    print(f"  eval7 evaluate                {m(r['eval7'])}")
    print(f"  treys Evaluator.evaluate      {m(r['treys'])}")
    print(f"  PokerKit StandardHighHand     {m(r['pokerkit'])}")
    print("ratios")
    print(f"  batch / phevaluator           {figures['batch_vs_phevaluator']:8.1f} x"
          "   (goal >= 20)")
    print(f"  one per call / eval7          {figures['single_vs_eval7']:8.2f} x   (goal > 1)")
    print(f"  batch / treys                 {r['batch'] / r['treys']:8.0f} x")
    print(f"  batch / PokerKit              {r['batch'] / r['pokerkit']:8.0f} x")
    print("equity (in process, tables warm)")
    print(f"  AhKh vs QsQd exact            {e['equity_hu_exact_s']:8.3f} s   "
          f"(first call, tables cold: {e['equity_hu_exact_cold_s']:.3f} s; goal <= 0.25)")
    print(f"  AhKh, QsQd, JcTc exact        {e['equity_3way_exact_s']:8.3f} s   (goal <= 0.35)")
    print(f"  AA vs KK ranges exact         {e['equity_AA_vs_KK_exact_s']:8.3f} s")
    print(f"  3-way Monte Carlo             {m(e['equity_mc_3way_trials_per_s'])} trials")
    print(f"evaluator process resident      {g['rss_mb']:8.1f} MB   (goal < 150)")
    if args.full_enumeration:
        print(f"all 133,784,560 7-card hands    {figures['full_enumeration_7_card_s']:8.2f} s")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
