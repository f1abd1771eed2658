"""bench/dealer_instructions.py's driver plays a table as each of bench/dealer.py's client
styles would (one PlayMany stream, a Play stream a seat, WatchTable streams and unary
Acts), so that the dealer's instructions can be counted on each of their paths."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import grpc
import pytest

from poker.procs import ServiceProcess, start_service
from poker.v1 import dealer_pb2 as pb
from poker.v1 import dealer_pb2_grpc as pb_grpc

ROOT = Path(__file__).resolve().parents[1]


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "bench_dealer_instructions", ROOT / "bench" / "dealer_instructions.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def dealer(tmp_path: Path) -> Iterator[ServiceProcess]:
    folder = tmp_path
    proc = start_service("dealer", [
        "--db", str(folder / "dealer.sqlite"), "--service-token", "bench-service",
        "--auditor-token", "bench-auditor", "--stream-linger-ms", "0"],
        log_path=folder / "dealer.log")
    try:
        yield proc
    finally:
        proc.stop()


@pytest.mark.parametrize("style", ["farm", "play", "unary"])
def test_each_style_plays_the_hands_it_is_asked_for_one_decision_at_a_time(
        dealer: ServiceProcess, style: str) -> None:
    bench = _bench()
    assert set(bench.STYLES) == {"farm", "play", "unary"}
    decisions = bench.drive(dealer.address, 4, seats=3, style=style)
    with grpc.insecure_channel(dealer.address) as channel:
        stub = pb_grpc.DealerServiceStub(channel)  # type: ignore[no-untyped-call]
        played = stub.GetTable(pb.GetTableRequest(table_id="bench"), metadata=bench.SERVICE,
                               timeout=10).table.hands_played
    # Four hands ended (a fifth may have begun); every hand asks two decisions at least
    # (three-handed, the small and the big blind cannot both have folded before acting).
    assert 4 <= played <= 5
    assert decisions >= 2 * 4
