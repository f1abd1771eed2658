"""TLS for the services: the `--tls-*` options, server credentials, upstream channel credentials.

Every `poker serve` command takes `--tls-cert PATH --tls-key PATH` (env POKER_TLS_CERT,
POKER_TLS_KEY): with them its port speaks TLS only; `--tls-client-ca PATH` (env
POKER_TLS_CLIENT_CA) also requires a client certificate signed by that CA (mutual TLS).
Without them the port is plaintext, as before.

A service that calls another (the dealer its evaluators, the lobby its dealers) is given
the CA to trust for that upstream; it presents its own `--tls-cert`/`--tls-key` as its
client certificate, which only matters when the upstream asks for one.

>>> ServerTLS(Path("c.pem"), Path("k.pem")).mode
'on'
>>> ServerTLS(Path("c.pem"), Path("k.pem"), Path("ca.pem")).mode
'mutual'
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import grpc

__all__ = [
    "ServerTLS", "add_arguments", "announce", "channel_credentials", "from_args", "listen",
    "read_pem", "upstream_from_args",
]


class _Server(Protocol):
    """What `listen` needs of a server: grpc.Server and grpc.aio.Server both have it."""

    def add_insecure_port(self, address: str) -> int: ...

    def add_secure_port(self, address: str, server_credentials: grpc.ServerCredentials
                        ) -> int: ...


@dataclass(frozen=True, slots=True)
class ServerTLS:
    """A server's certificate chain and key (PEM files), and the CA its clients must
    present a certificate of (None: no client certificate asked for)."""

    cert: Path
    key: Path
    client_ca: Path | None = None

    @property
    def mode(self) -> str:
        """`on`, or `mutual` when client certificates are required."""
        return "mutual" if self.client_ca else "on"

    def credentials(self) -> grpc.ServerCredentials:
        """The server credentials; a missing or unreadable file raises ValueError."""
        client_ca = read_pem(self.client_ca, "--tls-client-ca") if self.client_ca else None
        return grpc.ssl_server_credentials(
            [(read_pem(self.key, "--tls-key"), read_pem(self.cert, "--tls-cert"))],
            root_certificates=client_ca, require_client_auth=client_ca is not None)


def read_pem(path: str | Path, option: str) -> bytes:
    """The bytes of a PEM file; ValueError naming the option when it cannot be read."""
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise ValueError(f"{option} {path}: {err.strerror or err}") from None
    if b"-----BEGIN " not in data:
        raise ValueError(f"{option} {path}: not a PEM file")
    return data


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """`--tls-cert`, `--tls-key`, `--tls-client-ca`, defaulting to their variables."""
    env = os.environ.get
    parser.add_argument("--tls-cert", default=env("POKER_TLS_CERT"), metavar="PATH",
                        help="PEM certificate chain: serve TLS only (with --tls-key; "
                             "env POKER_TLS_CERT)")
    parser.add_argument("--tls-key", default=env("POKER_TLS_KEY"), metavar="PATH",
                        help="PEM private key of --tls-cert (env POKER_TLS_KEY)")
    parser.add_argument("--tls-client-ca", default=env("POKER_TLS_CLIENT_CA"), metavar="PATH",
                        help="PEM CA: require client certificates it signed, mutual TLS "
                             "(env POKER_TLS_CLIENT_CA)")


def from_args(args: argparse.Namespace) -> ServerTLS | None:
    """The TLS the `poker serve` options ask for (None: plaintext). Bad settings end the
    command with a message saying which option is wrong."""
    cert, key, client_ca = args.tls_cert or None, args.tls_key or None, args.tls_client_ca or None
    if not cert and not key:
        if client_ca:
            raise SystemExit("poker serve: --tls-client-ca needs --tls-cert and --tls-key")
        return None
    if not cert or not key:
        given, missing = ("--tls-cert", "--tls-key") if cert else ("--tls-key", "--tls-cert")
        raise SystemExit(f"poker serve: {given} needs {missing} (env POKER_TLS_CERT, "
                         "POKER_TLS_KEY)")
    tls = ServerTLS(Path(cert), Path(key), Path(client_ca) if client_ca else None)
    try:
        tls.credentials()  # every file readable now, not at the first handshake
    except ValueError as err:
        raise SystemExit(f"poker serve: {err}") from None
    return tls


def listen(server: _Server, host: str, port: int, tls: ServerTLS | None) -> int:
    """Adds the port, TLS when `tls` is given; returns the bound port (OSError if none)."""
    address = f"{host}:{port}"
    bound = (server.add_secure_port(address, tls.credentials()) if tls
             else server.add_insecure_port(address))
    if bound == 0:
        raise OSError(f"cannot listen on {address}")
    return bound


def announce(host: str, port: int, tls: ServerTLS | None) -> None:
    """Prints `listening on HOST:PORT` (the first line, read by poker.procs), then the TLS
    mode when TLS is on."""
    print(f"listening on {host}:{port}", flush=True)
    if tls:
        asked = ", client certificates required" if tls.client_ca else ""
        print(f"tls on: certificate {tls.cert}{asked}", flush=True)


#: Options of every client channel the suite opens (the SDK's, the lobby's to its
#: dealers, the dealer's to its evaluators, the tools'): reconnect within 0.1-2 s of a
#: server coming back instead of gRPC's default backoff of 1 s growing to 120 s, during
#: which every call fails at once with UNAVAILABLE (a dealer restarted after a few
#: seconds down was still out of the lobby's reach after it served again).
RECONNECT_OPTIONS: list[tuple[str, int]] = [
    ("grpc.initial_reconnect_backoff_ms", 100),
    ("grpc.max_reconnect_backoff_ms", 2000),
]


def upstream_channel(address: str, credentials: grpc.ChannelCredentials | None = None,
                     options: Sequence[tuple[str, Any]] = ()) -> grpc.Channel:
    """A channel from a service to its upstream (or from a tool to a service): TLS with
    `credentials`, plaintext without, reconnecting quickly (RECONNECT_OPTIONS)."""
    opts = [*RECONNECT_OPTIONS, *options]
    if credentials is None:
        return grpc.insecure_channel(address, options=opts)
    return grpc.secure_channel(address, credentials, options=opts)


def channel_credentials(ca: str | Path, cert: str | Path | None = None,
                        key: str | Path | None = None, option: str = "CA"
                        ) -> grpc.ChannelCredentials:
    """Credentials of a service's channel to its upstream: trust `ca` (the option that named
    it: `option`); present `cert` + `key` as client certificate (for upstreams with
    --tls-client-ca). A file that cannot be read raises ValueError."""
    if bool(cert) != bool(key):
        raise ValueError("--tls-cert and --tls-key go together")
    key_pem, cert_pem = ((read_pem(key, "--tls-key"), read_pem(cert, "--tls-cert"))
                         if cert and key else (None, None))
    return grpc.ssl_channel_credentials(root_certificates=read_pem(ca, option),
                                        private_key=key_pem, certificate_chain=cert_pem)


def upstream_from_args(args: argparse.Namespace, ca: str | None, option: str
                       ) -> grpc.ChannelCredentials | None:
    """For `poker serve`: TLS toward an upstream when its CA `ca` is given (None: plaintext),
    presenting this service's own --tls-cert/--tls-key; bad files end the command."""
    if not ca:
        return None
    try:
        return channel_credentials(ca, args.tls_cert, args.tls_key, option)
    except ValueError as err:
        raise SystemExit(f"poker serve: {err}") from None
