"""A table's money and seating rules: buy-ins, rebuys (R30), joining late (R10).

The game itself (structure, preset, levels R9, time limits, R5's `button_rule` and
`min_players_to_start`) is the dealer's TableConfig, which the lobby passes through and
stores as JSON (`button_rule` unset: the dealer's default, dead; a tournament sets it,
T3); this module holds what the lobby decides before any chip reaches a table.

>>> rules = TableRules(seats=6, min_buy_in=2_000, max_buy_in=10_000, max_rebuys=2)
>>> rules.check_buy_in(5_000)
>>> rules.check_buy_in(500)
Traceback (most recent call last):
...
services.lobby.errors.InvalidArgument: a buy-in of 500 is outside this table's range 2000..10000
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from poker.limits import MAX_CHIPS, quote
from services.lobby.errors import FailedPrecondition, InvalidArgument

MIN_SEATS, MAX_SEATS = 2, 10
UNLIMITED = -1
#: `max_rebuys` at most (besides -1, no limit).
MAX_REBUYS = 1000
#: `rebuy_until_minutes` at most: 366 days.
MAX_REBUY_MINUTES = 366 * 24 * 60
#: `rebuy_wait_seconds` at most: one day.
MAX_REBUY_WAIT_SECONDS = 24 * 60 * 60


class LateJoin(StrEnum):
    """How a player who sits down in a running game starts (R10)."""

    PLAYER_CHOICE = "player_choice"  # post one live big blind, or wait, as the player asks
    POST_BIG_BLIND = "post_big_blind"  # always post and play the next hand
    WAIT_FOR_BIG_BLIND = "wait_for_big_blind"  # always wait for the big blind


#: R30: how long a player with an empty stack may take to rebuy, unless the table says.
DEFAULT_REBUY_WAIT_S = 60.0


@dataclass(frozen=True, slots=True)
class TableRules:
    """What it costs to sit and rebuy, and how many seats there are."""

    seats: int = 6
    min_buy_in: int = 0  # a range: min_buy_in..max_buy_in (cash game) ...
    max_buy_in: int = 0
    initial_stack: int = 0  # ... or every player starts with exactly this (R30)
    rebuy_amount: int = 0  # a rebuy adds exactly this; 0: any amount of the buy-in range
    max_rebuys: int = 0  # per player and table; 0: none; -1: no limit
    rebuy_until_hand: int = 0  # rebuys only while fewer hands were played; 0: no limit
    rebuy_until_minutes: float = 0.0  # rebuys only this long after the table opened; 0: always
    late_join: LateJoin = LateJoin.PLAYER_CHOICE
    # R30: a player whose stack is empty may rebuy, otherwise they leave. This long to
    # rebuy, then the lobby takes them off the table; 0: no limit. (A card room's minute.)
    rebuy_wait_seconds: float = DEFAULT_REBUY_WAIT_S

    def __post_init__(self) -> None:
        for problem in self.problems():
            raise InvalidArgument(problem)

    def problems(self) -> list[str]:
        """Every inconsistency, each naming the option."""
        found = []
        if not MIN_SEATS <= self.seats <= MAX_SEATS:
            found.append(f"seats: {quote(self.seats)} is not in {MIN_SEATS}..{MAX_SEATS}")
        fixed, ranged = self.initial_stack > 0, self.max_buy_in > 0 or self.min_buy_in > 0
        if fixed == ranged:
            found.append("buy-in: give either initial_stack or min_buy_in and max_buy_in")
        if ranged and not 0 < self.min_buy_in <= self.max_buy_in:
            found.append(
                f"min_buy_in {self.min_buy_in} must be positive and at most "
                f"max_buy_in {self.max_buy_in}"
            )
        for name in ("min_buy_in", "max_buy_in", "initial_stack", "rebuy_amount",
                     "rebuy_until_hand"):
            value = getattr(self, name)
            if not 0 <= value <= MAX_CHIPS:
                found.append(f"{name}: {quote(value)} is not in 0..{MAX_CHIPS}")
        if not UNLIMITED <= self.max_rebuys <= MAX_REBUYS:
            found.append(f"max_rebuys: {self.max_rebuys} is not in -1..{MAX_REBUYS} "
                         "(-1: no limit)")
        for name, maximum in (("rebuy_until_minutes", MAX_REBUY_MINUTES),
                              ("rebuy_wait_seconds", MAX_REBUY_WAIT_SECONDS)):
            value = getattr(self, name)
            if not (isinstance(value, int | float) and math.isfinite(value)
                    and 0 <= value <= maximum):
                found.append(f"{name}: {quote(value)} is not a number in 0..{maximum} "
                             "(0: no limit)")
        return found

    def check_buy_in(self, amount: int) -> None:
        """Refuses a buy-in outside the table's range or different from its fixed stack."""
        if self.initial_stack:
            if amount not in (0, self.initial_stack):
                raise InvalidArgument(
                    f"this table starts every player with {self.initial_stack} chips; "
                    f"a buy-in of {amount} is not allowed (send {self.initial_stack} or 0)"
                )
        elif not self.min_buy_in <= amount <= self.max_buy_in:
            raise InvalidArgument(
                f"a buy-in of {amount} is outside this table's range "
                f"{self.min_buy_in}..{self.max_buy_in}"
            )

    def buy_in(self, requested: int) -> int:
        """The chips a join brings: the fixed stack, or the requested amount once checked."""
        self.check_buy_in(requested)
        return self.initial_stack or requested

    def rebuy(self, requested: int) -> int:
        """The chips a rebuy brings (R30): the table's rebuy amount, or a buy-in-sized amount."""
        if self.rebuy_amount:
            if requested not in (0, self.rebuy_amount):
                raise InvalidArgument(
                    f"a rebuy at this table is {self.rebuy_amount} chips, not {requested}"
                )
            return self.rebuy_amount
        return self.buy_in(requested)

    def check_rebuy_allowed(
        self, rebuys_done: int, hands_played: int, minutes_open: float, stack: int
    ) -> None:
        """Refuses a rebuy the table's limits or the player's stack do not allow now (R30)."""
        if self.max_rebuys == 0:
            raise FailedPrecondition("this table allows no rebuys")
        if self.max_rebuys != UNLIMITED and rebuys_done >= self.max_rebuys:
            raise FailedPrecondition(
                f"you have used all {self.max_rebuys} rebuys this table allows"
            )
        if self.rebuy_until_hand and hands_played >= self.rebuy_until_hand:
            raise FailedPrecondition(
                f"rebuys ended after hand {self.rebuy_until_hand}; {hands_played} were played"
            )
        if self.rebuy_until_minutes and minutes_open >= self.rebuy_until_minutes:
            raise FailedPrecondition(
                f"rebuys ended {self.rebuy_until_minutes:g} minutes after the table opened"
            )
        if stack > 0:
            raise FailedPrecondition(
                f"a rebuy is allowed only when your stack is empty (R30); you have {stack} chips"
            )

    def smallest_rebuy(self) -> int:
        """The fewest chips a rebuy can bring: the rebuy amount, the fixed stack, or the
        bottom of the buy-in range."""
        return self.rebuy_amount or self.initial_stack or self.min_buy_in

    def wait_for_big_blind(self, asked: bool) -> bool:
        """Whether a late joiner waits for the big blind (R10), given what they asked."""
        if self.late_join is LateJoin.PLAYER_CHOICE:
            return asked
        return self.late_join is LateJoin.WAIT_FOR_BIG_BLIND

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableRules:
        """The rules as stored, not checked again: a table an older version opened with
        rules now refused (a NaN) must still be listed, and closed."""
        values = {**data, "late_join": LateJoin(data.get("late_join", "player_choice"))}
        rules = object.__new__(cls)
        for f in dataclasses.fields(cls):
            object.__setattr__(rules, f.name, values.get(f.name, f.default))
        return rules
