"""Benchmark: what poker.wire's request guard costs a call, against gRPC's own parsing, in one run.

A trivial EvaluateHand servicer (it answers a constant) is registered twice: as the
generated code does (gRPC parses the request) and through `poker.wire.add` (bytes in,
parsed by the guard). Printed: the guard's cost per message called directly (sync
handler, and an asyncio handler as the dealer's), and the round trip of a unary call
on loopback to each server, in alternating rounds, best round of each.

    .venv/bin/python bench/wire.py [--calls N] [--rounds R]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from concurrent import futures
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from poker.grpc_engine import prefer_polling_engine  # noqa: E402, I001

prefer_polling_engine()  # before grpc loads: the I/O engine the services run on

import grpc  # noqa: E402

from poker import wire  # noqa: E402
from poker.v1 import evaluator_pb2 as pb  # noqa: E402
from poker.v1 import evaluator_pb2_grpc as pb_grpc  # noqa: E402

METHOD = "/poker.v1.EvaluatorService/EvaluateHand"
SERVICE = "poker.v1.EvaluatorService"
REQUEST = pb.EvaluateHandRequest(cards=["As", "Kd", "Qh", "Jc", "Tc", "2d", "3s"])
ANSWER = pb.EvaluateHandResponse(rank=7462, description="Royal flush")


class Constant(pb_grpc.EvaluatorServiceServicer):
    def EvaluateHand(self, request: Any, context: Any) -> Any:
        return ANSWER


class AsyncConstant(pb_grpc.EvaluatorServiceServicer):
    async def EvaluateHand(self, request: Any, context: Any) -> Any:  # type: ignore[override]
        return ANSWER


def per_message(calls: int) -> tuple[float, float, float, float]:
    """µs a message: gRPC's deserializer + handler, and the guarded handler, sync and async."""
    data = REQUEST.SerializeToString()
    sync_plain, sync_guarded = _handlers(Constant())
    async_plain, async_guarded = _handlers(AsyncConstant())
    parse = sync_plain.request_deserializer

    async def run(handler: Any, guarded: bool) -> None:
        for _ in range(calls):
            await handler(data if guarded else parse(data), None)

    results = [
        _best(lambda: [sync_plain.unary_unary(parse(data), None) for _ in range(calls)]),
        _best(lambda: [sync_guarded.unary_unary(data, None) for _ in range(calls)]),
        _best(lambda: asyncio.run(run(async_plain.unary_unary, False))),
        _best(lambda: asyncio.run(run(async_guarded.unary_unary, True))),
    ]
    return tuple(r / calls * 1e6 for r in results)  # type: ignore[return-value]


def _handlers(servicer: Any) -> tuple[grpc.RpcMethodHandler, grpc.RpcMethodHandler]:
    """EvaluateHand's handler as generated, and as poker.wire registers it."""
    plain = wire.handlers_of(pb_grpc.add_EvaluatorServiceServicer_to_server,
                             servicer)["EvaluateHand"]
    return plain, wire.guarded(SERVICE, {"EvaluateHand": plain})["EvaluateHand"]


def _best(run: Any, repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return min(times)


def _server(guard: bool) -> tuple[grpc.Server, int]:
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    if guard:
        wire.add(server, SERVICE, pb_grpc.add_EvaluatorServiceServicer_to_server, Constant())
    else:
        pb_grpc.add_EvaluatorServiceServicer_to_server(Constant(), server)  # type: ignore[no-untyped-call]
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    return server, port


def round_trips(calls: int, rounds: int) -> tuple[float, float]:
    """µs a unary call on loopback, best round: generated handlers, guarded handlers."""
    best = {False: float("inf"), True: float("inf")}
    servers = {guard: _server(guard) for guard in (False, True)}
    channels = {guard: grpc.insecure_channel(f"127.0.0.1:{port}")
                for guard, (_s, port) in servers.items()}
    try:
        calls_of = {guard: channel.unary_unary(METHOD, pb.EvaluateHandRequest.SerializeToString,
                                               pb.EvaluateHandResponse.FromString)
                    for guard, channel in channels.items()}
        for call in calls_of.values():
            call(REQUEST, timeout=5)
        for _ in range(rounds):
            for guard, call in calls_of.items():
                started = time.perf_counter()
                for _ in range(calls):
                    call(REQUEST, timeout=5)
                best[guard] = min(best[guard], (time.perf_counter() - started) / calls * 1e6)
    finally:
        for channel in channels.values():
            channel.close()
        for server, _port in servers.values():
            server.stop(None)
    return best[False], best[True]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    sync_plain, sync_guarded, async_plain, async_guarded = per_message(args.calls * 50)
    for name, plain_us, guarded_us in (("sync:   ", sync_plain, sync_guarded),
                                       ("asyncio:", async_plain, async_guarded)):
        print(f"per message, {name} gRPC parsing {plain_us:6.2f} µs   guarded "
              f"{guarded_us:6.2f} µs   (+{guarded_us - plain_us:.2f} µs)")
    plain, guarded = round_trips(args.calls, args.rounds)
    print(f"unary call on loopback: generated {plain:6.1f} µs   guarded {guarded:6.1f} µs"
          f"   (ratio {guarded / plain:.3f})")


if __name__ == "__main__":
    main()
