"""T1: what a tournament announces, checked, and its one level clock (T3, R9 by minutes).

>>> s = Structure(buy_in=100, fee=10, starting_stack=1000,
...               levels=(LevelSpec(10, 20, 0, 1.0), LevelSpec(0, 0, 0, 0.5, is_break=True),
...                       LevelSpec(20, 40, 5, 1.0)), max_players=9)
>>> s.check() is s
True
>>> s.clock(75.0)  # 1.25 minutes in: the break, half of it left
Clock(index=1, seconds_left=15.0, on_break=True)
>>> s.clock(100.0).index, s.clock(100.0).on_break
(2, False)
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Any

from poker.limits import MAX_CHIPS, MAX_NAME_CHARS
from services.lobby.errors import InvalidArgument

#: Bounds of a structure (poker/limits.py's spirit: every field has one).
MAX_LEVELS = 200
MAX_PLAYERS = 10_000
MAX_TABLE_SIZE = 10
MAX_MINUTES = 24 * 60.0
MAX_PAYOUT_TIERS = 50
MAX_PAID = 1000
MAX_REBUYS = 100
#: Payout shares are given in basis points: 10_000 is the whole pool.
WHOLE = 10_000


@dataclass(frozen=True, slots=True)
class LevelSpec:
    """One level of the schedule: blinds and ante for `minutes`; a break has no blinds."""

    small_blind: int
    big_blind: int
    ante: int = 0
    minutes: float = 10.0
    is_break: bool = False


@dataclass(frozen=True, slots=True)
class PayoutTier:
    """The shares of the places paid when the field has at least `min_entries` entries;
    `shares[i]` is place i+1's share of the pool in basis points (they add to WHOLE)."""

    min_entries: int
    shares: tuple[int, ...]


#: A default for fields of any size: winner takes all up to 5, then the usual tiers.
DEFAULT_PAYOUTS: tuple[PayoutTier, ...] = (
    PayoutTier(2, (10_000,)),
    PayoutTier(6, (6_500, 3_500)),
    PayoutTier(10, (5_000, 3_000, 2_000)),
    PayoutTier(20, (4_000, 2_500, 1_500, 1_200, 800)),
    PayoutTier(40, (3_000, 2_000, 1_400, 1_100, 900, 700, 500, 400)),
    PayoutTier(100, (2_550, 1_600, 1_200, 900, 750, 650, 550, 450, 400, 350, 300, 300)),
)


@dataclass(frozen=True, slots=True)
class Clock:
    """Where the level clock stands: the level (a break counts as a level), its seconds left."""

    index: int
    seconds_left: float
    on_break: bool


@dataclass(frozen=True, slots=True)
class Structure:
    """Everything T1 announces. Levels are counted from 0 in `levels` (breaks included);
    `*_until_level` is the last level index at which the thing is allowed."""

    buy_in: int
    fee: int
    starting_stack: int
    levels: tuple[LevelSpec, ...]
    ante_big_blind: bool = False  # R8: the big blind posts the table's ante
    late_registration_until_level: int = 0
    max_rebuys: int = 0
    rebuy_until_level: int = 0
    rebuy_chips: int = 0  # 0: the starting stack
    rebuy_only_at_or_below_start: bool = True
    add_on_chips: int = 0  # 0: no add-on; taken at the end of the rebuy period
    add_on_price: int = 0
    max_re_entries: int = 0  # re-entry until the end of late registration
    table_size: int = 9
    payouts: tuple[PayoutTier, ...] = DEFAULT_PAYOUTS
    start_unix_ms: int = 0  # 0: a sit-and-go, started when `max_players` registered
    max_players: int = 0  # 0: no limit (a scheduled start needs one or the other)
    min_players: int = 2
    action_time_ms: int = 0  # 0: the dealer's default (R32)
    pay_jumps: tuple[int, ...] = field(default=())  # T7: field sizes played hand for hand

    @property
    def sit_and_go(self) -> bool:
        return self.start_unix_ms == 0

    @property
    def rebuy_stack(self) -> int:
        return self.rebuy_chips or self.starting_stack

    def check(self) -> Structure:
        """The structure, or InvalidArgument naming the first field that is wrong."""
        for name in ("buy_in", "fee", "starting_stack", "rebuy_chips", "add_on_chips",
                     "add_on_price"):
            _chips(name, getattr(self, name))
        if self.starting_stack <= 0:
            raise InvalidArgument("starting_stack: must be at least 1 chip")
        if self.buy_in + self.fee > MAX_CHIPS:
            raise InvalidArgument(f"buy_in + fee: at most {MAX_CHIPS} chips")
        if not 1 <= len(self.levels) <= MAX_LEVELS:
            raise InvalidArgument(f"levels: 1..{MAX_LEVELS} levels, not {len(self.levels)}")
        for i, level in enumerate(self.levels):
            _level(i, level)
        if self.levels[0].is_break:
            raise InvalidArgument("levels[0]: the first level cannot be a break")
        last = len(self.levels) - 1
        for name in ("late_registration_until_level", "rebuy_until_level"):
            value = getattr(self, name)
            if not 0 <= value <= last:
                raise InvalidArgument(f"{name}: {value} is not a level (0..{last})")
        if not 0 <= self.max_rebuys <= MAX_REBUYS:
            raise InvalidArgument(f"max_rebuys: {self.max_rebuys} is not in 0..{MAX_REBUYS}")
        if not 0 <= self.max_re_entries <= MAX_REBUYS:
            raise InvalidArgument(f"max_re_entries: {self.max_re_entries} is not in "
                                  f"0..{MAX_REBUYS}")
        if not 2 <= self.table_size <= MAX_TABLE_SIZE:
            raise InvalidArgument(f"table_size: {self.table_size} is not in 2..{MAX_TABLE_SIZE}")
        if not 0 <= self.max_players <= MAX_PLAYERS:
            raise InvalidArgument(f"max_players: {self.max_players} is not in 0..{MAX_PLAYERS}")
        if not 2 <= self.min_players <= (self.max_players or MAX_PLAYERS):
            raise InvalidArgument(f"min_players: {self.min_players} is not in "
                                  f"2..{self.max_players or MAX_PLAYERS}")
        if self.sit_and_go and not self.max_players:
            raise InvalidArgument("max_players: a sit-and-go (no start time) starts when "
                                  "max_players have registered; say how many")
        if self.start_unix_ms < 0:
            raise InvalidArgument("start_unix_ms: must not be negative")
        if not 0 <= self.action_time_ms <= 600_000:
            raise InvalidArgument("action_time_ms: 0..600000")
        _payouts(self.payouts)
        return self

    def clock(self, seconds: float) -> Clock:
        """The level `seconds` of play after the start (time on breaks counted): the last
        level lasts for ever."""
        left = max(0.0, seconds)
        for i, level in enumerate(self.levels):
            length = level.minutes * 60.0
            if left < length or i == len(self.levels) - 1:
                return Clock(i, max(0.0, length - left) if i < len(self.levels) - 1 else
                             math.inf, level.is_break)
            left -= length
        raise AssertionError("unreachable")

    def blind_index(self, index: int) -> int:
        """The dealer's level index of schedule level `index`: breaks are not dealer levels
        (a break holds the tables), so they are skipped; a break plays the level before."""
        return sum(1 for level in self.levels[:index + 1] if not level.is_break) - 1

    def dealer_levels(self) -> list[LevelSpec]:
        return [level for level in self.levels if not level.is_break]

    def shares(self, entries: int) -> tuple[int, ...]:
        """T2: the payout shares for a field of `entries` entries (the largest tier that
        fits); never more places than entries."""
        chosen: tuple[int, ...] = (WHOLE,)
        for tier in sorted(self.payouts, key=lambda t: t.min_entries):
            if entries >= tier.min_entries:
                chosen = tier.shares
        if len(chosen) > max(1, entries):
            kept = list(chosen[:max(1, entries)])
            kept[0] += WHOLE - sum(kept)
            chosen = tuple(kept)
        return chosen

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Structure:
        data = dict(data)
        data["levels"] = tuple(LevelSpec(**level) for level in data["levels"])
        data["payouts"] = tuple(PayoutTier(t["min_entries"], tuple(t["shares"]))
                                for t in data["payouts"])
        data["pay_jumps"] = tuple(data.get("pay_jumps", ()))
        return cls(**data)


def _chips(name: str, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_CHIPS:
        raise InvalidArgument(f"{name}: {value!r} is not a whole number of chips in "
                              f"0..{MAX_CHIPS}")


def _level(i: int, level: LevelSpec) -> None:
    if not 0 < level.minutes <= MAX_MINUTES:
        raise InvalidArgument(f"levels[{i}].minutes: {level.minutes} is not in "
                              f"(0, {MAX_MINUTES}]")
    if level.is_break:
        return
    for name in ("small_blind", "big_blind", "ante"):
        _chips(f"levels[{i}].{name}", getattr(level, name))
    if not 0 < level.small_blind <= level.big_blind:
        raise InvalidArgument(f"levels[{i}]: the small blind must be 1..big_blind, not "
                              f"{level.small_blind} (big blind {level.big_blind})")


def _payouts(tiers: tuple[PayoutTier, ...]) -> None:
    if not 1 <= len(tiers) <= MAX_PAYOUT_TIERS:
        raise InvalidArgument(f"payouts: 1..{MAX_PAYOUT_TIERS} tiers, not {len(tiers)}")
    for i, tier in enumerate(tiers):
        if not 1 <= len(tier.shares) <= MAX_PAID:
            raise InvalidArgument(f"payouts[{i}]: 1..{MAX_PAID} places paid")
        if any(s <= 0 for s in tier.shares) or sum(tier.shares) != WHOLE:
            raise InvalidArgument(f"payouts[{i}].shares: positive basis points adding up "
                                  f"to {WHOLE}, not {sum(tier.shares)}")
        if list(tier.shares) != sorted(tier.shares, reverse=True):
            raise InvalidArgument(f"payouts[{i}].shares: a better place is never paid less")
        if tier.min_entries < 1:
            raise InvalidArgument(f"payouts[{i}].min_entries: at least 1")


def check_name(name: str) -> str:
    if not name or len(name) > MAX_NAME_CHARS:
        raise InvalidArgument(f"name: 1..{MAX_NAME_CHARS} characters")
    return name
