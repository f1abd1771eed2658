"""Which of gRPC core's I/O engines the suite's processes run on.

grpcio 1.85 (pinned in pyproject.toml) serves and connects over "EventEngine" by
default: a poller thread reads the socket and hands each read to a pool thread, which
completes the call and wakes the asyncio poller thread, which wakes the event loop.
The classic polling engine (iomgr, still built in and selectable with
`GRPC_EXPERIMENTS=-event_engine_client,-event_engine_listener`) reads the socket on
the thread that polls the completion queue, so a message costs fewer thread hand-offs.
On the development machine (2 vCPUs) a bare bidirectional echo stream between two
processes measured 2,800-3,000 round trips a second on EventEngine against
4,500-4,900 on the polling engine, with 7.2 against 4.1 context switches and 216
against 150 microseconds of client CPU a round trip (A/B, same run, alternating).
Table traffic is exactly that: many small messages on long streams.

`prefer_polling_engine()` chooses it, for this process and the processes it starts,
unless the operator has set `GRPC_EXPERIMENTS` already (theirs wins) or set
`POKER_GRPC_EVENT_ENGINE=1`. gRPC reads the variable once, when `grpc` is first
imported, so it must run before that, and does nothing once `grpc` is loaded.
Importing a module of the suite changes no environment variable: the entry points call
it (`poker.cli.main`, so every `poker` command and every service the suite starts; the
bench scripts; the tests' conftest.py), and an SDK program that wants it calls it
first thing (see `clients`). TLS, health, reflection and every RPC behave the same on
both engines (the test suite runs on the polling engine).
"""

from __future__ import annotations

import os
import sys

#: The experiments turned off: EventEngine for client channels and for listeners.
POLLING_ENGINE = "-event_engine_client,-event_engine_listener"


def prefer_polling_engine() -> bool:
    """Selects the polling engine if nobody chose before and gRPC is not loaded yet;
    whether this call set it."""
    if "grpc" in sys.modules or "GRPC_EXPERIMENTS" in os.environ:
        return False
    if os.environ.get("POKER_GRPC_EVENT_ENGINE", "") not in ("", "0"):
        return False
    os.environ["GRPC_EXPERIMENTS"] = POLLING_ENGINE
    return True
