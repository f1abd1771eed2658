"""The EvaluatorService over gRPC: a thin translator between messages and the evaluator modules.

Requests become plain values, the plain modules (`core`, `explain`, `equity`)
answer, and answers become messages. Domain errors are mapped to status codes in
one place, `_status_of`. Run it with `poker serve evaluator --port 50051`.
"""

from __future__ import annotations

import argparse
import ctypes
import functools
import inspect
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import grpc
import numpy as np

from poker import serving, tls, wire
from poker.cards import CardError, card_text, parse_card
from poker.log import get_logger
from poker.v1 import evaluator_pb2 as pb
from poker.v1 import evaluator_pb2_grpc as pb_grpc
from services.evaluator import core, equity, explain
from services.evaluator.errors import EvaluatorError, InvalidHand, LimitExceeded

log = get_logger(__name__)

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["EvaluatorService"].full_name


@dataclass(frozen=True, slots=True)
class Limits:
    """What one request may ask for."""

    max_batch_hands: int = 500_000
    #: Requests computing at once (the rest wait): bounds memory and shares the cores.
    max_concurrent: int = 2
    equity: equity.Limits = equity.Limits()


def _status_of(err: Exception) -> grpc.StatusCode:
    # The one place where domain errors become status codes.
    if isinstance(err, LimitExceeded | EvaluatorError | CardError):
        return grpc.StatusCode.INVALID_ARGUMENT
    return grpc.StatusCode.INTERNAL


Handler = TypeVar("Handler", bound=Callable[..., Any])


def _translated(method: Handler) -> Handler:
    """Turns a domain error raised by a handler into its status code and message."""

    @functools.wraps(method)
    def unary(self: EvaluatorServicer, request: Any, context: grpc.ServicerContext) -> Any:
        try:
            return method(self, request, context)
        except (EvaluatorError, CardError) as err:
            _abort(context, method.__name__, err)

    @functools.wraps(method)
    def streaming(self: EvaluatorServicer, request: Any, context: grpc.ServicerContext) -> Any:
        try:
            yield from method(self, request, context)
        except (EvaluatorError, CardError) as err:
            _abort(context, method.__name__, err)

    return (streaming if inspect.isgeneratorfunction(method) else unary)  # type: ignore[return-value]


def _abort(context: grpc.ServicerContext, rpc: str, err: Exception) -> None:
    code = _status_of(err)
    log.warning("request_refused", rpc=rpc, code=code.name, reason=str(err))
    context.abort(code, wire.bounded(str(err)))


def _cards(texts: Sequence[str], index: int | None, what: str) -> list[int]:
    try:
        return [parse_card(t) for t in texts]
    except CardError as err:
        raise InvalidHand(str(err), index, what) from None


def _hand_message(value: explain.HandValue) -> dict[str, Any]:
    return {
        "rank": value.rank,
        "category": int(value.category),
        "best_five": [card_text(c) for c in value.best_five],
        "description": value.description,
    }


class EvaluatorServicer(pb_grpc.EvaluatorServiceServicer):
    """Translates EvaluatorService calls to the evaluator modules."""

    def __init__(self, limits: Limits = Limits()) -> None:
        self.limits = limits
        self._computing = threading.BoundedSemaphore(limits.max_concurrent)

    @_translated
    def EvaluateHand(
        self, request: pb.EvaluateHandRequest, context: grpc.ServicerContext
    ) -> pb.EvaluateHandResponse:
        value = explain.explain(_cards(request.cards, 0, "hand"))
        return pb.EvaluateHandResponse(**_hand_message(value))

    @_translated
    def EvaluateBatch(
        self, request: pb.EvaluateBatchRequest, context: grpc.ServicerContext
    ) -> pb.EvaluateBatchResponse:
        return pb.EvaluateBatchResponse(
            ranks=self._ranks(request.cards_per_hand, request.hands, None)
        )

    @_translated
    def EvaluateBatchStream(
        self, request_iterator: Iterator[pb.EvaluateBatchStreamRequest],
        context: grpc.ServicerContext,
    ) -> Iterator[pb.EvaluateBatchStreamResponse]:
        started, hands, chunk = time.monotonic(), 0, 0
        for chunk, request in enumerate(request_iterator):
            ranks = self._ranks(request.cards_per_hand, request.hands, chunk)
            hands += len(ranks) // 2
            yield pb.EvaluateBatchStreamResponse(chunk=chunk, ranks=ranks)
        log.info("batch_stream_done", chunks=chunk + 1 if hands else 0, hands=hands,
                 seconds=round(time.monotonic() - started, 3))

    def _ranks(self, cards_per_hand: int, packed: bytes, chunk: int | None) -> bytes:
        where = "" if chunk is None else f"chunk {chunk}: "
        if cards_per_hand not in core.HAND_SIZES:
            raise InvalidHand(f"{where}cards_per_hand is {cards_per_hand}; a hand has 5, 6 or 7",
                              None, "batch")
        if len(packed) % cards_per_hand:
            raise InvalidHand(
                f"{where}{len(packed)} bytes is not a whole number of {cards_per_hand}-card hands",
                None, "batch")
        count = len(packed) // cards_per_hand
        if count > self.limits.max_batch_hands:
            raise LimitExceeded(
                f"{where}{count:,} hands in one message; the limit is "
                f"{self.limits.max_batch_hands:,} (split it, or use EvaluateBatchStream)"
            )
        hands = np.frombuffer(packed, dtype=np.uint8).reshape(count, cards_per_hand)
        try:
            with self._computing:
                ranks: bytes = core.evaluate_batch(hands).astype("<u2").tobytes()
                if count >= 100_000:
                    _give_back_memory()
        except InvalidHand as err:
            if chunk is None:
                raise
            raise InvalidHand(err.reason, err.index, f"chunk {chunk}, hand") from None
        return ranks

    @_translated
    def Showdown(
        self, request: pb.ShowdownRequest, context: grpc.ServicerContext
    ) -> pb.ShowdownResponse:
        board = _cards(request.board, None, "board")
        holdings = [_cards(h.cards, i, "holding") for i, h in enumerate(request.holdings)]
        result = explain.showdown(board, holdings)
        return pb.ShowdownResponse(
            results=[
                pb.ShowdownResult(place=place, **_hand_message(hand))
                for hand, place in zip(result.hands, result.places, strict=True)
            ],
            winners=result.winners,
        )

    @_translated
    def Equity(self, request: pb.EquityRequest, context: grpc.ServicerContext) -> pb.EquityResponse:
        players: list[list[int] | str] = [
            _cards(p.cards, i, "player") if p.cards else p.range
            for i, p in enumerate(request.players)
        ]
        board = _cards(request.board, None, "board")
        dead = _cards(request.dead, None, "dead")
        started = time.monotonic()
        with self._computing:
            answer = equity.equity(
                players, board=board, dead=dead, method=equity.Method(request.method),
                trials=request.trials, seed=request.seed, limits=self.limits.equity,
            )
            _give_back_memory()
        log.info("equity_answered", players=len(players), method=answer.method.name,
                 deals=answer.deals, seconds=round(time.monotonic() - started, 3))
        return pb.EquityResponse(
            results=[
                pb.EquityResult(win=p.win, tie=p.tie, equity=p.equity, std_error=p.std_error,
                                wins=p.wins, ties=p.ties)
                for p in answer.players
            ],
            method=pb.EquityMethod.Name(answer.method),
            deals=answer.deals,
            seed=answer.seed,
        )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The `poker serve evaluator` options: address, TLS, limits, log format."""
    defaults = Limits()
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=0, help="port to listen on (0: any free)")
    parser.add_argument("--max-batch-hands", type=int, default=defaults.max_batch_hands,
                        help="hands in one batch message or stream chunk")
    parser.add_argument("--max-trials", type=int, default=defaults.equity.max_trials,
                        help="Monte Carlo trials in one equity request")
    parser.add_argument("--default-trials", type=int, default=defaults.equity.default_trials,
                        help="Monte Carlo trials when a request asks for none")
    parser.add_argument("--max-exact-evaluations", type=int,
                        default=defaults.equity.max_exact_evaluations,
                        help="hand evaluations one exact equity request may take")
    tls.add_arguments(parser)
    parser.add_argument("--log-format", choices=("json", "console"), default=None,
                        help="log lines as JSON or readable key-values (env POKER_LOG_FORMAT; "
                             "default: readable on a terminal)")


def limits_of(args: argparse.Namespace) -> Limits:
    """The limits the options ask for."""
    base = equity.Limits()
    return Limits(
        max_batch_hands=args.max_batch_hands,
        equity=equity.Limits(
            auto_exact_evaluations=min(base.auto_exact_evaluations, args.max_exact_evaluations),
            max_exact_evaluations=args.max_exact_evaluations,
            max_exact_holdings=base.max_exact_holdings,
            default_trials=min(args.default_trials, args.max_trials),
            max_trials=args.max_trials,
        ),
    )


def service(limits: Limits = Limits()) -> serving.Service:
    """The EvaluatorService, ready for `poker.serving.start`."""
    servicer = EvaluatorServicer(limits)
    return serving.Service(
        names=[SERVICE_NAME],
        add_to_server=lambda server: wire.add(
            server, SERVICE_NAME, pb_grpc.add_EvaluatorServiceServicer_to_server, servicer),
    )


def _load_libc() -> Any:
    try:
        return ctypes.CDLL("libc.so.6")
    except OSError:  # not glibc: its allocator needs none of this
        return None


_LIBC = _load_libc()


def _fewer_malloc_arenas(arenas: int = 2) -> None:
    # glibc gives each thread that allocates its own arena and keeps freed memory in
    # it; with numpy temporaries on many server threads that grows the resident size
    # by tens of MB. Two arenas keep it near the working set.
    if _LIBC is not None:
        _LIBC.mallopt(ctypes.c_int(-8), ctypes.c_int(arenas))  # M_ARENA_MAX


def _give_back_memory() -> None:
    # After heavy work: return the allocator's free pages to the system.
    if _LIBC is not None:
        _LIBC.malloc_trim(ctypes.c_size_t(0))


def run(args: argparse.Namespace) -> int:
    """Serves until SIGTERM/SIGINT; the tables are built before the port opens."""
    server_tls = tls.from_args(args)
    _fewer_malloc_arenas()
    limits = limits_of(args)
    core.evaluate_batch(np.zeros((0, 7), dtype=np.uint8))  # warm: build tables now
    log.info("evaluator_limits", max_batch_hands=limits.max_batch_hands,
             max_trials=limits.equity.max_trials,
             max_exact_evaluations=limits.equity.max_exact_evaluations)
    return serving.serve_forever([service(limits)], args.host, args.port, "evaluator",
                                 tls=server_tls)
