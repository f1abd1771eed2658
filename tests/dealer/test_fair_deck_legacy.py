"""R3 on a store written before per-position commitments: the dealer still starts on it,
serves its old hands without handing their decks to anyone but the auditor, and
finishes (or voids) the old hand it stopped in safely; the hands after it use R3's new
proof.

The old store is written the way the dealer wrote it up to the per-position scheme:
`HandSalt{salt: 32 bytes}`, `HandStarted.commitment = SHA-256(salt || deck)`, cards
without salts, and `DeckRevealed{salt, deck, commitment}` (the whole deck). The rows
are that format's exact JSON (store format 1, which the store migrates on opening),
made from a game played here.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import random
import sqlite3
from pathlib import Path

import pytest

from clients.convert import event_from_proto
from clients.fairdeck import FairDeckChecker
from poker.v1 import dealer_pb2 as pb
from services.dealer import codec, history, phh, views
from services.dealer.auth import Authenticator
from services.dealer.dealer import Dealer
from services.dealer.engine import AUDITOR, SPECTATOR
from services.dealer.store import Store
from services.dealer.tables import Table
from tests.dealer.helpers import stored_events
from tests.dealer.test_fair_deck import _act, _stream

_SALTED = {"HoleCardsDealt", "BoardDealt", "CardsShown"}


def _old_store(path: Path) -> None:
    """A table with three finished hands and a fourth in progress, in the old format."""
    async def run() -> None:
        store = Store(path)
        dealer = Dealer(store, Authenticator("svc", "aud"), None, "resume")
        engine, options = views.config_from_proto(pb.TableConfig(
            seats=3, pause_between_hands_ms=0, action_time_ms=600_000, show_time_ms=600_000))
        table = dealer.create_table("t", engine, options)
        for seat in range(3):
            dealer.seat_player("t", seat, f"p{seat}", 5000, False)
        await asyncio.sleep(0)
        rng = random.Random(3)
        while not (table.hands_played == 4 and table.hand is not None and table.hand.board
                   and table.turn is not None):
            assert table.hands_played <= 4
            if table.turn is None:
                await asyncio.sleep(0.001)
                continue
            if table.hands_played == 4:  # to the flop, so that it stops with a board out
                turn, hand = table.turn, table.hand
                assert hand is not None
                table.act(turn.seat, hand.hand_id, turn.action_number,
                          "check" if turn.can_check else "call", 0)
            else:
                _act(table, rng)
        assert table.hand is not None and table.hand.hand_id == "t-4"
        store.close()

    asyncio.run(run())
    db = sqlite3.connect(path)
    rows = db.execute("SELECT table_id, sequence, hand_id, payload FROM events "
                      "ORDER BY sequence").fetchall()
    salts: dict[str, bytes] = {}
    decks: dict[str, list[int]] = {}
    for _, _, hand_id, payload in rows:
        data = _format1(payload)
        if data["t"] == "DeckSet":
            decks[hand_id] = data["deck"]
            salts[hand_id] = os.urandom(32)
    for table_id, sequence, hand_id, payload in rows:
        data = _format1(payload)
        kind = data["t"]
        if kind == "HandSalt":
            data = {"t": "HandSalt", "salt": salts[hand_id].hex()}
        elif kind == "HandStarted":
            data["commitment"] = hashlib.sha256(salts[hand_id] + bytes(decks[hand_id])).hexdigest()
        elif kind == "DeckRevealed":
            data = {"t": "DeckRevealed", "salt": salts[hand_id].hex(), "deck": decks[hand_id],
                    "commitment": hashlib.sha256(salts[hand_id]
                                                 + bytes(decks[hand_id])).hexdigest()}
        elif kind in _SALTED:
            data.pop("salts", None)
        db.execute("UPDATE events SET payload = ? WHERE table_id = ? AND sequence = ?",
                   (json.dumps(data, separators=(",", ":")), table_id, sequence))
    db.execute("PRAGMA user_version=1")  # the JSON payloads' format
    db.commit()
    db.close()


def _format1(payload: bytes) -> dict[str, object]:
    """A stored event as format 1 held it: `{"t": <class name>, <field>: <value>, ...}`."""
    event = codec.loads(payload)
    data: dict[str, object] = {"t": type(event).__name__, **codec.encode(event)}
    return data


def _reopen(path: Path, on_crash: str, finish: bool) -> tuple[Store, Table]:
    async def run() -> tuple[Store, Table]:
        store = Store(path)
        dealer = Dealer(store, Authenticator("svc", "aud"), None, on_crash)
        dealer.restore()
        table = dealer.tables["t"]
        rng = random.Random(5)
        while finish and table.hands_played < 6:
            if table.turn is None:
                await asyncio.sleep(0.001)
                continue
            _act(table, rng)
        return store, table

    return asyncio.run(run())


@pytest.mark.parametrize("on_crash", ["resume", "void"])
def test_R3_a_store_of_the_old_format_starts_and_keeps_old_decks_from_players(
        tmp_path: Path, on_crash: str) -> None:
    path = tmp_path / "old.sqlite"
    _old_store(path)
    store, table = _reopen(path, on_crash, finish=True)
    viewers = [views.Viewer(AUDITOR), views.Viewer(SPECTATOR),
               *(views.Viewer(s, table.seated_at[s]) for s in sorted(table.seats))]
    old = {f"t-{n}" for n in range(1, 5)}
    for viewer in viewers:
        stream = _stream(table, viewer)
        checker = FairDeckChecker("flag")
        for e in stream:
            checker.feed(event_from_proto(e))
        assert not checker.violations, (viewer.who, checker.violations)
        reveals = {e.hand_id: e.deck_revealed for e in stream if e.HasField("deck_revealed")}
        old_reveals = {h: r for h, r in reveals.items() if h in old}
        assert set(old_reveals) == (old if on_crash == "resume" else old - {"t-4"})
        if viewer.who is AUDITOR:  # the old proofs are the auditor's, and check
            assert all(len(r.salt) == 32 and len(r.deck) == 52 for r in old_reveals.values())
            assert checker.verified == len(reveals)
        else:
            assert all(r.withheld and not r.deck and not r.salt and not r.hashes
                       for r in old_reveals.values())
            assert sorted(checker.unverified) == sorted(old_reveals)
            assert checker.verified == len(reveals) - len(old_reveals) >= 1
        # The finished old hands' histories carry no hidden card, and no proof to open one.
        for hand_id in sorted(old_reveals):
            record = phh.loads(history.hand_history(table, hand_id, viewer))
            assert "_salts" not in record.extra and "_deck" not in record.extra
            if viewer.who is SPECTATOR:
                dealt = [a for a in record.actions if a.verb == "dh"]
                shown = {a.actor for a in record.actions if a.verb == "sm" and a.cards}
                assert all(all(c is None for c in a.cards) for a in dealt
                           if a.dealt_to not in shown)
    if on_crash == "void":
        voided = [s for s in stored_events(table, 0, 10_000) if s.hand_id == "t-4"
                  and type(s.event).__name__ == "HandVoided"]
        assert len(voided) == 1
    store.close()
