"""The director follows the dealers through the lobby's one follower (FollowTables:
services/lobby/tournament/noted.py): a tournament table in a hand is asked for once
(GetTable), not at every pass of the director, until its dealer notes the hand ended;
with a stream down it is asked every pass, as without a follower."""

from __future__ import annotations

from typing import Any

from services.lobby.dealers import DealerTable
from services.lobby.follower import DealerNote, Handler
from services.lobby.tournament.director import HeldViews
from services.lobby.tournament.noted import TableNotes


class Dealer:
    """One table, in a hand or not; counts GetTable."""

    def __init__(self) -> None:
        self.asked, self.sequence, self.running, self.hands = 0, 10, True, 0

    def table(self, address: str, table_id: str) -> DealerTable:
        self.asked += 1
        return DealerTable(table_id, self.sequence, {}, self.hands, self.running, False, None)

    def set_deal_limit(self, address: str, table_id: str, until: int) -> int:
        return self.hands


class Follower:
    """services.lobby.follower.TableFollower as the director uses it."""

    def __init__(self) -> None:
        self.addresses, self.connected = ["d1"], {"d1"}
        self.handlers: list[Handler] = []

    def subscribe(self, handler: Handler) -> None:
        self.handlers.append(handler)

    def note(self, sequence: int, kind: str, hands: int) -> None:
        for handler in self.handlers:
            handler(DealerNote("t1", sequence, kind, 0, "", 0, hands))


def _views() -> tuple[HeldViews, Dealer, Follower]:
    dealer, follower = Dealer(), Follower()
    views = HeldViews(dealer)
    notes = TableNotes(follower)
    follower.subscribe(notes)
    views.notes = notes
    return views, dealer, follower


def test_a_table_in_a_hand_is_asked_once_until_its_dealer_notes_the_hand_ended() -> None:
    views, dealer, follower = _views()
    for _ in range(100):  # 100 passes of the director while the hand goes on
        assert views.table("d1", "t1").hand_running
    assert dealer.asked == 1
    dealer.sequence, dealer.running, dealer.hands = 25, False, 1
    follower.note(25, "HAND_ENDED", 1)
    view = views.table("d1", "t1")
    assert dealer.asked == 2 and view.hands_played == 1 and not view.hand_running
    # not in a hand: asked each pass (until held and kept by the director)
    views.table("d1", "t1")
    assert dealer.asked == 3


def test_a_view_kept_is_forgotten_when_the_director_acts_on_the_table() -> None:
    views, dealer, _ = _views()
    views.table("d1", "t1")
    views.set_deal_limit("d1", "t1", 2)
    views.table("d1", "t1")
    assert dealer.asked == 2


def test_with_a_stream_down_every_pass_asks_as_without_a_follower() -> None:
    views, dealer, follower = _views()
    follower.connected = set()
    for _ in range(5):
        views.table("d1", "t1")
    assert dealer.asked == 5
    plain: Any = HeldViews(Dealer())
    for _ in range(5):
        plain.table("d1", "t1")
    assert plain._dealer.asked == 5
