"""Leaving a table (R31) and closing one: the dealer gives the stacks back, the lobby credits them.

Both are recorded before the dealer is called, with the table's event number at
that moment; if the answer is lost (the dealer or the lobby died), the dealer's
`PlayerUnseated` or `TableClosed` event after that number tells the stack. A
player in a hand cannot leave until it ends: the leave stays pending, the player
is sat out so they are dealt no further hand (with their seat token, asked of the
dealer again by the buy-in's request_id), and the lobby retries between hands.
"""

from __future__ import annotations

from collections.abc import Collection

from poker.journal import Key, Pending, journaled
from services.lobby import checks, ledger, players, rake, tables
from services.lobby import operations as ops
from services.lobby.dealers import DealerRefused, DealerUnreachable, SeatStack
from services.lobby.errors import FailedPrecondition, LobbyError
from services.lobby.journal import RULES, request_key
from services.lobby.ledger import TransferKind
from services.lobby.operations import Operation, OpKind, OpState
from services.lobby.steps import (
    Ctx,
    drive_leased,
    error_name,
    error_of,
    find_stack,
    log,
    refusal,
    seat_token,
    unreachable,
)
from services.lobby.storage import Tx
from services.lobby.tables import SeatState, TableStatus


@journaled("LeaveTable", RULES,
           key=lambda a: request_key("LeaveTable", a, "a retried request move money once"),
           caller=lambda a: ops.scope(a["by"], a["player_id"]),
           fields=lambda a: {"table_id": a["table_id"], "player_id": a["player_id"]},
           legacy=lambda a: (Key("LeaveTable", a["player_id"], a["request_id"]),
                             {"table_id": a["table_id"]}),
           decode=lambda ctx, done, a: _left(ctx, ctx.op(done["op"]), False),
           journal=lambda ctx: ctx.journal)
def leave(ctx: Ctx, player_id: str, table_id: str, request_id: str,
          by: str | None = None, *, entry: Pending | None = None) -> Operation:
    """R31: takes the player off the table and credits the stack; pending during a hand.
    `by`: whose request id it is (operations.scope)."""
    assert entry is not None
    checks.lookup_id("table_id", table_id)
    checks.lookup_id("player_id", player_id)
    caller = ops.scope(by, player_id)
    key = f"leave:{caller}:{request_id}"

    def begin(tx: Tx) -> tuple[Operation, bool]:
        entry.claim(tx)
        seat = tables.get(tx, table_id).seat_of(player_id)
        if seat is None:
            raise FailedPrecondition(f"you are not seated at table {table_id}")
        if seat.state is SeatState.JOINING:
            raise FailedPrecondition("your buy-in is still being completed; leave after it is")
        if seat.state is SeatState.LEAVING:  # asked for already: that departure is the answer
            pending = next(o for o in ops.pending(tx, table_id)
                           if o.kind is OpKind.LEAVE and o.player_id == player_id)
            entry.record({"op": pending.id}, tx, ops.describe(pending))
            return pending, False
        tables.update_seat(tx, table_id, seat.seat, state=SeatState.LEAVING)
        op = ops.create(tx, key, OpKind.LEAVE, table_id, OpState.REQUESTED,
                        player_id=player_id, seat=seat.seat,
                        lease_seconds=ctx.lease_seconds, fingerprint=entry.fingerprint)
        entry.record({"op": op.id}, tx, ops.describe(op))
        return op, True

    return _left(ctx, *ctx.tx(begin))


def _left(ctx: Ctx, op: Operation, owned: bool) -> Operation:
    """A leave's answer: the operation, driven on if it is still pending."""
    if op.final:
        return op
    try:
        return drive_leased(ctx, op, lambda o: drive_leave(ctx, o), owned)
    except DealerUnreachable:
        return ctx.op(op.id)  # pending: the lobby finishes it when the dealer answers


def drive_leave(ctx: Ctx, op: Operation) -> Operation:
    """One attempt to unseat; a hand in progress or a silent dealer leaves it pending."""
    table = ctx.table(op.table_id)
    if op.attempts:
        chips = _already_left(ctx, op, table)
        if chips is not None:
            return _cash_out(ctx, op, chips)
    else:
        # A pending leave tried again keeps its first attempt's sequence: the dealer may
        # have let the seat go since (R34), and that event must stay in what is read back.
        sequence = op.dealer_sequence or _read_from(ctx, table)
        op = ctx.tx(lambda tx: ops.update(tx, op.id, attempts=1, dealer_sequence=sequence))
    try:
        left = ctx.dealer.unseat_player(table.dealer, table.table_id, op.seat)
    except DealerRefused as err:
        if err.status == "NOT_FOUND":  # the seat is empty: gone already (R34)?
            try:
                return _cash_out(ctx, op, _required(_already_left(ctx, op, table)))
            except DealerUnreachable:
                pass  # no record of it leaving: the dealer's refusal is the answer
        if err.status != "FAILED_PRECONDITION":
            raise refusal(err, "leaving the table") from None
        _sit_out(ctx, op, table)
        log.info("leave_pending", table_id=op.table_id, player_id=op.player_id,
                 reason=err.message)
        return ctx.tx(lambda tx: ops.update(tx, op.id, attempts=0))
    ctx.fault("after_unseat")
    return _cash_out(ctx, op, left.stack)


def _read_from(ctx: Ctx, table: tables.Table) -> int:
    """Where a leave's first attempt reads the table's events from, should the seat turn
    out empty: the table's last event, or the last the lobby has followed when that is
    earlier, since the dealer may have let the seat go (R34) before the lobby heard of it."""
    current = ctx.dealer.table(table.dealer, table.table_id).sequence
    heard = ctx.tx(lambda tx: tables.followed(tx, table.table_id))
    return min(current, heard) if heard else current


def _required(chips: int | None) -> int:
    if chips is None:  # the dealer still seats the player: no departure to credit
        raise DealerUnreachable("the seat is still the player's at the dealer")
    return chips


def _already_left(ctx: Ctx, op: Operation, table: tables.Table) -> int | None:
    # An earlier UnseatPlayer went unanswered: did the player leave, and with what?
    view = ctx.dealer.table(table.dealer, table.table_id)
    here = view.seats.get(op.seat)
    if here is not None and here.player_id == op.player_id and not view.closed:
        return None
    events = ctx.dealer.events(table.dealer, table.table_id, op.dealer_sequence, view.sequence)
    left = find_stack(events, "unseated", op.seat, op.player_id) or find_stack(
        events, "closed", op.seat, op.player_id)
    if left is None:
        raise DealerUnreachable(f"no record at the dealer of seat {op.seat} leaving")
    return left.stack


def _sit_out(ctx: Ctx, op: Operation, table: tables.Table) -> None:
    joined = ctx.tx(lambda tx: ops.last_join(tx, op.table_id, op.player_id))
    if joined is None or joined.seat != op.seat:
        return
    try:
        token = seat_token(ctx, joined)  # SitOut is the player's call: it needs their token
        ctx.dealer.sit_out(table.dealer, table.table_id, op.seat, token)
    except (LobbyError, DealerRefused, DealerUnreachable) as err:
        log.info("sit_out_failed", table_id=op.table_id, seat=op.seat, reason=str(err))


def _cash_out(ctx: Ctx, op: Operation, stack: int) -> Operation:
    def run(tx: Tx) -> Operation:
        _credit(tx, op.table_id, op.player_id, stack, f"{op.id}:cash_out")
        tables.free_seat(tx, op.table_id, op.seat)
        return ops.update(tx, op.id, state=OpState.DONE, result=stack)

    done = ctx.tx(run)
    log.info("player_left", table_id=op.table_id, player_id=op.player_id, seat=op.seat,
             chips=stack, op_id=op.id)
    return done


def _credit(tx: Tx, table_id: str, player_id: str, stack: int, key: str) -> None:
    if stack > 0:
        ledger.transfer(tx, key=key, kind=TransferKind.CASH_OUT,
                        source=ledger.table_account(table_id),
                        destination=ledger.player_account(player_id), amount=stack)


@journaled("CloseLobbyTable", RULES,
           key=lambda a: request_key("CloseLobbyTable", a, "a retried close act once",
                                     ops.OPERATOR_SCOPE),
           caller=lambda a: ops.OPERATOR_SCOPE,
           fields=lambda a: {"table_id": a["table_id"], "void_hand_in_progress": a["void_hand"]},
           legacy=lambda a: (Key("CloseLobbyTable", a["table_id"], a["request_id"]),
                             {"table_id": a["table_id"]}),
           decode=lambda ctx, done, a: _closed(ctx, ctx.op(done["op"]), False),
           journal=lambda ctx: ctx.journal)
def close(ctx: Ctx, table_id: str, void_hand: bool, request_id: str, *,
          entry: Pending | None = None) -> Operation:
    """Closes a table at its dealer and credits every stack to its owner's balance."""
    assert entry is not None
    checks.lookup_id("table_id", table_id)
    key = f"close:{ops.OPERATOR_SCOPE}:{request_id}"

    def begin(tx: Tx) -> Operation:
        entry.claim(tx)
        table = tables.get(tx, table_id)
        if table.status is not TableStatus.OPEN:
            raise FailedPrecondition(f"table {table_id} is {table.status.value}, not open")
        busy = [o for o in ops.pending(tx, table_id)
                if not (o.kind is OpKind.LEAVE and o.attempts == 0)]
        if busy:
            raise FailedPrecondition(
                f"table {table_id} has {len(busy)} buy-in(s), rebuy(s) or departure(s) still "
                "in progress with its dealer; try again in a moment")
        tables.set_status(tx, table_id, TableStatus.CLOSING)
        op = ops.create(tx, key, OpKind.CLOSE, table_id, OpState.REQUESTED,
                        void_hand=void_hand, lease_seconds=ctx.lease_seconds,
                        fingerprint=entry.fingerprint)
        entry.record({"op": op.id}, tx, ops.describe(op))
        return op

    return _closed(ctx, ctx.tx(begin), True)


def _closed(ctx: Ctx, op: Operation, owned: bool) -> Operation:
    """A close's answer: the operation, driven to its end."""
    if not op.final:
        op = drive_leased(ctx, op, lambda o: drive_close(ctx, o), owned)
    if op.state is OpState.FAILED:
        raise error_of(op)
    return op


def drive_close(ctx: Ctx, op: Operation) -> Operation:
    """Closes at the dealer (or finds that it did) and settles every stack."""
    table = ctx.table(op.table_id)
    try:
        if op.attempts:
            view = ctx.dealer.table(table.dealer, table.table_id)
            if view.closed:
                events = ctx.dealer.events(table.dealer, table.table_id, op.dealer_sequence,
                                           view.sequence)
                closed = [e for e in events if e.kind == "closed"]
                if closed:
                    return _settle(ctx, op, list(closed[-1].stacks))
        else:
            sequence = ctx.dealer.table(table.dealer, table.table_id).sequence
            op = ctx.tx(lambda tx: ops.update(tx, op.id, attempts=1, dealer_sequence=sequence))
        stacks = ctx.dealer.close_table(table.dealer, table.table_id, op.void_hand)
    except DealerRefused as err:
        return _close_refused(ctx, op, refusal(err, "closing the table"))
    except DealerUnreachable:
        raise unreachable(table, "the table is closing and its stacks are credited as soon as "
                          "the dealer answers") from None
    ctx.fault("after_close")
    return _settle(ctx, op, stacks)


def _close_refused(ctx: Ctx, op: Operation, err: Exception) -> Operation:
    def run(tx: Tx) -> Operation:
        tables.set_status(tx, op.table_id, TableStatus.OPEN)
        return ops.update(tx, op.id, state=OpState.FAILED,
                          error_status=error_name(err), error=str(err))

    return ctx.tx(run)


def _settle(ctx: Ctx, op: Operation, stacks: list[SeatStack]) -> Operation:
    takes_rake = rake.raked(ctx.table(op.table_id).game)

    def run(tx: Tx) -> Operation:
        held = ledger.balance(tx, ledger.table_account(op.table_id))
        returned = sum(s.stack for s in stacks)
        if returned > held:
            log.error("dealer_returned_too_much", table_id=op.table_id, held=held,
                      returned=returned)
            return ops.update(tx, op.id, state=OpState.FAILED, error_status="LobbyError",
                              error=f"the dealer returned {returned} chips but the table "
                              f"holds {held}; nothing was credited, the operator must check")
        for stack in stacks:
            _credit(tx, op.table_id, stack.player_id, stack.stack, f"{op.id}:seat{stack.seat}")
        for leaving in ops.pending(tx, op.table_id):
            if leaving.kind is OpKind.LEAVE:
                mine = sum(s.stack for s in stacks if s.player_id == leaving.player_id)
                ops.update(tx, leaving.id, state=OpState.DONE, result=mine)
        tx.execute("DELETE FROM seats WHERE table_id = ?", (op.table_id,))
        tables.set_status(tx, op.table_id, TableStatus.CLOSED)
        if takes_rake:  # R36: what the table still holds is the rake it took
            rake.settle(tx, op.table_id, op.id)
        left = ledger.balance(tx, ledger.table_account(op.table_id))
        if left:
            log.error("table_chips_unaccounted", table_id=op.table_id, chips=left)
        return ops.update(tx, op.id, state=OpState.DONE, result=returned)

    done = ctx.tx(run)
    log.info("table_closed", table_id=op.table_id, returned=done.result, op_id=op.id)
    return done


# ------------------------------------------------------------------ R30: busted players

#: Where a player's empty stack was first seen: (table, seat, player) -> when (seconds).
Busted = dict[tuple[str, int, str], float]


def send_busted_away(ctx: Ctx, busted: Busted, now: float,
                     only: Collection[str] | None = None) -> list[tuple[Operation, str]]:
    """R30: a player whose stack is empty may rebuy between hands; otherwise they leave.

    Asks the dealer of every open table with seated players how the seats stand. A seat
    at 0 chips and not in the running hand is noted in `busted` (the lobby's memory:
    after a restart the wait starts again, which only gives the player more time). The
    player leaves
    (a LEAVE operation, as if they had asked: the stack of 0 is cashed out and the seat
    freed) when they cannot rebuy (the table's limits, or a balance short of its
    smallest rebuy), or when they have not rebought within the table's
    `rebuy_wait_seconds`. A seat that has chips again is forgotten. Returns the
    operations it started, each with why. `only`: the tables to ask (the lobby that
    follows its dealers' events asks where a player busted: services.lobby.follower).
    """
    started: list[tuple[Operation, str]] = []
    seen: set[tuple[str, int, str]] = set()
    if only is None:
        listed = ctx.tx(tables.listing)
    else:  # the followed tables only: the pass costs nothing while nothing happens
        listed = ctx.tx(lambda tx: [tables.get(tx, t) for t in sorted(only)
                                    if tables.exists(tx, t)])
    for table in listed:
        seated = [s for s in table.seats if s.state is SeatState.SEATED]
        if table.status is not TableStatus.OPEN or not seated:
            continue
        pending = ctx.tx(lambda tx, t=table.table_id: ops.pending(tx, t))  # type: ignore[misc]
        rebuying = {o.player_id for o in pending if o.kind is OpKind.REBUY}
        try:
            view = ctx.dealer.table(table.dealer, table.table_id)
        except (DealerUnreachable, DealerRefused):
            continue  # asked again at the next pass
        for seat in seated:
            here = view.seats.get(seat.seat)
            # In the running hand with no chips is all in, not busted; a busted seat is not
            # dealt in (R29), so hands that follow each other do not hide it.
            if (here is None or here.player_id != seat.player_id or here.stack > 0
                    or here.in_hand or seat.player_id in rebuying):
                continue
            key = (table.table_id, seat.seat, seat.player_id)
            seen.add(key)
            since = busted.setdefault(key, now)
            why = _must_leave(ctx, table, seat, view.hands_played, now - since)
            if why is None:
                continue
            try:
                op = leave(ctx, seat.player_id, table.table_id, f"r30-{since:.6f}")
            except (LobbyError, DealerUnreachable, DealerRefused) as err:
                log.info("busted_leave_pending", table_id=table.table_id,
                         player_id=seat.player_id, reason=str(err))
                continue
            log.info("busted_player_left", table_id=table.table_id, player_id=seat.player_id,
                     seat=seat.seat, reason=why, op_id=op.id, state=op.state.value)
            started.append((op, why))
            del busted[key]  # settled: the LEAVE operation is kept and driven to its end
    for key in [k for k in busted if k not in seen]:
        del busted[key]
    return started


def _must_leave(ctx: Ctx, table: tables.Table, seat: tables.Seat, hands_played: int,
                waited: float) -> str | None:
    """Why a busted player leaves now, or None while they may still rebuy."""
    rules = table.rules
    try:
        rules.check_rebuy_allowed(seat.rebuys, hands_played, table.minutes_open(), 0)
    except LobbyError as err:
        return f"cannot rebuy: {err}"
    balance = ctx.tx(lambda tx: players.get(tx, seat.player_id)).balance
    if balance < rules.smallest_rebuy():
        return f"cannot rebuy: a balance of {balance} is short of {rules.smallest_rebuy()}"
    if rules.rebuy_wait_seconds and waited >= rules.rebuy_wait_seconds:
        return f"did not rebuy within {rules.rebuy_wait_seconds:g} s"
    return None
