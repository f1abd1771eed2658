"""Micro-benchmark of the SDK's decode per event: `clients.convert.event_from_proto` on the
TableEvent messages a player's stream carries.

Plays 200 six-handed hands through the engine (a TurnStarted before each decision, as
the dealer writes; bench/frames.py's hands), frames each event as seat 0 sees it
(`views.event_frame`), parses the frames once, then times decoding every message to its
SDK event: all of them, and the kinds a bot sees most one by one. Best of 9 rounds, in
microseconds per event. Run it against another commit with bench/ab.py:

    .venv/bin/python bench/ab.py --base REV sdk_decode.py
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from clients.convert import event_from_proto  # noqa: E402
from poker.v1 import dealer_pb2 as pb  # noqa: E402
from services.dealer import views  # noqa: E402
from services.dealer.tables import Stored  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from frames import hand_events  # noqa: E402


def messages(hands: int) -> list[Any]:
    """The TableEvent messages of `hands` hands as seat 0's stream has them."""
    viewer = views.Viewer(0)
    frames = b"".join(views.event_frame(Stored(i + 1, "t-1", 0, event), viewer)
                      for i, event in enumerate(e for seed in range(hands)
                                                for e in hand_events(seed)))
    return list(pb.WatchTableResponse.FromString(frames).events)


def best_us(batch: list[Any], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        for message in batch:
            event_from_proto(message)
        times.append(time.perf_counter() - start)
    return min(times) / len(batch) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--json", type=Path, help="write the figures here as JSON")
    ns = parser.parse_args()
    batch = messages(ns.hands)
    by_kind: dict[str, list[Any]] = defaultdict(list)
    for message in batch:
        by_kind[message.WhichOneof("event") or "hidden"].append(message)
    figures: dict[str, Any] = {"events": len(batch), "all_us": best_us(batch, ns.rounds),
                               "kind_us": {}}
    print(f"{len(batch)} events; decode per event: {figures['all_us']:.3f} us")
    for kind, group in sorted(by_kind.items(), key=lambda kv: -len(kv[1])):
        figures["kind_us"][kind] = us = best_us(group, ns.rounds)
        print(f"  {kind:20} {len(group):6} x {us:.3f} us")
    if ns.json:
        ns.json.write_text(json.dumps(figures))


if __name__ == "__main__":
    main()
