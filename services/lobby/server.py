"""The lobby's gRPC server: a thin adapter from LobbyService to `Lobby`, plus who may call what.

Callers: the operator (`--operator-token`) may do everything; a player (a token
the lobby issued) may read tables and their own money and join, rebuy and leave
as themself. Domain errors become gRPC status codes in one place, `poker.status`.
"""

from __future__ import annotations

import argparse
import functools
import hmac
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn, TypeVar

import grpc
import structlog

from poker import journal, metrics, status, tls, wire
from poker.cards import card_text
from poker.errors import PokerError
from poker.limits import MAX_NAME_CHARS, MAX_TOKEN_CHARS
from poker.log import add_log_format_argument
from poker.serving import Service, serve_forever
from poker.v1 import dealer_pb2, lobby_pb2_grpc, tournament_pb2_grpc
from poker.v1 import lobby_pb2 as pb
from services.lobby import checks, errors
from services.lobby.dealer_client import GrpcDealer, game_config, game_json
from services.lobby.draw import ButtonDraw
from services.lobby.follower import TableFollower
from services.lobby.ledger import LedgerCorrupt, Transfer
from services.lobby.lobby import Lobby
from services.lobby.operations import OPERATOR_SCOPE, OpState
from services.lobby.players import Player
from services.lobby.rules import DEFAULT_REBUY_WAIT_S, LateJoin, TableRules
from services.lobby.storage import open_storage
from services.lobby.tables import Table
from services.lobby.tournament.director import Director
from services.lobby.tournament.service import SERVICE_NAME as TOURNAMENT_SERVICE
from services.lobby.tournament.service import TournamentServicer

log = structlog.get_logger(__name__)  # lazy: configured at start-up, after this import
SERVICE_NAME = pb.DESCRIPTOR.services_by_name["LobbyService"].full_name
R = TypeVar("R")

@dataclass(frozen=True, slots=True)
class Caller:
    """The operator, or one player."""

    player_id: str | None  # None: the operator

    @property
    def is_operator(self) -> bool:
        return self.player_id is None


def _abort(context: grpc.ServicerContext, err: Exception, rpc: str) -> NoReturn:
    """Refuses the call with the status of `err` (poker.status: the one mapping)."""
    if isinstance(err, LedgerCorrupt):
        log.error("ledger_corrupt", error=str(err))
    status.abort(context, err, rpc)


def rpc(method: Callable[..., R]) -> Callable[..., R]:
    """Authenticates the call, runs it, and turns domain errors into status codes."""

    @functools.wraps(method)
    def wrapper(self: LobbyServicer, request: Any, context: grpc.ServicerContext) -> R:
        try:
            caller = self.caller(context)
            checks.message(request)  # every field within its limit (lobby.proto)
            return method(self, request, context, caller)
        except grpc.RpcError:
            raise
        except Exception as err:  # noqa: BLE001 - poker.status maps every kind
            _abort(context, err, method.__name__)

    return wrapper


class LobbyServicer(lobby_pb2_grpc.LobbyServiceServicer):
    """LobbyService over a `Lobby`."""

    def __init__(self, lobby: Lobby, operator_token: str) -> None:
        self.lobby = lobby
        self._operator_token = operator_token

    # ------------------------------------------------------------------ who calls

    def caller(self, context: grpc.ServicerContext) -> Caller:
        token = bearer(context.invocation_metadata())
        if token is None:
            raise errors.Unauthenticated(
                "no credential: send 'authorization: Bearer <token>' (operator or player token)")
        if hmac.compare_digest(token.encode(), self._operator_token.encode()):
            return Caller(None)
        player_id = self.lobby.player_for_token(token)
        if player_id is None:
            raise errors.Unauthenticated("unknown token: ask the operator for a new one")
        return Caller(player_id)

    @staticmethod
    def operator_only(caller: Caller, what: str) -> None:
        if not caller.is_operator:
            raise errors.PermissionDenied(f"{what} needs the operator's token")

    @staticmethod
    def whose(caller: Caller, player_id: str) -> str:
        """The player a request acts for: the caller, or anyone for the operator."""
        if caller.is_operator:
            if not player_id:
                raise errors.InvalidArgument("player_id is required with the operator's token")
            return player_id
        if player_id and player_id != caller.player_id:
            raise errors.PermissionDenied(
                f"this token is {caller.player_id}'s: a player may act only on their own money")
        assert caller.player_id is not None
        return caller.player_id

    @staticmethod
    def scope(caller: Caller) -> str | None:
        """Whose request ids the caller's are: the operator's, or (None) the player's own."""
        return OPERATOR_SCOPE if caller.is_operator else None

    # ------------------------------------------------------------------ players and money

    @rpc
    def CreatePlayer(self, request: Any, context: Any, caller: Caller) -> pb.CreatePlayerResponse:
        self.operator_only(caller, "creating a player")
        player, token = self.lobby.create_player(request.player_id, request.display_name)
        return pb.CreatePlayerResponse(player=player_pb(player), token=token)

    @rpc
    def IssuePlayerToken(self, request: Any, context: Any,
                         caller: Caller) -> pb.IssuePlayerTokenResponse:
        self.operator_only(caller, "issuing a token")
        return pb.IssuePlayerTokenResponse(token=self.lobby.issue_token(request.player_id))

    @rpc
    def GetPlayer(self, request: Any, context: Any, caller: Caller) -> pb.GetPlayerResponse:
        player = self.lobby.player(self.whose(caller, request.player_id))
        return pb.GetPlayerResponse(player=player_pb(player))

    @rpc
    def Deposit(self, request: Any, context: Any, caller: Caller) -> pb.DepositResponse:
        self.operator_only(caller, "a deposit")
        player = self.lobby.deposit(request.player_id, request.amount, request.request_id)
        return pb.DepositResponse(player=player_pb(player))

    @rpc
    def Withdraw(self, request: Any, context: Any, caller: Caller) -> pb.WithdrawResponse:
        self.operator_only(caller, "a withdrawal")
        player = self.lobby.withdraw(request.player_id, request.amount, request.request_id)
        return pb.WithdrawResponse(player=player_pb(player))

    @rpc
    def ListTransfers(self, request: Any, context: Any,
                      caller: Caller) -> pb.ListTransfersResponse:
        # page_size (AIP-158), or its older name
        size, field = ((request.page_size, "page_size") if request.page_size
                       else (request.limit, "limit"))
        found, token = self.lobby.transfers_page(self.whose(caller, request.player_id), size,
                                                 request.page_token, field)
        return pb.ListTransfersResponse(transfers=[transfer_pb(t) for t in found],
                                        next_page_token=token)

    @rpc
    def AuditLedger(self, request: Any, context: Any, caller: Caller) -> pb.AuditLedgerResponse:
        self.operator_only(caller, "auditing the ledger")
        audit = self.lobby.audit()
        # A ledger past its limits (made by an older version) is reported, not fatal: the
        # sums are cut to what the fields hold, and the problems say the real numbers.
        return pb.AuditLedgerResponse(
            ok=audit.ok, total=_int64(audit.total),
            player_balances=_uint64(audit.by_kind.get("player", 0)),
            table_chips=_uint64(audit.by_kind.get("table", 0)),
            operator_balance=_int64(audit.by_kind.get("operator", 0)),
            problems=audit.problems[:MAX_PROBLEMS], house_rake=_uint64(audit.rake))

    @rpc
    def RakeReport(self, request: Any, context: Any, caller: Caller) -> pb.RakeReportResponse:
        self.operator_only(caller, "reading the rake report")
        lines, token = self.lobby.rake_report(request.page_size, request.page_token)
        return pb.RakeReportResponse(
            lines=[pb.RakeLine(table_id=x.table_id, day=x.day, amount=x.amount) for x in lines],
            next_page_token=token)

    # ------------------------------------------------------------------ tables

    @rpc
    def OpenTable(self, request: Any, context: Any, caller: Caller) -> pb.OpenTableResponse:
        self.operator_only(caller, "opening a table")
        for n, level in enumerate(request.config.levels):
            for name in ("small_blind", "big_blind", "ante"):
                checks.chips(f"config.levels[{n}].{name}", getattr(level, name))
        rules = rules_of(request.rules, request.config.seats or 6)
        table = self.lobby.open_table(request.name, rules, game_json(request.config),
                                      request.request_id, request.table_id)
        return pb.OpenTableResponse(table=table_pb(table))

    @rpc
    def ListTables(self, request: Any, context: Any, caller: Caller) -> pb.ListTablesResponse:
        found, token = self.lobby.tables_page(request.include_closed, request.page_size,
                                              request.page_token, request.tournament_id)
        return pb.ListTablesResponse(tables=[table_pb(t) if isinstance(t, Table) else
                                             tournament_table_pb(t) for t in found],
                                     next_page_token=token)

    @rpc
    def GetLobbyTable(self, request: Any, context: Any,
                      caller: Caller) -> pb.GetLobbyTableResponse:
        found = self.lobby.any_table(request.table_id)  # a tournament's too, as ListTables
        return pb.GetLobbyTableResponse(table=table_pb(found) if isinstance(found, Table) else
                                        tournament_table_pb(found))

    @rpc
    def CloseLobbyTable(self, request: Any, context: Any,
                        caller: Caller) -> pb.CloseLobbyTableResponse:
        self.operator_only(caller, "closing a table")
        op = self.lobby.close_table(request.table_id, request.void_hand_in_progress,
                                    request.request_id)
        return pb.CloseLobbyTableResponse(table=table_pb(self.lobby.table(request.table_id)),
                                          chips_returned=op.result)

    @rpc
    def SetTableLevel(self, request: Any, context: Any,
                      caller: Caller) -> pb.SetTableLevelResponse:
        self.operator_only(caller, "setting a table's level")
        level = self.lobby.set_table_level(request.table_id, request.level_index,
                                           request.request_id)
        return pb.SetTableLevelResponse(level=dealer_pb2.Level(
            small_blind=level.small_blind, big_blind=level.big_blind, ante=level.ante))

    @rpc
    def GetButtonDraw(self, request: Any, context: Any,
                      caller: Caller) -> pb.GetButtonDrawResponse:
        draw = self.lobby.button_draw(request.table_id)
        return pb.GetButtonDrawResponse(draw=draw_pb(draw) if draw else None)

    # ------------------------------------------------------------------ seats

    @rpc
    def JoinTable(self, request: Any, context: Any, caller: Caller) -> pb.JoinTableResponse:
        player_id = self.whose(caller, request.player_id)
        seat = request.seat if request.HasField("seat") else None
        op = self.lobby.join(player_id, request.table_id, seat, request.buy_in,
                             request.wait_for_big_blind, request.request_id, self.scope(caller),
                             request.resume)
        table = self.lobby.table(request.table_id)
        draw = self.lobby.button_draw(request.table_id)
        return pb.JoinTableResponse(
            seat=op.seat, seat_token=op.seat_token,
            dealer_address=current_dealer(self.lobby, table.dealer, table.table_id),
            buy_in=op.amount, player=player_pb(self.lobby.player(player_id)),
            button_draw=draw_pb(draw) if draw else None, resumed=op.resumed)

    @rpc
    def Rebuy(self, request: Any, context: Any, caller: Caller) -> pb.RebuyResponse:
        player_id = self.whose(caller, request.player_id)
        op = self.lobby.rebuy(player_id, request.table_id, request.amount, request.request_id,
                              self.scope(caller))
        return pb.RebuyResponse(amount=op.amount, stack=op.result,
                                player=player_pb(self.lobby.player(player_id)))

    @rpc
    def LeaveTable(self, request: Any, context: Any, caller: Caller) -> pb.LeaveTableResponse:
        player_id = self.whose(caller, request.player_id)
        op = self.lobby.leave(player_id, request.table_id, request.request_id,
                              self.scope(caller))
        done = op.state is OpState.DONE
        return pb.LeaveTableResponse(
            status=pb.LEAVE_STATUS_DONE if done else pb.LEAVE_STATUS_PENDING,
            stack=op.result if done else 0, player=player_pb(self.lobby.player(player_id)))


# ---------------------------------------------------------------------- conversions

def bearer(metadata: Any) -> str | None:
    """The bearer token of the call's metadata, if any."""
    for key, value in metadata or ():
        if key == "authorization":
            text = value.decode() if isinstance(value, bytes) else value
            if len(text) > MAX_TOKEN_CHARS + len("Bearer "):
                raise errors.Unauthenticated(
                    f"the authorization metadata is {len(text)} characters; a token has at "
                    f"most {MAX_TOKEN_CHARS}")
            scheme, _, token = text.partition(" ")
            if scheme.lower() != "bearer" or not token.strip():
                raise errors.Unauthenticated("authorization must be 'Bearer <token>'")
            return str(token.strip())
    return None


_LATE = {pb.LATE_JOIN_UNSPECIFIED: LateJoin.PLAYER_CHOICE,
         pb.LATE_JOIN_PLAYER_CHOICE: LateJoin.PLAYER_CHOICE,
         pb.LATE_JOIN_POST_BIG_BLIND: LateJoin.POST_BIG_BLIND,
         pb.LATE_JOIN_WAIT_FOR_BIG_BLIND: LateJoin.WAIT_FOR_BIG_BLIND}
_LATE_PB = {v: k for k, v in _LATE.items() if k != pb.LATE_JOIN_UNSPECIFIED}


#: AuditLedgerResponse.problems at most.
MAX_PROBLEMS = 100


def _int64(value: int) -> int:
    return max(-(2**63), min(value, 2**63 - 1))


def _uint64(value: int) -> int:
    return max(0, min(value, 2**64 - 1))


def rules_of(rules: pb.TableRules, seats: int) -> TableRules:
    if rules.late_join not in _LATE:
        raise errors.InvalidArgument(f"rules.late_join: {rules.late_join} is not a LateJoin value")
    return TableRules(
        seats=seats, min_buy_in=rules.min_buy_in, max_buy_in=rules.max_buy_in,
        initial_stack=rules.initial_stack, rebuy_amount=rules.rebuy_amount,
        max_rebuys=rules.max_rebuys, rebuy_until_hand=rules.rebuy_until_hand,
        rebuy_until_minutes=rules.rebuy_until_minutes, late_join=_LATE[rules.late_join],
        rebuy_wait_seconds=(rules.rebuy_wait_seconds if rules.HasField("rebuy_wait_seconds")
                            else DEFAULT_REBUY_WAIT_S))


def rules_pb(rules: TableRules) -> pb.TableRules:
    return pb.TableRules(
        min_buy_in=rules.min_buy_in, max_buy_in=rules.max_buy_in,
        initial_stack=rules.initial_stack, rebuy_amount=rules.rebuy_amount,
        max_rebuys=rules.max_rebuys, rebuy_until_hand=rules.rebuy_until_hand,
        rebuy_until_minutes=rules.rebuy_until_minutes, late_join=_LATE_PB[rules.late_join],
        rebuy_wait_seconds=rules.rebuy_wait_seconds)


def shown(name: str) -> str:
    """A name as answered: at most MAX_NAME_CHARS (an older lobby stored names of any size,
    and one huge name must not make ListTables fail for every caller)."""
    return name[:MAX_NAME_CHARS]


def player_pb(player: Player) -> pb.Player:
    return pb.Player(player_id=player.player_id, display_name=shown(player.display_name),
                     balance=player.balance)


_KINDS = {k: pb.TransferKind.Value(f"TRANSFER_KIND_{k.upper()}")
          for k in ("deposit", "withdrawal", "buy_in", "rebuy", "cash_out", "refund",
                    "tournament_entry", "tournament_fee", "prize", "tournament_refund")}


def transfer_pb(t: Transfer) -> pb.Transfer:
    return pb.Transfer(id=t.id, kind=_KINDS[t.kind.value], from_account=t.source,
                       to_account=t.destination, amount=t.amount,
                       time_unix_ms=int(t.created_at * 1000))


def filled(config: dealer_pb2.TableConfig) -> dealer_pb2.TableConfig:
    """The configuration as the table's dealer runs it, every default filled in: the one
    CreateTableResponse gives (the dealer's own mapping, services/dealer/views.py)."""
    from services.dealer import views

    try:
        return views.config_to_proto(*views.config_from_proto(config))
    except PokerError:  # a configuration the dealer would refuse (none stored is): as kept
        return config


def table_pb(table: Table) -> pb.LobbyTable:
    seats = [pb.LobbySeat(seat=s.seat, player_id=s.player_id, display_name=shown(s.display_name),
                          status=pb.SeatStatus.Value(f"SEAT_STATUS_{s.state.value.upper()}"),
                          bought_in=s.bought_in, rebuys=s.rebuys) for s in table.seats]
    config = filled(game_config({**table.game, "seats": table.rules.seats}))
    return pb.LobbyTable(
        table_id=table.table_id, name=shown(table.name), config=config,
        rules=rules_pb(table.rules),
        dealer_address=table.dealer,
        status=pb.TableStatus.Value(f"TABLE_STATUS_{table.status.value.upper()}"),
        seats=seats, button=table.button_seat, chips=table.chips)


def tournament_table_pb(table: Any) -> pb.LobbyTable:
    """A tournament table (services/lobby/tournament/listing.py) as ListTables lists it:
    no buy-in rules, its players seated with the stacks the director last saw."""
    return pb.LobbyTable(
        table_id=table.table_id, name=shown(table.name),
        config=filled(game_config(table.game)), dealer_address=table.dealer,
        status=pb.TABLE_STATUS_OPEN if table.open else pb.TABLE_STATUS_CLOSED,
        seats=[pb.LobbySeat(seat=s.seat, player_id=s.player_id,
                            display_name=shown(s.display_name),
                            status=pb.SEAT_STATUS_SEATED, rebuys=s.rebuys)
               for s in table.seats],
        button=table.button, chips=table.chips, tournament_id=table.tournament_id)


def current_dealer(lobby: Lobby, address: str, table_id: str) -> str:
    """Where the table is served now: its dealer unless it moved (GrpcDealer.where)."""
    where = getattr(lobby.ctx.dealer, "where", None)
    return str(where(address, table_id)) if where is not None else address


def draw_pb(draw: ButtonDraw) -> pb.ButtonDraw:
    return pb.ButtonDraw(
        cards=[pb.DrawnCard(seat=c.seat, player_id=c.player_id, card=card_text(c.card))
               for c in draw.cards], button=draw.button)


# ---------------------------------------------------------------------- the command

def add_arguments(parser: argparse.ArgumentParser) -> None:
    env = os.environ.get
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=50053, help="port; 0 picks a free one")
    parser.add_argument("--db", default=env("POKER_LOBBY_DB", "lobby.sqlite"),
                        help="SQLite file of the ledger (env POKER_LOBBY_DB)")
    parser.add_argument("--dsn", default=env("POKER_LOBBY_DSN"),
                        help="PostgreSQL DSN; when given, used instead of --db, and several "
                             "lobby processes may share it (env POKER_LOBBY_DSN)")
    parser.add_argument("--operator-token", default=env("POKER_OPERATOR_TOKEN"),
                        help="the operator's credential (env POKER_OPERATOR_TOKEN); required")
    parser.add_argument("--service-token", default=env("POKER_SERVICE_TOKEN"),
                        help="the dealers' service credential (env POKER_SERVICE_TOKEN)")
    parser.add_argument("--dealer", action="append", default=None, metavar="HOST:PORT",
                        help="a dealer to place tables on, repeatable (env POKER_DEALERS, "
                             "comma separated)")
    parser.add_argument("--dealer-tls-ca", default=env("POKER_DEALER_TLS_CA"), metavar="PATH",
                        help="PEM CA of the dealers' certificates: call them over TLS "
                             "(env POKER_DEALER_TLS_CA)")
    parser.add_argument("--dealer-timeout-ms", type=int, default=5000,
                        help="deadline of one call to a dealer")
    parser.add_argument("--poll-dealers", action="store_true",
                        default=env("POKER_LOBBY_POLL_DEALERS", "") == "1",
                        help="R30 asks every table its seats each pass (GetTable), as before "
                             "FollowTables; default: follow each dealer's table-level events "
                             "and ask only the tables where a player busted (env "
                             "POKER_LOBBY_POLL_DEALERS=1)")
    parser.add_argument("--recovery-interval", type=float, default=1.0,
                        help="seconds between passes that finish or undo interrupted work")
    parser.add_argument("--lease-seconds", type=float, default=15.0,
                        help="how long one lobby process holds an operation it is driving")
    tls.add_arguments(parser)
    metrics.add_arguments(parser)
    journal.add_arguments(parser, "POKER_LOBBY")
    add_log_format_argument(parser)


def tournament_service(lobby: Lobby, servicer: LobbyServicer
                       ) -> tuple[Director, Callable[[Any], None]]:
    """The tournament director over the lobby (its loop started) and how to add its
    TournamentService to a server."""
    director = Director(lobby.ctx, lobby.dealers)
    if lobby.follower is not None:  # the one follower of the dealers (FollowTables)
        director.follow(lobby.follower)
    director.start_loop()
    tournaments = TournamentServicer(director, servicer)

    def add(server: Any) -> None:
        wire.add(server, TOURNAMENT_SERVICE,
                 tournament_pb2_grpc.add_TournamentServiceServicer_to_server, tournaments)

    return director, add


def dealer_addresses(args: argparse.Namespace) -> list[str]:
    if args.dealer:
        return list(args.dealer)
    return [a.strip() for a in os.environ.get("POKER_DEALERS", "").split(",") if a.strip()]


def _fault_hook() -> Callable[[str], None]:
    # Test hook for the end-to-end crash tests: POKER_LOBBY_FAULT=<step> kills the process there.
    step = os.environ.get("POKER_LOBBY_FAULT", "")

    def fault(at: str) -> None:
        if step and at == step:
            log.warning("fault_injected", step=at)
            os._exit(17)

    return fault


def run(args: argparse.Namespace) -> int:
    if not args.operator_token:
        print("poker serve lobby: --operator-token (or POKER_OPERATOR_TOKEN) is required",
              flush=True)
        return 2
    if not args.service_token:
        log.warning("no_service_token", hint="dealers refuse internal calls without it")
    server_tls = tls.from_args(args)
    upstream = tls.upstream_from_args(args, args.dealer_tls_ca, "--dealer-tls-ca")
    metrics.serve_from_args(args)
    storage = open_storage(args.dsn, args.db)
    dealer = GrpcDealer(args.service_token or "", args.dealer_timeout_ms / 1000, upstream,
                        peers=dealer_addresses(args))
    lobby = Lobby(storage, dealer, dealer_addresses(args), args.lease_seconds,
                  fault=_fault_hook(), retention=journal.retention_from_args(args))
    log.info("lobby_starting", backend=storage.dialect, dealers=lobby.dealers,
             dealer_tls=upstream is not None)
    if not args.poll_dealers:  # FollowTables streams instead of R30's GetTable polling
        lobby.follow(TableFollower(lobby.dealers, args.service_token or "", upstream))
    lobby.start_recovery(args.recovery_interval)
    servicer = LobbyServicer(lobby, args.operator_token)
    metrics.gauge_buy_ins_pending(lobby.buy_ins_pending)
    metrics.gauge_audit(lobby.audit)
    director, tournaments = tournament_service(lobby, servicer)  # T1-T9

    def stop() -> None:
        director.stop()
        lobby.stop()
        if lobby.follower is not None:
            lobby.follower.stop()
        dealer.close()
        storage.close()

    def add(server: Any) -> None:
        wire.add(server, SERVICE_NAME, lobby_pb2_grpc.add_LobbyServiceServicer_to_server,
                 servicer)
        tournaments(server)

    service = Service([SERVICE_NAME, TOURNAMENT_SERVICE], add, on_stop=stop,
                      on_stopping=director.watchers.close)  # WatchTournament ends at once
    return serve_forever([service], args.host, args.port, "lobby", tls=server_tls)
