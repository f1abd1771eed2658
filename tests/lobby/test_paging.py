"""Pagination (AIP-158, issue 16) of the lobby's list calls, on SQLite and PostgreSQL:
paging through 1,000 tables and 1,000 transfers while more are added between pages gives
every item that was there once, in order, none twice and none skipped; tokens are opaque
and checked (one of another query, or altered, is INVALID_ARGUMENT naming page_token);
page_size is bounded (poker/limits.py)."""

from __future__ import annotations

import base64
from collections.abc import Iterator

import grpc
import pytest
from lobby_fakes import FakeDealer
from lobby_server import OPERATOR, Client, code_of, serving

from clients import LobbyClient
from poker.limits import MAX_PAGE_SIZE
from poker.v1 import lobby_pb2 as pb
from services.lobby.lobby import Lobby
from services.lobby.storage import Storage

INVALID = grpc.StatusCode.INVALID_ARGUMENT
D1 = "d1:1"
N = 1000


@pytest.fixture
def op(storage: Storage, dealer: FakeDealer) -> Iterator[Client]:
    room = Lobby(storage, dealer, [D1])
    try:
        with serving(room) as channel:
            yield Client(channel, OPERATOR)
    finally:
        room.stop()


def _open(room: Lobby, table_id: str) -> None:
    from services.lobby.rules import TableRules

    room.open_table(table_id, TableRules(initial_stack=100), {"seats": 2},
                    f"open-{table_id}", table_id)


def test_paging_1000_tables_with_tables_opened_between_pages(storage: Storage,
                                                             dealer: FakeDealer) -> None:
    room = Lobby(storage, dealer, [D1])
    # 1,000 tables on SQLite; the same keyset SQL on PostgreSQL with 200 (bounded time)
    count = N if storage.dialect == "sqlite" else 200
    try:
        for n in range(count):
            _open(room, f"t{n:04d}")
        with serving(room) as channel:
            op = Client(channel, OPERATOR)
            seen: list[str] = []
            token, pages, added = "", 0, 0
            while True:
                page = op.ListTables(pb.ListTablesRequest(page_size=37, page_token=token))
                assert len(page.tables) <= 37
                seen += [t.table_id for t in page.tables]
                pages += 1
                if pages % 5 == 0 and added < 20:  # opened while a client pages: at the end
                    _open(room, f"u{added:02d}")
                    added += 1
                token = page.next_page_token
                if not token:
                    break
            # the SDK's tables() reads every page (1000 a page: two pages here)
            address = channel._channel.target().decode().removeprefix("dns:///")
            sdk = LobbyClient(address, token=OPERATOR)
            assert [t.table_id for t in sdk.tables()] == seen
            sdk.close()
        assert len(seen) == len(set(seen)), "a table given twice"
        assert seen[:count] == [f"t{n:04d}" for n in range(count)], "skipped or out of order"
        assert seen[count:] == [f"u{n:02d}" for n in range(added)]  # the new ones, in order
    finally:
        room.stop()


def test_paging_1000_transfers_with_transfers_made_between_pages(op: Client) -> None:
    op.CreatePlayer(pb.CreatePlayerRequest(player_id="ann", display_name="Ann"))
    for n in range(N):
        op.Deposit(pb.DepositRequest(player_id="ann", amount=n + 1, request_id=f"d{n}"))
    seen: list[int] = []
    amounts: list[int] = []
    token, pages = "", 0
    while True:
        page = op.ListTransfers(pb.ListTransfersRequest(player_id="ann", page_size=41,
                                                        page_token=token))
        assert len(page.transfers) <= 41
        seen += [t.id for t in page.transfers]
        amounts += [t.amount for t in page.transfers]
        pages += 1
        if pages % 3 == 0:  # newer than the first page: never in a later one
            op.Deposit(pb.DepositRequest(player_id="ann", amount=5000 + pages,
                                         request_id=f"late{pages}"))
        token = page.next_page_token
        if not token:
            break
    assert len(seen) == len(set(seen)) == N, "a transfer given twice or skipped"
    assert amounts == list(range(N, 0, -1)), "newest first, every one that was there"
    # the older `limit` still answers one page, the newest
    assert len(op.ListTransfers(pb.ListTransfersRequest(player_id="ann", limit=5)).transfers) \
        == 5


def test_page_tokens_are_opaque_checked_and_for_their_query_only(op: Client) -> None:
    op.CreatePlayer(pb.CreatePlayerRequest(player_id="ann", display_name="Ann"))
    op.CreatePlayer(pb.CreatePlayerRequest(player_id="bob", display_name="Bob"))
    for n in range(3):
        op.Deposit(pb.DepositRequest(player_id="ann", amount=10, request_id=f"a{n}"))
    token = op.ListTransfers(pb.ListTransfersRequest(player_id="ann", page_size=1)
                             ).next_page_token
    assert token and "ann" not in token, "opaque"
    altered = base64.urlsafe_b64encode(
        base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).replace(b'"c":"', b'"c":"0')
    ).decode()
    for request in (pb.ListTransfersRequest(player_id="bob", page_token=token),  # bob's list
                    pb.ListTransfersRequest(player_id="ann", page_token=altered),
                    pb.ListTransfersRequest(player_id="ann", page_token="garbage!"),
                    pb.ListTransfersRequest(player_id="ann", page_size=MAX_PAGE_SIZE + 1),
                    pb.ListTablesRequest(page_token=token)):  # a token of another call
        call = op.ListTables if isinstance(request, pb.ListTablesRequest) else op.ListTransfers
        got, message = code_of(lambda c=call, r=request: c(r))
        assert got == INVALID, (request, got, message)
        assert "page_token" in message or "page_size" in message, message
    tables = op.ListTables(pb.ListTablesRequest(page_size=1, include_closed=True))
    assert not tables.next_page_token  # no table: no next page
