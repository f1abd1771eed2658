"""R36 and R37 through the SDK against the real suite: a table that allows straddles, whose
seats choose to straddle (TableClient.set_straddle), posts them left of the big blind; a raked
table's events and the SDK's tracked view agree with the dealer's; a table without straddles
refuses the choice with FAILED_PRECONDITION."""

from __future__ import annotations

import grpc
import pytest

from clients.bots import CallingStation
from clients.errors import ServiceError
from clients.events import BlindPosted, HandEnded, RakeTaken
from clients.models import BlindKind, Rake, TableView
from clients.sdk import LobbyClient, TableClient
from clients.stack import LocalSuite
from clients.tracker import TableTracker
from tests.sdk.conftest import DEPOSIT, open_table, play_all, seated

pytestmark = pytest.mark.slow


def test_R37_seats_that_chose_to_straddle_post_it_and_R36_rake_is_tracked(
        suite: LocalSuite, operator: LobbyClient) -> None:
    table = open_table(operator, 4, straddle=True, rake=Rake(500, cap=20))
    players = seated(suite, operator, table, 4, buy_in=1000)
    for p in players:
        assert p.table is not None
        p.table.set_straddle(True)
    play_all(players, [CallingStation() for _ in players], table.table_id, until_hand=6)
    spectator = TableClient(table.dealer_address, table.table_id)
    events = []
    for e in spectator.events(after=0):
        events.append(e)
        if isinstance(e, HandEnded) and e.hand_id.endswith("-6"):
            break
    tracker = TableTracker(TableView(table_id=table.table_id))
    hands: dict[str, list[object]] = {}
    for e in events:
        tracker.apply(e)
        if e.hand_id:
            hands.setdefault(e.hand_id, []).append(e)
    straddled = 0
    for hand in hands.values():
        posted = [e for e in hand if isinstance(e, BlindPosted)]
        if len(posted) < 2:
            continue
        straddles = [e for e in posted if e.blind is BlindKind.STRADDLE]
        assert [e.amount for e in straddles] in ([20], []), posted
        straddled += len(straddles)
    assert straddled >= 3  # hands where the seat left of the big blind had more than 20
    assert any(isinstance(e, RakeTaken) for e in events)
    assert tracker.hand is None or tracker.hand.hand_id.endswith("-7")
    spectator.close()
    operator.close_table(table.table_id, void_hand_in_progress=True)
    audit = operator.audit()
    balances = sum(operator.player(p.player_id).balance for p in players)
    raked = sum(e.amount for e in events if isinstance(e, RakeTaken))
    lines, _ = operator.rake_report()
    this_table = sum(x.amount for x in lines if x.table_id == table.table_id)
    assert audit.ok and audit.house_rake >= this_table >= raked > 0
    assert balances + this_table == DEPOSIT * 4  # balances + rake = deposits


def test_R37_a_table_without_straddles_refuses_the_choice(
        suite: LocalSuite, operator: LobbyClient) -> None:
    table = open_table(operator, 2)
    [player, _] = seated(suite, operator, table, 2, buy_in=1000)
    assert player.table is not None
    with pytest.raises(ServiceError) as refused:
        player.table.set_straddle(True)
    assert refused.value.code is grpc.StatusCode.FAILED_PRECONDITION
    operator.close_table(table.table_id, void_hand_in_progress=True)
