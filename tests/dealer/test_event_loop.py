"""The dealer runs on uvloop by default and on asyncio's own loop when asked; hands play on both."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.dealer.helpers import Client, Watcher, count, play, start_dealer


@pytest.mark.parametrize("extra, expected", [((), "uvloop"),
                                             (("--event-loop", "asyncio"), "asyncio")])
def test_the_dealer_plays_on_the_event_loop_it_is_given(
        tmp_path: Path, extra: tuple[str, ...], expected: str) -> None:
    log = tmp_path / "dealer.log"
    proc = start_dealer(tmp_path / "dealer.sqlite", *extra, log_path=log)
    client = Client(proc.address)
    try:
        table_id = client.create(seats=2, test_mode=True, deck_seed=3)
        tokens = client.seat(table_id, [1000, 1000])
        watcher = Watcher(client, table_id)
        play(client, table_id, tokens, watcher, hands=3)
        assert count(watcher.events, "hand_ended") >= 3
        watcher.cancel()
    finally:
        client.close()
        proc.stop()
    started = [json.loads(line) for line in log.read_text().splitlines()
               if '"server_started"' in line]
    assert [entry["event_loop"] for entry in started] == [expected]
