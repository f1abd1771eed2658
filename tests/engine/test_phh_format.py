"""PHH reading and writing: every published hand reads and round trips; PokerKit accepts it."""

from __future__ import annotations

import datetime
import warnings
from pathlib import Path

import pytest
from pokerkit import HandHistory

from poker.cards import parse_card, parse_cards
from services.dealer import phh
from services.dealer.phh import PhhAction, PhhError, PhhHand

PLURIBUS = Path("/work/shared/phh/pluribus")
FILES = sorted(PLURIBUS.glob("**/*.phh"))


def test_every_pluribus_hand_loads_and_round_trips() -> None:
    assert len(FILES) == 1991
    for path in FILES:
        hand = phh.load(path)
        assert hand.variant == "NT" and hand.player_count == 6, path
        assert hand.finishing_stacks is not None and sum(hand.finishing_stacks) == 60_000, path
        assert phh.loads(phh.dumps(hand)) == hand, path


def test_dumps_writes_a_pluribus_file_back_as_it_was() -> None:
    # Field order, quoting and list layout follow the file; only `9775.0` -> `9775` differs.
    changed = [p for p in FILES if phh.dumps(phh.load(p)) != p.read_text().rstrip("\n") + "\n"]
    assert [p.relative_to(PLURIBUS).as_posix() for p in changed] == ["102/0.phh"]


def test_a_pluribus_hand_reads_into_our_terms() -> None:
    hand = phh.load(PLURIBUS / "102" / "0.phh")
    assert hand.antes == [0] * 6 and hand.blinds_or_straddles == [50, 100, 0, 0, 0, 0]
    assert hand.min_bet == 100 and hand.small_bet is None and hand.big_bet is None
    assert hand.actions[0] == PhhAction(None, "dh", tuple(parse_cards("2cAc")), None, 1)
    assert hand.actions[8] == PhhAction(5, "cbr", (), 225)
    assert hand.actions[10] == PhhAction(1, "cc")
    assert hand.actions[12] == PhhAction(None, "db", tuple(parse_cards("Qs9c4s")))
    assert hand.actions[-1] == PhhAction(1, "sm", tuple(parse_cards("2cAc")))
    # Half chips survive (an odd chip split in two); whole ones become ints.
    assert hand.finishing_stacks == [10112.5, 9775, 10000, 10000, 10112.5, 10000]
    assert all(type(s) is int for s in hand.finishing_stacks if s != 10112.5)
    assert hand.extra == {
        "ante_trimming_status": True,
        "hand": 0,
        "players": ["MrBlue", "MrBlonde", "MrWhite", "MrPink", "MrBrown", "Pluribus"],
    }


def _pokerkit_final_stacks(text: str) -> list[int]:
    *_, state = HandHistory.loads(text)  # the states it passes through; the last is final
    assert not state.status
    return list(state.stacks)


def test_pokerkit_accepts_what_we_write_for_pluribus_hands() -> None:
    for path in FILES[::40]:
        hand = phh.load(path)
        assert hand.finishing_stacks is not None
        if any(not float(s).is_integer() for s in hand.finishing_stacks):
            continue  # PokerKit's integer divmod gives whole chips; the file has halves
        assert _pokerkit_final_stacks(phh.dumps(hand)) == hand.finishing_stacks, path


def _fixed_limit_hand() -> PhhHand:
    # Three players, fixed limit 10/20 with 5 antes; p2's kings win without a showdown.
    deal = [("2c7d", 1), ("KhKd", 2), ("QsJs", 3)]
    actions = [PhhAction(None, "dh", tuple(parse_cards(c)), None, p) for c, p in deal]
    script = [
        "p3 cbr 20", "p1 f", "p2 cbr 30", "p3 cc",
        "d db Ks9s2d", "p2 cbr 10", "p3 cbr 20", "p2 cbr 30", "p3 cc",
        "d db 3c", "p2 cbr 20", "p3 cc",
        "d db 4h", "p2 cbr 20", "p3 f",
    ]  # fmt: skip
    actions += [phh.parse_action(a, 3) for a in script]
    return PhhHand(
        variant="FT",
        antes=[5, 5, 5],
        blinds_or_straddles=[5, 10, 0],
        min_bet=None,
        small_bet=10,
        big_bet=20,
        starting_stacks=[200, 200, 200],
        actions=actions,
        finishing_stacks=[190, 295, 115],
        extra={
            "ante_trimming_status": True,
            "event": "Club night 'Limit'",
            "time": datetime.time(21, 30),
            "day": 3,
            "players": ["Ann", "Bob", "Cy"],
            "_note": 'quotes " and \\ and a\nnewline',
        },
    )


def test_pokerkit_accepts_a_fixed_limit_hand_with_antes_written_by_us() -> None:
    hand = _fixed_limit_hand()
    text = phh.dumps(hand)
    assert phh.loads(text) == hand
    assert "small_bet = 10\nbig_bet = 20\n" in text and "min_bet" not in text
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # also: no unknown-field warning from PokerKit
        assert _pokerkit_final_stacks(text) == hand.finishing_stacks


def test_comments_unknown_cards_and_integral_floats_are_read() -> None:
    hand = phh.loads(
        "# a hand\n"
        "variant = 'NT'\nantes = [0.0, 0]\nblinds_or_straddles = [1, 2.0]\nmin_bet = 2\n"
        "starting_stacks = [100, 100]\n"
        "actions = ['d dh p1 ????', 'd dh p2 As??  # one known', 'p2 cbr 6.0', 'p1 f']\n"
        "finishing_stacks = [98.0, 102]\n"
    )
    assert hand.antes == [0, 0] and hand.blinds_or_straddles == [1, 2]
    assert hand.actions[0].cards == (None, None)
    assert hand.actions[1] == PhhAction(None, "dh", (parse_card("As"), None), None, 2)
    assert hand.actions[2].amount == 6 and type(hand.actions[2].amount) is int
    assert hand.finishing_stacks == [98, 102]
    assert phh.loads(phh.dumps(hand)) == hand


def test_draw_and_stud_verbs_are_kept() -> None:
    assert phh.parse_action("p1 sd 7s8s") == PhhAction(1, "sd", tuple(parse_cards("7s8s")))
    assert phh.parse_action("p2 sd") == PhhAction(2, "sd")
    assert phh.parse_action("p3 pb") == PhhAction(3, "pb")
    for text in ("p1 sd 7s8s", "p2 sd", "p3 pb", "p4 sm", "d dh p1 ????"):
        assert phh.format_action(phh.parse_action(text)) == text


def test_load_and_dump_files(tmp_path: Path) -> None:
    hand = _fixed_limit_hand()
    phh.dump(hand, tmp_path / "h.phh")
    assert phh.load(tmp_path / "h.phh") == hand
    (tmp_path / "bad.phh").write_text("variant = 'NT'\n")
    with pytest.raises(PhhError, match=r"bad\.phh: field 'antes' is missing"):
        phh.load(tmp_path / "bad.phh")


GOOD = {
    "variant": "'NT'",
    "antes": "[0, 0]",
    "blinds_or_straddles": "[1, 2]",
    "min_bet": "2",
    "starting_stacks": "[100, 100]",
    "actions": "['d dh p1 AsKs', 'p2 f']",
}


def _text(**changes: str | None) -> str:
    fields = {**GOOD, **changes}
    return "".join(f"{k} = {v}\n" for k, v in fields.items() if v is not None)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("variant = 'NT'\nantes = [0 0]\n", r"TOML does not parse.*line 2"),
        (_text(antes=None), r"field 'antes' is missing"),
        (_text(variant="3"), r"field 'variant': expected a variant code"),
        (_text(antes="[0, 0, 0]"), r"field 'antes': 3 values for 2 players"),
        (_text(starting_stacks="[100]"), r"2 or more players"),
        (_text(min_bet="'two'"), r"field 'min_bet': expected a number of chips"),
        (_text(blinds_or_straddles="[0.5, 1]"), r"blinds_or_straddles\[0\]: 0.5 is not a whole"),
        (_text(actions="'p1 f'"), r"field 'actions': expected a list"),
        (_text(actions="[3]"), r"actions\[0\]: expected a string"),
        (_text(actions="['p1 x']"), r"actions\[0\] 'p1 x': unknown verb 'x'"),
        (_text(actions="['d xx']"), r"unknown dealer verb 'xx'"),
        (_text(actions="['p3 f']"), r"p3 does not exist: the hand has 2 players"),
        (_text(actions="['q1 f']"), r"'q1' is not a player"),
        (_text(actions="['cc']"), r"expected `<actor> <verb> \.\.\.`"),
        (_text(actions="['d dh p1 AsKx']"), r"'Kx' is not a card"),
        (_text(actions="['d dh p1 AsK']"), r"each card is two characters"),
        (_text(actions="['d dh AsKs']"), r"`d dh` takes a player and the cards"),
        (_text(actions="['p2 cbr']"), r"`cbr` takes the amount"),
        (_text(actions="['p2 cbr ten']"), r"amount 'ten' is not a number"),
        (_text(actions="['p2 cbr 2.5']"), r"amount: 2.5 is not a whole number"),
        (_text(actions="['p2 cc 5']"), r"`cc` takes no operand"),
        (_text(finishing_stacks="[1, 'x']"), r"finishing_stacks\[1\]: expected a number"),
    ],
)
def test_bad_input_raises_phh_error_saying_where_and_why(text: str, message: str) -> None:
    with pytest.raises(PhhError, match=message):
        phh.loads(text)


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (PhhAction(None, "dh", (1, 2)), r"actions\[0\]: a `dh` action needs dealt_to"),
        (PhhAction(None, "cc"), r"the dealer \(actor None\) cannot 'cc'"),
        (PhhAction(1, "cbr"), r"`p1 cbr` needs an amount"),
        (PhhAction(None, "db", (52,)), r"card index 52 is out of range"),
        (PhhAction(1, "zz"), r"unknown verb 'zz'"),
    ],
)
def test_dumps_refuses_an_incomplete_action(action: PhhAction, message: str) -> None:
    hand = PhhHand("NT", [0, 0], [1, 2], 2, None, None, [100, 100], [action])
    with pytest.raises(PhhError, match=message):
        phh.dumps(hand)


def test_dumps_refuses_values_toml_cannot_hold() -> None:
    hand = PhhHand("NT", [0, 0], [1, 2], 2, None, None, [100, 100], [], extra={"_x": {1, 2}})
    with pytest.raises(PhhError, match=r"_x: cannot write set"):
        phh.dumps(hand)
    hand.extra = {"min_bet": 3}
    with pytest.raises(PhhError, match=r"min_bet has its own field"):
        phh.dumps(hand)
