"""R3 as the security finding asked: no viewer's stream, GetTable answer or hand history
carries a card, or a salt that opens one, that was not opened to that viewer, over
thousands of hands with folds, mucks (R27) and all-in exposures (R28); each viewer's
FairDeckChecker still passes, and the auditor's checks all 52 positions.

Played in-process (a Dealer on its store, the table driven by hand, no pause between
hands) and read as each viewer would be sent it (services.dealer.views).
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from google.protobuf.message import Message

from clients.convert import event_from_proto
from clients.fairdeck import FairDeckChecker, board_positions, dealing_order
from poker.cards import card_text, parse_card
from poker.v1 import dealer_pb2 as pb
from services.dealer import history, phh, views
from services.dealer.auth import Authenticator
from services.dealer.dealer import Dealer
from services.dealer.engine import AUDITOR, SPECTATOR
from services.dealer.store import Store
from services.dealer.tables import Table
from services.dealer.views import Viewer
from tests.dealer.helpers import stored_events

HANDS = 1000
SEATS = 6
CARD_TEXTS = frozenset(card_text(i) for i in range(52))


def _act(table: Table, rng: random.Random) -> None:
    turn, hand = table.turn, table.hand
    assert turn is not None and hand is not None
    if turn.decision == "show_or_muck":
        kind, amount = ("muck" if turn.can_muck and rng.random() < 0.6 else "show"), 0
    else:
        r = rng.random()
        if turn.can_all_in and r < 0.06:
            kind, amount = "all_in", 0
        elif turn.bet_kind and r < 0.25:
            kind, amount = turn.bet_kind, rng.randint(turn.min_to, max(turn.min_to,
                                                                       turn.min_to * 2))
            amount = min(amount, turn.max_to)
        elif turn.can_fold and r < 0.5:
            kind, amount = "fold", 0
        else:
            kind, amount = ("check" if turn.can_check else "call"), 0
    table.act(turn.seat, hand.hand_id, turn.action_number, kind, amount)


def _rebuy(table: Table, keys: Iterator[int]) -> None:
    for seat, state in table.seats.items():
        if state.stack == 0 and not table.in_hand(seat):
            table.add_chips(seat, 1000, f"k{next(keys)}")


def _play(tmp_path: Path, hands: int, seed: int, **config: Any
          ) -> tuple[Store, Table, list[tuple[Viewer, pb.TableView]]]:
    """Plays `hands` hands; also takes GetTable for every viewer now and then."""
    snapshots: list[tuple[Viewer, pb.TableView]] = []

    async def run() -> tuple[Store, Table]:
        store = Store(tmp_path / "d.sqlite")
        dealer = Dealer(store, Authenticator("svc", "aud"), None, "resume")
        engine, options = views.config_from_proto(pb.TableConfig(
            seats=SEATS, pause_between_hands_ms=0, action_time_ms=600_000,
            show_time_ms=600_000, **config))
        table = dealer.create_table("t", engine, options)
        for seat in range(SEATS):
            dealer.seat_player("t", seat, f"p{seat}", rng.choice((300, 1000, 2500)), False)
        keys = iter(range(10**9))
        while table.hands_played <= hands:
            if table.hand is None or table.turn is None:
                _rebuy(table, keys)
                await asyncio.sleep(0)
                continue
            if rng.random() < 0.002:
                for viewer in _viewers(table):
                    snapshots.append((viewer, views.table_view(table, viewer)))
            _act(table, rng)
            _rebuy(table, keys)
        return store, table

    rng = random.Random(seed)
    store, table = asyncio.run(run())
    return store, table, snapshots


def _viewers(table: Table) -> list[Viewer]:
    return [Viewer(AUDITOR), Viewer(SPECTATOR),
            *(Viewer(seat, table.seated_at[seat]) for seat in sorted(table.seats))]


def _stream(table: Table, viewer: Viewer) -> list[pb.TableEvent]:
    """Every event of the table as `viewer`'s stream carries it."""
    out: list[pb.TableEvent] = []
    after = 0
    while batch := stored_events(table, after, 512):
        data, _ = views.events_for(batch, viewer, table)
        out.extend(pb.WatchTableResponse.FromString(data).events)
        after = batch[-1].sequence
    return out


@dataclass
class _Truth:
    """What the auditor's stream says a hand was: its committed deck, salts, who saw what."""

    deck: list[int] = field(default_factory=list)
    salts: list[bytes] = field(default_factory=list)
    order: list[int] = field(default_factory=list)
    public: set[int] = field(default_factory=set)
    hole: dict[int, tuple[int, int]] = field(default_factory=dict)
    mucked: set[int] = field(default_factory=set)
    folded: set[int] = field(default_factory=set)

    def allowed(self, who: Any) -> set[int]:
        own = set(self.hole.get(who, ())) if isinstance(who, int) else set()
        return set(range(52)) if who is AUDITOR else self.public | own


def _truths(auditor: list[pb.TableEvent]) -> dict[str, _Truth]:
    truths: dict[str, _Truth] = {}
    for e in auditor:
        kind = e.WhichOneof("event")
        if not e.hand_id or kind is None:
            continue
        t = truths.setdefault(e.hand_id, _Truth())
        if kind == "hand_started":
            t.order = dealing_order([p.seat for p in e.hand_started.players],
                                    e.hand_started.button)
        elif kind == "hole_cards_dealt":
            n, p = len(t.order), t.order.index(e.hole_cards_dealt.seat)
            t.hole[e.hole_cards_dealt.seat] = (p, n + p)
        elif kind == "board_dealt":
            street = event_from_proto(e).street  # type: ignore[attr-defined]
            t.public.update(board_positions(len(t.order), street))
        elif kind == "cards_shown":
            t.public.update(t.hole[e.cards_shown.seat])
        elif kind == "cards_mucked":
            t.mucked.add(e.cards_mucked.seat)
        elif kind == "action_taken" and e.action_taken.action == pb.ACTION_KIND_FOLD:
            t.folded.add(e.action_taken.seat)
        elif kind == "deck_revealed":
            t.deck = [parse_card(c) for c in e.deck_revealed.deck]
            t.salts = list(e.deck_revealed.salts)
    return truths


def _values(message: Message) -> Iterator[str | bytes]:
    """Every string and bytes value anywhere in a message."""
    for fd, value in message.ListFields():
        items = value if fd.is_repeated else [value]
        for item in items:
            if isinstance(item, Message):
                yield from _values(item)
            elif isinstance(item, str | bytes):
                yield item


def _assert_nothing_unopened(where: str, message: Message, truth: _Truth, who: Any) -> None:
    allowed = truth.allowed(who)
    cards = {card_text(truth.deck[i]) for i in allowed}
    salts = {truth.salts[i] for i in allowed}
    secret_salts = set(truth.salts) - salts
    for value in _values(message):
        if isinstance(value, str) and value in CARD_TEXTS:
            assert value in cards, f"{where}: {who} got {value}, never opened to it"
        elif isinstance(value, bytes):
            assert value not in secret_salts, f"{where}: {who} got the salt of a hidden card"
            for salt in secret_salts:  # nor inside any longer field
                assert salt not in value, f"{where}: {who} got a hidden salt inside a field"


@pytest.mark.slow
@pytest.mark.timeout(900)  # 1,000 hands in process: about 35 s quiet, past 90 s loaded
def test_R3_no_viewer_gets_a_card_or_salt_not_opened_to_it_over_a_thousand_hands(
        tmp_path: Path) -> None:
    store, table, snapshots = _play(tmp_path, HANDS, seed=11)
    viewers = _viewers(table)
    streams = {v.who: _stream(table, v) for v in viewers}
    truths = _truths(streams[AUDITOR])
    finished = {h for h, t in truths.items() if t.deck}
    assert len(finished) >= HANDS
    totals: Counter[str] = Counter()
    for t in truths.values():
        totals["mucked"] += len(t.mucked)
        totals["folded"] += len(t.folded)
    assert totals["mucked"] > HANDS // 60 and totals["folded"] > HANDS // 2, totals
    shown_all_in = sum(1 for e in streams[SPECTATOR] if e.HasField("cards_shown")
                       and e.cards_shown.reason == pb.SHOW_REASON_ALL_IN)
    assert shown_all_in > HANDS // 60, "the policy should reach all-in exposures (R28)"

    for viewer in viewers:
        who = viewer.who
        checker = FairDeckChecker("flag")
        for e in streams[who]:
            if e.hand_id in finished:
                _assert_nothing_unopened(f"event {e.sequence}", e, truths[e.hand_id], who)
            checker.feed(event_from_proto(e))
        assert not checker.violations, (who, checker.violations[:3])
        assert checker.verified == len(finished), (who, checker.verified)
        reveals = [e.deck_revealed for e in streams[who] if e.HasField("deck_revealed")]
        if who is AUDITOR:  # the auditor's check covers every position
            assert all(len(r.deck) == 52 and len(r.salts) == 52 and not r.hashes
                       for r in reveals)
        else:
            assert all(not r.deck and not r.salts and len(r.hashes) == 52 for r in reveals)
            # What a spectator may rebuild: the public positions, nothing of a folded or
            # mucked hand (the finding: 33 of 33 before).
            if who is SPECTATOR:
                for e in streams[who]:
                    if e.HasField("deck_revealed"):
                        t = truths[e.hand_id]
                        opened = {i for i, h in enumerate(e.deck_revealed.hashes) if not h}
                        assert opened == t.public

    for viewer, view in snapshots:
        hand_id = view.hand.hand_id
        if hand_id in finished:
            _assert_nothing_unopened(f"GetTable {hand_id}", view, truths[hand_id],
                                     viewer.at(table.hand_started_at))

    for hand_id in sorted(finished)[:: max(1, len(finished) // 150)]:
        t = truths[hand_id]
        for viewer in viewers:
            text = history.hand_history(table, hand_id, viewer)
            record = phh.loads(text)
            who = viewer.who
            allowed = t.allowed(who)
            cards = {truths[hand_id].deck[i] for i in allowed}
            for action in record.actions:
                for card in action.cards:
                    assert card is None or card in cards, (hand_id, who, action)
            salts = record.extra.get("_salts")
            assert isinstance(salts, list) and len(salts) == 52
            assert {i for i, s in enumerate(salts) if s} == allowed, (hand_id, who)
            assert ("_deck" in record.extra) == (who is AUDITOR)
            for value in (v for v in record.extra.values() if isinstance(v, list)):
                for item in value:
                    assert not (isinstance(item, str) and item in
                                {t.salts[i].hex() for i in set(range(52)) - allowed})
    store.close()


def test_R3_a_reveal_reuses_the_hashes_its_deck_was_committed_with_and_only_those() -> None:
    """deck.position_hashes: a deck this process shuffled gives back the very hashes its
    commitment was made of (no SHA-256 again); other cards or salts under the same
    commitment, or a commitment not kept (a restarted dealer), are computed afresh."""
    from poker.deckproof import commitment_of, position_hash
    from services.dealer import deck

    shuffled = deck.shuffle(None, 1)
    commitment = shuffled.commitment
    kept = deck.position_hashes(shuffled.cards, shuffled.salts, commitment)
    assert kept is deck._RECENT[commitment][2]  # the kept tuple itself
    assert commitment_of(kept) == commitment
    assert list(kept) == [position_hash(i, c, s) for i, (c, s)
                          in enumerate(zip(shuffled.cards, shuffled.salts, strict=True))]
    swapped = (shuffled.cards[1], shuffled.cards[0], *shuffled.cards[2:])
    other = deck.position_hashes(swapped, shuffled.salts, commitment)
    assert other is not kept and commitment_of(other) != commitment
    assert deck.position_hashes(shuffled.cards, shuffled.salts, "0" * 64) == kept
    for n in range(deck._RECENT_DECKS + 5):  # bounded: the oldest go first
        deck.shuffle(None, n)
    assert len(deck._RECENT) == deck._RECENT_DECKS and commitment not in deck._RECENT
