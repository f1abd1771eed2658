"""R34: the lobby follows each open table's events and credits the stack of a player the
dealer took off for sitting out past the table's limit, as for LeaveTable (R31).

The dealer decides and logs it (`PlayerUnseated` with reason "sit_out_limit"); the
lobby reads the table's events after the sequence it remembers (the `followed` table,
one row per table, schema.py) through `TableEvents`, one small interface
(`PolledEvents`: GetTable for the last sequence, then the events up to it). With the
dealers' FollowTables streams (services/lobby/follower.py), a pass reads only the tables
whose notes said a seat was freed (`FreedWatch`), so an idle room costs it nothing.

Nothing is lost if either process dies. For each such event, one transaction records
a LEAVE operation (the existing departure machinery, leaving.py) already past its
UnseatPlayer — `attempts` 1, `dealer_sequence` just before the event — and moves the
remembered sequence past the event. Driving that operation finds the event after
`dealer_sequence` (leaving._already_left) and cashes the stack out in one transaction
(ledger key `<op>:cash_out`, once); a lobby killed before that finishes it at its next
recovery pass, as every pending operation. A lobby killed before the first
transaction reads the event again (the sequence was not moved). A dealer that is down
is read again at the next pass; its log holds the event.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Protocol

from services.lobby import leaving, tables
from services.lobby import operations as ops
from services.lobby.dealers import Dealer, DealerEvent, DealerRefused, DealerUnreachable
from services.lobby.errors import LobbyError
from services.lobby.operations import Operation, OpKind, OpState
from services.lobby.steps import Ctx, drive_leased, log
from services.lobby.storage import Tx
from services.lobby.tables import SeatState, TableStatus, followed, set_followed

#: The reason of a PlayerUnseated the dealer made by itself (poker.vocab UnseatReason).
SIT_OUT_LIMIT = "sit_out_limit"

class TableEvents(Protocol):
    """Where the lobby reads a table's events from."""

    def after(self, table: tables.Table, sequence: int) -> tuple[list[DealerEvent], int]:
        """The seat events of `table` after `sequence`, and the sequence read up to."""
        ...


class PolledEvents:
    """`TableEvents` over the dealer's calls: GetTable for the last sequence, then the
    events up to it (WatchTable from `sequence`)."""

    def __init__(self, dealer: Dealer) -> None:
        self.dealer = dealer

    def after(self, table: tables.Table, sequence: int) -> tuple[list[DealerEvent], int]:
        last = self.dealer.table(table.dealer, table.table_id).sequence
        if last <= sequence:
            return [], sequence
        return self.dealer.events(table.dealer, table.table_id, sequence, last), last


def follow(ctx: Ctx, source: TableEvents, only: Mapping[str, int] | None = None,
           unread: dict[str, int] | None = None, skip: Collection[str] = ()) -> list[Operation]:
    """One pass over the open tables with seated players: every seat the dealer took off
    for its sit-out limit since the last pass leaves, its stack credited. Returns the
    departures it drove (done, or pending until the dealer answers).

    `only`: the tables where FollowTables said a seat was freed, each with its earliest
    such note's sequence (a pass limited to them, while the streams have been up since
    the last pass over every table: every seat freed since then was noted, so a table is
    read from that note, not from its mark); `skip`: tables left out, whose notes all
    came since they opened. The tables to read again (their dealer did not answer, or a
    seat taken off was still joining) go into `unread`, each from the sequence given
    (0: from its mark), for FreedWatch.again."""
    done: list[Operation] = []
    if only is None:
        listed = ctx.tx(tables.listing)
    else:
        listed = []
        for table_id in sorted(only):
            try:
                listed.append(ctx.tx(lambda tx, t=table_id: tables.get(tx, t)))  # type: ignore[misc]
            except LobbyError:  # not the lobby's table (another lobby's, or gone)
                continue
    for table in listed:
        if table.status is not TableStatus.OPEN or not table.seats or table.table_id in skip:
            continue
        since = ctx.tx(lambda tx, t=table.table_id: followed(tx, t))  # type: ignore[misc]
        noted = only.get(table.table_id, 0) if only is not None else 0
        try:
            events, upto = source.after(table, max(since, noted - 1))
        except (DealerUnreachable, DealerRefused) as err:
            log.info("follow_pending", table_id=table.table_id, reason=str(err))
            if unread is not None:
                unread[table.table_id] = noted
            continue
        for event in events:
            if event.kind != "unseated" or event.reason != SIT_OUT_LIMIT:
                continue
            op = _taken_off(ctx, table.table_id, event)
            if op is None:  # a buy-in still on its way: read it again next time
                upto = event.sequence - 1
                if unread is not None:
                    unread[table.table_id] = event.sequence
                break
            if not op.final:
                op = _drive(ctx, op)
            done.append(op)
        if upto > since:
            ctx.tx(lambda tx, t=table.table_id, u=upto: set_followed(tx, t, u))  # type: ignore[misc]
    return done


def _taken_off(ctx: Ctx, table_id: str, event: DealerEvent) -> Operation | None:
    """Records the departure of the seat of `event` (once) and follows past the event."""
    stack = event.stacks[0]

    def begin(tx: Tx) -> Operation | None:
        if followed(tx, table_id) >= event.sequence:  # another pass recorded it
            return _recorded(tx, table_id, stack.player_id)
        seat = tables.get(tx, table_id).seat_of(stack.player_id)
        if seat is not None and seat.state is SeatState.JOINING:
            return None
        op = None
        if seat is not None and seat.seat == stack.seat:
            op = _leave_of(tx, table_id, stack.player_id)
            if op is None:
                tables.update_seat(tx, table_id, seat.seat, state=SeatState.LEAVING)
                op = ops.create(tx, f"r34:{table_id}:{event.sequence}", OpKind.LEAVE, table_id,
                                OpState.REQUESTED, player_id=stack.player_id, seat=seat.seat,
                                lease_seconds=0.0)
            # Past UnseatPlayer: the event tells the stack (read from just before it,
            # also when a retried leave first tried after the event).
            if op.attempts == 0 or op.dealer_sequence >= event.sequence:
                op = ops.update(tx, op.id, attempts=1, dealer_sequence=event.sequence - 1)
        set_followed(tx, table_id, event.sequence)
        if op is None:  # the lobby had already let the seat go
            return _recorded(tx, table_id, stack.player_id)
        log.info("sit_out_limit", table_id=table_id, player_id=stack.player_id,
                 seat=stack.seat, chips=stack.stack, op_id=op.id)
        return op

    return ctx.tx(begin)


def _leave_of(tx: Tx, table_id: str, player_id: str) -> Operation | None:
    return next((o for o in ops.pending(tx, table_id)
                 if o.kind is OpKind.LEAVE and o.player_id == player_id), None)


def _recorded(tx: Tx, table_id: str, player_id: str) -> Operation:
    """A departure recorded before: the pending one, else a done stand-in."""
    pending = _leave_of(tx, table_id, player_id)
    if pending is not None:
        return pending
    return Operation("", "", OpKind.LEAVE, player_id, table_id, -1, 0, OpState.DONE)


def _drive(ctx: Ctx, op: Operation) -> Operation:
    ctx.fault("r34_before_credit")
    try:
        return drive_leased(ctx, op, lambda o: leaving.drive_leave(ctx, o), owned=False,
                            wait=0.0)
    except (LobbyError, DealerUnreachable, DealerRefused) as err:  # the recovery pass goes on
        log.info("sit_out_limit_pending", op_id=op.id, reason=str(err))
        return ctx.op(op.id)
