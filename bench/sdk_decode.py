"""Micro-benchmark of the SDK's decode per event: `clients.convert.event_from_proto` on the
TableEvent messages a player's stream carries.

Plays 200 six-handed hands through the engine (a TurnStarted before each decision, as
the dealer writes; bench/frames.py's hands), frames each event as seat 0 sees it
(`views.event_frame`), parses the frames once, then times decoding every message to its
SDK event: all of them, and the kinds a bot sees most one by one. Best of 9 rounds, in
microseconds per event. Run it against another commit with bench/ab.py:

    .venv/bin/python bench/ab.py --base REV sdk_decode.py

or, on a busy machine, `--before REV`: REV's clients/events.py (its event classes) loaded
from git beside this checkout's, both decoding the same messages through poker.mapping in
one process, rounds alternated, best of each (the decode plan is all that differs).
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


def side_by_side(batch: list[Any], rev: str, rounds: int) -> dict[str, float]:
    """Best us/event of `rev`'s event classes and this checkout's, rounds alternated."""
    from clients.events import EVENT_TYPES
    from poker import mapping

    def runner(types: dict[str, type]) -> Any:
        plans = []
        for message in batch:
            kind = message.WhichOneof("event")
            if kind is not None:
                body = getattr(message, kind)
                plans.append((mapping.decoder(types[kind], body.DESCRIPTOR, mapping.WIRE),
                              body, message))
        return lambda: [decode(body, message) for decode, body, message in plans]

    from sdk_sync import load_before  # bench/sdk_sync.py: a module of another revision

    before = load_before(rev, "clients/events.py", "clients.events_before").EVENT_TYPES
    runs = {"before": runner(before), "head": runner(EVENT_TYPES)}
    best = dict.fromkeys(runs, float("inf"))
    for r in range(rounds):
        for side in (("before", "head") if r % 2 == 0 else ("head", "before")):
            start = time.perf_counter()
            runs[side]()
            best[side] = min(best[side], time.perf_counter() - start)
    return {side: t / len(batch) * 1e6 for side, t in best.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--json", type=Path, help="write the figures here as JSON")
    parser.add_argument("--before", help="a revision whose event classes to decode beside")
    ns = parser.parse_args()
    batch = messages(ns.hands)
    if ns.before:
        figures = side_by_side(batch, ns.before, ns.rounds)
        ratio = figures["head"] / figures["before"]
        print(f"{len(batch)} events, best of {ns.rounds} rounds alternated: "
              f"{ns.before} {figures['before']:.3f} us/event, this checkout "
              f"{figures['head']:.3f} us/event, head/before {ratio:.3f}")
        if ns.json:
            ns.json.write_text(json.dumps(figures))
        return
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
