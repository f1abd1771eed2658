"""The table's rules: `decide(state, command, now_ms) -> events`, with no I/O.

`decide` reads the state and never changes it: a refusal raises the dealer's domain
error (services.dealer.errors, the engine's IllegalAction / NotYourTurn) and leaves
everything as it was; an accepted command returns the events that `apply` folds (a
player's decision runs on a fork of the engine's hand). An empty list: nothing
happens (a retry, a clock of a decision already answered).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from poker import deckproof
from poker.limits import MAX_CHIPS, quote
from poker.vocab import table_events as ev
from services.dealer import checks
from services.dealer.engine import (
    Action,
    ActionKind,
    BlindKind,
    BoardDealt,
    CardsShown,
    Decision,
    Hand,
    HandStarted,
    HoleCardsDealt,
    Level,
    PlayerIn,
    SecondBoardDealt,
)
from services.dealer.errors import (
    AlreadyExists,
    FailedPrecondition,
    InvalidArgument,
    TableNotFound,
)
from services.dealer.table import clocks, seatplan
from services.dealer.table import commands as c
from services.dealer.table.state import SeatState, SeedHeld, TableState, away, last_hand, plan

#: The engine's events that open cards (R3): each carries their salts.
_OPENING = frozenset({HoleCardsDealt, BoardDealt, CardsShown, SecondBoardDealt})


class Decided(list[Any]):
    """The events of a command that moved the hand, with `hand`: the engine's hand that
    made them (a fork of the running one, or a new hand), which holds them already. The
    shell folds with it (`apply(..., made_by=hand)`) instead of folding the hand's
    events a second time; the property test checks both folds agree."""

    __slots__ = ("hand",)

    def __init__(self, events: list[Any], hand: Hand) -> None:
        super().__init__(events)
        self.hand = hand


def decide(state: TableState, command: c.Command, now: int) -> list[Any]:
    """The events `command` makes at `state` at `now` (Unix ms); raises on a refusal."""
    return _DECIDE[type(command)](state, command, now)


# ------------------------------------------------------------- lobby's calls

def _seat_player(state: TableState, cmd: c.SeatPlayer, now: int) -> list[Any]:
    _check_open(state)
    stack, player_id = cmd.stack, cmd.player_id
    if stack <= 0:
        raise InvalidArgument("stack: must be more than 0 chips (R30)")
    checks.chips("stack", stack)
    if not player_id:
        raise InvalidArgument("player_id: required")
    checks.text_id("player_id", player_id)
    if any(s.player_id == player_id for s in state.seats.values()):
        raise AlreadyExists(f"player {quote(player_id)} is already seated at {state.table_id}",
                            reason="ALREADY_SEATED")
    seat = free_seat(state) if cmd.seat is None else cmd.seat
    if not 0 <= seat < state.config.seats:
        raise InvalidArgument(_no_such_seat(state, seat))
    if seat in state.seats:
        raise AlreadyExists(f"seat {seat} is taken by {quote(state.seats[seat].player_id)}",
                            reason="SEAT_TAKEN", metadata={"seat": seat})
    _check_table_chips(state, "seating", stack)
    return [ev.PlayerSeated(seat, player_id, stack, cmd.wait_for_big_blind)]


def _add_chips(state: TableState, cmd: c.AddChips, now: int) -> list[Any]:
    """AddChips past its key (the shell answers a reused key from `state.chip_keys`)."""
    seat, amount = cmd.seat, cmd.amount
    _check_open(state)
    if amount <= 0:
        raise InvalidArgument("amount: must be more than 0 chips")
    checks.chips("amount", amount)
    seated = seated_at(state, seat)
    _check_between_hands(state, seat, "add chips")
    if seated.stack + amount > MAX_CHIPS:
        raise FailedPrecondition(
            f"amount: {amount} chips would take seat {seat}'s stack of {seated.stack} past "
            f"the maximum of {MAX_CHIPS} chips; at most {MAX_CHIPS - seated.stack} can be "
            "added")
    _check_table_chips(state, "adding", amount)
    return [ev.ChipsAdded(seat, amount, seated.stack + amount, cmd.key)]


def _unseat(state: TableState, cmd: c.Unseat, now: int) -> list[Any]:
    _check_open(state)
    seated = seated_at(state, cmd.seat)
    _check_between_hands(state, cmd.seat, "leave")
    return [ev.PlayerUnseated(cmd.seat, seated.player_id, seated.stack)]


def _set_button(state: TableState, cmd: c.SetButton, now: int) -> list[Any]:
    _check_open(state)
    if state.hands_played:
        raise FailedPrecondition(
            f"the button is set for the first hand only; {state.hands_played} hands were "
            "played and it moves by itself (R5)")
    if not 0 <= cmd.seat < state.config.seats:
        raise InvalidArgument(_no_such_seat(state, cmd.seat))
    if state.button == cmd.seat:
        return []  # a repeat (the lobby's seating passes can tell the same draw twice)
    return [ev.ButtonSet(cmd.seat)]


def _set_level(state: TableState, cmd: c.SetLevel, now: int) -> list[Any]:
    _check_open(state)
    levels = state.config.levels
    if not 0 <= cmd.index < len(levels):
        raise InvalidArgument(
            f"level_index: {cmd.index} is not a level of this table (0..{len(levels) - 1})")
    return [ev.LevelSet(cmd.index)]


def _set_deal_limit(state: TableState, cmd: c.SetDealLimit, now: int) -> list[Any]:
    _check_open(state)
    return [ev.DealLimitSet(cmd.until_hand or 0, cmd.until_hand is not None)]


def _close(state: TableState, cmd: c.Close, now: int) -> list[Any]:
    _check_open(state)
    events: list[Any] = []
    chips = {s.seat: s.stack for s in state.seats.values()}
    hand = state.hand
    if hand is not None:
        if not cmd.void_hand:
            raise FailedPrecondition(
                f"hand {hand.hand_id} is in progress: wait for it to end, or close "
                "with void_hand_in_progress to return every chip committed to it")
        voided = void_event(hand, "table closed")
        chips.update(voided.stacks)
        events.append(voided)
    stacks = tuple((seat, state.seats[seat].player_id, chips[seat]) for seat in sorted(chips))
    return [*events, ev.TableClosed(stacks)]


def _take_off_sat_out(state: TableState, cmd: c.TakeOffSatOut, now: int) -> list[Any]:
    """R34: the seats sat out past the table's limit leave (none while the table is closed)."""
    return [] if state.closed else list(clocks.take_off(state, now))


def _void_hand(state: TableState, cmd: c.VoidHand, now: int) -> list[Any]:
    if state.hand is None:
        return []
    return [void_event(state.hand, cmd.reason), *scheduled_sit_outs(state, state.hand_number)]


# ---------------------------------------------------------- players' calls

#: The latest hand a SitOut may name in `after_hand` (2^53: any count a client can hold).
MAX_AFTER_HAND = 2**53


def _sit_out(state: TableState, cmd: c.SitOut, now: int) -> list[Any]:
    """From the next hand on; with `after_hand` a hand not begun yet, once that hand has
    ended (SitOutScheduled; `scheduled_sit_outs` writes the PlayerSatOut then)."""
    _check_open(state)
    after = cmd.after_hand
    if after is not None and not 1 <= after <= MAX_AFTER_HAND:
        raise InvalidArgument(f"after_hand: {after} is not a hand number (1..2^53)")
    seated = seated_at(state, cmd.seat)
    if seated.sitting_out:
        return []
    if after is not None and after > state.hands_played:  # a hand to come: it is dealt
        return [] if seated.sit_out_after == after else [ev.SitOutScheduled(cmd.seat, after)]
    return [ev.PlayerSatOut(cmd.seat, "requested")]


def _sit_in(state: TableState, cmd: c.SitIn, now: int) -> list[Any]:
    _check_open(state)
    seated = seated_at(state, cmd.seat)
    if not seated.sitting_out:  # a sit-out still to come is cancelled
        return [ev.SitOutScheduled(cmd.seat, 0)] if seated.sit_out_after else []
    return [ev.PlayerSatIn(cmd.seat, cmd.wait_for_big_blind)]


def scheduled_sit_outs(state: TableState, number: int) -> list[ev.PlayerSatOut]:
    """The PlayerSatOut of each seat that asked to sit out once hand `number` (or an
    earlier one) had ended: written with that hand's end."""
    return [ev.PlayerSatOut(s.seat, "requested") for s in state.seats.values()
            if 0 < s.sit_out_after <= number and not s.sitting_out]


def _set_straddle(state: TableState, cmd: c.SetStraddle, now: int) -> list[Any]:
    _check_open(state)
    if cmd.straddle and not state.config.straddle:
        raise FailedPrecondition("this table does not allow straddles (R37: TableConfig.straddle)")
    if seated_at(state, cmd.seat).straddle == cmd.straddle:
        return []
    return [ev.StraddleSet(cmd.seat, cmd.straddle)]


def _act(state: TableState, cmd: c.Act, now: int) -> list[Any]:
    """A decision that is not a retry (the shell answers those from its journal)."""
    hand_id, number = cmd.hand_id, cmd.action_number
    checks.decision(hand_id, number, cmd.amount)
    hand, turn = state.hand, state.turn
    if hand is None or hand.hand_id != hand_id:
        current = f"hand {hand.hand_id} is in progress" if hand else "no hand is in progress"
        raise FailedPrecondition(f"hand {quote(hand_id)} is not the current hand: {current}",
                                 reason="NOT_CURRENT_HAND")
    if turn is None or number != state.action_number:
        raise FailedPrecondition(
            f"action number {number} is not the awaited decision: "
            + (f"decision {state.action_number} awaits seat {turn.seat}"
               if turn else "no decision is awaited"), reason="STALE_ACTION_NUMBER",
            metadata={"action_number": state.action_number} if turn else {})
    action = engine_action(cmd.kind, cmd.amount)
    trial = hand.fork()
    events: list[Any] = trial.act(cmd.seat, action)  # IllegalAction / NotYourTurn: no change
    if turn.time_bank_ms and now > turn.deadline_ms:  # R35: into the bank: it is spent
        banked = state.banks.get(turn.seat, turn.time_bank_ms)
        events = [*clocks.used_on_answer(turn, banked, now), *events]
    return _after_decision(state, trial, list(events), now)


def _clock_rang(state: TableState, cmd: c.ClockRang, now: int) -> list[Any]:
    """R32: the player checks if they can, else folds (and sits out); R27: mucks."""
    hand, turn = state.hand, state.turn
    number = cmd.action_number
    if (hand is None or turn is None or hand.hand_id != cmd.hand_id
            or turn.action_number != number):
        return []
    trial = hand.fork()
    banked = state.banks.get(turn.seat, turn.time_bank_ms)
    events: list[Any] = [ev.TurnTimedOut(turn.seat, number),
                         *clocks.used_on_time_out(turn, banked), *trial.time_out(turn.seat)]
    seat = state.seats.get(turn.seat)
    if turn.decision == str(Decision.BET.value) and seat and not seat.sitting_out:
        events.append(ev.PlayerSatOut(turn.seat, "timed_out"))
    return _after_decision(state, trial, events, now)


def _resume(state: TableState, cmd: c.Resume, now: int) -> list[Any]:
    hand = state.hand
    if hand is None:
        return []
    if hand.is_over:
        return [reveal(state, hand)]
    if hand.actor is None:
        return []
    # A fresh clock for the decision awaited when the dealer stopped, same number; R35:
    # the bank left at the last mark, the own time left then, at least a grace.
    number = max(state.action_number - 1, 0) if state.turn else 0
    return [clocks.resumed(state, turn_event(state, hand, number + 1, now), now)]


def _mark_bank(state: TableState, cmd: c.MarkBank, now: int) -> list[Any]:
    """R35: what the awaited decision spent of its bank since the last mark."""
    hand, turn = state.hand, state.turn
    if (hand is None or turn is None or hand.hand_id != cmd.hand_id
            or turn.action_number != cmd.action_number or now <= turn.deadline_ms):
        return []
    return list(clocks.spent(turn, state.banks.get(turn.seat, turn.time_bank_ms), now))


# ------------------------------------------------------------- the hands

def needs_button_draw(state: TableState) -> bool:
    """R4: the first hand with no button set: the dealer draws one (StartHand.button_draw)."""
    return state.hands_played == 0 and state.button is None


def _start_hand(state: TableState, cmd: c.StartHand, now: int) -> list[Any]:
    if state.closed or state.hand is not None or state.seeding is not None:
        return []
    planned = plan(state)
    if planned is None:
        return []
    prelude: list[Any] = []
    if needs_button_draw(state):
        assert cmd.button_draw is not None, "StartHand needs R4's draw (needs_button_draw)"
        seat, cards = cmd.button_draw
        prelude.append(ev.ButtonSet(seat, tuple(sorted(cards.items()))))
        planned = plan(state, button=seat)
        assert planned is not None
    prelude += missed_blinds(state, planned)  # R33
    number = state.hands_played + 1
    hand_id = f"{state.table_id}-{number}"
    shuffled = cmd.shuffled
    proof = ev.HandSalt(salts=shuffled.salts, deck=shuffled.cards)
    if state.config.player_seeded_decks:  # R39: C first, the deal once the seeds are in
        deadline = now + state.config.seed_time_ms
        return [*prelude, proof,
                ev.DeckCommitted(number, shuffled.commitment, tuple(planned.seats), deadline)]
    # The prelude (button draw, salts) and the engine's first events are one write.
    return _deal(state, planned, hand_id, shuffled.commitment, shuffled.cards,
                 [*prelude, proof], proof, now)


def missed_blinds(state: TableState, planned: seatplan.Plan) -> list[ev.BlindMissed]:
    """R33: a BlindMissed for each blind the next hand takes past a seat sat out (once)."""
    seats = state.seats
    last = None if state.hands_played == 0 else last_hand(state)
    return [ev.BlindMissed(seat, blind)
            for seat, blind in seatplan.missed(planned, last, away(state))
            if not (seats[seat].missed_big_blind if blind is BlindKind.BIG
                    else seats[seat].missed_small_blind)]


def _deal(state: TableState, planned: seatplan.Plan, hand_id: str, commitment: str,
          dealt: tuple[int, ...], before: list[Any], proof: ev.HandSalt,
          now: int) -> list[Any]:
    seats = state.seats
    late, dead = planned.late_posters, planned.dead_posters
    players = [PlayerIn(s, seats[s].player_id, seats[s].stack, s in late, seats[s].straddle,
                        s in dead)
               for s in planned.seats]
    hand = Hand.start(state.config, players, planned.button, dealt,
                      level=next_level(state, now), hand_id=hand_id,
                      commitment=commitment, ranker=state.ranker,
                      blind_seats=planned.blind_seats)
    if proof is state.proof:
        salt_of = state.salt_of
    else:
        salt_of = dict(zip(proof.deck, proof.salts, strict=True)) if proof.salts else {}
    return _close_decision(state, hand, [*before, *hand.events], salt_of, proof, dealt, now,
                           state.hands_played + 1)


def _close_decision(state: TableState, hand: Hand, events: list[Any],
                    salt_of: dict[int, bytes], proof: ev.HandSalt, dealt: tuple[int, ...],
                    now: int, number: int) -> list[Any]:
    """Opens the cards (R3) and adds the turn or the end of the hand (hand `number`'s,
    with the sit-outs scheduled for it)."""
    if salt_of:
        events = _open(events, salt_of)
    if hand.is_over:
        events.append(_reveal(hand, proof, dealt))
        events += scheduled_sit_outs(state, number)
    elif hand.actor is not None:
        events.append(turn_event(state, hand, state.action_number + 1, now))
    return Decided(events, hand)


def _after_decision(state: TableState, hand: Hand, events: list[Any], now: int) -> list[Any]:
    return _close_decision(state, hand, events, state.salt_of, state.proof, state.deck, now,
                           state.hand_number)


def next_level(state: TableState, now: int) -> Level:
    """R9: the level of the next hand, counted from the last SetLevel (or the start)."""
    config = state.config
    index, hands_at, time_at = state.level_base
    rise = 0
    if config.hands_per_level:
        rise = (state.hands_played - hands_at) // config.hands_per_level
    if config.minutes_per_level and time_at:
        minutes = (now - time_at) / 60_000
        rise = max(rise, int(minutes // config.minutes_per_level))
    return config.levels[min(index + rise, len(config.levels) - 1)]


def _open(events: list[Any], salt_of: dict[int, bytes]) -> list[Any]:
    """R3: each event that opens cards carries their salts (views send a hole card's
    salts to its owner and the auditor only, as its cards)."""
    out = []
    for event in events:
        if type(event) in _OPENING and event.cards and not event.salts:
            event = dataclasses.replace(event, salts=tuple(salt_of[c] for c in event.cards))
        out.append(event)
    return out


def reveal(state: TableState, hand: Hand) -> ev.DeckRevealed:
    """R3's proof at the end of the running hand."""
    return _reveal(hand, state.proof, state.deck)


def _reveal(hand: Hand, proof: ev.HandSalt, dealt: tuple[int, ...]) -> ev.DeckRevealed:
    """R3's proof at the end of the hand: which positions each viewer saw opened."""
    if not proof.salts:  # a hand begun by a dealer before per-position salts
        return ev.DeckRevealed(proof.salt, dealt, _commitment(hand))
    where = {card: i for i, card in enumerate(proof.deck)}
    public: set[int] = set()
    opened = []
    for e in hand.events:
        if isinstance(e, HoleCardsDealt):
            opened.append((e.seat, where[e.cards[0]], where[e.cards[1]]))
        elif isinstance(e, BoardDealt | CardsShown | SecondBoardDealt):
            public.update(where[c] for c in e.cards)
    return ev.DeckRevealed(b"", proof.deck, _commitment(hand), proof.salts,
                           tuple(sorted(public)), tuple(opened))


def _commitment(hand: Hand) -> str:
    started = next(e for e in hand.events if isinstance(e, HandStarted))
    return str(started.commitment)


def turn_event(state: TableState, hand: Hand, number: int, now: int) -> ev.TurnStarted:
    """The awaited decision `number` and what the player may do, with its deadline."""
    legal = hand.legal_actions()
    config = state.config
    show = legal.decision == Decision.SHOW_OR_MUCK
    limit = config.show_time_ms if show else config.action_time_ms
    bet_kind = "" if legal.bet_kind is None else str(legal.bet_kind.value)
    decision = str(legal.decision.value)
    bank = config.time_bank_ms  # R35: the seat's bank, for a betting decision
    if bank:
        bank = state.banks.get(legal.seat, bank) if legal.decision is Decision.BET else 0
    return ev.TurnStarted(
        seat=legal.seat, decision=decision,
        action_number=number, deadline_ms=now + limit,
        time_bank_ms=bank, bank_deadline_unix_ms=now + limit + bank if bank else 0,
        can_fold=legal.can_fold, can_check=legal.can_check, can_call=legal.can_call,
        call_amount=legal.call_amount, bet_kind=bet_kind, min_to=legal.min_to,
        max_to=legal.max_to, can_show=legal.can_show, can_muck=legal.can_muck,
        can_all_in=legal.can_all_in, all_in_to=legal.all_in_to)


def void_event(hand: Hand, reason: str) -> ev.HandVoided:
    return ev.HandVoided(tuple((p.seat, p.stack) for p in hand.players), reason)


# ------------------------------------------------------- R39: player seeds

def _commit_seeds(state: TableState, cmd: c.CommitSeeds, now: int) -> list[Any]:
    seat = cmd.seat
    _check_open(state)
    _check_seeded_table(state)
    seated_at(state, seat)
    if len(cmd.chain_head) != deckproof.SEED_BYTES:
        raise InvalidArgument(f"chain_head: {len(cmd.chain_head)} bytes; give the "
                              f"{deckproof.SEED_BYTES} bytes of SHA-256^k(x) (R39)")
    if seat in state.chains:
        raise AlreadyExists(f"seat {seat} committed its chain of seeds already; a chain "
                            "is committed once per seating (R39)")
    return [ev.SeedsCommitted(seat, cmd.chain_head)]


def _reveal_seed(state: TableState, cmd: c.RevealSeed, now: int) -> list[Any]:
    """R39: SHA-256(seed) must be the seat's last chain value, or lead to it in one step
    more for each commitment since it that never dealt the seat's seed (`chain_gaps`:
    the seat burned what it sent for those, since the dealer saw it before committing
    again); the deal follows once every chained seat's seed is in (before that, a
    SeedHeld the shell folds unlogged)."""
    seat, hand_id, seed = cmd.seat, cmd.hand_id, cmd.seed
    _check_open(state)
    _check_seeded_table(state)
    seated_at(state, seat)
    if len(seed) != deckproof.SEED_BYTES:
        raise InvalidArgument(f"seed: {len(seed)} bytes; a seed is the "
                              f"{deckproof.SEED_BYTES}-byte preimage of the chain's last value")
    seeding = state.seeding
    if seeding is None or seeding.hand_id != hand_id:
        waiting = f"hand {seeding.hand_id} is" if seeding else "no hand is"
        raise FailedPrecondition(f"hand {quote(hand_id)} is not awaiting seeds: {waiting} "
                                 "(R39: reveal after DeckCommitted, before its deadline)")
    if seat not in seeding.plan.seats:
        raise FailedPrecondition(f"seat {seat} is not dealt in hand {hand_id}")
    chain = state.chains.get(seat)
    if chain is None or chain[1] > seeding.committed_at:
        raise FailedPrecondition(
            f"seat {seat} committed no chain of seeds before hand {hand_id}'s "
            "commitment (CommitSeeds; R39: seeds are fixed before the deck is)")
    done = seeding.seeds.get(seat)
    if done is not None:
        if done == seed:
            return []  # a retry
        raise FailedPrecondition(f"seat {seat} revealed its seed for {hand_id} already")
    most = min(state.chain_gaps.get(seat, 1), deckproof.SEED_SKIP)  # 1: none burned
    if deckproof.steps_to(seed, chain[0], most) is None:
        skip = (f"; {most - 1} sent for a commitment that never dealt may be skipped"
                if most > 1 else "")
        raise InvalidArgument(
            f"seed: SHA-256(seed) is not seat {seat}'s last chain value "
            f"{chain[0].hex()[:16]}...: reveal the next preimage of the chain{skip} (R39)",
            reason="SEED_NOT_ON_CHAIN")
    seeds = {**seeding.seeds, seat: seed}
    chains = state.chains
    chained = [s for s in seeding.plan.seats if s in chains and chains[s][1] < seeding.committed_at]
    if all(s in seeds for s in chained):
        return _deal_seeded_with(state, seeds, now)
    return [SeedHeld(seat, seed)]


def _deal_seeded(state: TableState, cmd: c.DealSeeded, now: int) -> list[Any]:
    if state.seeding is None or state.closed:
        return []
    return _deal_seeded_with(state, state.seeding.seeds, now)


def _deal_seeded_with(state: TableState, given: dict[int, bytes], now: int) -> list[Any]:
    """Seeds in seat order (empty where none came) draw p; position j deals the card
    committed at p[j] (R39)."""
    seeding = state.seeding
    assert seeding is not None
    seeds = tuple((seat, given.get(seat, b"")) for seat in sorted(seeding.plan.seats))
    p = deckproof.permutation([seed for _, seed in seeds])
    dealt = deckproof.dealt_order(seeding.shuffled.cards, p)
    return _deal(state, seeding.plan, seeding.hand_id, seeding.shuffled.commitment, dealt,
                 [ev.DeckSeeded(seeds, tuple(p))], state.proof, now)


def _check_seeded_table(state: TableState) -> None:
    if not state.config.player_seeded_decks:
        raise FailedPrecondition(f"table {state.table_id} does not use player-seeded "
                                 "decks (R39: TableConfig.player_seeded_decks)")


# ---------------------------------------------------------------- checks

def _check_open(state: TableState) -> None:
    if state.closed:
        raise FailedPrecondition(f"table {state.table_id} is closed")


def _check_table_chips(state: TableState, doing: str, amount: int) -> None:
    """A stack, and the chips of the table together (so every pot), are at most
    MAX_CHIPS: checked before anything is written."""
    total = sum(s.stack for s in state.seats.values())
    if total + amount > MAX_CHIPS:
        raise FailedPrecondition(
            f"{doing} {amount} chips would take the chips of table {state.table_id} "
            f"together ({total} now) past the maximum of {MAX_CHIPS} (every pot must fit); "
            f"at most {MAX_CHIPS - total} more can come to this table")


def check_seat(state: TableState, seat: int) -> None:
    """INVALID_ARGUMENT unless `seat` is a seat of the table."""
    if not 0 <= seat < state.config.seats:
        raise InvalidArgument(_no_such_seat(state, seat))


def seated_at(state: TableState, seat: int) -> SeatState:
    """The seat's player; INVALID_ARGUMENT for no such seat, NOT_FOUND for an empty one."""
    check_seat(state, seat)
    seated = state.seats.get(seat)
    if seated is None:
        raise TableNotFound(f"seat {seat} of table {state.table_id} is empty")
    return seated


def _check_between_hands(state: TableState, seat: int, what: str) -> None:
    hand = state.hand
    seeding = state.seeding
    if seeding is not None and seat in seeding.plan.seats:
        raise FailedPrecondition(
            f"seat {seat} is in hand {seeding.hand_id}, awaiting its seeds (R39): it can "
            f"{what} between hands; retry after the hand ends (HandEnded)")
    if hand is not None and any(p.seat == seat for p in hand.players):
        raise FailedPrecondition(
            f"seat {seat} is in hand {hand.hand_id}: it can {what} between hands; "
            "retry after the hand ends (HandEnded)")


def _no_such_seat(state: TableState, seat: int) -> str:
    return f"seat: {seat} is not a seat of this table (0..{state.config.seats - 1})"


def free_seat(state: TableState) -> int:
    for seat in range(state.config.seats):
        if seat not in state.seats:
            return seat
    raise FailedPrecondition(f"table {state.table_id} is full ({state.config.seats} seats)")


def engine_action(kind: str, amount: int) -> Action:
    try:
        action_kind = ActionKind(kind)
    except ValueError:
        raise InvalidArgument(f"kind: {kind!r} is not an action") from None
    if action_kind in (ActionKind.BET, ActionKind.RAISE):
        if amount <= 0:
            raise InvalidArgument(f"amount: a {kind} needs the total it bets to (> 0)")
        return Action(action_kind, amount)
    if action_kind is ActionKind.RUN_IT:  # R38: how many times
        if amount not in (1, 2):
            raise InvalidArgument(f"amount: run_it takes 1 (once) or 2 (twice), not {amount}")
        return Action(action_kind, amount)
    if amount:
        raise InvalidArgument(f"amount: must be 0 for {kind}")
    return Action(action_kind)


_DECIDE: dict[type, Callable[[TableState, Any, int], list[Any]]] = {
    c.SeatPlayer: _seat_player,
    c.AddChips: _add_chips,
    c.Unseat: _unseat,
    c.SetButton: _set_button,
    c.SetLevel: _set_level,
    c.SetDealLimit: _set_deal_limit,
    c.Close: _close,
    c.VoidHand: _void_hand,
    c.TakeOffSatOut: _take_off_sat_out,
    c.SitOut: _sit_out,
    c.SitIn: _sit_in,
    c.SetStraddle: _set_straddle,
    c.Act: _act,
    c.ClockRang: _clock_rang,
    c.Resume: _resume,
    c.MarkBank: _mark_bank,
    c.StartHand: _start_hand,
    c.CommitSeeds: _commit_seeds,
    c.RevealSeed: _reveal_seed,
    c.DealSeeded: _deal_seeded,
}
