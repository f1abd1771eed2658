"""The hand history of a finished hand (PHH text), as one viewer may see it.

Written from the stored events (phh_writer.to_phh over Hand.from_events), then
every hole card the viewer may not see is turned into `??`: the auditor sees all,
a seat its own cards and any shown, a spectator only shown cards (R27).

The viewer's fair-deck proof (R3) rides along in user fields: `_commitment`,
`_salts` (52 hex strings, committed order, "" for a position not opened to the
viewer: the auditor has all) and `_hashes` (h_i of each position not opened, ""
where it was), and with R39 `_permutation`; the auditor also gets `_deck`. A hand
from before per-position commitments carries `_commitment` only (its proof is the
auditor's, from the audit stream).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from poker import deckproof
from poker.cards import card_text
from poker.limits import quote
from poker.vocab import table_events as ev
from poker.vocab.events import sees_hole_cards
from poker.vocab.seats import from_button
from services.dealer import codec, phh
from services.dealer.engine import AUDITOR, SPECTATOR, CardsShown, Hand, HandEnded
from services.dealer.errors import FailedPrecondition, InvalidArgument, TableNotFound
from services.dealer.phh_writer import to_phh
from services.dealer.tables import Table
from services.evaluator.ranker import DEFAULT_RANKER


def hand_history(table: Table, hand_id: str, viewer: Any) -> str:
    """PHH text of hand `hand_id` of `table` for `viewer` (a views.Viewer)."""
    if not hand_id:
        raise InvalidArgument("hand_id: required")
    in_progress = f"hand {hand_id} is in progress: ask again when it ends"
    if table.hand is not None and table.hand.hand_id == hand_id:
        raise FailedPrecondition(in_progress)  # the running hand: the store has no range yet
    rows = table.store.hand_events(table.table_id, hand_id)  # a finished hand's range
    if not rows:
        raise TableNotFound(f"no hand {quote(hand_id)} at table {table.table_id}")
    events = [codec.loads(r.payload) for r in rows]
    if any(isinstance(e, ev.HandVoided) for e in events):
        raise FailedPrecondition(f"hand {hand_id} was voided: it has no history")
    if not any(isinstance(e, HandEnded) for e in events):
        raise FailedPrecondition(in_progress)
    hand = Hand.from_events([e for e in events if type(e) not in ev.DEALER_EVENTS],
                            ranker=DEFAULT_RANKER)
    who = viewer.at(rows[0].sequence)
    history = to_phh(hand)
    if who is not AUDITOR:
        shown = {e.seat for e in events if isinstance(e, CardsShown)}
        history = _hide(history, from_button((p.seat for p in hand.players), hand.button),
                        who, shown)
    history.extra.update(_proof(events, who, hand))
    history.extra.update(_clock(events, hand))
    return phh.dumps(history)


def _clock(events: list[Any], hand: Hand) -> dict[str, object]:
    """R32, R35: PHH's `time_limit` (seconds a decision) and, as a user field, the time
    bank each player (p1..pN) used in the hand, in milliseconds."""
    order = from_button((p.seat for p in hand.players), hand.button)
    used = dict.fromkeys(order, 0)
    for e in events:
        if isinstance(e, ev.TimeBankUsed) and e.seat in used:
            used[e.seat] += e.used_ms
    out: dict[str, object] = {"time_limit": hand.config.action_time_ms // 1000}
    if any(used.values()):
        out["_time_bank_used_ms"] = [used[seat] for seat in order]
    return out


def _proof(events: list[Any], who: Any, hand: Hand) -> dict[str, object]:
    """R3's proof for `who`, as PHH user fields (see the module doc)."""
    reveal = next((e for e in events if isinstance(e, ev.DeckRevealed)), None)
    commitment = getattr(hand.events[0], "commitment", "")
    if reveal is None or reveal.legacy:
        return {"_commitment": commitment} if commitment else {}
    if isinstance(who, int) and not any(seat == who for seat, _, _ in reveal.dealt):
        who = SPECTATOR
    opened = range(52) if who is AUDITOR else reveal.opened_to(who)
    fields: dict[str, object] = {
        "_commitment": reveal.commitment,
        "_salts": [s.hex() if i in opened else "" for i, s in enumerate(reveal.salts)],
        "_hashes": ["" if i in opened else deckproof.position_hash(i, c, s).hex()
                    for i, (c, s) in enumerate(zip(reveal.deck, reveal.salts, strict=True))],
    }
    if who is AUDITOR:
        fields["_deck"] = [card_text(c) for c in reveal.deck]
    seeded = next((e for e in events if isinstance(e, ev.DeckSeeded)), None)
    if seeded is not None:
        fields["_permutation"] = list(seeded.permutation)
    return fields


def _hide(history: phh.PhhHand, seats: list[int], who: Any, shown: set[int]) -> phh.PhhHand:
    """The history with every hole card `who` may not see (sees_hole_cards) as `??`."""
    actions = []
    for action in history.actions:
        player = action.dealt_to if action.verb == "dh" else action.actor
        if player is not None and action.cards \
                and not sees_hole_cards(who, seats[player - 1], shown):
            action = dataclasses.replace(action, cards=tuple(None for _ in action.cards))
        actions.append(action)
    return dataclasses.replace(history, actions=actions)
