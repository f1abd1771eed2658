"""Poker Hand History (PHH) files: read them into plain dataclasses and write them back.

A PHH file is TOML (https://phh.readthedocs.io): the table's forced bets and stacks,
then the hand as a list of action strings. Players are `p1 .. pN` from the left of
the button, the button last; heads-up the forced-bet lists are still in position
order (small blind slot first), so `p2`, the button, posts `blinds_or_straddles[0]`.
Cards are the ints of `poker.cards`; chips are ints (a whole number written `100.0`
reads as `100`). Only `finishing_stacks` may hold half chips, as some published
hands split an odd chip that way.

>>> hand = loads('''
... variant = 'NT'
... antes = [0, 0]
... blinds_or_straddles = [50, 100]
... min_bet = 100
... starting_stacks = [1000, 1000]
... actions = ['d dh p1 AsKd', 'd dh p2 ????', 'p2 cbr 300', 'p1 f']
... players = ['Ann', 'Bob']
... ''')
>>> hand.actions[0]
PhhAction(actor=None, verb='dh', cards=(51, 45), amount=None, dealt_to=1)
>>> hand.actions[2], hand.extra
(PhhAction(actor=2, verb='cbr', cards=(), amount=300, dealt_to=None), {'players': ['Ann', 'Bob']})
>>> loads(dumps(hand)) == hand
True
>>> print(format_action(hand.actions[1]))
d dh p2 ????
"""

from __future__ import annotations

import datetime
import math
import os
import re
import tomllib
from dataclasses import dataclass, field
from typing import Any

from poker.cards import CardError, card_text, parse_card

__all__ = [
    "DEALER_VERBS",
    "PLAYER_VERBS",
    "PhhAction",
    "PhhError",
    "PhhHand",
    "dump",
    "dumps",
    "format_action",
    "load",
    "loads",
    "parse_action",
]

#: Verbs the dealer (`d`) performs: deal hole cards, deal board cards.
DEALER_VERBS = frozenset({"dh", "db"})
#: Verbs a player performs: fold, check/call, complete/bet/raise to, show or muck,
#: stand pat or discard (draw games), post the bring-in (stud games).
PLAYER_VERBS = frozenset({"f", "cc", "cbr", "sm", "sd", "pb"})

# Fields with a typed home in PhhHand; every other key goes to PhhHand.extra.
_TYPED_FIELDS = (
    "variant",
    "antes",
    "blinds_or_straddles",
    "small_bet",
    "big_bet",
    "min_bet",
    "starting_stacks",
    "actions",
    "finishing_stacks",
)
# The order the PHH specification (and PokerKit's writer) lists the fields in, so
# that a file we write reads like one anybody else writes. Unknown keys follow.
_FIELD_ORDER = (
    "variant",
    "ante_trimming_status",
    "antes",
    "blinds_or_straddles",
    "bring_in",
    "small_bet",
    "big_bet",
    "min_bet",
    "starting_stacks",
    "actions",
    "author",
    "event",
    "url",
    "venue",
    "address",
    "city",
    "region",
    "postal_code",
    "country",
    "time",
    "time_zone",
    "time_zone_abbreviation",
    "day",
    "month",
    "year",
    "hand",
    "level",
    "seats",
    "seat_count",
    "table",
    "players",
    "finishing_stacks",
    "winnings",
    "currency",
    "currency_symbol",
    "time_limit",
    "time_banks",
)
_PLAYER = re.compile(r"p([1-9][0-9]*)")
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


class PhhError(ValueError):
    """A PHH text that cannot be read or a hand that cannot be written; says where and why."""


@dataclass
class PhhAction:
    """One entry of `actions`.

    actor: the player acting, 1..N, or None for the dealer (`d dh`, `d db`).
    verb: `dh` `db` (dealer), `f` `cc` `cbr` `sm` `sd` `pb` (player).
    cards: the cards dealt, shown or discarded; None for a face-down `??`.
    amount: for `cbr`, the total the player's bet reaches in this round.
    dealt_to: for `dh`, the player (1..N) the hole cards go to.
    """

    actor: int | None
    verb: str
    cards: tuple[int | None, ...] = ()
    amount: int | None = None
    dealt_to: int | None = None


@dataclass
class PhhHand:
    """A whole PHH file. Lists are per player, p1..pN (forced bets: see the module doc).

    `extra` keeps every other key of the file (players, hand, table, event, venue,
    time, currency, author, ante_trimming_status, `_user` fields...), in file order,
    with the values tomllib gives, so that writing a hand read from a file keeps them.
    """

    variant: str
    antes: list[int]
    blinds_or_straddles: list[int]
    min_bet: int | None
    small_bet: int | None
    big_bet: int | None
    starting_stacks: list[int]
    actions: list[PhhAction]
    finishing_stacks: list[float] | None = None
    extra: dict[str, object] = field(default_factory=dict)

    @property
    def player_count(self) -> int:
        """How many players were dealt in."""
        return len(self.starting_stacks)


# ---------------------------------------------------------------- reading


def loads(text: str) -> PhhHand:
    """Read a PHH text; raises PhhError naming the line or field and what is wrong.

    >>> loads("variant = 'NT'\\nantes = [0, 0]\\nblinds_or_straddles = [1, 2]\\n"
    ...       "min_bet = 2\\nstarting_stacks = [200, 200.0]\\nactions = []").starting_stacks
    [200, 200]
    """
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise PhhError(f"not a PHH file: the TOML does not parse: {err}") from None
    return _from_table(raw)


def load(path: str | os.PathLike[str]) -> PhhHand:
    """Read a PHH file; the PhhError names the file."""
    with open(path, encoding="utf-8") as stream:
        text = stream.read()
    try:
        return loads(text)
    except PhhError as err:
        raise PhhError(f"{os.fspath(path)}: {err}") from None


def _from_table(raw: dict[str, Any]) -> PhhHand:
    for name in ("variant", "antes", "blinds_or_straddles", "starting_stacks", "actions"):
        if name not in raw:
            raise PhhError(f"field {name!r} is missing")
    variant = raw["variant"]
    if not isinstance(variant, str) or not variant:
        raise PhhError(f"field 'variant': expected a variant code such as 'NT', got {variant!r}")
    starting_stacks = _chip_list(raw, "starting_stacks", None)
    players = len(starting_stacks)
    if players < 2:
        raise PhhError(f"field 'starting_stacks': a hand needs 2 or more players, got {players}")
    actions_raw = raw["actions"]
    if not isinstance(actions_raw, list):
        raise PhhError(f"field 'actions': expected a list of strings, got {actions_raw!r}")
    actions = []
    for i, entry in enumerate(actions_raw):
        if not isinstance(entry, str):
            raise PhhError(f"actions[{i}]: expected a string, got {entry!r}")
        try:
            actions.append(parse_action(entry, players))
        except PhhError as err:
            raise PhhError(f"actions[{i}] {entry!r}: {err}") from None
    finishing = raw.get("finishing_stacks")
    return PhhHand(
        variant=variant,
        antes=_chip_list(raw, "antes", players),
        blinds_or_straddles=_chip_list(raw, "blinds_or_straddles", players),
        min_bet=_optional_chips(raw, "min_bet"),
        small_bet=_optional_chips(raw, "small_bet"),
        big_bet=_optional_chips(raw, "big_bet"),
        starting_stacks=starting_stacks,
        actions=actions,
        finishing_stacks=None if finishing is None else _stack_list(finishing, players),
        extra={key: value for key, value in raw.items() if key not in _TYPED_FIELDS},
    )


def _whole(value: object, where: str) -> int:
    # tomllib gives 100.0 for `100.0`; the hand is about whole chips.
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise PhhError(f"{where}: expected a number of chips, got {value!r}")
    if isinstance(value, float):
        if not value.is_integer():
            raise PhhError(
                f"{where}: {value!r} is not a whole number of chips "
                "(chips are ints here: scale fractional amounts first)"
            )
        return int(value)
    return value


def _optional_chips(raw: dict[str, Any], name: str) -> int | None:
    value = raw.get(name)
    return None if value is None else _whole(value, f"field {name!r}")


def _chip_list(raw: dict[str, Any], name: str, players: int | None) -> list[int]:
    values = raw[name]
    if not isinstance(values, list):
        raise PhhError(f"field {name!r}: expected a list with one value per player, got {values!r}")
    if players is not None and len(values) != players:
        raise PhhError(
            f"field {name!r}: {len(values)} values for {players} players "
            "(starting_stacks has one per player)"
        )
    return [_whole(v, f"{name}[{i}]") for i, v in enumerate(values)]


def _stack_list(values: object, players: int) -> list[float]:
    if not isinstance(values, list) or len(values) != players:
        raise PhhError(f"field 'finishing_stacks': expected {players} numbers, got {values!r}")
    stacks: list[float] = []
    for i, value in enumerate(values):
        if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value):
            raise PhhError(f"finishing_stacks[{i}]: expected a number, got {value!r}")
        # Half chips stay floats (an odd chip split in two); whole numbers become ints.
        stacks.append(int(value) if float(value).is_integer() else value)
    return stacks


def parse_action(text: str, players: int | None = None) -> PhhAction:
    """Parse one action string; a trailing `# comment` is dropped.

    players: when given, `pK` must be within p1..p<players>.

    >>> parse_action("d db Qs9c4s  # the flop")
    PhhAction(actor=None, verb='db', cards=(43, 28, 11), amount=None, dealt_to=None)
    >>> parse_action("p4 sm")
    PhhAction(actor=4, verb='sm', cards=(), amount=None, dealt_to=None)
    """
    words = text.partition("#")[0].split()
    if len(words) < 2:
        raise PhhError("expected `<actor> <verb> ...`, e.g. `p1 cc` or `d db AsKsQs`")
    actor_word, verb, operands = words[0], words[1], words[2:]
    if actor_word == "d":
        if verb == "dh":
            if len(operands) != 2:
                raise PhhError("`d dh` takes a player and the cards, e.g. `d dh p3 9dTs`")
            return PhhAction(
                None, "dh", _parse_cards(operands[1]), None, _player(operands[0], players)
            )
        if verb == "db":
            if len(operands) != 1:
                raise PhhError("`d db` takes the board cards, e.g. `d db Qs9c4s`")
            return PhhAction(None, "db", _parse_cards(operands[0]))
        raise PhhError(f"unknown dealer verb {verb!r}: the dealer's verbs are dh and db")
    actor = _player(actor_word, players)
    if verb not in PLAYER_VERBS:
        raise PhhError(f"unknown verb {verb!r}: a player's verbs are {sorted(PLAYER_VERBS)}")
    if verb == "cbr":
        if len(operands) != 1:
            raise PhhError("`cbr` takes the amount the bet reaches, e.g. `p5 cbr 225`")
        return PhhAction(actor, "cbr", (), _parse_amount(operands[0]))
    if verb in ("sm", "sd"):
        if len(operands) > 1:
            raise PhhError(f"`{verb}` takes at most one group of cards, e.g. `p5 {verb} 6dAd`")
        if operands and operands[0] == "-":
            raise PhhError("`sm -` (show without naming the cards) is not supported")
        return PhhAction(actor, verb, _parse_cards(operands[0]) if operands else ())
    if operands:
        raise PhhError(f"`{verb}` takes no operand, got {' '.join(operands)!r}")
    return PhhAction(actor, verb)


def _player(word: str, players: int | None) -> int:
    match = _PLAYER.fullmatch(word)
    if not match:
        raise PhhError(f"{word!r} is not a player: write p1, p2, ...")
    number = int(match.group(1))
    if players is not None and number > players:
        raise PhhError(f"{word} does not exist: the hand has {players} players")
    return number


def _parse_cards(text: str) -> tuple[int | None, ...]:
    if len(text) % 2:
        raise PhhError(f"{text!r} is not a list of cards: each card is two characters")
    cards: list[int | None] = []
    for i in range(0, len(text), 2):
        chunk = text[i : i + 2]
        try:
            cards.append(None if chunk == "??" else parse_card(chunk))
        except CardError as err:
            raise PhhError(str(err)) from None
    return tuple(cards)


def _parse_amount(text: str) -> int:
    try:
        value = float(text) if any(c in text for c in ".eE") else int(text)
    except ValueError:
        raise PhhError(f"amount {text!r} is not a number") from None
    return _whole(value, "amount")


# ---------------------------------------------------------------- writing


def format_action(action: PhhAction) -> str:
    """The action string of a PhhAction; raises PhhError when it is incomplete.

    >>> format_action(PhhAction(5, "cbr", amount=225))
    'p5 cbr 225'
    """
    if action.actor is None:
        if action.verb == "dh":
            if action.dealt_to is None or action.dealt_to < 1:
                raise PhhError("a `dh` action needs dealt_to, the player (1..N) dealt to")
            return f"d dh p{action.dealt_to} {_cards_text(action.cards)}"
        if action.verb == "db":
            return f"d db {_cards_text(action.cards)}"
        raise PhhError(f"the dealer (actor None) cannot {action.verb!r}: its verbs are dh, db")
    if action.actor < 1:
        raise PhhError(f"actor {action.actor}: players are numbered from 1")
    head = f"p{action.actor} {action.verb}"
    if action.verb == "cbr":
        if action.amount is None:
            raise PhhError(f"`{head}` needs an amount")
        return f"{head} {action.amount}"
    if action.verb in ("sm", "sd"):
        return f"{head} {_cards_text(action.cards)}" if action.cards else head
    if action.verb not in PLAYER_VERBS:
        raise PhhError(f"unknown verb {action.verb!r}: a player's verbs are {sorted(PLAYER_VERBS)}")
    return head


def _cards_text(cards: tuple[int | None, ...]) -> str:
    if not cards:
        raise PhhError("a dealing action needs at least one card")
    try:
        return "".join("??" if card is None else card_text(card) for card in cards)
    except CardError as err:
        raise PhhError(str(err)) from None


def dumps(hand: PhhHand) -> str:
    """The PHH (TOML) text of a hand, fields in the specification's order.

    Empty optional fields (None) are left out.

    >>> print(dumps(PhhHand("NT", [0, 0], [1, 2], 2, None, None, [200, 200],
    ...                     [PhhAction(2, "f")], [199, 201])))
    variant = 'NT'
    antes = [0, 0]
    blinds_or_straddles = [1, 2]
    min_bet = 2
    starting_stacks = [200, 200]
    actions = ['p2 f']
    finishing_stacks = [199, 201]
    <BLANKLINE>
    """
    for name in _TYPED_FIELDS:
        if name in hand.extra:
            raise PhhError(f"extra[{name!r}]: {name} has its own field in PhhHand")
    actions = []
    for i, action in enumerate(hand.actions):
        try:
            actions.append(format_action(action))
        except PhhError as err:
            raise PhhError(f"actions[{i}]: {err}") from None
    values: dict[str, object] = {
        "variant": hand.variant,
        "antes": hand.antes,
        "blinds_or_straddles": hand.blinds_or_straddles,
        "small_bet": hand.small_bet,
        "big_bet": hand.big_bet,
        "min_bet": hand.min_bet,
        "starting_stacks": hand.starting_stacks,
        "actions": actions,
        "finishing_stacks": hand.finishing_stacks,
    }
    values.update(hand.extra)
    ordered = [key for key in _FIELD_ORDER if key in values]
    ordered += [key for key in values if key not in _FIELD_ORDER]
    lines = []
    for key in ordered:
        value = values[key]
        if value is None:
            continue
        lines.append(f"{_toml_key(key)} = {_toml_value(value, key)}")
    return "\n".join(lines) + "\n"


def dump(hand: PhhHand, path: str | os.PathLike[str]) -> None:
    """Write a hand to a PHH file."""
    text = dumps(hand)
    with open(path, "w", encoding="utf-8") as stream:
        stream.write(text)


def _toml_key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else _toml_string(key)


def _toml_string(text: str) -> str:
    # A literal string ('...') when it can be one, as PHH files are usually written;
    # otherwise a basic string with TOML's escapes.
    if "'" not in text and not any(ord(c) < 0x20 or ord(c) == 0x7F for c in text):
        return f"'{text}'"
    escaped = []
    for char in text:
        if char in '"\\':
            escaped.append("\\" + char)
        elif char == "\n":
            escaped.append("\\n")
        elif char == "\t":
            escaped.append("\\t")
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            escaped.append(f"\\u{ord(char):04X}")
        else:
            escaped.append(char)
    return '"' + "".join(escaped) + '"'


def _toml_value(value: object, where: str) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v, f"{where}[{i}]") for i, v in enumerate(value)) + "]"
    if isinstance(value, dict):
        pairs = (
            f"{_toml_key(str(k))} = {_toml_value(v, f'{where}.{k}')}" for k, v in value.items()
        )
        return "{" + ", ".join(pairs) + "}"
    raise PhhError(f"{where}: cannot write {type(value).__name__} {value!r} as TOML")
