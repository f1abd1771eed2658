"""Sitting down and rebuying: money leaves the balance, then the dealer seats the player or adds
the chips, and the lobby finishes the booking or refunds (R10, R30, and the R4 draw).

The buy-in: one transaction books the seat, records the operation (`debited`) and
moves the chips to the table's account; the dealer seats the player (`seated`); the
first time a table has two players the button is drawn and given to the dealer;
then `done`. A refusal from the dealer refunds at once.

Every SeatPlayer of a buy-in carries the operation's id as its request_id, with the
same fields, and the dealer gives every copy of a request the answer the first copy
to arrive got, acting once (services/dealer/dealer.py). So an answer that was lost
(the dealer died, the network failed, the lobby died) is asked for by sending the
same request again, at once on a retried JoinTable or by the recovery pass, also
after a lobby restart:

- the seat (and token): the buy-in is completed;
- a refusal the dealer remembers as its answer (NOT_FOUND table, seat taken, ...): refunded;
- no answer (UNAVAILABLE, DEADLINE_EXCEEDED, ...) or a refusal of the call itself (the
  lobby's credential): still `debited`, sent again later; never refunded on a guess.

This is safe however the copies race. If the first copy reached the dealer, the
repeat gets its answer. If the first copy is still on its way (a network delaying
it past the recovery), the repeat is the one carried out or refused, and the first,
arriving late, gets that same answer and changes nothing: a refunded buy-in can no
longer seat the player afterwards. The seat token is not stored either: a retried
JoinTable gets it by asking the dealer again.

A rebuy is sent again with its idempotency key on the same terms (AddChips).
A buy-in sent by an older lobby without a request_id (`dealer_request_id` empty) is
resolved from the dealer's events, as that lobby did. Upgrade the dealers before the
lobbies: a dealer older than request_id ignores the field and would take a repeat
for a new request.
"""

from __future__ import annotations

from dataclasses import replace

from poker.journal import Key, Pending, journaled
from poker.limits import MAX_CHIPS
from services.lobby import checks, ledger, players, tables
from services.lobby import operations as ops
from services.lobby.dealers import DealerRefused, DealerUnreachable
from services.lobby.errors import AlreadyExists, FailedPrecondition
from services.lobby.journal import RULES, request_key
from services.lobby.ledger import TransferKind
from services.lobby.operations import Operation, OpKind, OpState
from services.lobby.steps import (
    ANSWERS,
    Ctx,
    ask_seat,
    drive_leased,
    error_name,
    error_of,
    find_stack,
    log,
    not_an_answer,
    refusal,
    seat_token,
    unreachable,
)
from services.lobby.storage import Tx
from services.lobby.tables import SeatState


@journaled("JoinTable", RULES,
           key=lambda a: request_key("JoinTable", a, "a retried buy-in move money once"),
           caller=lambda a: ops.scope(a["by"], a["player_id"]),
           fields=lambda a: {n: a[n] for n in ("table_id", "seat", "player_id", "buy_in",
                                               "wait_for_big_blind")},
           legacy=lambda a: (Key("JoinTable", a["player_id"], a["request_id"]),
                             {"table_id": a["table_id"], "amount": a["buy_in"]}),
           decode=lambda ctx, done, a: _joined(ctx, ctx.op(done["op"])),
           journal=lambda ctx: ctx.journal)
def join(ctx: Ctx, player_id: str, table_id: str, seat: int | None, buy_in: int,
         wait_for_big_blind: bool, request_id: str, by: str | None = None,
         resume: bool = False, *, entry: Pending | None = None) -> Operation:
    """Buys in and seats the player; returns the finished operation with the seat token
    (in memory: from the dealer's answer, or asked of the dealer again for a retry).

    `by`: whose request id it is (operations.scope): the operator's, or None for the
    player's own. The operation is the request's journaled answer (services/lobby/journal.py).
    `resume`: a player seated at the table already gets the buy-in that seated them (its
    token asked of the dealer again), nothing bought and nothing journaled; without it,
    ALREADY_EXISTS (ALREADY_SEATED)."""
    assert entry is not None
    checks.lookup_id("table_id", table_id)
    checks.lookup_id("player_id", player_id)
    checks.chips("buy_in", buy_in)
    caller = ops.scope(by, player_id)
    key = f"join:{caller}:{request_id}"

    def begin(tx: Tx) -> Operation:
        entry.claim(tx)
        table = tables.get(tx, table_id)
        tables.require_open(table)
        players.get(tx, player_id)
        mine = table.seat_of(player_id)
        if mine is not None:
            seated = ops.last_join(tx, table_id, player_id) if resume else None
            if seated is not None and seated.seat == mine.seat:
                raise _Resumed(seated)
            raise AlreadyExists(f"you already sit at seat {mine.seat} of table {table_id}",
                                reason="ALREADY_SEATED", metadata={"seat": mine.seat})
        amount = table.rules.buy_in(buy_in)
        chosen = tables.choose_seat(table, seat)
        tables.book_seat(tx, table_id, chosen, player_id, amount)
        op = ops.create(tx, key, OpKind.JOIN, table_id, OpState.DEBITED, player_id=player_id,
                        seat=chosen, amount=amount, lease_seconds=ctx.lease_seconds,
                        wait_for_big_blind=table.rules.wait_for_big_blind(wait_for_big_blind),
                        fingerprint=entry.fingerprint)
        ledger.transfer(tx, key=f"{op.id}:debit", kind=TransferKind.BUY_IN,
                        source=ledger.player_account(player_id),
                        destination=ledger.table_account(table_id), amount=amount)
        entry.record({"op": op.id}, tx, ops.describe(op))
        return op

    try:
        op = ctx.tx(begin)
    except _Resumed as resumed:
        log.info("seat_resumed", table_id=table_id, player_id=player_id,
                 seat=resumed.op.seat, op_id=resumed.op.id)
        return replace(_joined(ctx, resumed.op), resumed=True)
    log.info("buy_in_debited", table_id=table_id, player_id=player_id, seat=op.seat,
             amount=op.amount, op_id=op.id)
    ctx.fault("after_debit")
    return _joined(ctx, op, owned=True)


class _Resumed(Exception):  # noqa: N818 - not an error: the seat the player has
    """Leaves the buy-in's transaction with the buy-in that seated the player already."""

    def __init__(self, op: Operation) -> None:
        super().__init__(op.id)
        self.op = op


def _joined(ctx: Ctx, op: Operation, owned: bool = False) -> Operation:
    """A join's answer: the finished operation with the seat token."""
    op = finish(ctx, op, owned)
    return op if op.seat_token else replace(op, seat_token=seat_token(ctx, op))


def finish(ctx: Ctx, op: Operation, owned: bool = False) -> Operation:
    """Drives a join or rebuy to its end; raises the error it ended with, if any."""
    if not op.final:
        step = drive_join if op.kind is OpKind.JOIN else drive_rebuy
        op = drive_leased(ctx, op, lambda o: step(ctx, o), owned)
    if op.state is OpState.REFUNDED:
        raise error_of(op)
    return op


def drive_join(ctx: Ctx, op: Operation) -> Operation:
    """One pass over a join: send its SeatPlayer (again), and finish or refund on the answer."""
    table = ctx.table(op.table_id)
    held = (f"your buy-in of {op.amount} is held and will be completed or refunded "
            "automatically; send the same request (same request_id) again to see how it ended")
    if op.state is OpState.DEBITED:
        legacy = op.attempts > 0 and not op.dealer_request_id
        try:
            op = _resolve_legacy_join(ctx, op, table) if legacy else _seat(ctx, op, table)
        except DealerRefused as err:
            if op.attempts > 0 and err.status not in ANSWERS:  # a repeat
                raise not_an_answer(table, err, held) from None
            return _refund(ctx, op, op.amount, refusal(err, "the buy-in"))
        except DealerUnreachable:
            raise unreachable(table, held) from None
    if op.state is OpState.SEATED:
        give_button(ctx, op.table_id)
        token = op.seat_token
        op = ctx.tx(lambda tx: ops.update(tx, op.id, state=OpState.DONE))
        op = replace(op, seat_token=token)
        log.info("player_joined", table_id=op.table_id, player_id=op.player_id, seat=op.seat,
                 amount=op.amount, op_id=op.id)
    return op


def _seat(ctx: Ctx, op: Operation, table: tables.Table) -> Operation:
    """Sends the buy-in's SeatPlayer, the first time or again (module docstring)."""
    give_button(ctx, table.table_id, joining=(op.seat, op.player_id), strict=True)
    # Recorded before the call: from now on a copy may be on its way to the dealer.
    op = ctx.tx(lambda tx: ops.update(tx, op.id, attempts=op.attempts + 1,
                                      dealer_request_id=op.id))
    ctx.fault("before_seat")
    token = ask_seat(ctx, op, table)
    ctx.fault("after_seat")
    return _seated(ctx, op, token)


def _seated(ctx: Ctx, op: Operation, token: str) -> Operation:
    def run(tx: Tx) -> Operation:
        tables.update_seat(tx, op.table_id, op.seat, state=SeatState.SEATED)
        return ops.update(tx, op.id, state=OpState.SEATED)

    return replace(ctx.tx(run), seat_token=token)


def _resolve_legacy_join(ctx: Ctx, op: Operation, table: tables.Table) -> Operation:
    # A SeatPlayer an older lobby sent without a request_id went unanswered: the dealer's
    # record says whether it took effect. A refusal now (the player is in a hand, ...) is no
    # answer to that: try again later.
    try:
        return _resolve_join_once(ctx, op, table)
    except DealerRefused as err:
        log.warning("join_unresolved", table_id=op.table_id, op_id=op.id, reason=err.message)
        raise DealerUnreachable(err.message) from None


def _resolve_join_once(ctx: Ctx, op: Operation, table: tables.Table) -> Operation:
    view = ctx.dealer.table(table.dealer, table.table_id)
    events = ctx.dealer.events(table.dealer, table.table_id, op.dealer_sequence, view.sequence)
    if find_stack(events, "seated", op.seat, op.player_id) is None:
        return _refund(ctx, op, op.amount, None)
    left = find_stack(events, "unseated", op.seat, op.player_id) or find_stack(
        events, "closed", op.seat, op.player_id)
    if left is None:
        # Seated, but the seat token never reached the lobby: take the player off again.
        left = ctx.dealer.unseat_player(table.dealer, table.table_id, op.seat)
    return _refund(ctx, op, left.stack, None)


def _refund(ctx: Ctx, op: Operation, amount: int, err: Exception | None) -> Operation:
    status = error_name(err)
    message = str(err) if err else (
        f"the dealer of table {op.table_id} could not seat you; your chips were refunded")

    def run(tx: Tx) -> Operation:
        if amount > 0:
            ledger.transfer(tx, key=f"{op.id}:refund", kind=TransferKind.REFUND,
                            source=ledger.table_account(op.table_id),
                            destination=ledger.player_account(op.player_id), amount=amount)
        if op.kind is OpKind.JOIN:
            tables.free_seat(tx, op.table_id, op.seat)
            if tables.undo_draw_with(tx, op.table_id, op.seat, op.player_id):
                log.info("button_draw_undone", table_id=op.table_id, seat=op.seat)
        else:
            tx.execute("UPDATE seats SET rebuys = rebuys - 1, bought_in = CASE WHEN"
                       " bought_in > ? THEN bought_in - ? ELSE 0 END"
                       " WHERE table_id = ? AND seat = ?",
                       (op.amount, op.amount, op.table_id, op.seat))
        return ops.update(tx, op.id, state=OpState.REFUNDED, result=amount,
                          error_status=status, error=message)

    done = ctx.tx(run)
    log.warning("refunded", table_id=op.table_id, player_id=op.player_id, kind=op.kind.value,
                amount=amount, op_id=op.id, reason=message)
    return done


def give_button(ctx: Ctx, table_id: str, joining: tuple[int, str] | None = None,
                strict: bool = False) -> None:
    """R4: draws for the button once two players sit, records it, and tells the dealer.

    `strict`: a dealer out of reach raises DealerUnreachable (the seating waits for it).
    """
    deck = ctx.draw_deck() if ctx.draw_deck else None
    draw = ctx.tx(lambda tx: tables.draw_if_due(tx, table_id, deck, joining))
    if draw is not None:
        log.info("button_drawn", table_id=table_id, button=draw.button, draw=draw.describe())
    tell_buttons(ctx, table_id, strict)


def tell_buttons(ctx: Ctx, table_id: str | None = None, strict: bool = False) -> None:
    """Gives every drawn button its dealer has not acknowledged yet."""
    for tid, address, seat in ctx.tx(tables.button_untold):
        if table_id is not None and tid != table_id:
            continue
        try:
            ctx.dealer.set_button(address, tid, seat)
            outcome = 1
        except DealerRefused as err:
            log.error("button_refused", table_id=tid, seat=seat, reason=err.message)
            outcome = 2
        except DealerUnreachable:
            if strict:
                raise
            continue
        ctx.tx(lambda tx, t=tid, o=outcome: tables.mark_button_told(tx, t, o))  # type: ignore[misc]


@journaled("Rebuy", RULES,
           key=lambda a: request_key("Rebuy", a, "a retried rebuy move money once"),
           caller=lambda a: ops.scope(a["by"], a["player_id"]),
           fields=lambda a: {n: a[n] for n in ("table_id", "player_id", "amount")},
           legacy=lambda a: (Key("Rebuy", a["player_id"], a["request_id"]),
                             {"table_id": a["table_id"], "amount": a["amount"]}),
           decode=lambda ctx, done, a: finish(ctx, ctx.op(done["op"])),
           journal=lambda ctx: ctx.journal)
def rebuy(ctx: Ctx, player_id: str, table_id: str, amount: int, request_id: str,
          by: str | None = None, *, entry: Pending | None = None) -> Operation:
    """R30: adds chips to an empty stack between hands, within the table's limits."""
    assert entry is not None
    checks.lookup_id("table_id", table_id)
    checks.lookup_id("player_id", player_id)
    checks.chips("amount", amount)
    caller = ops.scope(by, player_id)
    key = f"rebuy:{caller}:{request_id}"
    table = ctx.table(table_id)
    tables.require_open(table)
    seat = table.seat_of(player_id)
    if seat is None or seat.state is not SeatState.SEATED:
        raise FailedPrecondition(f"you are not seated at table {table_id}")
    try:
        view = ctx.dealer.table(table.dealer, table_id)
    except DealerUnreachable:
        raise unreachable(table, "rebuys wait until it answers; nothing was debited") from None
    here = view.seats.get(seat.seat)
    if here is not None and here.in_hand and view.hand_running:
        raise FailedPrecondition("a rebuy is allowed only between hands; you are in this hand")
    minutes = table.minutes_open()

    def begin(tx: Tx) -> Operation:
        entry.claim(tx)
        booked = tables.get(tx, table_id).seat_of(player_id)
        assert booked is not None
        table.rules.check_rebuy_allowed(booked.rebuys, view.hands_played, minutes,
                                        here.stack if here else 0)
        chips = table.rules.rebuy(amount)
        op = ops.create(tx, key, OpKind.REBUY, table_id, OpState.DEBITED, player_id=player_id,
                        seat=booked.seat, amount=chips, lease_seconds=ctx.lease_seconds,
                        fingerprint=entry.fingerprint)
        ledger.transfer(tx, key=f"{op.id}:debit", kind=TransferKind.REBUY,
                        source=ledger.player_account(player_id),
                        destination=ledger.table_account(table_id), amount=chips)
        # bought_in counts every chip brought, which chips won and lost can take past
        # MAX_CHIPS while the table holds fewer: it stops at MAX_CHIPS (lobby.proto).
        tx.execute("UPDATE seats SET rebuys = rebuys + 1, bought_in = CASE WHEN"
                   " bought_in > ? - ? THEN ? ELSE bought_in + ? END"
                   " WHERE table_id = ? AND seat = ?",
                   (MAX_CHIPS, chips, MAX_CHIPS, chips, table_id, booked.seat))
        entry.record({"op": op.id}, tx, ops.describe(op))
        return op

    op = ctx.tx(begin)
    ctx.fault("after_debit")
    return finish(ctx, op, owned=True)


def drive_rebuy(ctx: Ctx, op: Operation) -> Operation:
    """Adds the chips at the dealer, the first time or again with the same key: the dealer
    gives every copy the answer the first to arrive got (as for a buy-in's SeatPlayer)."""
    table = ctx.table(op.table_id)
    held = (f"your rebuy of {op.amount} is held and will be completed or refunded "
            "automatically; send the same request again to see how it ended")
    repeat = op.attempts > 0
    op = ctx.tx(lambda tx: ops.update(tx, op.id, attempts=op.attempts + 1))
    try:
        stack = ctx.dealer.add_chips(table.dealer, op.table_id, op.seat, op.amount, op.id)
    except DealerRefused as err:
        if repeat and err.status not in ANSWERS:
            raise not_an_answer(table, err, held) from None
        return _refund(ctx, op, op.amount, refusal(err, "the rebuy"))
    except DealerUnreachable:
        raise unreachable(table, held) from None
    done = ctx.tx(lambda tx: ops.update(tx, op.id, state=OpState.DONE, result=stack))
    log.info("rebuy_done", table_id=op.table_id, player_id=op.player_id, amount=op.amount,
             chips=stack, op_id=op.id)
    return done
