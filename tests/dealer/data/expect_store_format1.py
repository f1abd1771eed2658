"""With the old code: what a dealer restored from the fixture store shows (the new code must show the same)."""
import asyncio, json, shutil, sys, tempfile
from pathlib import Path
sys.path.insert(0, str(Path.cwd()))
from services.dealer import codec, history, views
from services.dealer.auth import Authenticator
from services.dealer.dealer import Dealer
from services.dealer.store import Store
from google.protobuf import json_format

src = Path(sys.argv[1]); out = Path(sys.argv[2])
tmp = Path(tempfile.mkdtemp()) / "d.sqlite"
shutil.copy(src, tmp)
async def run():
    store = Store(tmp)
    expect = {"events": {}, "views": {}, "histories": {}, "seats": {}, "tables": store.tables(True)}
    for table_id, _, _ in store.tables(True):
        expect["events"][table_id] = [[r.sequence, r.hand_id, r.time_ms, repr(codec.loads(r.payload))]
                                      for r in store.events(table_id)]
        expect["seats"][table_id] = store.seats(table_id)
    dealer = Dealer(store, Authenticator("svc", "aud"), None, "resume")
    dealer.restore()
    for table_id, table in dealer.tables.items():
        for name, viewer in (("auditor", views.Viewer(views.AUDITOR)), ("spectator", views.Viewer(views.SPECTATOR)), ("seat0", views.Viewer(0))):
            expect["views"][f"{table_id}/{name}"] = json_format.MessageToDict(views.table_view(table, viewer))
        for n in range(1, table.hands_played + 1):
            hid = f"{table_id}-{n}"
            try:
                expect["histories"][hid] = history.hand_history(table, hid, views.Viewer(views.AUDITOR))
            except Exception as err:
                expect["histories"][hid] = f"error {type(err).__name__}"
    store.close()
    out.write_text(json.dumps(expect, indent=1, sort_keys=True))
asyncio.run(run())
print("ok")
