"""`poker evaluator-demo`: starts an evaluator alone and shows what it does.

The evaluator on its own (`poker demo` plays the whole suite): it starts one as a
local process, ranks a few hands, settles a showdown, answers equity questions exactly and by
Monte Carlo, streams a large batch through it and reports the speed, then stops
the process it started (also on an error or Ctrl-C).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import numpy as np

from poker.procs import ServiceProcess, start_service
from poker.v1 import cards_pb2, evaluator_pb2_grpc
from poker.v1 import evaluator_pb2 as pb

HANDS = [
    "As Ks Qs Js Ts 9s 8s",
    "Ah 2h 3h 4h 5h Kd Kc",
    "Kh Kd 5s 5c Kc 5d 2h",
    "Ac 2d 3h 4s 5c Kd 9h",
    "Ah Ad 8c 8s 4h 4d Kc",
    "Jh Jd 9c 4s 2h",
    "Ah Qd 9c 7s 4h 3d",
]
#: How many of the 7,462 ranks each category holds, weakest first (poker.v1.HandCategory
#: HIGH_CARD .. ROYAL_FLUSH): rank r is of the category whose span holds it. A property of
#: the game, not of the evaluator's code, so the demo needs none of it.
CATEGORY_SIZES: tuple[int, ...] = (1277, 2860, 858, 858, 10, 1277, 156, 156, 9, 1)
CHANNEL_OPTIONS = [("grpc.max_send_message_length", 64 << 20),
                   ("grpc.max_receive_message_length", 64 << 20)]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The `poker evaluator-demo` options."""
    parser.add_argument("--hands", type=int, default=2_000_000,
                        help="random 7-card hands to stream through the evaluator")
    parser.add_argument("--seed", type=int, default=42, help="seed of the random hands and trials")


def run(args: argparse.Namespace) -> int:
    """Starts the evaluator, shows it working, stops it; 0 on success."""
    log_path = Path(tempfile.mkdtemp(prefix="poker-evaluator-demo-")) / "evaluator.log"
    print(f"Starting the evaluator service (its log: {log_path}) ...")
    started = time.perf_counter()
    proc = start_service("evaluator", log_path=log_path)
    print(f"  listening on {proc.address}, healthy after {time.perf_counter() - started:.1f} s")
    try:
        with grpc.insecure_channel(proc.address, options=CHANNEL_OPTIONS) as channel:
            stub = evaluator_pb2_grpc.EvaluatorServiceStub(channel)  # type: ignore[no-untyped-call]
            _rank_hands(stub)
            _showdown(stub)
            _equity(stub, args.seed)
            _batch(stub, args.hands, args.seed)
    except KeyboardInterrupt:
        print("\ninterrupted")
        return 130
    except grpc.RpcError as err:
        print(f"\nthe evaluator refused: {err.code().name}: {err.details()}")
        return 1
    finally:
        _stop(proc)
    return 0


def _stop(proc: ServiceProcess) -> None:
    code = proc.stop()
    print(f"\nStopped the evaluator (exit code {code}).")


def _heading(text: str) -> None:
    print(f"\n{text}\n{'-' * len(text)}")


def _rank_hands(stub: evaluator_pb2_grpc.EvaluatorServiceStub) -> None:
    _heading("Ranking hands (rank 1..7462, higher is better)")
    for hand in HANDS:
        reply = stub.EvaluateHand(pb.EvaluateHandRequest(cards=hand.split()))
        print(f"  {hand:<22} {reply.rank:>5}  {reply.description:<34} "
              f"best five: {' '.join(reply.best_five)}")
    try:
        stub.EvaluateHand(pb.EvaluateHandRequest(cards=["As", "Ks", "Qs", "Js", "As"]))
    except grpc.RpcError as err:
        print(f"  As Ks Qs Js As         refused: {err.code().name}: {err.details()}")


def _showdown(stub: evaluator_pb2_grpc.EvaluatorServiceStub) -> None:
    board = "Qh Jh Td 3s 4d"
    holdings = ["Ah Kc", "As Kd", "Qc Qd", "9h 8h"]
    _heading(f"Showdown on {board}")
    reply = stub.Showdown(pb.ShowdownRequest(
        board=board.split(), holdings=[pb.Holding(cards=h.split()) for h in holdings]))
    for holding, result in zip(holdings, reply.results, strict=True):
        print(f"  place {result.place}  {holding}  {result.description:<26} "
              f"({' '.join(result.best_five)})")
    print(f"  winners: {', '.join(holdings[i] for i in reply.winners)} split the pot")


def _player(text: str) -> pb.EquityPlayer:
    if len(text.split()) == 2 and all(len(c) == 2 for c in text.split()):
        return pb.EquityPlayer(cards=text.split())
    return pb.EquityPlayer(range=text)


def _equity(stub: evaluator_pb2_grpc.EvaluatorServiceStub, seed: int) -> None:
    _heading("Equity")
    questions: list[tuple[list[str], str, pb.EquityMethod, int]] = [
        (["Ah Kh", "Qs Qd"], "", pb.EQUITY_METHOD_EXACT, 0),
        (["Ah Kh", "Qs Qd"], "", pb.EQUITY_METHOD_MONTE_CARLO, 200_000),
        (["Ah Kh", "Qs Qd", "Jc Tc"], "", pb.EQUITY_METHOD_EXACT, 0),
        (["AA", "KK"], "", pb.EQUITY_METHOD_EXACT, 0),
        (["QQ+, AKs", "T9s, 98s, 87s", "7c 7d"], "2c 8h Td", pb.EQUITY_METHOD_UNSPECIFIED, 0),
    ]
    for players, board, method, trials in questions:
        started = time.perf_counter()
        reply = stub.Equity(pb.EquityRequest(
            players=[_player(p) for p in players], board=board.split(), method=method,
            trials=trials, seed=seed))
        seconds = time.perf_counter() - started
        how = pb.EquityMethod.Name(reply.method).removeprefix("EQUITY_METHOD_").replace("_", " ")
        title = " vs ".join(players) + (f"  on {board}" if board else "")
        print(f"  {title}")
        print(f"    {how.lower()}, {reply.deals:,} deals, {seconds:.2f} s:")
        for name, result in zip(players, reply.results, strict=True):
            error = f" ± {100 * result.std_error:.2f}" if result.std_error else ""
            print(f"      {name:<16} equity {100 * result.equity:6.2f} %{error}   "
                  f"(wins {100 * result.win:5.2f} %, ties {100 * result.tie:4.2f} %)")


def _batch(stub: evaluator_pb2_grpc.EvaluatorServiceStub, count: int, seed: int) -> None:
    _heading(f"A batch: {count:,} random 7-card hands, streamed in messages of 10,000")
    rng = np.random.default_rng(seed)
    chunk = 10_000
    pieces = [np.argsort(rng.random((chunk, 52)), axis=1)[:, :7].astype(np.uint8).tobytes()
              for _ in range(min(count, 200_000) // chunk)]
    rounds = max(1, count // (chunk * len(pieces)))

    def requests() -> Iterator[pb.EvaluateBatchStreamRequest]:
        for _ in range(rounds):
            for piece in pieces:
                yield pb.EvaluateBatchStreamRequest(cards_per_hand=7, hands=piece)

    started = time.perf_counter()
    ranks = [np.frombuffer(r.ranks, dtype="<u2") for r in stub.EvaluateBatchStream(requests())]
    seconds = time.perf_counter() - started
    hands = rounds * len(pieces) * chunk
    print(f"  {hands:,} hands ranked in {seconds:.2f} s over gRPC: "
          f"{hands / seconds / 1e6:.1f} million hands a second")
    category = np.repeat(np.arange(1, len(CATEGORY_SIZES) + 1, dtype=np.uint8),
                         CATEGORY_SIZES)
    category = np.concatenate([np.zeros(1, dtype=np.uint8), category])  # rank 0: none
    counts = np.bincount(category[np.concatenate(ranks[: len(pieces)])],
                         minlength=len(CATEGORY_SIZES) + 1)
    total = counts.sum()
    print("  how often each category came up (the first pass):")
    for value in range(len(CATEGORY_SIZES), 0, -1):
        name = cards_pb2.HandCategory.Name(value).removeprefix("HAND_CATEGORY_")
        print(f"    {name.replace('_', ' ').lower():<16} {100 * counts[value] / total:7.3f} %")
