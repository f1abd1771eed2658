"""The dealer's gRPC service: a thin translator between DealerService and the tables.

Each handler reads the caller's credential, turns the request into plain values,
calls the Dealer/Table, and turns the answer into a message. Every exception goes
through `poker.status`, the one place domain errors become status codes.

The dealer runs on one asyncio event loop (grpc.aio): tables, clocks, streams and
the store are all touched from it, so a table needs no lock. It is served by
`poker.serving.serve_forever_async`: health checking, reflection, SIGTERM handling and
the `listening on HOST:PORT` line are those of every service.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import gc
import os
import sqlite3
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

import grpc
import structlog

from poker import journal, metrics, serving, status, tls, wire
from poker.limits import quote
from poker.log import add_log_format_argument
from poker.v1 import dealer_pb2 as pb
from poker.v1 import dealer_pb2_grpc
from services.dealer import checks, history, placement, streams, views
from services.dealer.auth import AUDITOR, Authenticator, Caller, bearer
from services.dealer.dealer import Dealer
from services.dealer.errors import DealerError, FailedPrecondition, InvalidArgument, TableMoved
from services.dealer.notes import Notes
from services.dealer.ranking import RemoteRanker, local_ranks
from services.dealer.tables import Table

# Lazy: modules load (for --help) before poker.log configures the process.
log = structlog.get_logger(__name__)
SERVICE_NAME = pb.DESCRIPTOR.services_by_name["DealerService"].full_name
#: On SIGTERM/SIGINT, how long calls in flight (streams included) may go on.
STOP_GRACE_S = 2.0
R = TypeVar("R")


def _token(context: grpc.aio.ServicerContext) -> str | None:
    return bearer(context.invocation_metadata())


def unary(handler: Callable[[DealerServicer, Any, Any], R]) -> Callable[..., Awaitable[R]]:
    """Runs a synchronous handler on the loop, once its request is within the limits
    (services.dealer.checks); any exception becomes its status."""

    @functools.wraps(handler)
    async def wrapper(self: DealerServicer, request: Any, context: Any) -> R:
        try:
            checks.request(request)
            return handler(self, request, context)
        except Exception as err:  # noqa: BLE001 - poker.status maps every kind
            await _abort(context, err)
            raise  # unreachable: abort raises

    return wrapper


async def _abort(context: Any, err: Exception) -> None:
    await status.abort_async(context, err)


class DealerServicer(dealer_pb2_grpc.DealerServiceServicer):
    """DealerService over a Dealer."""

    def __init__(self, dealer: Dealer, linger_s: float = 0.0,
                 notes: Notes | None = None) -> None:
        self.dealer = dealer
        self.notes = notes or Notes()
        self.auth = dealer.auth
        self.linger = linger_s
        # Play streams' decisions of one loop turn: one commit while that pays
        # (streams.DecisionGroup)
        self.decisions = streams.DecisionGroup(dealer.store.group,
                                               lambda: dealer.store.commit_s)

    # ------------------------------------------------------------ internal calls

    def _service_table(self, request: Any, context: Any) -> Table:
        self.auth.require_service(_token(context))
        return self.dealer.table(request.table_id)

    @unary
    def CreateTable(self, request: pb.CreateTableRequest, context: Any) -> pb.CreateTableResponse:
        self.auth.require_service(_token(context))
        config, options = views.config_from_proto(request.config)
        table = self.dealer.create_table(request.table_id, config, options)
        return pb.CreateTableResponse(
            table_id=table.table_id, config=views.config_to_proto(table.config, table.options))

    @unary
    def SeatPlayer(self, request: pb.SeatPlayerRequest, context: Any) -> pb.SeatPlayerResponse:
        # No table lookup here: an unknown table is one of the answers a request_id keeps.
        self.auth.require_service(_token(context))
        seat = request.seat if request.HasField("seat") else None
        given, token = self.dealer.seat_player(
            request.table_id, seat, request.player_id, request.stack, request.wait_for_big_blind,
            request.request_id)
        return pb.SeatPlayerResponse(seat=given, seat_token=token)

    @unary
    def AddChips(self, request: pb.AddChipsRequest, context: Any) -> pb.AddChipsResponse:
        self.auth.require_service(_token(context))
        stack = self.dealer.add_chips(request.table_id, request.seat, request.amount,
                                      request.idempotency_key)
        return pb.AddChipsResponse(stack=stack)

    @unary
    def UnseatPlayer(self, request: pb.UnseatPlayerRequest,
                     context: Any) -> pb.UnseatPlayerResponse:
        table = self._service_table(request, context)
        player_id, stack = table.unseat(request.seat)
        return pb.UnseatPlayerResponse(
            stack=pb.SeatStack(seat=request.seat, player_id=player_id, stack=stack))

    @unary
    def SetButton(self, request: pb.SetButtonRequest, context: Any) -> pb.SetButtonResponse:
        self._service_table(request, context).set_button(request.seat)
        return pb.SetButtonResponse()

    @unary
    def SetDealLimit(self, request: pb.SetDealLimitRequest,
                     context: Any) -> pb.SetDealLimitResponse:
        table = self._service_table(request, context)
        table.set_deal_limit(request.until_hand if request.HasField("until_hand") else None)
        return pb.SetDealLimitResponse(hands_played=table.hands_played,
                                       hand_running=table.hand is not None)

    @unary
    def SetLevel(self, request: pb.SetLevelRequest, context: Any) -> pb.SetLevelResponse:
        self.auth.require_service(_token(context))
        level = self.dealer.set_level(request.table_id, request.level_index, request.request_id)
        return pb.SetLevelResponse(level=views.level_to_proto(level))

    @unary
    def CloseTable(self, request: pb.CloseTableRequest, context: Any) -> pb.CloseTableResponse:
        self.auth.require_service(_token(context))
        stacks = self.dealer.close_table(request.table_id, request.void_hand_in_progress)
        return pb.CloseTableResponse(stacks=[
            pb.SeatStack(seat=seat, player_id=player, stack=stack) for seat, player, stack in stacks
        ])

    # -------------------------------------------------------------- player calls

    def _viewer(self, context: Any, table: Table) -> views.Viewer:
        caller = self.auth.caller(_token(context))
        if caller.role == "seat":
            self.auth.require_seat(_token(context), table.table_id, None, reading=True)
        return views.viewer_for(caller, table)

    @unary
    def GetTable(self, request: pb.GetTableRequest, context: Any) -> pb.GetTableResponse:
        table = self.dealer.table(request.table_id)
        return pb.GetTableResponse(table=views.table_view(table, self._viewer(context, table)))

    @unary
    def Act(self, request: pb.ActRequest, context: Any) -> pb.ActResponse:
        table = self.dealer.table(request.table_id)
        table.check_seat(request.seat)
        self.auth.require_seat(_token(context), table.table_id, request.seat)
        sequence = table.act(request.seat, request.hand_id, request.action_number,
                             views.action_kind(request.kind), request.amount)
        return pb.ActResponse(sequence=sequence)

    @unary
    def SitOut(self, request: pb.SitOutRequest, context: Any) -> pb.SitOutResponse:
        table = self.dealer.table(request.table_id)
        table.check_seat(request.seat)
        self.auth.require_seat(_token(context), table.table_id, request.seat)
        after = request.after_hand if request.HasField("after_hand") else None
        last = table.sit_out(request.seat, after)
        return pb.SitOutResponse() if after is None else pb.SitOutResponse(after_hand=last)

    @unary
    def SitIn(self, request: pb.SitInRequest, context: Any) -> pb.SitInResponse:
        table = self.dealer.table(request.table_id)
        table.check_seat(request.seat)
        self.auth.require_seat(_token(context), table.table_id, request.seat)
        table.sit_in(request.seat, request.wait_for_big_blind)
        return pb.SitInResponse()

    @unary
    def SetStraddle(self, request: pb.SetStraddleRequest,
                    context: Any) -> pb.SetStraddleResponse:
        table = self.dealer.table(request.table_id)
        table.check_seat(request.seat)
        self.auth.require_seat(_token(context), table.table_id, request.seat)
        table.set_straddle(request.seat, request.straddle)
        return pb.SetStraddleResponse()

    @unary
    def GetHandHistory(self, request: pb.GetHandHistoryRequest,
                       context: Any) -> pb.GetHandHistoryResponse:
        table = self.dealer.table(request.table_id)
        viewer = self._viewer(context, table)
        return pb.GetHandHistoryResponse(phh=history.hand_history(table, request.hand_id, viewer))

    @unary
    def CommitSeeds(self, request: pb.CommitSeedsRequest,
                    context: Any) -> pb.CommitSeedsResponse:
        table = self.dealer.table(request.table_id)
        self.auth.require_seat(_token(context), table.table_id, request.seat)
        return pb.CommitSeedsResponse(sequence=table.commit_seeds(request.seat,
                                                                  request.chain_head))

    @unary
    def RevealSeed(self, request: pb.RevealSeedRequest, context: Any) -> pb.RevealSeedResponse:
        table = self.dealer.table(request.table_id)
        self.auth.require_seat(_token(context), table.table_id, request.seat)
        table.reveal_seed(request.seat, request.hand_id, request.seed)
        return pb.RevealSeedResponse()

    # ------------------------------------------------------------------- streams

    async def WatchTable(self, request: pb.WatchTableRequest,
                         context: Any) -> AsyncIterator[bytes]:
        try:
            checks.request(request)
            table = self.dealer.table(request.table_id)
            viewer = self._viewer(context, table)
            _check_after(table, request.after_sequence)
        except Exception as err:  # noqa: BLE001
            await _abort(context, err)
            return
        try:
            async for response in streams.watch(table, viewer, request.after_sequence,
                                                self.linger):
                yield response
        except DealerError as err:  # the dealer is stopping
            await _abort(context, err)

    async def Play(self, request_iterator: AsyncIterator[pb.PlayRequest],
                   context: Any) -> AsyncIterator[bytes]:
        try:
            first = await anext(request_iterator)
            if not first.HasField("start"):
                raise InvalidArgument("start: the first message of a Play stream must be start")
            checks.play_start(first.start)
            table, caller, viewer = self._seat_stream(
                first.start.table_id, _token(context), first.start.after_sequence)
        except StopAsyncIteration:
            return
        except Exception as err:  # noqa: BLE001
            await _abort(context, err)
            return
        session = streams.PlaySession(table, caller, viewer, first.start.after_sequence,
                                      self.linger, self.decisions)
        try:
            async for response in streams.play(session, request_iterator):
                yield response
        except DealerError as err:  # the dealer is stopping
            await _abort(context, err)

    def _seat_stream(self, table_id: str, token: str | None,
                     after: int) -> tuple[Table, Caller, views.Viewer]:
        """A seat's stream (Play, or one seat of PlayMany): its table, its caller and its
        viewer, from the seat token, starting after `after`."""
        table = self.dealer.table(table_id)
        caller = self.auth.require_seat(token, table.table_id, None)
        _check_after(table, after)
        return table, caller, views.viewer_for(caller, table)

    def _open_seat(self, seat: pb.PlaySeat) -> tuple[Table, Caller, views.Viewer]:
        """A PlayMany seat, from the seat token in the request. A refusal names the seat,
        since one stream opens many."""
        try:
            if not seat.seat_token:
                raise InvalidArgument("open.seat_token: every seat opened needs its seat token")
            return self._seat_stream(seat.table_id, seat.seat_token, seat.after_sequence)
        except TableMoved:
            raise  # its message names the table already; its details the new address
        except DealerError as err:
            raise type(err)(f"open table {quote(seat.table_id)}: {err}") from err

    async def PlayMany(self, request_iterator: AsyncIterator[pb.PlayManyRequest],
                       context: Any) -> AsyncIterator[bytes]:
        session = streams.PlayManySession(self._open_seat, self.linger, self.dealer.store.group)
        try:
            first = await anext(request_iterator)
            checks.play_many(first)
            if not first.open:
                raise InvalidArgument("open: the first request of a PlayMany stream must open "
                                      "at least one seat")
            for seat in first.open:
                session.open(seat)
        except StopAsyncIteration:
            return
        except Exception as err:  # noqa: BLE001
            await _abort(context, err)
            return
        first.ClearField("open")  # opened; its actions, if any, go with the rest
        try:
            async for response in streams.play_many(session, _chain(first, request_iterator)):
                yield response
        except Exception as err:  # noqa: BLE001 - a later seat refused: the stream ends
            await _abort(context, err)


    async def FollowTables(self, request: pb.FollowTablesRequest,
                           context: Any) -> AsyncIterator[pb.FollowTablesResponse]:
        try:
            checks.request(request)
            self.auth.require_service(_token(context))
        except Exception as err:  # noqa: BLE001
            await _abort(context, err)
            return
        try:
            async for response in self.notes.follow(self.dealer, request.after):
                yield response
        except DealerError as err:  # fell behind
            await _abort(context, err)


#: The streams whose responses the servicer yields already serialized (services.dealer.views).
SERIALIZED_STREAMS = ("WatchTable", "Play", "PlayMany")


def add_servicer(servicer: DealerServicer, server: grpc.aio.Server) -> None:
    """Adds DealerService to a server: the generated handlers, except that WatchTable and
    Play send the bytes they are given (serialized once per event and audience), with
    their requests guarded by poker.wire."""
    handlers = wire.handlers_of(dealer_pb2_grpc.add_DealerServiceServicer_to_server, servicer)
    for name in SERIALIZED_STREAMS:
        handlers[name] = handlers[name]._replace(
            response_serializer=_passthrough(handlers[name].response_serializer))
    wire.register(server, SERVICE_NAME, handlers)


def _passthrough(serialize: Callable[[Any], bytes] | None) -> Callable[[Any], bytes]:
    assert serialize is not None

    def serializer(message: Any) -> bytes:
        return message if type(message) is bytes else serialize(message)

    return serializer


async def _chain(first: Any, rest: AsyncIterator[Any]) -> AsyncIterator[Any]:
    yield first
    async for item in rest:
        yield item


def _check_after(table: Table, after: int) -> None:
    if after > table.last_sequence:
        raise FailedPrecondition(
            f"after_sequence {after} is beyond the table's last event {table.last_sequence}")


# ------------------------------------------------------------------- running


def add_arguments(parser: argparse.ArgumentParser) -> None:
    env = os.environ.get
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=50052, help="port; 0 picks a free one")
    parser.add_argument("--db", default=env("POKER_DEALER_DB", "dealer.sqlite"),
                        help="SQLite event store (env POKER_DEALER_DB)")
    parser.add_argument("--durable", action="store_true",
                        help="fsync every commit (survives power loss, not just a crash)")
    parser.add_argument("--service-token", default=env("POKER_SERVICE_TOKEN"),
                        help="the lobby's credential for internal calls (env POKER_SERVICE_TOKEN)")
    parser.add_argument("--auditor-token", default=env("POKER_AUDITOR_TOKEN"),
                        help="the auditor's credential: sees every card "
                             "(env POKER_AUDITOR_TOKEN)")
    parser.add_argument("--evaluator", action="append", default=None, metavar="HOST:PORT",
                        help="an evaluator service, repeatable (env POKER_EVALUATORS, comma "
                             "separated); none: rank in process")
    parser.add_argument("--evaluator-tls-ca", default=env("POKER_EVALUATOR_TLS_CA"),
                        metavar="PATH", help="PEM CA of the evaluators' certificates: call "
                        "them over TLS (env POKER_EVALUATOR_TLS_CA)")
    parser.add_argument("--evaluator-token", default=env("POKER_EVALUATOR_TOKEN"),
                        help="the evaluators' service token, sent on every call to them "
                             "(env POKER_EVALUATOR_TOKEN; their --service-token)")
    parser.add_argument("--evaluator-timeout-ms", type=int, default=500,
                        help="deadline of one Showdown call before trying the next evaluator")
    parser.add_argument("--on-crash", choices=("resume", "void"), default="resume",
                        help="a hand found in progress at start: resume it, or void it "
                             "returning every committed chip")
    parser.add_argument("--full-replay", action="store_true",
                        help="on start, fold each open table's whole event log instead of "
                             "its latest snapshot and the events after it (slower; a check)")
    parser.add_argument("--stream-linger-ms", type=float,
                        default=float(env("POKER_STREAM_LINGER_MS", "10")),
                        help="how long events a viewer need not act on may wait to share a "
                             "message with later ones (0: send every event at once; env "
                             "POKER_STREAM_LINGER_MS)")
    parser.add_argument("--evaluator-resolve-s", type=float,
                        default=float(env("POKER_EVALUATOR_RESOLVE_S", "5")),
                        help="an evaluator given by a DNS name is looked up again when a "
                             "connection to it ends, at most this often (env "
                             "POKER_EVALUATOR_RESOLVE_S; the evaluators' "
                             "--max-connection-age-s ends them now and then)")
    tls.add_arguments(parser)
    metrics.add_arguments(parser)
    parser.add_argument("--event-loop", choices=("uvloop", "asyncio"),
                        default=env("POKER_EVENT_LOOP", "uvloop"),
                        help="the event loop that runs every table: uvloop (the default "
                             "where installed; about 10%% more hands a second) or asyncio's "
                             "own (env POKER_EVENT_LOOP)")
    journal.add_arguments(parser, "POKER_DEALER")
    placement.add_arguments(parser)
    add_log_format_argument(parser)


def run(args: argparse.Namespace) -> int:
    if getattr(args, "event_loop", "asyncio") == "uvloop":
        try:
            import uvloop
        except ImportError:  # not installed (Windows): asyncio's own loop
            log.warning("uvloop_unavailable", event_loop="asyncio")
        else:
            return uvloop.run(serve(args))
    return asyncio.run(serve(args))


def evaluator_addresses(args: argparse.Namespace) -> list[str]:
    if args.evaluator:
        return list(args.evaluator)
    return [a.strip() for a in os.environ.get("POKER_EVALUATORS", "").split(",") if a.strip()]


async def serve(args: argparse.Namespace) -> int:
    metrics.serve_from_args(args)
    if not args.service_token:
        log.warning("no_service_token", hint="internal calls are refused without --service-token")
    server_tls = tls.from_args(args)
    upstream = tls.upstream_from_args(args, args.evaluator_tls_ca, "--evaluator-tls-ca")
    addresses = evaluator_addresses(args)
    ranker = (RemoteRanker(addresses, args.evaluator_timeout_ms / 1000, upstream,
                           token=args.evaluator_token, resolve_s=args.evaluator_resolve_s)
              if addresses else None)
    # The in-process evaluator (the default, and the last resort) builds its tables on
    # first use: build them now, off the loop, not in the first showdown.
    threading.Thread(target=local_ranks, args=(range(5), [(5, 6)]), daemon=True).start()
    try:
        store, placed = placement.open_store(args)
    except (sqlite3.OperationalError, ValueError) as err:
        log.error("store_unavailable", db=str(args.db), error=str(err),
                  hint="is another dealer running on this database?")
        return 1
    dealer = Dealer(store, Authenticator(args.service_token, args.auditor_token), ranker,
                    args.on_crash, args.full_replay)
    notes = Notes()  # FollowTables: every table's table-level events
    dealer.on_table.append(notes.watch)
    dealer.restore()
    if placed is not None:  # --dsn: the expired tables are this dealer's now
        placed.start(dealer)
    # What is loaded by now (modules, tables, the evaluator's) lives as long as the
    # process: out of the collector's sight, a full collection while serving scans
    # only what serving made (tens of milliseconds less of a pause).
    gc.collect()
    gc.freeze()
    # A decision allocates a few hundred short-lived objects (events, messages) and
    # almost no cycles: the youngest generation is collected every 20,000 allocations
    # instead of every 700, which took about 2.5 % of a busy dealer's CPU.
    gc.set_threshold(20_000, 10, 10)
    servicer = DealerServicer(dealer, args.stream_linger_ms / 1000, notes)
    metrics.gauge_tables(lambda: len(dealer.tables))
    if not args.dsn:
        metrics.set_lease_state("embedded")  # SQLite: one dealer owns its tables, no lease
    pruning = asyncio.create_task(journal.prune_on_loop(store.journal))

    async def stop() -> None:
        pruning.cancel()
        if placed is not None:  # the leases expire now: another dealer adopts at once
            await asyncio.to_thread(placed.stop)
        store.close()
        if ranker is not None:
            await ranker.aclose()

    service = serving.Service([SERVICE_NAME], functools.partial(add_servicer, servicer),
                              on_stop=stop, on_stopping=dealer.shutdown)
    started = {"db": "postgresql" if placed else str(args.db), "evaluators": addresses,
               "tables": len(dealer.tables),
               "evaluator_tls": upstream is not None,
               "event_loop": type(asyncio.get_running_loop()).__module__.split(".")[0]}
    return await serving.serve_forever_async([service], args.host, args.port, "dealer",
                                             tls=server_tls, grace=STOP_GRACE_S,
                                             started=started)


__all__ = ["AUDITOR", "DealerServicer", "add_arguments", "run", "serve"]
