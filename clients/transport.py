"""Channels, credentials, deadlines and retries: how the SDK talks to the services.

Only calls that are safe to repeat are retried: reads, the lobby's money calls (each
carries a `request_id` the SDK keeps across attempts) and Act (its hand id and action
number make an exact retry apply once). They are retried on UNAVAILABLE and
DEADLINE_EXCEEDED with exponential backoff and jitter; every attempt has a deadline.

>>> policy = RetryPolicy(attempts=4, initial_backoff=0.1, multiplier=2, jitter=0)
>>> list(policy.backoffs())
[0.1, 0.2, 0.4]
>>> bearer("tok")
(('authorization', 'Bearer tok'),)
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import grpc

from clients.errors import ServiceError, error_from_rpc
from poker.tls import RECONNECT_OPTIONS

__all__ = [
    "DEFAULT_TIMEOUT", "RECONNECT_CODES", "Reconnector", "RetryPolicy", "TLS", "bearer", "call",
    "call_async", "open_aio_channel", "open_channel",
]

T = TypeVar("T")
#: Seconds one attempt of a unary call may take.
DEFAULT_TIMEOUT = 10.0
Metadata = tuple[tuple[str, str], ...]


def bearer(token: str | None) -> Metadata:
    """Call metadata carrying `token` (empty without one)."""
    return (("authorization", f"Bearer {token}"),) if token else ()


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How often, and on which codes, a safe call is tried again."""

    attempts: int = 6
    initial_backoff: float = 0.05
    max_backoff: float = 2.0
    multiplier: float = 2.0
    jitter: float = 0.2
    codes: frozenset[grpc.StatusCode] = frozenset(
        {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED})

    def backoffs(self) -> Iterator[float]:
        """The pauses between attempts (attempts - 1 of them)."""
        delay = self.initial_backoff
        for _ in range(self.attempts - 1):
            yield min(self.max_backoff, delay) * (1 + random.uniform(-self.jitter, self.jitter))
            delay *= self.multiplier


NO_RETRY = RetryPolicy(attempts=1)


class Reconnector:
    """When to open a broken stream again: on `codes`, with backoff, for up to `window`
    seconds since the stream last worked (a dealer restart takes a few seconds).

    >>> r = Reconnector(window=10, initial=0.1, maximum=1.0, clock=lambda: 0.0)
    >>> [round(r.pause(grpc.StatusCode.UNAVAILABLE), 1) for _ in range(6)]
    [0.1, 0.2, 0.4, 0.8, 1.0, 1.0]
    >>> r.pause(grpc.StatusCode.PERMISSION_DENIED) is None
    True
    """

    def __init__(self, window: float = 30.0, initial: float = 0.05, maximum: float = 1.0,
                 codes: frozenset[grpc.StatusCode] = frozenset(), clock: Any = None) -> None:
        self.window, self.initial, self.maximum = window, initial, maximum
        self.codes = codes or RECONNECT_CODES
        self.clock = clock or time.monotonic
        self.failures = 0
        self.since: float | None = None

    def ok(self) -> None:
        """The stream delivered: the next break starts a new window."""
        self.failures, self.since = 0, None

    def pause(self, code: grpc.StatusCode) -> float | None:
        """Seconds to wait before reconnecting, or None to give up."""
        now = self.clock()
        if self.since is None:
            self.since = now
        if code not in self.codes or now - self.since > self.window:
            return None
        pause: float = min(self.maximum, self.initial * 2.0 ** self.failures)
        self.failures += 1
        return pause


#: Codes on which a broken stream is opened again (after the last event received).
RECONNECT_CODES = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED,
                             grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN,
                             grpc.StatusCode.CANCELLED})


@dataclass(frozen=True, slots=True)
class TLS:
    """TLS settings, passed to grpc.ssl_channel_credentials. All None: the system's roots.

    `server_name` overrides the name checked in the server's certificate (for tests and
    for servers reached by IP).
    """

    root_certificates: bytes | None = None
    private_key: bytes | None = None
    certificate_chain: bytes | None = None
    server_name: str | None = None

    @classmethod
    def from_files(cls, ca: str | Path | None = None, cert: str | Path | None = None,
                   key: str | Path | None = None, server_name: str | None = None) -> TLS:
        """Reads PEM files: `ca` the roots to trust, `cert` + `key` a client certificate."""
        def read(path: str | Path | None) -> bytes | None:
            return Path(path).read_bytes() if path else None

        return cls(read(ca), read(key), read(cert), server_name)

    def credentials(self) -> grpc.ChannelCredentials:
        return grpc.ssl_channel_credentials(
            root_certificates=self.root_certificates, private_key=self.private_key,
            certificate_chain=self.certificate_chain)

    def options(self) -> list[tuple[str, Any]]:
        return [("grpc.ssl_target_name_override", self.server_name)] if self.server_name else []


@dataclass(frozen=True, slots=True)
class ChannelSettings:
    """Everything a client needs to open its channels: TLS, options, deadline, retries."""

    tls: TLS | None = None
    options: Sequence[tuple[str, Any]] = field(default_factory=tuple)
    timeout: float = DEFAULT_TIMEOUT
    retry: RetryPolicy = field(default_factory=RetryPolicy)


_CHANNEL_OPTIONS = [
    ("grpc.max_receive_message_length", 64 * 1024 * 1024),
    *RECONNECT_OPTIONS,  # quickly after a server restart, not after 1-120 s
]


def open_channel(address: str, tls: TLS | None = None,
                 options: Sequence[tuple[str, Any]] = ()) -> grpc.Channel:
    """A channel to `address` (host:port), TLS when `tls` is given."""
    opts = [*_CHANNEL_OPTIONS, *(tls.options() if tls else []), *options]
    if tls is None:
        return grpc.insecure_channel(address, options=opts)
    return grpc.secure_channel(address, tls.credentials(), options=opts)


def open_aio_channel(address: str, tls: TLS | None = None,
                     options: Sequence[tuple[str, Any]] = ()) -> grpc.aio.Channel:
    """An asyncio channel to `address`, TLS when `tls` is given."""
    opts = [*_CHANNEL_OPTIONS, *(tls.options() if tls else []), *options]
    if tls is None:
        return grpc.aio.insecure_channel(address, options=opts)
    return grpc.aio.secure_channel(address, tls.credentials(), options=opts)


def call(method: Callable[..., T], request: Any, *, metadata: Metadata, timeout: float,
         retry: RetryPolicy | None, cls: type[ServiceError] = ServiceError,
         name: str = "") -> T:
    """One unary call with a deadline per attempt; retried under `retry` (None: never)."""
    backoffs = (retry or NO_RETRY).backoffs()
    while True:
        try:
            return method(request, metadata=metadata, timeout=timeout)
        except grpc.RpcError as err:
            pause = next(backoffs, None) if retry and err.code() in retry.codes else None
            if pause is None:
                raise error_from_rpc(err, name, cls) from None
            time.sleep(pause)


async def call_async(method: Callable[..., Awaitable[T]], request: Any, *, metadata: Metadata,
                     timeout: float, retry: RetryPolicy | None,
                     cls: type[ServiceError] = ServiceError, name: str = "") -> T:
    """`call` for grpc.aio stubs."""
    backoffs = (retry or NO_RETRY).backoffs()
    while True:
        try:
            return await method(request, metadata=metadata, timeout=timeout)
        except grpc.RpcError as err:
            pause = next(backoffs, None) if retry and err.code() in retry.codes else None
            if pause is None:
                raise error_from_rpc(err, name, cls) from None
            await asyncio.sleep(pause)
