"""Micro-benchmark of the dealer's hot path per event: framing it for streams, storing it.

Plays 200 six-handed hands through the engine (a TurnStarted before each decision, as
the dealer writes), then times, per event, `views.event_frame` for three viewers (a
spectator and two seats: the public frame once, the hole cards per owner) on fresh
stored events, and `codec.dumps` (the store's payload). Best of 7 rounds, in
microseconds; run it in a worktree of another commit to compare (the figures of one
machine and one moment only mean something side by side).

    .venv/bin/python bench/frames.py
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from poker.vocab import table_events as ev  # noqa: E402
from services.dealer import codec, views  # noqa: E402
from services.dealer.engine import SPECTATOR, Action, Decision, Hand, PlayerIn, TableConfig  # noqa: E402
from services.dealer.tables import Stored  # noqa: E402
from services.evaluator.ranker import DEFAULT_RANKER  # noqa: E402


def hand_events(seed: int) -> list[Any]:
    rnd = random.Random(seed)
    players = [PlayerIn(i, f"p{i}", 10_000) for i in range(6)]
    deck = list(range(52))
    rnd.shuffle(deck)
    hand = Hand.start(TableConfig(), players, 5, deck, hand_id="t-1", ranker=DEFAULT_RANKER)
    out: list[Any] = list(hand.events)
    while not hand.is_over:
        legal = hand.legal_actions()
        out.append(ev.TurnStarted(legal.seat, legal.decision.value, len(out), 0,
                                  legal.can_fold, legal.can_check, legal.can_call,
                                  legal.call_amount))
        if legal.decision is Decision.SHOW_OR_MUCK:
            action = Action.show()
        elif legal.can_check:
            action = Action.check()
        else:
            action = Action.fold() if rnd.random() < 0.3 else Action.call()
        out.extend(hand.act(legal.seat, action))
    return out


def best_us(run: Callable[[], None], count: int, rounds: int = 7) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times) / count * 1e6


def main() -> None:
    events = [e for seed in range(200) for e in hand_events(seed)]
    viewers = [views.Viewer(SPECTATOR), views.Viewer(0), views.Viewer(3)]

    def frames() -> None:
        for i, event in enumerate(events):
            stored = Stored(i + 1, "t-1", 0, event)
            for viewer in viewers:
                views.event_frame(stored, viewer)

    def dumps() -> None:
        for event in events:
            codec.dumps(event)

    print(f"{len(events)} events")
    print(f"frame for 3 viewers: {best_us(frames, len(events)):.2f} us/event")
    print(f"store payload (codec.dumps): {best_us(dumps, len(events)):.2f} us/event")


if __name__ == "__main__":
    main()
