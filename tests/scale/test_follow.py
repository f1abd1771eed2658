"""FollowTables on a real dealer (services/dealer/notes.py) and the lobby's follower of it
(services/lobby/follower.py): table-level notes as they happen, nothing while idle,
and a resumed stream goes on after its cursors with no note lost or repeated."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from poker.v1 import dealer_pb2 as pb
from services.lobby.follower import DealerNote, TableFollower
from tests.dealer.helpers import SERVICE_TOKEN, SVC, Client, start_dealer
from tests.scale.room import wait_for


def _follow(address: str, cursors: dict[str, int] | None = None) -> tuple[TableFollower,
                                                                         list[DealerNote]]:
    follower = TableFollower([address], SERVICE_TOKEN)
    follower.cursors.update(cursors or {})
    got: list[DealerNote] = []
    follower.subscribe(got.append)
    follower.start()
    wait_for("the stream up", lambda: address in follower.connected, 10)
    return follower, got


@pytest.mark.slow
@pytest.mark.timeout(90)
def test_follow_tables_notes_what_happens_and_nothing_while_idle(tmp_path: Path) -> None:
    dealer = start_dealer(tmp_path / "d.sqlite")
    client = Client(dealer.address)
    try:
        for t in range(100):  # idle tables, a player waiting at each
            client.create(f"idle-{t}")
            client.stub.SeatPlayer(pb.SeatPlayerRequest(
                table_id=f"idle-{t}", seat=0, player_id="w", stack=100), metadata=SVC)
        follower, got = _follow(dealer.address)
        time.sleep(2.0)
        assert got == []  # 100 idle tables: no note, and no call but the one stream
        client.create("t1")
        client.seat("t1", [100, 100])  # heads-up: a hand starts at once
        wait_for("a hand ended at t1", lambda: any(n.kind == "HAND_ENDED" for n in got), 30)
        kinds = [n.kind for n in got if n.table_id == "t1"]
        assert kinds[:2] == ["SEATED", "SEATED"]
        sequences = [n.sequence for n in got]
        assert sequences == sorted(sequences)  # one table: in its order
        # One connection however many messages came (the lobby's passes count on it).
        assert follower.connections == 1 and follower.live_since(1)
        follower.stop()
        last = max(n.sequence for n in got)
        # A follower resuming after its cursor gets what came after, nothing before it.
        again, more = _follow(dealer.address, {"t1": last})
        client.stub.UnseatPlayer(pb.UnseatPlayerRequest(table_id="idle-3", seat=0),
                                 metadata=SVC)
        wait_for("the seat freed", lambda: any(n.kind == "SEAT_FREED" for n in more), 10)
        assert all(n.sequence > last for n in more if n.table_id == "t1")
        freed = [n for n in more if n.kind == "SEAT_FREED"]
        assert [(n.table_id, n.seat, n.player_id, n.stack) for n in freed] == [
            ("idle-3", 0, "w", 100)]
        again.stop()
        # From a cursor of 0 the table's log is read back: its seatings are noted again.
        replay, old = _follow(dealer.address, {"idle-5": 0})
        wait_for("the backlog", lambda: any(n.table_id == "idle-5" for n in old), 10)
        assert [n.kind for n in old if n.table_id == "idle-5"] == ["SEATED"]
        replay.stop()
    finally:
        client.close()
        dealer.stop()
