"""TournamentService over a `Director`: requests to plain values and back, who may call what.

The operator creates, starts and cancels; a player registers, rebuys, takes the add-on
and re-enters as themself (the operator for anyone); everyone reads and watches.
Errors become status codes through the lobby's one mapping (services/lobby/server.py).
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import grpc

from poker import status, timefields
from poker.v1 import table_config_pb2 as cpb
from poker.v1 import tournament_pb2 as pb
from poker.v1 import tournament_pb2_grpc
from services.lobby import checks
from services.lobby.tournament import store
from services.lobby.tournament.director import MAX_EVENTS, Director
from services.lobby.tournament.payouts import prizes
from services.lobby.tournament.structure import (
    DEFAULT_PAYOUTS,
    LevelSpec,
    PayoutTier,
    Structure,
)

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["TournamentService"].full_name
R = TypeVar("R")
#: How long a WatchTournament stream waits for news before it looks whether its caller
#: is still there (a cancelled stream is woken at once; this reads nothing).
WATCH_IDLE_S = 10.0
#: Tournament.chip_errors at most.
MAX_CHIP_ERRORS = 100

_STATES = {store.REGISTERING: pb.TOURNAMENT_STATE_REGISTERING,
           store.STARTING: pb.TOURNAMENT_STATE_STARTING,
           store.RUNNING: pb.TOURNAMENT_STATE_RUNNING,
           store.FINISHED: pb.TOURNAMENT_STATE_FINISHED,
           store.CANCELLED: pb.TOURNAMENT_STATE_CANCELLED}
_STATUS = {store.REGISTERED: pb.ENTRY_STATUS_REGISTERED, store.PLAYING: pb.ENTRY_STATUS_PLAYING,
           store.BUSTED: pb.ENTRY_STATUS_FINISHED}


def _rpc(method: Callable[..., R]) -> Callable[..., R]:
    @functools.wraps(method)
    def wrapper(self: TournamentServicer, request: Any, context: grpc.ServicerContext) -> R:
        try:
            caller = self.lobby.caller(context)
            checks.message(request)
            return method(self, request, context, caller)
        except grpc.RpcError:
            raise
        except Exception as err:  # noqa: BLE001 - poker.status maps every kind
            status.abort(context, err, method.__name__)

    return wrapper


class TournamentServicer(tournament_pb2_grpc.TournamentServiceServicer):
    """TournamentService over a Director; `lobby` (a LobbyServicer) says who calls."""

    def __init__(self, director: Director, lobby: Any) -> None:
        self.director, self.lobby = director, lobby

    @_rpc
    def CreateTournament(self, request: Any, context: Any, caller: Any) -> Any:
        self.lobby.operator_only(caller, "creating a tournament")
        t = self.director.create(request.name, structure_of(request.structure),
                                 request.request_id, request.tournament_id)
        return pb.CreateTournamentResponse(tournament=tournament_pb(t))

    @_rpc
    def StartTournament(self, request: Any, context: Any, caller: Any) -> Any:
        self.lobby.operator_only(caller, "starting a tournament")
        t = self.director.start(request.tournament_id, request.request_id)
        return pb.StartTournamentResponse(tournament=tournament_pb(t))

    @_rpc
    def CancelTournament(self, request: Any, context: Any, caller: Any) -> Any:
        self.lobby.operator_only(caller, "cancelling a tournament")
        t = self.director.cancel(request.tournament_id, request.request_id)
        return pb.CancelTournamentResponse(tournament=tournament_pb(t))

    def _player(self, name: str, request: Any, caller: Any) -> Any:
        player_id = self.lobby.whose(caller, request.player_id)
        return getattr(self.director, name)(request.tournament_id, player_id,
                                            request.request_id, self.lobby.scope(caller))

    @_rpc
    def RegisterTournament(self, request: Any, context: Any, caller: Any) -> Any:
        return pb.RegisterTournamentResponse(
            tournament=tournament_pb(self._player("register", request, caller)))

    @_rpc
    def UnregisterTournament(self, request: Any, context: Any, caller: Any) -> Any:
        return pb.UnregisterTournamentResponse(
            tournament=tournament_pb(self._player("unregister", request, caller)))

    @_rpc
    def TournamentRebuy(self, request: Any, context: Any, caller: Any) -> Any:
        return pb.TournamentRebuyResponse(
            tournament=tournament_pb(self._player("rebuy", request, caller)))

    @_rpc
    def TournamentAddOn(self, request: Any, context: Any, caller: Any) -> Any:
        return pb.TournamentAddOnResponse(
            tournament=tournament_pb(self._player("add_on", request, caller)))

    @_rpc
    def ReEnterTournament(self, request: Any, context: Any, caller: Any) -> Any:
        return pb.ReEnterTournamentResponse(
            tournament=tournament_pb(self._player("re_enter", request, caller)))

    @_rpc
    def GetTournament(self, request: Any, context: Any, caller: Any) -> Any:
        return pb.GetTournamentResponse(
            tournament=tournament_pb(self.director.get(request.tournament_id)))

    @_rpc
    def ListTournaments(self, request: Any, context: Any, caller: Any) -> Any:
        found, token = self.director.page(request.page_size, request.page_token)
        return pb.ListTournamentsResponse(tournaments=[tournament_pb(t) for t in found],
                                          next_page_token=token)

    @_rpc
    def GetTournamentSeat(self, request: Any, context: Any, caller: Any) -> Any:
        player_id = self.lobby.whose(caller, request.player_id)
        t = self.director.get(request.tournament_id)
        e, table, token = self.director.seat_of(request.tournament_id, player_id)
        return pb.GetTournamentSeatResponse(
            state=_STATES[t.state], status=_STATUS[e.status],
            table_id=table.table_id if table else "", seat=max(e.seat, 0) if table else 0,
            seat_token=token, dealer_address=table.dealer if table else "",
            place=e.place, shared=e.shared if e.place else 0, prize=e.prize)

    def WatchTournament(self, request: Any, context: grpc.ServicerContext
                        ) -> Iterator[pb.WatchTournamentResponse]:
        """The events after `after_sequence`, then each as the director appends it (it
        says so: services/lobby/tournament/watch.py); the store is read only then."""
        watchers = self.director.watchers
        try:
            self.lobby.caller(context)
            checks.message(request)
            tid, after = request.tournament_id, request.after_sequence
            self.director.get(tid)
            watcher = watchers.join(tid)
        except Exception as err:  # noqa: BLE001
            status.abort(context, err, "WatchTournament")
        try:
            context.add_callback(lambda: watchers.wake(tid))  # cancelled: it ends at once
            found = self.director.events(tid, after, MAX_EVENTS)
            while context.is_active():
                if found:
                    after = found[-1].sequence
                    yield pb.WatchTournamentResponse(events=[event_pb(e) for e in found])
                    if any(e.kind in ("finished", "cancelled") for e in found):
                        return
                    if len(found) == MAX_EVENTS:  # more written already
                        found = self.director.events(tid, after, MAX_EVENTS)
                        continue
                elif self.director.get(tid).state in (store.FINISHED, store.CANCELLED):
                    return  # over, and every event sent
                found = []
                while not found and context.is_active() and not watchers.closed:
                    if watcher.wait(after, WATCH_IDLE_S):
                        found = self.director.events(tid, after, MAX_EVENTS)
                if watchers.closed:
                    return
        finally:
            watcher.leave()


# ---------------------------------------------------------------------- conversions

def structure_of(m: pb.TournamentStructure) -> Structure:
    """A request's structure as the director's (checked there); its times are read from
    the integers, which poker.timefields.settle filled from any Duration / Timestamp."""
    levels = tuple(LevelSpec(int(x.small_blind), int(x.big_blind), int(x.ante),
                             float(x.minutes), bool(x.is_break)) for x in m.levels)
    payouts = tuple(PayoutTier(int(p.min_entries), tuple(int(s) for s in p.shares_bp))
                    for p in m.payouts) or DEFAULT_PAYOUTS
    return Structure(
        buy_in=int(m.buy_in), fee=int(m.fee), starting_stack=int(m.starting_stack),
        levels=levels, ante_big_blind=m.ante_form == cpb.ANTE_FORM_BIG_BLIND,
        late_registration_until_level=int(m.late_registration_until_level),
        max_rebuys=int(m.max_rebuys), rebuy_until_level=int(m.rebuy_until_level),
        rebuy_chips=int(m.rebuy_chips),
        rebuy_only_at_or_below_start=not m.rebuy_above_starting_stack,
        add_on_chips=int(m.add_on_chips), add_on_price=int(m.add_on_price),
        max_re_entries=int(m.max_re_entries), table_size=int(m.table_size or 9),
        payouts=payouts, start_unix_ms=int(m.start_unix_ms), max_players=int(m.max_players),
        min_players=int(m.min_players or 2), action_time_ms=int(m.action_time_ms),
        pay_jumps=tuple(int(x) for x in m.pay_jumps))


def level_pb(level: LevelSpec) -> pb.TournamentLevel:
    return pb.TournamentLevel(small_blind=level.small_blind, big_blind=level.big_blind,
                              ante=level.ante, minutes=level.minutes, is_break=level.is_break)


def structure_pb(s: Structure) -> pb.TournamentStructure:
    return pb.TournamentStructure(
        buy_in=s.buy_in, fee=s.fee, starting_stack=s.starting_stack,
        levels=[level_pb(x) for x in s.levels],
        ante_form=cpb.ANTE_FORM_BIG_BLIND if s.ante_big_blind else cpb.ANTE_FORM_EACH_PLAYER,
        late_registration_until_level=s.late_registration_until_level,
        max_rebuys=s.max_rebuys, rebuy_until_level=s.rebuy_until_level,
        rebuy_chips=s.rebuy_chips, rebuy_above_starting_stack=not s.rebuy_only_at_or_below_start,
        add_on_chips=s.add_on_chips, add_on_price=s.add_on_price,
        max_re_entries=s.max_re_entries, table_size=s.table_size,
        payouts=[pb.PayoutTier(min_entries=p.min_entries, shares_bp=list(p.shares))
                 for p in s.payouts],
        start_unix_ms=s.start_unix_ms, max_players=s.max_players, min_players=s.min_players,
        action_time_ms=s.action_time_ms, pay_jumps=list(s.pay_jumps))


def tournament_pb(t: store.Tournament) -> pb.Tournament:
    s = t.structure
    left = t.players_left()
    running = t.state == store.RUNNING
    clock = s.clock((time.time() * 1000 - t.started_ms) / 1000) if running else None
    seated: dict[str, int] = {}
    for e in left:
        seated[e.table_id] = seated.get(e.table_id, 0) + 1
    field = sum(e.entries for e in t.entries.values())
    out = pb.Tournament(
        tournament_id=t.tournament_id, name=t.name, structure=structure_pb(s),
        state=_STATES[t.state], level_index=t.level, level=level_pb(s.levels[t.level]),
        level_seconds_left=(clock.seconds_left if clock and clock.index == t.level
                            and math.isfinite(clock.seconds_left) else 0.0),
        players_left=len(left), entries=field,
        average_stack=(t.chips // len(left)) if left else 0,
        prize_pool=t.pool if t.state != store.FINISHED else
        sum(e.prize for e in t.entries.values()), fees=t.fees,
        players=[pb.TournamentPlayer(
            player_id=e.player_id, status=_STATUS[e.status],
            table_id=e.table_id if e.status == store.PLAYING else "",
            seat=max(e.seat, 0) if e.status == store.PLAYING else 0, stack=e.stack
            if e.status == store.PLAYING else 0, place=e.place,
            shared=e.shared if e.place else 0, prize=e.prize, entries=e.entries,
            rebuys=e.rebuys, add_ons=e.add_ons)
            for e in sorted(t.entries.values(), key=lambda e: e.player_id)],
        tables=[pb.TournamentTable(table_id=x.table_id, number=x.number,
                                   dealer_address=x.dealer, players=seated.get(x.table_id, 0),
                                   final=x.final, hands_played=x.seen)
                for x in t.open_tables()],
        payouts=prizes(t.pool if t.state != store.FINISHED else
                       sum(e.prize for e in t.entries.values()), s.shares(field)),
        hand_for_hand=t.hand_for_hand, started_unix_ms=t.started_ms,
        finished_unix_ms=t.finished_ms, hands=t.hands, moves=t.moves, chips_in_play=t.chips,
        chip_checks=t.chip_checks, chip_errors=t.chip_errors[:MAX_CHIP_ERRORS],
        largest_table_gap=t.max_gap, largest_table_gap_balanced=t.max_gap_held)
    timefields.fill(out)  # AIP-142: every time also as a Duration / Timestamp
    return out


_KINDS = {name.removeprefix("TOURNAMENT_EVENT_KIND_").lower(): value
          for name, value in pb.TournamentEventKind.items()}


def event_pb(e: store.Event) -> pb.TournamentEvent:
    b = e.body
    out = pb.TournamentEvent(sequence=e.sequence, time_unix_ms=e.at_ms,
                             kind=_KINDS.get(e.kind, pb.TOURNAMENT_EVENT_KIND_UNSPECIFIED),
                             player_id=b.get("player_id", ""), reason=b.get("why", ""))
    if e.kind == "moved":
        out.table_id, out.seat = b["from_table"], b["from_seat"]
        out.to_table_id, out.to_seat, out.chips = b["to_table"], b["to_seat"], b["stack"]
    elif e.kind == "busted":
        out.place, out.shared, out.table_id = b["place"], b["shared"], b.get("table_id", "")
    elif e.kind in ("level_up", "break"):
        out.level_index = b["level"]
        out.level.CopyFrom(pb.TournamentLevel(
            small_blind=b["small_blind"], big_blind=b["big_blind"], ante=b["ante"],
            minutes=b["minutes"], is_break=e.kind == "break"))
    elif e.kind == "hand_for_hand":
        out.on, out.players = b["on"], b["players_left"]
    elif e.kind in ("table_broken", "final_table"):
        out.table_id, out.players = b["table_id"], b["players"]
    elif e.kind == "started":
        out.players, out.tables, out.chips = b["players"], b["tables"], b["pool"]
        out.seats.extend(pb.TournamentSeat(**x) for x in b["seats"])
    elif e.kind == "finished":
        out.results.extend(pb.TournamentResult(**x) for x in b["results"])
    elif e.kind == "registered":
        out.players = b["entries"]
    elif e.kind in ("rebuy", "add_on"):
        out.chips = b["chips"]
    elif e.kind == "seated":
        out.table_id, out.seat = b["table_id"], b["seat"]
    timefields.fill(out)
    return out
