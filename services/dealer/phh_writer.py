"""The PHH writer: a finished hand as a PHH hand history (phh.py), written from its events.

R5's seat plan, R10's and R33's posts, in PHH's own fields where it has them: every
forced live bet is the poster's `blinds_or_straddles` entry (a dead small blind's
player posts nothing there; a late or returning player's live big blind is theirs),
a missed small blind posted dead (R33) is added to the poster's `antes` entry (PHH's
dead money). What PHH has no field for is in user-defined fields: `_button_rule`
(`dead` or `moving`), `_button_seat` and `_dead_button` (the button's seat, and whether
nobody dealt in sits there), `_small_blind_seat` (-1: none this hand) and
`_big_blind_seat`, written for every hand a table's seat plan started, and
`_late_posts` (the p-numbers posting a live big blind outside the blinds). PokerKit
reads a live post past the big blind's entry as a straddle, which acts last before the
flop; here it acts in turn (R10): such a hand's actions replay in PokerKit's order only
when nobody posts late.

Players are numbered p1..pN from the left of the button, the button last (heads-up
p1 is the big blind, p2 the button). Shows and mucks are written where PokerKit
expects them: at the showdown after the river, or, when the board was run out
with nobody able to bet (R20, R28), before the rest of the board.

R38: PHH (and PokerKit 0.7.7's notation) has no action for the number of runouts.
A hand whose board was run twice has its first run as the usual `d db` actions and
the rest in user-defined fields: `_run_it_twice = true`, `_second_board` (the second
run's cards, in deal order) and `_run_it_choices` (each answer, `pN` and 1 or 2);
`finishing_stacks` are the real ones, after both runs (a replay of the actions alone
runs the board once). Answers of a hand run once are in `_run_it_choices` too.

>>> from services.dealer.engine import Action, PlayerIn, TableConfig
>>> players = [PlayerIn(3, "ann", 1000), PlayerIn(5, "bob", 1000)]
>>> hand = Hand.start(TableConfig(), players, button=5, deck=range(52), hand_id="h7")
>>> _ = hand.act(5, Action.raise_to(300)); _ = hand.act(3, Action.fold())
>>> record = to_phh(hand)
>>> [phh.format_action(a) for a in record.actions]
['d dh p1 2c2h', 'd dh p2 2d2s', 'p2 cbr 300', 'p1 f']
>>> record.blinds_or_straddles, record.finishing_stacks, record.extra["players"]
([50, 100], [900, 1100], ['ann', 'bob'])
"""

from __future__ import annotations

from collections.abc import Sequence

from poker.cards import card_text
from poker.vocab.enums import ActionKind, AnteForm, BlindKind, Structure
from poker.vocab.events import (
    ActionTaken,
    BlindPosted,
    BoardDealt,
    CardsMucked,
    CardsShown,
    HoleCardsDealt,
    RunItChosen,
    SecondBoardDealt,
)
from poker.vocab.seats import from_button
from services.dealer import phh
from services.dealer.engine import Hand, blind_seats

#: PHH variant codes (PokerKit's) of the structures it can express.
VARIANT = {Structure.NO_LIMIT: "NT", Structure.FIXED_LIMIT: "FT"}


def to_phh(hand: Hand) -> phh.PhhHand:
    """The PHH record of a finished hand; ValueError for what PHH cannot express."""
    if not hand.is_over:
        raise ValueError("only a finished hand has a history: this one is still being played")
    config, level = hand.config, hand.level
    variant = VARIANT.get(config.structure)
    if variant is None:
        raise ValueError(f"PHH has no code for {config.structure.value} hold'em")
    order = from_button((p.seat for p in hand.players), hand.button)
    number = {seat: i + 1 for i, seat in enumerate(order)}
    n = len(order)
    antes = [0] * n
    if level.ante:
        if config.ante_form is AnteForm.BIG_BLIND:
            antes[1] = level.ante  # the big blind's slot, heads-up too (PHH, PokerKit)
        else:
            antes = [level.ante] * n
    blinds = [level.small_blind, level.big_blind] + [0] * (n - 2)
    small, big = blind_seats(hand.started)
    posts = [p.seat for p in hand.players if p.posts_late or p.posts_dead_small_blind]
    if n > 2 and (posts or (small, big) != (order[0], order[1])):
        blinds = [0] * n  # R5, R10, R33: each player's forced live bet where it sits
        if small is not None:
            blinds[number[small] - 1] = level.small_blind
        blinds[number[big] - 1] = level.big_blind
    start = {p.seat: p.stack for p in hand.players}
    dealt: list[phh.PhhAction] = []
    betting: list[phh.PhhAction] = []
    reveals: list[phh.PhhAction] = []
    runout_at: int | None = None  # where the board was run out with no more betting
    events = hand.events
    for i, event in enumerate(events):
        if isinstance(event, BlindPosted) and event.blind is BlindKind.LATE:
            blinds[number[event.seat] - 1] = level.big_blind  # R10, R33: live
        elif isinstance(event, BlindPosted) and event.blind is BlindKind.DEAD:
            antes[number[event.seat] - 1] += event.amount  # R33: dead money, as an ante
        elif isinstance(event, BlindPosted) and event.blind is BlindKind.STRADDLE:
            blinds[number[event.seat] - 1] = event.amount  # R37: its blind_or_straddle
        if isinstance(event, HoleCardsDealt):
            dealt.append(phh.PhhAction(None, "dh", event.cards, None, number[event.seat]))
        elif isinstance(event, ActionTaken):
            betting.append(_action(event, number[event.seat]))
            runout_at = None
        elif isinstance(event, BoardDealt):
            # A board run out with nobody able to bet is not followed by an action.
            following = events[i + 1] if i + 1 < len(events) else None
            if runout_at is None and not isinstance(following, ActionTaken):
                runout_at = len(betting)
            betting.append(phh.PhhAction(None, "db", event.cards))
        elif isinstance(event, CardsShown):
            reveals.append(phh.PhhAction(number[event.seat], "sm", event.cards))
        elif isinstance(event, CardsMucked):
            reveals.append(phh.PhhAction(number[event.seat], "sm", ()))
    at = len(betting) if runout_at is None else runout_at
    actions = dealt + betting[:at] + reveals + betting[at:]
    extra: dict[str, object] = {
        "ante_trimming_status": config.ante_form is AnteForm.EACH_PLAYER,
        "seat_count": config.seats,
        "players": [_player_id(hand, seat) for seat in order],
    }
    if hand.hand_id:
        extra["_hand_id"] = hand.hand_id
    if config.rake is not None:
        # R36: PHH has no rake field (PokerKit takes a rake function, not a value): a
        # user-defined field; finishing_stacks are net of it.
        extra["_rake"] = hand.rake
    if hand.started.big_blind_seat is not None:  # R5: a table's seat plan
        extra["_button_rule"] = config.button_rule.value
        extra["_button_seat"] = hand.button
        extra["_dead_button"] = hand.button not in number
        extra["_small_blind_seat"] = small if small is not None else -1
        extra["_big_blind_seat"] = big
    if posts:
        extra["_late_posts"] = [number[s] for s in sorted(posts, key=number.__getitem__)]
    extra.update(_runs(events, number))
    stacks = hand.stacks
    return phh.PhhHand(
        variant=variant,
        antes=antes,
        blinds_or_straddles=blinds,
        min_bet=level.big_blind if variant == "NT" else None,
        small_bet=level.big_blind if variant == "FT" else None,
        big_bet=2 * level.big_blind if variant == "FT" else None,
        starting_stacks=[start[seat] for seat in order],
        actions=actions,
        finishing_stacks=[stacks[seat] for seat in order],
        extra=extra,
    )


def _runs(events: Sequence[object], number: dict[int, int]) -> dict[str, object]:
    """R38's user-defined fields (see the module doc)."""
    choices = [f"p{number[e.seat]} {e.times}" for e in events if isinstance(e, RunItChosen)]
    second = "".join(card_text(c) for e in events if isinstance(e, SecondBoardDealt)
                     for c in e.cards)
    out: dict[str, object] = {}
    if choices:
        out["_run_it_choices"] = choices
    if second:
        out["_run_it_twice"] = True
        out["_second_board"] = second
    return out


def dumps(hand: Hand) -> str:
    """The PHH text of a finished hand."""
    return phh.dumps(to_phh(hand))


def _player_id(hand: Hand, seat: int) -> str:
    return next(p.player_id for p in hand.players if p.seat == seat)


def _action(event: ActionTaken, number: int) -> phh.PhhAction:
    kind = event.action
    if kind is ActionKind.FOLD:
        return phh.PhhAction(number, "f")
    if kind is ActionKind.CHECK or kind is ActionKind.CALL:
        return phh.PhhAction(number, "cc")
    return phh.PhhAction(number, "cbr", (), event.to)
