"""Writes store_format1_expect.json: what the checkout it runs in (main d1e2932) shows of
the fixture store once restored: tables, seats, every event decoded (repr), each table's
view for three viewers, every hand's history.

Run from the same worktree as make_store_format1.py:
`.venv/bin/python <this file> store_format1.sqlite store_format1_expect.json`.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from google.protobuf import json_format

sys.path.insert(0, str(Path.cwd()))

from services.dealer import codec, history, views  # noqa: E402
from services.dealer.auth import Authenticator  # noqa: E402
from services.dealer.dealer import Dealer  # noqa: E402
from services.dealer.store import Store  # noqa: E402


async def expected(path: Path) -> dict[str, Any]:
    store = Store(path)
    out: dict[str, Any] = {"events": {}, "views": {}, "histories": {}, "seats": {},
                           "tables": store.tables(True)}
    for table_id, _, _ in store.tables(True):
        out["events"][table_id] = [[r.sequence, r.hand_id, r.time_ms,
                                    repr(codec.loads(r.payload))]
                                   for r in store.events(table_id)]
        out["seats"][table_id] = store.seats(table_id)
    dealer = Dealer(store, Authenticator("svc", "aud"), None, "resume")
    dealer.restore()
    viewers = {"auditor": views.Viewer(views.AUDITOR),
               "spectator": views.Viewer(views.SPECTATOR), "seat0": views.Viewer(0)}
    for table_id, table in dealer.tables.items():
        for name, viewer in viewers.items():
            out["views"][f"{table_id}/{name}"] = json_format.MessageToDict(
                views.table_view(table, viewer))
        for n in range(1, table.hands_played + 1):
            hand_id = f"{table_id}-{n}"
            try:
                out["histories"][hand_id] = history.hand_history(
                    table, hand_id, views.Viewer(views.AUDITOR))
            except Exception as err:  # noqa: BLE001 - a hand in progress: its refusal
                out["histories"][hand_id] = f"error {type(err).__name__}"
    store.close()
    return out


def main(source: Path, target: Path) -> None:
    copy = Path(tempfile.mkdtemp()) / "dealer.sqlite"
    shutil.copy(source, copy)  # restoring writes: never into the fixture itself
    target.write_text(json.dumps(asyncio.run(expected(copy)), indent=1, sort_keys=True))


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
