"""The lobby's gRPC client of the dealers (DealerService), implementing `dealers.Dealer`.

Internal calls carry the service token. An answer that says the call was refused
(INVALID_ARGUMENT, NOT_FOUND, ALREADY_EXISTS, FAILED_PRECONDITION, ...) becomes
`DealerRefused`; no answer, or one that does not say whether the call took effect
(UNAVAILABLE, DEADLINE_EXCEEDED, INTERNAL, UNKNOWN, ...), becomes `DealerUnreachable`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Any

import grpc
from google.protobuf import json_format  # type: ignore[import-untyped,unused-ignore]
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from poker.moved import moved_to
from poker.tls import upstream_channel
from poker.v1 import dealer_pb2 as pb
from poker.v1 import dealer_pb2_grpc
from services.lobby.dealers import (
    DealerEvent,
    DealerRefused,
    DealerSeat,
    DealerTable,
    DealerUnreachable,
    Level,
    SeatStack,
)

#: Codes that say for certain the call did not take effect.
REFUSALS = {
    grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.NOT_FOUND, grpc.StatusCode.ALREADY_EXISTS,
    grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.PERMISSION_DENIED,
    grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.OUT_OF_RANGE,
    grpc.StatusCode.UNIMPLEMENTED,
}


def game_config(game: dict[str, Any]) -> pb.TableConfig:
    """The dealer's TableConfig from the JSON the lobby stores."""
    config: pb.TableConfig = json_format.ParseDict(game, pb.TableConfig())
    return config


def game_json(config: pb.TableConfig) -> dict[str, Any]:
    """The JSON the lobby stores of a dealer TableConfig."""
    data: dict[str, Any] = json_format.MessageToDict(config, preserving_proto_field_name=True)
    return data


#: The calls sent to another dealer when the table's does not answer: reads, and the
#: calls a repeat answers the same way (request id, idempotency key). Another call that
#: found no dealer may have taken effect there: it is DealerUnreachable, and the lobby
#: finds out from the table's state (read through GetTable, which finds the new owner).
ASK_PEERS = frozenset({"GetTable", "SeatPlayer", "AddChips", "SetLevel"})
#: Redirects one call follows (TABLE_MOVED, or the next dealer when one is gone), and
#: the pause when the table is between owners: about a lease's worth in all.
MAX_MOVES, MOVE_PAUSE_S = 40, 0.25


class GrpcDealer:
    """Calls dealers over gRPC, one channel per address (TLS when given `credentials`).

    Dealers sharing a PostgreSQL store move tables between them (services.dealer.lease):
    a call for a table goes where the table was last seen (`moved`), follows a
    TABLE_MOVED answer to the new owner, and, when its dealer does not answer, asks
    the other dealers of the room (`peers`, the lobby's --dealer list), which serve the
    table or say where it is. The table's recorded dealer stays as it was: `moved` is
    this process's knowledge of where each table is now."""

    def __init__(self, service_token: str, timeout: float = 5.0,
                 credentials: grpc.ChannelCredentials | None = None,
                 peers: Sequence[str] = ()) -> None:
        self._metadata = (("authorization", f"Bearer {service_token}"),)
        self._timeout = timeout
        self._credentials = credentials  # TLS toward the dealers; None: plaintext
        self._channels: dict[str, grpc.Channel] = {}
        self._stubs: dict[str, dealer_pb2_grpc.DealerServiceStub] = {}
        self._lock = threading.Lock()
        self.peers = list(peers)
        #: Where each moved table is now (table id -> dealer address).
        self.moved: dict[str, str] = {}

    def _stub(self, address: str) -> dealer_pb2_grpc.DealerServiceStub:
        with self._lock:
            if address not in self._stubs:
                channel = upstream_channel(address, self._credentials)
                self._channels[address] = channel
                self._stubs[address] = dealer_pb2_grpc.DealerServiceStub(  # type: ignore[no-untyped-call,unused-ignore]
                    channel)
            return self._stubs[address]

    def _call(self, address: str, method: str, request: Any,
              metadata: tuple[tuple[str, str], ...] | None = None) -> Any:
        table_id = getattr(request, "table_id", "")
        address = first = self.moved.get(table_id, address)
        for _ in range(MAX_MOVES):
            try:
                reply = getattr(self._stub(address), method)(
                    request, metadata=metadata or self._metadata, timeout=self._timeout)
            except grpc.RpcError as err:
                if address not in (first, self.moved.get(table_id)) and (
                        err.code() == grpc.StatusCode.NOT_FOUND):
                    # a peer asked while the table's dealer is away does not serve it
                    # (its own store, not a shared one): the dealer is unreachable
                    raise DealerUnreachable(f"{first} {method}: unreachable, and no other "
                                            f"dealer serves table {table_id}") from None
                nxt = self._follow(table_id, address, err, method in ASK_PEERS)
                if nxt is None:
                    raise _error(err, address, method) from None
                address = nxt
                continue
            if table_id and address != first:
                self.moved[table_id] = address  # it answered for the table: it serves it
            return reply
        raise DealerUnreachable(f"{address} {method}: table {table_id} kept moving")

    def where(self, address: str, table_id: str) -> str:
        """The address the table's calls go to now (its recorded dealer unless it moved)."""
        return self.moved.get(table_id, address)

    def _follow(self, table_id: str, address: str, err: grpc.RpcError,
                ask_peers: bool = True) -> str | None:
        """After a failed call: the address to try next, or None to give up. A dealer
        gone is asked of its peers only for `ask_peers` calls (ASK_PEERS); a TABLE_MOVED
        answer (nothing done) is always followed."""
        target = moved_to(err)
        if target == "":  # between owners: the same dealer names the new one shortly
            time.sleep(MOVE_PAUSE_S)
            return address
        if (target is None and ask_peers and table_id
                and err.code() == grpc.StatusCode.UNAVAILABLE):
            at = self.peers.index(address) if address in self.peers else -1
            target = self.peers[(at + 1) % len(self.peers)] if self.peers else None
            if target is None or target == address:
                return None
            if table_id in self.moved and self.moved[table_id] == address:
                del self.moved[table_id]
            time.sleep(MOVE_PAUSE_S)
            return target  # a guess: remembered only once a dealer says it serves it
        if not target:
            return None
        if target != address:
            self.moved[table_id] = target
        return target

    def close(self) -> None:
        with self._lock:
            for channel in self._channels.values():
                channel.close()
            self._channels.clear()
            self._stubs.clear()

    # -------------------------------------------------------------- the Dealer protocol

    def create_table(self, address: str, table_id: str, game: dict[str, Any]) -> None:
        self._call(address, "CreateTable",
                   pb.CreateTableRequest(table_id=table_id, config=game_config(game)))

    def seat_player(self, address: str, table_id: str, seat: int, player_id: str, stack: int,
                    wait_for_big_blind: bool, request_id: str) -> str:
        reply = self._call(address, "SeatPlayer", pb.SeatPlayerRequest(
            table_id=table_id, seat=seat, player_id=player_id, stack=stack,
            wait_for_big_blind=wait_for_big_blind, request_id=request_id))
        return str(reply.seat_token)

    def add_chips(self, address: str, table_id: str, seat: int, amount: int, key: str) -> int:
        reply = self._call(address, "AddChips", pb.AddChipsRequest(
            table_id=table_id, seat=seat, amount=amount, idempotency_key=key))
        return int(reply.stack)

    def unseat_player(self, address: str, table_id: str, seat: int) -> SeatStack:
        reply = self._call(address, "UnseatPlayer",
                           pb.UnseatPlayerRequest(table_id=table_id, seat=seat))
        return _stack(reply.stack)

    def sit_out(self, address: str, table_id: str, seat: int, seat_token: str) -> None:
        self._call(address, "SitOut", pb.SitOutRequest(table_id=table_id, seat=seat),
                   metadata=(("authorization", f"Bearer {seat_token}"),))

    def set_button(self, address: str, table_id: str, seat: int) -> None:
        self._call(address, "SetButton", pb.SetButtonRequest(table_id=table_id, seat=seat))

    def set_level(self, address: str, table_id: str, level_index: int,
                  request_id: str = "") -> Level:
        level = self._call(address, "SetLevel", pb.SetLevelRequest(
            table_id=table_id, level_index=level_index, request_id=request_id)).level
        return Level(level.small_blind, level.big_blind, level.ante)

    def close_table(self, address: str, table_id: str, void_hand: bool) -> list[SeatStack]:
        reply = self._call(address, "CloseTable", pb.CloseTableRequest(
            table_id=table_id, void_hand_in_progress=void_hand))
        return [_stack(s) for s in reply.stacks]

    def table(self, address: str, table_id: str) -> DealerTable:
        view = self._call(address, "GetTable", pb.GetTableRequest(table_id=table_id)).table
        running = view.HasField("hand") and view.hand.street != pb.STREET_COMPLETE
        seats = {s.seat: DealerSeat(s.seat, s.player_id, s.stack, s.in_hand and running)
                 for s in view.seats}
        return DealerTable(table_id, view.sequence, seats, view.hands_played, running,
                           view.closed, view.button if view.HasField("button") else None,
                           view.last_hand_end_time.ToMilliseconds()
                           if view.HasField("last_hand_end_time")
                           else view.last_hand_end_unix_ms)

    def set_deal_limit(self, address: str, table_id: str, until_hand: int | None) -> int:
        request = pb.SetDealLimitRequest(table_id=table_id)
        if until_hand is not None:
            request.until_hand = until_hand
        return int(self._call(address, "SetDealLimit", request).hands_played)

    def events(self, address: str, table_id: str, after: int, until: int) -> list[DealerEvent]:
        if after >= until:
            return []
        address = self.moved.get(table_id, address)
        stream = self._stub(address).WatchTable(
            pb.WatchTableRequest(table_id=table_id, after_sequence=after),
            metadata=self._metadata, timeout=self._timeout * 2)
        found: list[DealerEvent] = []
        try:
            for reply in stream:
                for event in reply.events:
                    if event.sequence > until:
                        return found
                    mapped = _event(event)
                    if mapped is not None:
                        found.append(mapped)
                    if event.sequence == until:
                        return found
        except grpc.RpcError as err:
            raise _error(err, address, "WatchTable") from None
        finally:
            stream.cancel()
        raise DealerUnreachable(f"{address}: the events of {table_id} ended before {until}")


def _reason_of(err: grpc.RpcError) -> tuple[str, dict[str, str]]:
    """The reason and metadata of a dealer's refusal (its ErrorInfo), to pass on."""
    try:
        found = rpc_status.from_call(err)
    except Exception:  # noqa: BLE001 - no trailer, or one that does not decode: no reason
        return "", {}
    for packed in found.details if found is not None else ():
        if packed.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            packed.Unpack(info)
            return info.reason, dict(info.metadata)
    return "", {}


def _error(err: grpc.RpcError, address: str, method: str) -> Exception:
    code = err.code()
    details = err.details() or code.name
    if code in REFUSALS:
        return DealerRefused(code.name, details, *_reason_of(err))
    return DealerUnreachable(f"{address} {method}: {code.name}: {details}")


def _stack(s: pb.SeatStack) -> SeatStack:
    return SeatStack(s.seat, s.player_id, s.stack)


def _event(event: pb.TableEvent) -> DealerEvent | None:
    kind = event.WhichOneof("event")
    if kind == "player_seated":
        e = event.player_seated
        return DealerEvent(event.sequence, "seated", (SeatStack(e.seat, e.player_id, e.stack),))
    if kind == "player_unseated":
        e = event.player_unseated
        reason = "sit_out_limit" if e.reason == pb.UNSEAT_REASON_SIT_OUT_LIMIT else ""  # R34
        return DealerEvent(event.sequence, "unseated", (_stack(e.stack),), reason)
    if kind == "table_closed":
        stacks = tuple(_stack(s) for s in event.table_closed.stacks)
        return DealerEvent(event.sequence, "closed", stacks)
    if kind == "chips_added":
        e = event.chips_added
        return DealerEvent(event.sequence, "chips_added", (SeatStack(e.seat, "", e.amount),))
    return None
