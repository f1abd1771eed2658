"""T8 needs to know when a table's hand ended: GetTable's `last_hand_end_time` (and its
deprecated integer twin, AIP-142) is the time of the last HandEnded, unset before the
first hand; the lobby's dealer client reads it (services.lobby.dealer_client)."""

from __future__ import annotations

import time

from tests.dealer.helpers import AUDITOR_TOKEN, Client, Watcher, play


def test_T8_get_table_says_when_the_last_hand_ended(client: Client) -> None:
    table_id = client.create(seats=2)
    before = client.view(table_id)
    assert not before.HasField("last_hand_end_time") and before.last_hand_end_unix_ms == 0
    tokens = client.seat(table_id, [1000, 1000])
    audit = Watcher(client, table_id, AUDITOR_TOKEN)
    try:
        play(client, table_id, tokens, audit, hands=2)
        view = client.view(table_id)
        deadline = time.monotonic() + 10  # the stream has every event the view has
        while not any(e.sequence >= view.sequence for e in list(audit.events)):
            assert time.monotonic() < deadline, "the stream fell behind the view"
            time.sleep(0.02)
    finally:
        audit.cancel()
    ended = [e.time_unix_ms for e in audit.events if e.HasField("hand_ended")
             and e.sequence <= view.sequence]
    assert len(ended) >= 2
    assert view.last_hand_end_time.ToMilliseconds() == view.last_hand_end_unix_ms == ended[-1]
