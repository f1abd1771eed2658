"""Every unary call the SDK makes, as a value: the RPC, its request and how to read its answer.

The sync (`clients.sdk`) and asyncio (`clients.aio`) clients run the same `Call`s, so a
request is built and an answer converted in one place.

>>> c = deposit("ann", 500, "req-1")
>>> c.method, c.request.amount, c.retry
('Deposit', 500, True)
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from clients.accounts import (
    ButtonDraw,
    LeaveResult,
    LedgerAudit,
    LobbyTable,
    Player,
    RakeLine,
    RebuyResult,
    Seating,
    TableRules,
    Transfer,
)
from clients.convert import from_proto
from clients.models import Action, ActionKind, Level, TableConfig, TableView
from poker.v1 import dealer_pb2, lobby_pb2

T = TypeVar("T")


def new_request_id() -> str:
    """A fresh request id: one per logical request, kept across its retries."""
    return uuid.uuid4().hex


@dataclass(frozen=True, slots=True)
class Call(Generic[T]):
    """One unary RPC: `method` on the stub, `request`, `read(reply) -> T`; `retry` when safe."""

    method: str
    request: Any
    read: Callable[[Any], T]
    retry: bool = True


# ------------------------------------------------------------------------------ lobby


def create_player(player_id: str, display_name: str) -> Call[tuple[Player, str]]:
    # Not retried: a second CreatePlayer after a lost answer fails with ALREADY_EXISTS.
    return Call("CreatePlayer", lobby_pb2.CreatePlayerRequest(
        player_id=player_id, display_name=display_name),
        lambda r: (from_proto(Player, r.player), str(r.token)), retry=False)


def issue_token(player_id: str) -> Call[str]:
    return Call("IssuePlayerToken", lobby_pb2.IssuePlayerTokenRequest(player_id=player_id),
                lambda r: str(r.token))


def get_player(player_id: str) -> Call[Player]:
    return Call("GetPlayer", lobby_pb2.GetPlayerRequest(player_id=player_id),
                lambda r: from_proto(Player, r.player))


def deposit(player_id: str, amount: int, request_id: str | None) -> Call[Player]:
    return Call("Deposit", lobby_pb2.DepositRequest(
        player_id=player_id, amount=amount, request_id=request_id or new_request_id()),
        lambda r: from_proto(Player, r.player))


def withdraw(player_id: str, amount: int, request_id: str | None) -> Call[Player]:
    return Call("Withdraw", lobby_pb2.WithdrawRequest(
        player_id=player_id, amount=amount, request_id=request_id or new_request_id()),
        lambda r: from_proto(Player, r.player))


def transfers(player_id: str, limit: int) -> Call[list[Transfer]]:
    return Call("ListTransfers", lobby_pb2.ListTransfersRequest(player_id=player_id,
                                                                limit=limit),
                lambda r: [from_proto(Transfer, t) for t in r.transfers])


def open_table(config: TableConfig, rules: TableRules, name: str, table_id: str,
               request_id: str | None) -> Call[LobbyTable]:
    return Call("OpenTable", lobby_pb2.OpenTableRequest(
        table_id=table_id, name=name, config=config.to_proto(),
        rules=rules.to_proto(),
        request_id=request_id or new_request_id()), lambda r: from_proto(LobbyTable, r.table))


def list_tables(include_closed: bool, page_token: str = "",
                tournament_id: str = "") -> Call[tuple[list[LobbyTable], str]]:
    """One page of tables (AIP-158), and the token of the next ("" after the last);
    `tournament_id`: that tournament's tables only."""
    return Call("ListTables", lobby_pb2.ListTablesRequest(include_closed=include_closed,
                                                          page_token=page_token,
                                                          tournament_id=tournament_id),
                lambda r: ([from_proto(LobbyTable, t) for t in r.tables], r.next_page_token))


def get_lobby_table(table_id: str) -> Call[LobbyTable]:
    return Call("GetLobbyTable", lobby_pb2.GetLobbyTableRequest(table_id=table_id),
                lambda r: from_proto(LobbyTable, r.table))


def close_table(table_id: str, void_hand_in_progress: bool,
                request_id: str | None) -> Call[tuple[LobbyTable, int]]:
    return Call("CloseLobbyTable", lobby_pb2.CloseLobbyTableRequest(
        table_id=table_id, void_hand_in_progress=void_hand_in_progress,
        request_id=request_id or new_request_id()),
        lambda r: (from_proto(LobbyTable, r.table), int(r.chips_returned)))


def set_table_level(table_id: str, level_index: int,
                    request_id: str | None) -> Call[Level]:
    # Retried under one request id: the dealer answers a repeat without setting the level
    # again (which would restart the schedule's count, R9).
    return Call("SetTableLevel", lobby_pb2.SetTableLevelRequest(
        table_id=table_id, level_index=level_index, request_id=request_id or new_request_id()),
        lambda r: from_proto(Level, r.level))


def join(table_id: str, buy_in: int, seat: int | None, player_id: str,
         wait_for_big_blind: bool, request_id: str | None,
         resume: bool = False) -> Call[Seating]:
    request = lobby_pb2.JoinTableRequest(
        table_id=table_id, player_id=player_id, buy_in=buy_in,
        wait_for_big_blind=wait_for_big_blind, request_id=request_id or new_request_id(),
        resume=resume)
    if seat is not None:
        request.seat = seat
    return Call("JoinTable", request, lambda r: from_proto(Seating, r))


def rebuy(table_id: str, amount: int, player_id: str,
          request_id: str | None) -> Call[RebuyResult]:
    return Call("Rebuy", lobby_pb2.RebuyRequest(
        table_id=table_id, player_id=player_id, amount=amount,
        request_id=request_id or new_request_id()), lambda r: from_proto(RebuyResult, r))


def leave(table_id: str, player_id: str, request_id: str) -> Call[LeaveResult]:
    return Call("LeaveTable", lobby_pb2.LeaveTableRequest(
        table_id=table_id, player_id=player_id, request_id=request_id),
        lambda r: from_proto(LeaveResult, r))


def button_draw(table_id: str) -> Call[ButtonDraw | None]:
    return Call("GetButtonDraw", lobby_pb2.GetButtonDrawRequest(table_id=table_id),
                lambda r: from_proto(ButtonDraw, r.draw) if r.HasField("draw") else None)


def audit() -> Call[LedgerAudit]:
    return Call("AuditLedger", lobby_pb2.AuditLedgerRequest(),
                lambda r: from_proto(LedgerAudit, r))


def rake_report(page_size: int, page_token: str) -> Call[tuple[list[RakeLine], str]]:
    return Call("RakeReport", lobby_pb2.RakeReportRequest(page_size=page_size,
                                                          page_token=page_token),
                lambda r: ([from_proto(RakeLine, x) for x in r.lines], r.next_page_token))


# ----------------------------------------------------------------------------- dealer


def get_table(table_id: str) -> Call[TableView]:
    return Call("GetTable", dealer_pb2.GetTableRequest(table_id=table_id),
                lambda r: from_proto(TableView, r.table))


def act(table_id: str, seat: int, hand_id: str, action_number: int,
        action: Action) -> Call[int]:
    # Safe to retry: the dealer applies an exact retry of (hand, action number) once.
    return Call("Act", dealer_pb2.ActRequest(
        table_id=table_id, seat=seat, hand_id=hand_id, action_number=action_number,
        kind=action_kind(action), amount=action.amount), lambda r: int(r.sequence))


def sit_out(table_id: str, seat: int, after_hand: int | None = None) -> Call[int | None]:
    """SitOut; with `after_hand`, the answer is the last hand the seat is dealt (None from
    a dealer that does not know `after_hand`: it sat the seat out from the next hand)."""
    request = dealer_pb2.SitOutRequest(table_id=table_id, seat=seat)
    if after_hand is not None:
        request.after_hand = after_hand
    return Call("SitOut", request,
                lambda r: int(r.after_hand) if r.HasField("after_hand") else None)


def sit_in(table_id: str, seat: int, wait_for_big_blind: bool = False) -> Call[None]:
    return Call("SitIn", dealer_pb2.SitInRequest(
        table_id=table_id, seat=seat, wait_for_big_blind=wait_for_big_blind), lambda r: None)


def set_straddle(table_id: str, seat: int, straddle: bool) -> Call[None]:
    return Call("SetStraddle", dealer_pb2.SetStraddleRequest(table_id=table_id, seat=seat,
                                                             straddle=straddle), lambda r: None)


def commit_seeds(table_id: str, seat: int, chain_head: bytes) -> Call[int]:
    # Not retried: a second CommitSeeds after a lost answer is ALREADY_EXISTS (same chain).
    return Call("CommitSeeds", dealer_pb2.CommitSeedsRequest(
        table_id=table_id, seat=seat, chain_head=chain_head), lambda r: int(r.sequence),
        retry=False)


def reveal_seed(table_id: str, seat: int, hand_id: str, seed: bytes) -> Call[None]:
    # Safe to retry: the same seed again for the same hand is accepted once.
    return Call("RevealSeed", dealer_pb2.RevealSeedRequest(
        table_id=table_id, seat=seat, hand_id=hand_id, seed=seed), lambda r: None)


def hand_history(table_id: str, hand_id: str) -> Call[str]:
    return Call("GetHandHistory", dealer_pb2.GetHandHistoryRequest(
        table_id=table_id, hand_id=hand_id), lambda r: str(r.phh))


def action_kind(action: Action) -> dealer_pb2.ActionKind:
    """The proto ActionKind of an action."""
    return _ACTION_KINDS[action.kind]


_ACTION_KINDS: dict[ActionKind, dealer_pb2.ActionKind] = {
    kind: dealer_pb2.ActionKind.Value("ACTION_KIND_" + kind.name) for kind in ActionKind}


def watch(table_id: str, after: int) -> dealer_pb2.WatchTableRequest:
    return dealer_pb2.WatchTableRequest(table_id=table_id, after_sequence=after)


def play_start(table_id: str, after: int) -> dealer_pb2.PlayRequest:
    return dealer_pb2.PlayRequest(start=dealer_pb2.PlayStart(table_id=table_id,
                                                             after_sequence=after))


def play_action(hand_id: str, action_number: int, action: Action) -> dealer_pb2.PlayRequest:
    return dealer_pb2.PlayRequest(action=_action(hand_id, action_number, action))


def seat_action(table_id: str, seat: int, hand_id: str, action_number: int,
                action: Action) -> dealer_pb2.PlaySeatAction:
    """One decision of a PlayMany request."""
    return dealer_pb2.PlaySeatAction(table_id=table_id, seat=seat,
                                     action=_action(hand_id, action_number, action))


def _action(hand_id: str, action_number: int, action: Action) -> dealer_pb2.PlayAction:
    return dealer_pb2.PlayAction(hand_id=hand_id, action_number=action_number,
                                 kind=_ACTION_KINDS[action.kind], amount=action.amount)
