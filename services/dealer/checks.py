"""Every DealerService request checked against poker.limits before the dealer acts on it.

The servicer runs `request(message)` first: a request that breaks a limit is
INVALID_ARGUMENT naming the field, and nothing is looked up, remembered or written
for it. What depends on the table comes after, in the table (a seat of this table,
a stack and the table's chips together at most MAX_CHIPS: FAILED_PRECONDITION),
and the table's rules in the engine (poker.vocab.config). A message
quotes at most a short, cut prefix of what was sent (poker.limits.quote); a token
is never quoted.

>>> request(pb.AddChipsRequest(table_id="t", seat=0, amount=2**64 - 1, idempotency_key="k"))
Traceback (most recent call last):
...
services.dealer.errors.InvalidArgument: amount: 18446744073709551615 is past the maximum ...
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from poker import timefields
from poker.limits import (
    MAX_CHIPS,
    MAX_ID_CHARS,
    MAX_REPEATED,
    MAX_TOKEN_CHARS,
    check_chips,
    check_count,
    check_text,
)
from poker.v1 import dealer_pb2 as pb
from services.dealer.errors import InvalidArgument

#: A table id: 1-64 letters, digits, '.', '_' or '-' (CreateTable), so no longer in any request.
MAX_TABLE_ID_CHARS = 64
#: A hand's decisions are numbered 1, 2, 3, ...: no hand has more.
MAX_ACTION_NUMBER = MAX_CHIPS
#: The most milliseconds any clock of a table runs (a decision, a show, the pause between hands).
MAX_CLOCK_MS = 86_400_000
#: The most seats one PlayMany stream holds open at once (a seat that leaves frees its place).
MAX_STREAM_SEATS = MAX_REPEATED


def _checked(check: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
    try:
        check(*args, **kwargs)
    except ValueError as err:
        raise InvalidArgument(str(err)) from None


def table_id(value: str, field: str = "table_id") -> None:
    _checked(check_text, field, value, MAX_TABLE_ID_CHARS)


def text_id(field: str, value: str) -> None:
    """A player, hand, request id or idempotency key: at most MAX_ID_CHARS characters."""
    _checked(check_text, field, value, MAX_ID_CHARS)


def chips(field: str, amount: int) -> None:
    _checked(check_chips, field, amount)


def count(field: str, values: Any, maximum: int = MAX_REPEATED) -> None:
    _checked(check_count, field, values, maximum)


def token(field: str, value: str) -> None:
    """A seat token sent in a request: its length only (a token is never quoted)."""
    if len(value) > MAX_TOKEN_CHARS:
        raise InvalidArgument(f"{field}: {len(value)} characters, at most {MAX_TOKEN_CHARS} "
                              "allowed (a seat token is 43)")


def decision(hand_id: str, action_number: int, amount: int, prefix: str = "") -> None:
    """The numbers of a decision (Act, a Play or PlayMany action)."""
    text_id(f"{prefix}hand_id", hand_id)
    if action_number > MAX_ACTION_NUMBER:
        raise InvalidArgument(f"{prefix}action_number: {action_number} is past the largest "
                              f"action number, {MAX_ACTION_NUMBER}: send the awaited decision's "
                              "TurnStarted.action_number")
    chips(f"{prefix}amount", amount)


def clock_ms(field: str, value: int) -> None:
    if value > MAX_CLOCK_MS:
        raise InvalidArgument(f"{field}: {value} ms is past the maximum of {MAX_CLOCK_MS} ms "
                              "(a day)")


# ------------------------------------------------------------------ per request

def _create_table(r: pb.CreateTableRequest) -> None:
    table_id(r.table_id)
    config = r.config
    count("config.levels", config.levels)
    for i, level in enumerate(config.levels):
        for name in ("small_blind", "big_blind", "ante"):
            chips(f"config.levels[{i}].{name}", getattr(level, name))
    for name in ("action_time_ms", "show_time_ms", "pause_between_hands_ms"):
        clock_ms(f"config.{name}", getattr(config, name))
    if not math.isfinite(config.minutes_per_level):
        raise InvalidArgument(f"config.minutes_per_level: {config.minutes_per_level} is not a "
                              "number of minutes")


def _seat_player(r: pb.SeatPlayerRequest) -> None:
    table_id(r.table_id)
    text_id("player_id", r.player_id)
    chips("stack", r.stack)
    text_id("request_id", r.request_id)


def _add_chips(r: pb.AddChipsRequest) -> None:
    table_id(r.table_id)
    chips("amount", r.amount)
    text_id("idempotency_key", r.idempotency_key)


def _set_level(r: pb.SetLevelRequest) -> None:
    table_id(r.table_id)
    text_id("request_id", r.request_id)


def _act(r: pb.ActRequest) -> None:
    table_id(r.table_id)
    decision(r.hand_id, r.action_number, r.amount)


def _hand_history(r: pb.GetHandHistoryRequest) -> None:
    table_id(r.table_id)
    text_id("hand_id", r.hand_id)


def _table_only(r: Any) -> None:
    table_id(r.table_id)


def _reveal_seed(r: pb.RevealSeedRequest) -> None:
    # The seed's 32 bytes are the table's check (Table.reveal_seed), as the chain head's.
    table_id(r.table_id)
    text_id("hand_id", r.hand_id)


def play_start(start: pb.PlayStart) -> None:
    table_id(start.table_id, "start.table_id")


def play_many(r: pb.PlayManyRequest) -> None:
    """A PlayMany request's lists and texts; its decisions' numbers are checked with each
    decision (services.dealer.tables.Table.act), so a bad one is refused in its result."""
    count("open", r.open)
    count("actions", r.actions)
    for i, seat in enumerate(r.open):
        table_id(seat.table_id, f"open[{i}].table_id")
        token(f"open[{i}].seat_token", seat.seat_token)
    for i, action in enumerate(r.actions):
        table_id(action.table_id, f"actions[{i}].table_id")


#: FollowTables cursors in one request: one per table of the room the lobby follows.
MAX_CURSORS = 100_000


def _follow_tables(request: Any) -> None:
    if len(request.after) > MAX_CURSORS:
        raise InvalidArgument(f"after: at most {MAX_CURSORS} cursors, not {len(request.after)}")
    for i, cursor in enumerate(request.after):
        table_id(cursor.table_id, f"after[{i}].table_id")


_CHECKS: dict[type, Callable[[Any], None]] = {
    pb.CreateTableRequest: _create_table,
    pb.SeatPlayerRequest: _seat_player,
    pb.AddChipsRequest: _add_chips,
    pb.UnseatPlayerRequest: _table_only,
    pb.SetButtonRequest: _table_only,
    pb.SetLevelRequest: _set_level,
    pb.SetDealLimitRequest: _table_only,
    pb.CloseTableRequest: _table_only,
    pb.GetTableRequest: _table_only,
    pb.ActRequest: _act,
    pb.SitOutRequest: _table_only,
    pb.SitInRequest: _table_only,
    pb.SetStraddleRequest: _table_only,
    pb.WatchTableRequest: _table_only,
    pb.GetHandHistoryRequest: _hand_history,
    pb.CommitSeedsRequest: _table_only,
    pb.RevealSeedRequest: _reveal_seed,
    pb.PlayStart: play_start,
    pb.PlayManyRequest: play_many,
    pb.FollowTablesRequest: _follow_tables,
}


def request(message: Any) -> None:
    """Checks a DealerService request (or a stream's PlayStart / PlayManyRequest);
    InvalidArgument naming the field when it breaks a limit. Its time fields are settled
    first (poker.timefields, AIP-142): a Duration or Timestamp sent is checked and copied
    to its integer twin, so every limit below holds for both forms."""
    timefields.settle(message)
    _CHECKS[type(message)](message)
