"""T5 against the dealer's own rules (services/dealer/table): the player the director moves
is the one due the big blind next, and seated where balance.newcomer_seat says they post
the big blind in the new table's next hand: nobody skips or doubles a big blind."""

from __future__ import annotations

from typing import Any

from poker.vocab.enums import BlindKind
from poker.vocab.events import BlindPosted
from services.dealer.table import commands as c
from services.dealer.table.state import TableState
from services.lobby.tournament import balance as bal
from tests.dealer.test_table_state import DECK, _seated, _step

DEALT: list[set[int]] = []  # the seats dealt in, hand by hand


def _play_hand(state: TableState) -> dict[int, BlindKind]:
    """Deals one hand, everyone folds to the big blind; the blinds posted, by seat."""
    events = _step(state, c.StartHand(DECK))
    assert state.hand is not None
    DEALT.append({p.seat for p in state.hand.players})
    blinds = {e.seat: e.blind for e in events if type(e) is BlindPosted}
    while state.hand is not None and state.turn is not None:
        turn = state.turn
        _step(state, c.Act(turn.seat, state.hand.hand_id, turn.action_number, "fold", 0))
    assert state.hand is None
    return blinds


def _seats(state: TableState, table_id: str, size: int) -> bal.TableSeats:
    return bal.TableSeats(table_id, 1, {s: x.player_id for s, x in state.seats.items()},
                          state.button, size)


def _big(blinds: dict[int, Any]) -> int:
    [seat] = [s for s, kind in blinds.items() if kind is BlindKind.BIG]
    return seat


def test_T5_nobody_skips_or_doubles_a_big_blind_across_a_move() -> None:
    full = _seated(6, seats=9)
    _step(full, c.SetButton(0))
    history: list[int] = []
    for _ in range(3):
        history.append(_big(_play_hand(full)))
    seats = _seats(full, "a", 9)
    assert bal.last_big_blind(seats) == history[-1]  # the director reads the dealer right
    mover_seat = bal.due_big_blind(seats)[0]
    mover = full.seats[mover_seat].player_id
    # The mover did not post the big blind in the last hand at the full table ...
    assert mover_seat != history[-1]
    # ... and would have posted it in the next one: they are the one due it.
    probe = TableState.from_snapshot("a", full.config, full.ranker, full.snapshot())
    assert _big(_play_hand(probe)) == mover_seat
    [left] = _step(full, c.Unseat(mover_seat))

    short = _seated(3, seats=9)
    _step(short, c.SetButton(0))
    for _ in range(2):
        _play_hand(short)
    target = bal.newcomer_seat(_seats(short, "b", 9))
    # Before the mover's seat come the players after the last big blind: they post it
    # first, one a hand; the mover is dealt no hand before posting theirs.
    last = bal.last_big_blind(_seats(short, "b", 9))
    ahead = [s for s in bal._clockwise(last, 9) if s in short.seats and s != target]
    ahead = ahead[:next(i for i, s in enumerate(bal._clockwise(last, 9)) if s == target)]
    _step(short, c.SeatPlayer(target, mover, left.stack, wait_for_big_blind=True))
    bigs = []
    for _ in range(len(short.seats) + 1):
        blinds = _play_hand(short)
        bigs.append(_big(blinds))
        if target in blinds:
            break
        assert target not in DEALT[-1]  # not dealt in before the big blind: nothing skipped
    assert bigs[-1] == target  # the mover's first hand there: they post the big blind
    assert bigs[:-1] == [s for s in ahead if s != last][:len(bigs) - 1]
    assert len(bigs) - 1 <= len(ahead)
