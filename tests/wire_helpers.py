"""Helpers of the wire tests (test_wire, test_fuzz): the three services on real processes,
every RPC of theirs from the proto descriptors, and raw calls that send bytes as given."""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import grpc
from google.protobuf import descriptor as _descriptor
from grpc_health.v1 import health_pb2, health_pb2_grpc

from poker.procs import ServiceProcess, start_service
from poker.v1 import dealer_pb2, evaluator_pb2, lobby_pb2

#: The suite's services, by the process name `poker serve` knows them.
SERVICES = {
    "evaluator": evaluator_pb2.DESCRIPTOR.services_by_name["EvaluatorService"],
    "dealer": dealer_pb2.DESCRIPTOR.services_by_name["DealerService"],
    "lobby": lobby_pb2.DESCRIPTOR.services_by_name["LobbyService"],
}


@dataclass(frozen=True)
class Rpc:
    """One RPC of a service, as the descriptors say it."""

    process: str
    method: _descriptor.MethodDescriptor

    @property
    def path(self) -> str:
        return f"/{self.method.containing_service.full_name}/{self.method.name}"

    @property
    def request(self) -> _descriptor.Descriptor:
        return self.method.input_type

    @property
    def streams_requests(self) -> bool:
        return bool(self.method.client_streaming)

    @property
    def streams_responses(self) -> bool:
        return bool(self.method.server_streaming)

    def __str__(self) -> str:
        return f"{self.method.containing_service.name}.{self.method.name}"


def every_rpc() -> list[Rpc]:
    """Every RPC of the three services: a new RPC is in the list as soon as it is in a proto."""
    return [Rpc(process, method) for process, service in SERVICES.items()
            for method in service.methods]


@dataclass
class Suite:
    """The three services running, and the credentials that reach their deep code."""

    procs: dict[str, ServiceProcess]
    operator_token: str
    service_token: str
    auditor_token: str
    channels: dict[str, grpc.Channel]

    def channel(self, rpc: Rpc) -> grpc.Channel:
        return self.channels[rpc.process]

    def token_for(self, rpc: Rpc) -> str:
        """The strongest credential of the RPC's service."""
        return {"lobby": self.operator_token, "dealer": self.service_token,
                "evaluator": self.operator_token}[rpc.process]

    def assert_healthy(self, timeout: float = 5.0) -> None:
        for name, proc in self.procs.items():
            assert proc.popen.poll() is None, f"{name} exited with {proc.popen.returncode}"
            stub = health_pb2_grpc.HealthStub(self.channels[name])
            reply = stub.Check(health_pb2.HealthCheckRequest(service=""), timeout=timeout)
            assert reply.status == health_pb2.HealthCheckResponse.SERVING, name


def start_suite(folder: Path, evaluator_args: Sequence[str] = ()) -> Iterator[Suite]:
    """Starts evaluator, dealer and lobby on 127.0.0.1 (port 0); yields them; stops them."""
    operator, service, auditor = (secrets.token_hex(16) for _ in range(3))
    started: dict[str, ServiceProcess] = {}
    channels: dict[str, grpc.Channel] = {}
    try:
        started["evaluator"] = start_service("evaluator", evaluator_args,
                                           log_path=folder / "evaluator.log")
        started["dealer"] = start_service("dealer", [
            "--db", str(folder / "dealer.sqlite"), "--service-token", service,
            "--auditor-token", auditor, "--evaluator", started["evaluator"].address,
            "--stream-linger-ms", "0"], log_path=folder / "dealer.log")
        started["lobby"] = start_service("lobby", [
            "--db", str(folder / "lobby.sqlite"), "--operator-token", operator,
            "--service-token", service, "--dealer", started["dealer"].address],
            log_path=folder / "lobby.log")
        channels = {name: grpc.insecure_channel(proc.address) for name, proc in started.items()}
        yield Suite(started, operator, service, auditor, channels)
    finally:
        for channel in channels.values():
            channel.close()
        for proc in reversed(list(started.values())):
            proc.stop()


def bearer(token: str | None) -> list[tuple[str, str]]:
    return [] if token is None else [("authorization", f"Bearer {token}")]


def call_raw(channel: grpc.Channel, rpc: Rpc, requests: Sequence[bytes],
             token: str | None = None, timeout: float = 15.0,
             first_only: bool = False) -> tuple[grpc.StatusCode, str]:
    """Sends `requests` as they are (one, or a stream of them) and reads every answer:
    the call's status code and message. `first_only`: a response stream accepted (its
    first message came) is OK at once, and cancelled."""
    metadata = bearer(token)
    try:
        if rpc.streams_requests:
            call = (channel.stream_stream if rpc.streams_responses else channel.stream_unary)(
                rpc.path, request_serializer=None, response_deserializer=None)
            answer = call(iter(list(requests)), metadata=metadata, timeout=timeout)
        else:
            call = (channel.unary_stream if rpc.streams_responses else channel.unary_unary)(
                rpc.path, request_serializer=None, response_deserializer=None)
            answer = call(requests[0], metadata=metadata, timeout=timeout)
        if rpc.streams_responses and first_only:
            next(iter(answer), None)
            answer.cancel()
        elif rpc.streams_responses:
            _drain(answer)
    except grpc.RpcError as err:
        return err.code(), err.details() or ""
    return grpc.StatusCode.OK, ""


def _drain(responses: Iterable[bytes]) -> None:
    for _ in responses:
        pass
