"""The lobby's gRPC client of the dealers (DealerService), implementing `dealers.Dealer`.

Internal calls carry the service token. An answer that says the call was refused
(INVALID_ARGUMENT, NOT_FOUND, ALREADY_EXISTS, FAILED_PRECONDITION, ...) becomes
`DealerRefused`; no answer, or one that does not say whether the call took effect
(UNAVAILABLE, DEADLINE_EXCEEDED, INTERNAL, UNKNOWN, ...), becomes `DealerUnreachable`.
"""

from __future__ import annotations

import threading
from typing import Any

import grpc
from google.protobuf import json_format  # type: ignore[import-untyped,unused-ignore]
from google.rpc import error_details_pb2
from grpc_status import rpc_status

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


class GrpcDealer:
    """Calls dealers over gRPC, one channel per address (TLS when given `credentials`)."""

    def __init__(self, service_token: str, timeout: float = 5.0,
                 credentials: grpc.ChannelCredentials | None = None) -> None:
        self._metadata = (("authorization", f"Bearer {service_token}"),)
        self._timeout = timeout
        self._credentials = credentials  # TLS toward the dealers; None: plaintext
        self._channels: dict[str, grpc.Channel] = {}
        self._stubs: dict[str, dealer_pb2_grpc.DealerServiceStub] = {}
        self._lock = threading.Lock()

    def _stub(self, address: str) -> dealer_pb2_grpc.DealerServiceStub:
        with self._lock:
            if address not in self._stubs:
                channel = (grpc.secure_channel(address, self._credentials)
                           if self._credentials else grpc.insecure_channel(address))
                self._channels[address] = channel
                self._stubs[address] = dealer_pb2_grpc.DealerServiceStub(  # type: ignore[no-untyped-call,unused-ignore]
                    channel)
            return self._stubs[address]

    def _call(self, address: str, method: str, request: Any,
              metadata: tuple[tuple[str, str], ...] | None = None) -> Any:
        try:
            return getattr(self._stub(address), method)(
                request, metadata=metadata or self._metadata, timeout=self._timeout)
        except grpc.RpcError as err:
            raise _error(err, address, method) from None

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
                           view.closed)

    def events(self, address: str, table_id: str, after: int, until: int) -> list[DealerEvent]:
        if after >= until:
            return []
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
        return DealerEvent(event.sequence, "unseated", (_stack(event.player_unseated.stack),))
    if kind == "table_closed":
        stacks = tuple(_stack(s) for s in event.table_closed.stacks)
        return DealerEvent(event.sequence, "closed", stacks)
    if kind == "chips_added":
        e = event.chips_added
        return DealerEvent(event.sequence, "chips_added", (SeatStack(e.seat, "", e.amount),))
    return None
