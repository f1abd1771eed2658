"""`poker health ADDRESS`: asks a service's grpc.health.v1 endpoint; exit 0 when SERVING.

Used by docker-compose health checks and by operators' probes, so no extra
binary (grpc_health_probe) is needed in the image. `--tls-ca` asks a TLS port
(`--tls-cert`/`--tls-key` too when the service requires client certificates).
"""

from __future__ import annotations

import argparse
import sys

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from poker import tls


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("address", help="host:port of the service")
    parser.add_argument("--service", default="", help="service name to ask about ('' = the server)")
    parser.add_argument("--timeout", type=float, default=3.0, help="seconds to wait for an answer")
    parser.add_argument("--tls-ca", metavar="PATH",
                        help="PEM CA of the service's certificate: ask over TLS")
    parser.add_argument("--tls-cert", metavar="PATH",
                        help="PEM client certificate, for a service with --tls-client-ca")
    parser.add_argument("--tls-key", metavar="PATH", help="PEM private key of --tls-cert")
    parser.add_argument("--tls-server-name", metavar="NAME",
                        help="the name to expect in the service's certificate (default: the "
                             "host of ADDRESS)")


def open_channel(address: str, credentials: grpc.ChannelCredentials | None = None,
                 server_name: str | None = None) -> grpc.Channel:
    """A plaintext channel, or a TLS one with `credentials`."""
    if credentials is None:
        return tls.upstream_channel(address)
    options = [("grpc.ssl_target_name_override", server_name)] if server_name else []
    return tls.upstream_channel(address, credentials, options)


def check(address: str, service: str = "", timeout: float = 3.0,
          credentials: grpc.ChannelCredentials | None = None,
          server_name: str | None = None) -> str:
    """The serving status name (`SERVING`, `NOT_SERVING`, ...) of `service` at `address`."""
    with open_channel(address, credentials, server_name) as channel:
        reply = health_pb2_grpc.HealthStub(channel).Check(
            health_pb2.HealthCheckRequest(service=service), timeout=timeout
        )
    return str(health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status))


def _explain(err: grpc.RpcError, service: str) -> str:
    """The error's text, or what it means when the server sent none."""
    if err.details():
        return str(err.details())
    if err.code() is grpc.StatusCode.NOT_FOUND:
        return (f"the server knows no service {service!r}; ask about '' (the server) or a "
                "full name such as poker.v1.DealerService")
    if err.code() is grpc.StatusCode.UNIMPLEMENTED:
        return "the server does not answer grpc.health.v1"
    return "no details given"


def run(args: argparse.Namespace) -> int:
    try:
        credentials = (tls.channel_credentials(args.tls_ca, args.tls_cert, args.tls_key,
                                               "--tls-ca") if args.tls_ca else None)
    except ValueError as err:
        print(f"poker health: {err}", file=sys.stderr)
        return 2
    try:
        status = check(args.address, args.service, args.timeout, credentials,
                       args.tls_server_name)
    except grpc.RpcError as err:
        print(f"{args.address}: {err.code().name}: {_explain(err, args.service)}",
              file=sys.stderr)
        return 1
    print(f"{args.address}: {status}")
    return 0 if status == "SERVING" else 1
