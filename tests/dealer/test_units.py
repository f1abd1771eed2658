"""Unit tests of the dealer's plain parts: decks, seating, auth, store, codec."""

from __future__ import annotations

import functools
import json
import sqlite3
import time
from pathlib import Path

import pytest

from poker import deckproof, mapping
from poker.v1.table_events_pb2 import TableEvent
from poker.vocab import table_events as ev
from services.dealer import codec, deck
from services.dealer.auth import SERVICE, SPECTATOR, Authenticator, bearer, token_hash
from services.dealer.engine import ButtonRule
from services.dealer.errors import PermissionDenied, Unauthenticated
from services.dealer.store import ActRecord, Row, Store
from services.dealer.table import seatplan
from services.dealer.table.seatplan import Last, Player


def test_R2_secure_shuffle_is_a_permutation_and_seeded_only_reproduces() -> None:
    assert sorted(deck.secure_order()) == list(range(52))
    assert deck.seeded_order(7, 1) == deck.seeded_order(7, 1) != deck.seeded_order(7, 2)
    assert deck.shuffle(None, 1).cards != deck.shuffle(None, 1).cards


def test_R3_commitment_is_sha256_of_the_52_position_hashes() -> None:
    import hashlib

    shuffled = deck.shuffle(3, 1)
    assert len(shuffled.salts) == 52 and {len(s) for s in shuffled.salts} == {16}
    assert len(set(shuffled.salts)) == 52  # fresh for every position
    hashes = [hashlib.sha256(s + bytes((i, c))).digest()
              for i, (c, s) in enumerate(zip(shuffled.cards, shuffled.salts, strict=True))]
    expected = hashlib.sha256(b"".join(hashes)).hexdigest()
    assert shuffled.commitment == expected == deckproof.commitment_of(shuffled.hashes)
    swapped = deck.ShuffledDeck((shuffled.cards[1], shuffled.cards[0], *shuffled.cards[2:]),
                                shuffled.salts)
    assert swapped.commitment != expected
    assert deck.shuffle(3, 1).salts != shuffled.salts  # test mode fixes the order, not salts


def test_R4_button_draw_highest_card_takes_it() -> None:
    seat, cards = deck.draw_button([1, 3, 5])
    assert set(cards) == {1, 3, 5} and cards[seat] == max(cards.values())


def test_R5_moving_button_moves_to_next_dealt_in_seat() -> None:
    """Pinned the seat plan before issue 13 (services/dealer/seating.py, gone): now the
    `moving` rule of seatplan, which keeps it."""
    players = [Player(0), Player(2), Player(5)]
    plan = seatplan.plan(ButtonRule.MOVING, players, Last(button=2, small_blind=5, big_blind=0))
    assert plan is not None and plan.button == 5
    plan = seatplan.plan(ButtonRule.MOVING, players, Last(button=5, small_blind=0, big_blind=2))
    assert plan is not None and plan.button == 0
    first = seatplan.plan(ButtonRule.MOVING, [Player(0), Player(2)], None, button=2)
    assert first is not None and first.button == 2


def test_R7_heads_up_big_blind_is_not_the_button() -> None:
    assert seatplan.classic([1, 4], 1).big_blind == 4
    assert seatplan.classic([1, 4, 7], 1).big_blind == 7


def test_R10_late_joiner_posts_or_waits_for_the_big_blind() -> None:
    """Rewritten to issue 13's R10 (moving rule): a newcomer from the button to the small
    blind waits until the button has passed (it used to post at once)."""
    players = [Player(0), Player(1), Player(2)]
    newcomer = Player(4, owes=True)
    plan = seatplan.plan(ButtonRule.MOVING, [*players, newcomer], Last(0, 1, 2))
    # button 1, small blind 2, big blind 4: the late joiner is the big blind, no post
    assert plan is not None and plan.button == 1 and plan.big_blind == 4
    assert plan.late_posters == ()
    plan = seatplan.plan(ButtonRule.MOVING, [*players, newcomer], Last(1, 2, 0))
    assert plan is not None and plan.button == 2 and 4 not in plan.seats  # waits (R10)
    plan = seatplan.plan(ButtonRule.MOVING, [*players, newcomer], Last(2, 0, 1))
    assert plan is not None and plan.late_posters == (4,)  # posts a live big blind
    waiting = Player(4, owes=True, waits=True)
    plan = seatplan.plan(ButtonRule.MOVING, [*players, waiting], Last(2, 0, 1))
    assert plan is not None and 4 not in plan.seats
    plan = seatplan.plan(ButtonRule.MOVING, [*players, waiting], Last(0, 1, 2))
    assert plan is not None and 4 in plan.seats and plan.late_posters == ()


def test_auth_roles_and_messages() -> None:
    auth = Authenticator("svc", "aud")
    auth.register_seat(token_hash("seat-token"), "t1", 3)
    assert auth.caller(None) is SPECTATOR and auth.caller("svc") is SERVICE
    assert auth.caller("seat-token").seat == 3
    with pytest.raises(Unauthenticated, match="unknown token"):
        auth.caller("nope")
    with pytest.raises(PermissionDenied, match="seat 3.*seat 4"):
        auth.require_seat("seat-token", "t1", 4)
    with pytest.raises(PermissionDenied, match="another table"):
        auth.require_seat("seat-token", "t2", 3)
    with pytest.raises(PermissionDenied, match="service token"):
        auth.require_service("seat-token")
    assert bearer([("authorization", "Bearer abc")]) == "abc"
    with pytest.raises(Unauthenticated):
        bearer([("authorization", "Basic abc")])


def test_store_round_trips_events_seats_and_acts(tmp_path: Path) -> None:
    store = Store(tmp_path / "d.sqlite")
    with store.batch():
        store.create_table("t1", "{}", 1)
        store.append("t1", [Row(1, "", 5, "a"), Row(2, "t1-1", 6, "b")])
        store.put_seat("t1", 2, "p", "hash")
        store.put_act("t1", "t1-1", 1, ActRecord(2, "call", 0, 9))
    with pytest.raises(RuntimeError), store.batch():
        store.append("t1", [Row(3, "", 7, "c")])
        raise RuntimeError("rolled back")
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        Store(tmp_path / "d.sqlite")  # one dealer per database
    store.close()
    reopened = Store(tmp_path / "d.sqlite")
    assert [r.payload for r in reopened.events("t1")] == ["a", "b"]
    assert reopened.events("t1", after=1) == [Row(2, "t1-1", 6, "b")]
    assert reopened.seats("t1") == [(2, "p", "hash")]
    assert reopened.act("t1", "t1-1", 1) == ActRecord(2, "call", 0, 9)
    assert reopened.tables() == [("t1", "{}", False)]


def test_store_write_is_one_transaction_and_checkpoints_off_the_writer(tmp_path: Path) -> None:
    """Store.write commits events and `also` together or not at all; the checkpointer
    thread copies the WAL and restarts it once past its size, while writes go on."""
    store = Store(tmp_path / "d.sqlite", checkpoint_every=16, restart_mb=1)
    with store.batch():
        store.create_table("t1", "{}", 1)

    def failing() -> None:
        raise RuntimeError("rolled back")

    with pytest.raises(RuntimeError):
        store.write("t1", [(1, "", 5, "lost")], also=failing)
    assert store.events("t1") == []
    payload = "x" * 3000  # about one page per event
    for sequence in range(1, 1201):
        store.write("t1", [(sequence, "t1-1", 5, payload)],
                    also=functools.partial(store.put_act, "t1", "t1-1", sequence,
                                           ActRecord(0, "call", 0, sequence)))
    deadline = time.monotonic() + 10
    while store._checkpointer.restarts == 0 and time.monotonic() < deadline:
        sequence += 1
        store.write("t1", [(sequence, "t1-1", 5, payload)])
        time.sleep(0.005)
    assert store._checkpointer.restarts >= 1  # 1,200 pages went past 1 MB
    store.close()
    wal = Path(f"{tmp_path / 'd.sqlite'}-wal")
    assert not wal.exists()  # the last connection closed checkpoints it away
    reopened = Store(tmp_path / "d.sqlite")
    rows = reopened.events("t1")
    assert [r.sequence for r in rows] == list(range(1, sequence + 1))
    assert reopened.act("t1", "t1-1", 1200) == ActRecord(0, "call", 0, 1200)
    reopened.close()


def test_codec_round_trips_dealer_events() -> None:
    samples = [
        ev.PlayerSeated(1, "p", 500, True), ev.ButtonSet(2, ((1, 51), (2, 50))),
        ev.HandSalt(b"\x00\xff"), ev.DeckRevealed(b"\x01", tuple(range(52)), "ab"),
        ev.HandSalt(salts=(b"\x00" * 16, b"\x01" * 16), deck=(3, 4)),
        ev.DeckRevealed(b"", (3, 4), "ab", (b"\x02" * 16, b"\x03" * 16), (0,), ((1, 0, 1),)),
        ev.DeckSeeded(((0, b"\x05" * 32), (1, b"")), tuple(range(52))),
        ev.TurnStarted(1, "bet", 3, 99, can_fold=True, bet_kind="raise", min_to=200),
        ev.HandVoided(((1, 100), (2, 200)), "why"), ev.TableClosed(((1, "p", 3),)),
    ]
    for event in samples:
        assert codec.loads(codec.dumps(event)) == event


def test_codec_dumps_writes_the_canonical_table_event() -> None:
    """The store's payload is the event's TableEvent as poker.mapping makes it, and a
    format-1 text of the same event (the generic JSON) reads back as the same event."""
    from services.dealer.engine import (
        ActionKind,
        ActionTaken,
        BoardDealt,
        HandStarted,
        Level,
        PlayerIn,
        Street,
        TableConfig,
    )

    config = TableConfig(levels=(Level(50, 100, 10),), turn_river_min_bet=None)
    samples = [
        ev.PlayerSatIn(3), ev.HandSalt(b"\x00\xff"), ev.ButtonSet(2, ((1, 51), (2, 50))),
        ev.TurnStarted(1, "bet", 3, 99, can_fold=True, bet_kind="raise", min_to=200),
        ev.TableClosed(((1, "p\u00e9\"", 3),)),
        ActionTaken(2, ActionKind.RAISE, 300, 250, all_in=True),
        BoardDealt(Street.FLOP, (1, 2, 3)),
        BoardDealt(Street.TURN, (4,), (b"\x01" * 16,)),
        ev.HandSalt(salts=(b"\x00" * 16, b"\xab" * 16), deck=(3, 4)),
        ev.DeckRevealed(b"", (3, 4), "ab", (b"\x02" * 16,), (0, 1), ((1, 0, 1), (2, 5, 6))),
        ev.DeckSeeded(((0, b"\x05" * 32), (1, b"")), (1, 0)),
        HandStarted("t-1", config, Level(50, 100), (PlayerIn(0, "a", 900), PlayerIn(1, "b", 50)),
                    0, "c0ffee"),
    ]
    for event in samples:
        generic = json.dumps({"t": type(event).__name__, **codec.encode(event)},
                             separators=(",", ":"))
        assert codec.loads_json(generic) == event
        assert codec.dumps(event) == mapping.to_event(event).SerializeToString()
        assert TableEvent.FromString(codec.dumps(event)).WhichOneof("event") is not None
        assert codec.loads(codec.dumps(event)) == event


def test_codec_dumps_of_a_dealers_whole_log_is_the_canonical_encoding(tmp_path: Path) -> None:
    """Every event a dealer wrote over many hands (every kind of field) reads back equal,
    its payload the event's TableEvent, encoded again to the same bytes."""
    import asyncio
    import random

    from poker.v1 import dealer_pb2 as pb
    from services.dealer import views
    from services.dealer.auth import Authenticator
    from services.dealer.dealer import Dealer

    async def play() -> list[bytes]:
        store = Store(tmp_path / "d.sqlite")
        dealer = Dealer(store, Authenticator("svc", "aud"), None, "resume")
        config, options = views.config_from_proto(pb.TableConfig(
            seats=6, pause_between_hands_ms=0, action_time_ms=60_000,
            preset=pb.PRESET_STANDARD))
        table = dealer.create_table("t", config, options)
        for seat in range(6):
            dealer.seat_player(table.table_id, seat, f"p\u00e9{seat}", 1_000_000, False)
        rng = random.Random(7)
        await asyncio.sleep(0.01)
        for _ in range(5_000):
            if table.hands_played >= 40:
                break
            turn, hand = table.turn, table.hand
            if turn is None or hand is None:
                await asyncio.sleep(0.001)
                continue
            if turn.decision == "show_or_muck":
                kind, amount = rng.choice(["show", "muck"]), 0
            elif turn.bet_kind and rng.random() < 0.3:
                top = min(3 * turn.min_to, turn.max_to)
                kind, amount = turn.bet_kind, rng.randint(turn.min_to, top)
            else:
                kind, amount = rng.choice(["fold", "check"] if turn.can_check
                                          else ["fold", "call"]), 0
            table.act(turn.seat, hand.hand_id, turn.action_number, kind, amount)
        texts = [row.payload for row in store.events("t")]
        store.close()
        return texts

    texts = asyncio.run(play())
    kinds = set()
    for text in texts:
        event = codec.loads(text)
        kinds.add(type(event).__name__)
        assert text == codec.dumps(event) == mapping.to_event(event).SerializeToString()
        generic = json.dumps({"t": type(event).__name__, **codec.encode(event)},
                             separators=(",", ":"))
        assert codec.loads_json(generic) == event
    assert {"HandStarted", "TurnStarted", "ActionTaken", "DeckRevealed", "PotAwarded",
            "HandEnded", "HoleCardsDealt", "PlayerSeated"} <= kinds
