"""The store's payload format is stamped (PRAGMA user_version): a store written by the
dealer before the stamp opens, is stamped and recovers every table; a store stamped by a
newer dealer is refused with what to do.

`data/store_before_format_stamp.json` is a store written by the dealer of the commit
this branch left main at (93dc1d7; three players, the third hand in progress): its
schema exactly as SQLite kept it, and its rows.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import pytest

from services.dealer import history, phh, views
from services.dealer.auth import Authenticator
from services.dealer.dealer import Dealer
from services.dealer.store import STORE_FORMAT, Store, StoreFormatError

FIXTURE = Path(__file__).parent / "data" / "store_before_format_stamp.json"


def _write_old_store(path: Path) -> dict[str, object]:
    data = json.loads(FIXTURE.read_text())
    db = sqlite3.connect(path)
    for sql in data["schema"]:
        db.execute(sql)
    for name, rows in data["rows"].items():
        for row in rows:
            db.execute(f"INSERT INTO {name} VALUES ({', '.join('?' * len(row))})", row)
    db.commit()
    assert db.execute("PRAGMA user_version").fetchone()[0] == 0
    db.close()
    return data


def test_a_store_written_before_the_format_stamp_opens_recovers_and_is_stamped(
        tmp_path: Path) -> None:
    path = tmp_path / "dealer.sqlite"
    data = _write_old_store(path)
    events = data["rows"]["events"]  # type: ignore[index]

    async def run() -> None:
        store = Store(path)
        dealer = Dealer(store, Authenticator("svc", "aud"), None, "resume")
        dealer.restore()
        table = dealer.tables["t"]
        # Every stored event folded (the resumed turn is the one written after them).
        assert table.last_sequence >= max(row[1] for row in events)
        assert table.hand is not None and table.hand.hand_id == "t-3"
        view = views.table_view(table, views.Viewer(views.AUDITOR))
        assert sum(s.stack + s.bet for s in view.seats) + sum(
            p.amount for p in view.hand.pots) == 15_000
        text = history.hand_history(table, "t-1", views.Viewer(views.AUDITOR))
        assert phh.loads(text).extra["_hand_id"] == "t-1"
        store.close()

    asyncio.run(run())
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == STORE_FORMAT
    db.close()


def test_a_store_of_a_newer_format_is_refused_with_what_to_do(tmp_path: Path) -> None:
    path = tmp_path / "dealer.sqlite"
    Store(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version={STORE_FORMAT + 1}")
    db.commit()
    db.close()
    with pytest.raises(StoreFormatError, match="written by a newer dealer.*another --db path"):
        Store(path)
    Store(tmp_path / "other.sqlite").close()
