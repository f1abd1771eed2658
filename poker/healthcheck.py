"""`poker health ADDRESS`: asks a service's grpc.health.v1 endpoint; exit 0 when SERVING.

Used by docker-compose health checks and by operators' probes, so no extra
binary (grpc_health_probe) is needed in the image.
"""

from __future__ import annotations

import argparse
import sys

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("address", help="host:port of the service")
    parser.add_argument("--service", default="", help="service name to ask about ('' = the server)")
    parser.add_argument("--timeout", type=float, default=3.0, help="seconds to wait for an answer")


def check(address: str, service: str = "", timeout: float = 3.0) -> str:
    """The serving status name (`SERVING`, `NOT_SERVING`, ...) of `service` at `address`."""
    with grpc.insecure_channel(address) as channel:
        reply = health_pb2_grpc.HealthStub(channel).Check(
            health_pb2.HealthCheckRequest(service=service), timeout=timeout
        )
    return str(health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status))


def run(args: argparse.Namespace) -> int:
    try:
        status = check(args.address, args.service, args.timeout)
    except grpc.RpcError as err:
        print(f"{args.address}: {err.code().name}: {err.details()}", file=sys.stderr)
        return 1
    print(f"{args.address}: {status}")
    return 0 if status == "SERVING" else 1
