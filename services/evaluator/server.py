"""The EvaluatorService over gRPC: a thin translator between messages and the evaluator modules.

Requests become plain values, the plain modules (`core`, `explain`, `equity`)
answer, and answers become messages. Domain errors are mapped to status codes in
one place, `poker.status`. Heavy work (batches, equity) runs in slices, in turns shared
fairly by the calls in flight and stopped when a call is cancelled or past its
deadline (`services.evaluator.admission`). With a service token, only callers that
send it are served. Run it with `poker serve evaluator --port 50051`.
"""

from __future__ import annotations

import argparse
import ctypes
import functools
import hmac
import inspect
import os
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import grpc
import numpy as np

from poker import metrics, serving, status, tls, wire
from poker.cards import CardError, card_text, parse_card
from poker.limits import MAX_CARDS_TEXT_CHARS, MAX_TOKEN_CHARS, check_count, check_text, quote
from poker.log import add_log_format_argument, get_logger
from poker.v1 import evaluator_pb2 as pb
from poker.v1 import evaluator_pb2_grpc as pb_grpc
from services.evaluator import admission, core, equity, explain
from services.evaluator.errors import (
    InvalidHand,
    InvalidRequest,
    LimitExceeded,
    Unauthenticated,
)

log = get_logger(__name__)

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["EvaluatorService"].full_name


@dataclass(frozen=True, slots=True)
class Limits:
    """What one request may ask for."""

    max_batch_hands: int = 500_000
    #: Slices of work computing at once (the other calls wait their turn, first come
    #: first served): bounds memory and shares the cores.
    max_concurrent: int = 2
    #: Big requests (more than `light_evaluations`) in flight at once, computing or
    #: waiting; past it a big request is refused with RESOURCE_EXHAUSTED.
    max_heavy_calls: int = 4
    #: Hand evaluations (batch hands, equity deals x players) up to which a request is
    #: light: never refused for load, it waits for one turn.
    light_evaluations: int = 1_000_000
    #: CPU seconds one call's work may take; past it the work stops (RESOURCE_EXHAUSTED).
    max_call_cpu_seconds: float = 10.0
    equity: equity.Limits = equity.Limits()


#: Cards in one repeated card field: a deck has 52.
MAX_CARDS = 52
#: Hands of a batch ranked in one turn.
SLICE_HANDS = 1 << 16


Handler = TypeVar("Handler", bound=Callable[..., Any])


def _translated(method: Handler) -> Handler:
    """Checks the caller's token, then refuses the call with the status of whatever the
    handler raised (poker.status: a domain error's own, a bug's INTERNAL and logged)."""

    @functools.wraps(method)
    def unary(self: EvaluatorServicer, request: Any, context: grpc.ServicerContext) -> Any:
        try:
            self.authorize(context)
            return method(self, request, context)
        except Exception as err:  # noqa: BLE001 - poker.status maps every kind
            status.abort(context, err, method.__name__)

    @functools.wraps(method)
    def streaming(self: EvaluatorServicer, request: Any, context: grpc.ServicerContext) -> Any:
        try:
            self.authorize(context)
            yield from method(self, request, context)
        except Exception as err:  # noqa: BLE001 - poker.status maps every kind
            status.abort(context, err, method.__name__)

    return (streaming if inspect.isgeneratorfunction(method) else unary)  # type: ignore[return-value]


def _checked(check: Callable[..., object], *args: Any) -> None:
    # poker.limits says ValueError; here that is a request refused as a whole.
    try:
        check(*args)
    except ValueError as err:
        raise InvalidRequest(str(err)) from None


def _cards(texts: Sequence[str], index: int | None, what: str) -> list[int]:
    _checked(check_count, what if index is None else f"{what} {index}", texts, MAX_CARDS)
    cards = []
    for text in texts:
        try:
            cards.append(parse_card(text))
        except CardError:
            raise InvalidHand(f"{quote(text)} is not a card: write rank then suit "
                              "(As, Td, 9c)", index, what) from None
    return cards


def _wanted(context: grpc.ServicerContext) -> Callable[[], bool]:
    """Whether the call is still wanted: not cancelled, within its deadline."""
    remaining = context.time_remaining()
    deadline = None if remaining is None else time.monotonic() + remaining
    return lambda: context.is_active() and (deadline is None or time.monotonic() < deadline)


def _hand_message(value: explain.HandValue) -> dict[str, Any]:
    return {
        "rank": value.rank,
        "category": int(value.category),
        "best_five": [card_text(c) for c in value.best_five],
        "description": value.description,
    }


class EvaluatorServicer(pb_grpc.EvaluatorServiceServicer):
    """Translates EvaluatorService calls to the evaluator modules."""

    def __init__(self, limits: Limits = Limits(), token: str | None = None) -> None:
        self.limits = limits
        self._token = token.encode() if token else None
        self.scheduler = admission.Scheduler(
            slots=limits.max_concurrent, max_heavy=limits.max_heavy_calls,
            light=limits.light_evaluations, max_cpu_seconds=limits.max_call_cpu_seconds)

    def authorize(self, context: grpc.ServicerContext) -> None:
        """Unauthenticated unless the call carries this evaluator's token (when it has one)."""
        if self._token is None:
            return
        given = dict(context.invocation_metadata()).get("authorization")
        if given is None:
            raise Unauthenticated("this evaluator requires its service token: send "
                                  "'authorization: Bearer <token>' (the dealer's "
                                  "--evaluator-token)")
        text = given.decode() if isinstance(given, bytes) else given
        scheme, _, token = text.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Unauthenticated("authorization must be 'Bearer <token>'")
        if len(token) > MAX_TOKEN_CHARS or not hmac.compare_digest(token.strip().encode(),
                                                                   self._token):
            raise Unauthenticated("not this evaluator's service token")

    @_translated
    def EvaluateHand(
        self, request: pb.EvaluateHandRequest, context: grpc.ServicerContext
    ) -> pb.EvaluateHandResponse:
        value = explain.explain(_cards(request.cards, 0, "hand"))
        metrics.evaluated("hand", 1)
        return pb.EvaluateHandResponse(**_hand_message(value))

    @_translated
    def EvaluateBatch(
        self, request: pb.EvaluateBatchRequest, context: grpc.ServicerContext
    ) -> pb.EvaluateBatchResponse:
        with self.scheduler.call(_wanted(context), "EvaluateBatch") as call:
            return pb.EvaluateBatchResponse(
                ranks=self._ranks(request.cards_per_hand, request.hands, None, call)
            )

    @_translated
    def EvaluateBatchStream(
        self, request_iterator: Iterator[pb.EvaluateBatchStreamRequest],
        context: grpc.ServicerContext,
    ) -> Iterator[pb.EvaluateBatchStreamResponse]:
        started, hands, chunk = time.monotonic(), 0, 0
        with self.scheduler.call(_wanted(context), "EvaluateBatchStream") as call:
            for chunk, request in enumerate(request_iterator):
                ranks = self._ranks(request.cards_per_hand, request.hands, chunk, call)
                hands += len(ranks) // 2
                yield pb.EvaluateBatchStreamResponse(chunk=chunk, ranks=ranks)
        log.info("batch_stream_done", chunks=chunk + 1 if hands else 0, hands=hands,
                 seconds=round(time.monotonic() - started, 3))

    def _ranks(self, cards_per_hand: int, packed: bytes, chunk: int | None,
               call: admission.Call) -> bytes:
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
        call.admit(count)
        hands = np.frombuffer(packed, dtype=np.uint8).reshape(count, cards_per_hand)
        out = np.empty(count, dtype="<u2")
        for start in range(0, count, SLICE_HANDS):
            piece = hands[start : start + SLICE_HANDS]
            try:
                out[start : start + len(piece)] = call.turn(
                    functools.partial(core.evaluate_batch, piece))
            except InvalidHand as err:
                what = "hand" if chunk is None else f"chunk {chunk}, hand"
                raise InvalidHand(err.problem, (err.index or 0) + start, what) from None
        if count >= 100_000:
            _give_back_memory()
        metrics.evaluated("batch", count, batch=True)
        return out.tobytes()

    @_translated
    def Showdown(
        self, request: pb.ShowdownRequest, context: grpc.ServicerContext
    ) -> pb.ShowdownResponse:
        if len(request.holdings) > 10:
            raise InvalidRequest(f"a showdown has 1 to 10 holdings, not {len(request.holdings)}")
        board = _cards(request.board, None, "board")
        holdings = [_cards(h.cards, i, "holding") for i, h in enumerate(request.holdings)]
        result = explain.showdown(board, holdings)
        metrics.evaluated("showdown", len(holdings))
        return pb.ShowdownResponse(
            results=[
                pb.ShowdownResult(place=place, **_hand_message(hand))
                for hand, place in zip(result.hands, result.places, strict=True)
            ],
            winners=result.winners,
        )

    @_translated
    def Equity(self, request: pb.EquityRequest, context: grpc.ServicerContext) -> pb.EquityResponse:
        if len(request.players) > 10:
            raise InvalidRequest(f"equity needs 2 to 10 players, not {len(request.players)}")
        for i, p in enumerate(request.players):
            _checked(check_text, f"player {i}: range", p.range, MAX_CARDS_TEXT_CHARS)
        players: list[list[int] | str] = [
            _cards(p.cards, i, "player") if p.cards else p.range
            for i, p in enumerate(request.players)
        ]
        board = _cards(request.board, None, "board")
        dead = _cards(request.dead, None, "dead")
        started = time.monotonic()
        with self.scheduler.call(_wanted(context), "Equity") as call:
            plan = call.turn(lambda: equity.plan(
                players, board=board, dead=dead, method=request.method,
                trials=request.trials, seed=request.seed, limits=self.limits.equity,
            ))
            call.admit(plan.evaluations)
            answer = call.run(plan.steps())
        metrics.evaluated("equity", plan.evaluations)
        if call.is_heavy:
            _give_back_memory()
        log.info("equity_answered", players=len(players), method=answer.method.name,
                 deals=answer.deals, seconds=round(time.monotonic() - started, 3),
                 cpu_seconds=round(call.cpu_seconds, 3), slices=call.slices)
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
    parser.add_argument("--max-monte-carlo-evaluations", type=int,
                        default=defaults.equity.max_monte_carlo_evaluations,
                        help="hand evaluations (trials x players) one Monte Carlo equity "
                             "request may take")
    parser.add_argument("--max-concurrent", type=int, default=defaults.max_concurrent,
                        help="slices of work computing at once (about one per core); other "
                             "calls wait their turn, first come first served")
    parser.add_argument("--max-heavy-calls", type=int, default=defaults.max_heavy_calls,
                        help="requests of more than --light-evaluations in flight at once; "
                             "past it one is refused with RESOURCE_EXHAUSTED")
    parser.add_argument("--light-evaluations", type=int, default=defaults.light_evaluations,
                        help="hand evaluations up to which a request is never refused for load")
    parser.add_argument("--max-call-cpu-seconds", type=float,
                        default=defaults.max_call_cpu_seconds,
                        help="CPU seconds one call may take; past it its work stops "
                             "(RESOURCE_EXHAUSTED)")
    parser.add_argument("--service-token", default=os.environ.get("POKER_EVALUATOR_TOKEN"),
                        help="require 'authorization: Bearer TOKEN' on every EvaluatorService "
                             "call (env POKER_EVALUATOR_TOKEN; the dealer's --evaluator-token); "
                             "unset: open to any caller. Health and reflection stay open")
    parser.add_argument("--max-connection-age-s", type=float,
                        default=float(os.environ.get("POKER_MAX_CONNECTION_AGE_S", "0")),
                        help="end each client connection after this many seconds, calls in "
                             "flight finishing first, so that dealers balancing over a DNS "
                             "name look it up again and find new replicas (env "
                             "POKER_MAX_CONNECTION_AGE_S); 0: never")
    tls.add_arguments(parser)
    metrics.add_arguments(parser)
    add_log_format_argument(parser)


def limits_of(args: argparse.Namespace) -> Limits:
    """The limits the options ask for."""
    base = equity.Limits()
    return Limits(
        max_batch_hands=args.max_batch_hands,
        max_concurrent=max(1, args.max_concurrent),
        max_heavy_calls=args.max_heavy_calls,
        light_evaluations=args.light_evaluations,
        max_call_cpu_seconds=args.max_call_cpu_seconds,
        equity=equity.Limits(
            auto_exact_evaluations=min(base.auto_exact_evaluations, args.max_exact_evaluations),
            max_exact_evaluations=args.max_exact_evaluations,
            max_exact_holdings=base.max_exact_holdings,
            default_trials=min(args.default_trials, args.max_trials),
            max_trials=args.max_trials,
            max_monte_carlo_evaluations=args.max_monte_carlo_evaluations,
        ),
    )


def service(limits: Limits = Limits(), token: str | None = None) -> serving.Service:
    """The EvaluatorService, ready for `poker.serving.start` (`token`: required of callers)."""
    servicer = EvaluatorServicer(limits, token)
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
             max_exact_evaluations=limits.equity.max_exact_evaluations,
             max_monte_carlo_evaluations=limits.equity.max_monte_carlo_evaluations,
             max_concurrent=limits.max_concurrent, max_heavy_calls=limits.max_heavy_calls,
             max_call_cpu_seconds=limits.max_call_cpu_seconds,
             service_token="required" if args.service_token else "off")
    metrics.serve_from_args(args)
    return serving.serve_forever([service(limits, args.service_token)], args.host, args.port,
                                 "evaluator", tls=server_tls,
                                 options=connection_age_options(args.max_connection_age_s))


#: Calls in flight on a connection past its age get this long to finish.
CONNECTION_AGE_GRACE_MS = 10_000


def connection_age_options(seconds: float) -> list[tuple[str, int]]:
    """gRPC server options that end connections after `seconds` (none for 0)."""
    if seconds <= 0:
        return []
    return [("grpc.max_connection_age_ms", int(seconds * 1000)),
            ("grpc.max_connection_age_grace_ms", CONNECTION_AGE_GRACE_MS)]
