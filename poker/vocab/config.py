"""Table options of the rule book as data: structure, preset, levels, antes, limits (R6-R32).

A TableConfig is checked when it is made; a bad one raises ConfigError naming the
option and the rule it breaks.

>>> config = TableConfig(preset=Preset.STANDARD, levels=(Level(50, 100), Level(100, 200, 25)),
...                      hands_per_level=10)
>>> config.effective_min_raise_rule, config.effective_turn_river_min_bet
(<MinRaiseRule.STANDARD: 'standard'>, 1)
>>> config.level_at(hands_played=12)
Level(small_blind=100, big_blind=200, ante=25)
>>> TableConfig(levels=(Level(50, 100), Level(50, 150)))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
poker.vocab.errors.ConfigError: levels[1]: big blind 150 must be twice ... (R6)
"""

from __future__ import annotations

from dataclasses import dataclass

from poker.limits import MAX_CHIPS
from poker.vocab.enums import AnteForm, ButtonRule, MinRaiseRule, Preset, Structure
from poker.vocab.errors import ConfigError

MIN_SEATS = 2
MAX_SEATS = 10


@dataclass(frozen=True, slots=True)
class Level:
    """Forced bets of one level (R9): small blind, big blind = 2 x small blind (R6), ante.

    With AnteForm.BIG_BLIND, `ante` is what the big blind alone posts for the
    whole table (tournament "big blind ante" levels are written that way).

    >>> Level(50, 100).problem() is None, Level(50, 120).problem()
    (True, 'big blind 120 must be twice the small blind 50 (R6)')
    """

    small_blind: int
    big_blind: int
    ante: int = 0

    def __str__(self) -> str:
        return f"{self.small_blind}/{self.big_blind}" + (f" ante {self.ante}" if self.ante else "")

    def problem(self) -> str | None:
        """Why this level is not allowed, or None."""
        for name in ("small_blind", "big_blind", "ante"):
            value = getattr(self, name)
            if not _is_int(value):
                return f"{name.replace('_', ' ')} {value!r} must be a whole number of chips"
        if self.small_blind < 1:
            return f"small blind {self.small_blind} must be at least 1 chip"
        if self.big_blind != 2 * self.small_blind:
            return (
                f"big blind {self.big_blind} must be twice the small blind {self.small_blind} (R6)"
            )
        if self.ante < 0:
            return f"ante {self.ante} cannot be negative"
        for name in ("small_blind", "big_blind", "ante"):
            if getattr(self, name) > MAX_CHIPS:
                return (f"{name.replace('_', ' ')} {getattr(self, name)} is past the maximum "
                        f"of {MAX_CHIPS} chips")
        return None


@dataclass(frozen=True, slots=True)
class PlayerIn:
    """A player dealt into a hand: seat, id, the chips that play (R29), a late post (R10,
    R33: a live big blind), a missed small blind posted dead (R33)."""

    seat: int
    player_id: str
    stack: int
    posts_late: bool = False
    straddles: bool = False  # R37: posts a live straddle this hand (the seat left of the big blind)
    posts_dead_small_blind: bool = False


#: R36: rake percentages are in basis points (hundredths of a percent): 500 is 5%.
BASIS_POINTS = 10_000
#: R36: the highest rake a table may take, in basis points (25%).
MAX_RAKE_BASIS_POINTS = 2_500
#: R36: how many per-player-count caps a table may list.
MAX_RAKE_CAPS = 10


@dataclass(frozen=True, slots=True)
class RakeCap:
    """R36: the rake cap of hands dealt to at least `players` players (the entry with the
    largest `players` not above the count dealt in applies)."""

    players: int
    cap: int


@dataclass(frozen=True, slots=True)
class Rake:
    """R36: what a cash table takes from each hand's pots that saw a flop ("no flop, no drop").

    `basis_points` of the pots (500 = 5%), rounded down to the chip, at most the cap in
    force: the `caps` entry for the number of players dealt in, else `cap` (0: none).

    >>> rake = Rake(500, cap=300, caps=(RakeCap(2, 50), RakeCap(4, 200)))
    >>> rake.cap_for(2), rake.cap_for(3), rake.cap_for(9), Rake(500).cap_for(9)
    (50, 50, 200, None)
    >>> rake.amount(2_030, players=5), rake.amount(2_030, players=2)
    (101, 50)
    """

    basis_points: int
    cap: int = 0
    caps: tuple[RakeCap, ...] = ()

    def cap_for(self, players: int) -> int | None:
        """The cap of a hand dealt to `players`, None when there is none."""
        best: RakeCap | None = None
        for entry in self.caps:
            if entry.players <= players and (best is None or entry.players > best.players):
                best = entry
        if best is not None:
            return best.cap
        return self.cap or None

    def amount(self, pots: int, players: int) -> int:
        """The rake of a hand whose pots total `pots` chips (a flop having been dealt)."""
        taken = pots * self.basis_points // BASIS_POINTS
        cap = self.cap_for(players)
        return taken if cap is None or taken < cap else cap

    def problem(self) -> str | None:
        """Why this rake is not allowed, or None."""
        if not _is_int(self.basis_points) or not 0 < self.basis_points <= MAX_RAKE_BASIS_POINTS:
            return (f"basis_points: {self.basis_points!r} must be 1 to {MAX_RAKE_BASIS_POINTS} "
                    "(hundredths of a percent: 500 is 5%)")
        if not _is_int(self.cap) or not 0 <= self.cap <= MAX_CHIPS:
            return f"cap: {self.cap!r} must be 0 (none) to {MAX_CHIPS} chips"
        if not isinstance(self.caps, tuple) or len(self.caps) > MAX_RAKE_CAPS:
            return f"caps: give at most {MAX_RAKE_CAPS} RakeCap (a tuple)"
        seen: set[int] = set()
        for i, entry in enumerate(self.caps):
            if not isinstance(entry, RakeCap):
                return f"caps[{i}]: {entry!r} is not a RakeCap"
            if not _is_int(entry.players) or not MIN_SEATS <= entry.players <= MAX_SEATS:
                return f"caps[{i}].players: {entry.players!r} must be {MIN_SEATS} to {MAX_SEATS}"
            if entry.players in seen:
                return f"caps[{i}].players: {entry.players} is given twice"
            seen.add(entry.players)
            if not _is_int(entry.cap) or not 0 <= entry.cap <= MAX_CHIPS:
                return f"caps[{i}].cap: {entry.cap!r} must be 0 to {MAX_CHIPS} chips"
        return None


#: R39: the longest a table may wait for its players' seeds before each hand.
MAX_SEED_TIME_MS = 60_000


@dataclass(frozen=True, slots=True)
class TableConfig:
    """Every table option of RULES.md. Defaults: the seed preset, no limit, 50/100, 6 seats."""

    seats: int = 6
    structure: Structure = Structure.NO_LIMIT
    preset: Preset = Preset.SEED
    levels: tuple[Level, ...] = (Level(50, 100),)
    hands_per_level: int = 0
    minutes_per_level: float = 0.0
    ante_form: AnteForm = AnteForm.EACH_PLAYER
    turn_river_min_bet: int | None = None
    min_raise_rule: MinRaiseRule | None = None
    fixed_limit_cap: int = 4
    all_in_exposure: bool = True
    action_time_ms: int = 30_000
    show_time_ms: int = 5_000
    test_mode: bool = False
    player_seeded_decks: bool = False  # R39
    seed_time_ms: int = 1_000  # R39: how long the dealer waits for the seeds
    rake: Rake | None = None  # R36: none (tournament tables take none)
    straddle: bool = False  # R37: the seat left of the big blind may post a live straddle
    absent_dealt_in: bool = False  # T4: sat-out players are dealt in (tournament tables)
    button_rule: ButtonRule = ButtonRule.DEAD  # R5
    min_players_to_start: int = 2  # the first hand waits for this many players
    # R34: a seat sat out this long, or for this many orbits, is taken off (0: no limit)
    sit_out_limit_ms: int = 30 * 60_000
    sit_out_limit_orbits: int = 3
    # R35: each seat's time bank (0: none), refilled by `time_bank_refill_ms` every
    # `time_bank_refill_hands` hands (0: never), up to `time_bank_ms`
    time_bank_ms: int = 30_000
    time_bank_refill_ms: int = 5_000
    time_bank_refill_hands: int = 10
    run_it_twice: bool = False  # R38: all-in players may agree to deal the rest twice

    def __post_init__(self) -> None:
        problem = self._problem()
        if problem is not None:
            raise ConfigError(problem)

    def _problem(self) -> str | None:  # noqa: C901 - one check per option, in field order
        if not _is_int(self.seats) or not MIN_SEATS <= self.seats <= MAX_SEATS:
            return f"seats: {self.seats!r}: a table has {MIN_SEATS} to {MAX_SEATS} seats"
        for name, enum in (
            ("structure", Structure),
            ("preset", Preset),
            ("ante_form", AnteForm),
            ("button_rule", ButtonRule),
        ):
            if not isinstance(getattr(self, name), enum):
                choices = ", ".join(e.value for e in enum)
                return f"{name}: {getattr(self, name)!r} is not one of {choices}"
        if not isinstance(self.levels, tuple) or not self.levels:
            return "levels: give at least one Level (a tuple of Level) (R9)"
        for i, level in enumerate(self.levels):
            if not isinstance(level, Level):
                return f"levels[{i}]: {level!r} is not a Level"
            problem = level.problem()
            if problem is not None:
                return f"levels[{i}]: {problem}"
        if not _is_int(self.hands_per_level) or self.hands_per_level < 0:
            return (
                f"hands_per_level: {self.hands_per_level!r} must be 0 (never) "
                "or a positive number of hands (R9)"
            )
        if (
            isinstance(self.minutes_per_level, bool)
            or not isinstance(self.minutes_per_level, int | float)
            or not self.minutes_per_level >= 0
        ):
            return (
                f"minutes_per_level: {self.minutes_per_level!r} must be 0 (never) "
                "or a positive number of minutes (R9)"
            )
        fixed = self.structure is Structure.FIXED_LIMIT
        if self.turn_river_min_bet is not None:
            if fixed:
                return "turn_river_min_bet: fixed limit bets are fixed (R16): leave it unset"
            if not _is_int(self.turn_river_min_bet) or self.turn_river_min_bet < 1:
                return (
                    f"turn_river_min_bet: {self.turn_river_min_bet!r} must be a whole number of "
                    "big blinds, at least 1 (R17: never less than the big blind)"
                )
        if self.min_raise_rule is not None:
            if fixed:
                return (
                    "min_raise_rule: fixed limit raises are exactly one bet (R16): leave it unset"
                )
            if not isinstance(self.min_raise_rule, MinRaiseRule):
                return f"min_raise_rule: {self.min_raise_rule!r} is not one of double, standard"
        problem = self._sizes_problem()
        if problem is not None:
            return problem
        if not _is_int(self.fixed_limit_cap) or self.fixed_limit_cap < 1:
            return (
                f"fixed_limit_cap: {self.fixed_limit_cap!r} must be at least 1 "
                "(bets plus raises allowed in a round, R16)"
            )
        for name in ("all_in_exposure", "test_mode", "player_seeded_decks", "straddle",
                     "run_it_twice"):
            if not isinstance(getattr(self, name), bool):
                return f"{name}: {getattr(self, name)!r} must be true or false"
        for name in ("action_time_ms", "show_time_ms"):
            value = getattr(self, name)
            if not _is_int(value) or value < 1:
                return f"{name}: {value!r} must be a positive number of milliseconds (R27, R32)"
        if not _is_int(self.seed_time_ms) or not 1 <= self.seed_time_ms <= MAX_SEED_TIME_MS:
            return (f"seed_time_ms: {self.seed_time_ms!r} must be 1 to {MAX_SEED_TIME_MS} "
                    "milliseconds (R39)")
        if self.rake is not None:
            if not isinstance(self.rake, Rake):
                return f"rake: {self.rake!r} is not a Rake (or None: no rake)"
            problem = self.rake.problem()
            if problem is not None:
                return f"rake.{problem} (R36)"
        if self.straddle and fixed:
            return "straddle: a straddle is for no limit and pot limit tables (R37)"
        if not _is_int(self.min_players_to_start) or not (
                MIN_SEATS <= self.min_players_to_start <= self.seats):
            return (f"min_players_to_start: {self.min_players_to_start!r} must be "
                    f"{MIN_SEATS} to the table's {self.seats} seats")
        return _clock_problem(self)

    def _sizes_problem(self) -> str | None:
        """Every bet size a level makes (R16 big bet, R17 minimum) is at most MAX_CHIPS."""
        fixed = self.structure is Structure.FIXED_LIMIT
        times = 2 if fixed else self.effective_turn_river_min_bet
        for i, level in enumerate(self.levels):
            if level.big_blind * times > MAX_CHIPS:
                what = ("the fixed limit big bet (2 big blinds, R16)" if fixed
                        else f"the turn and river minimum bet ({times} big blinds, R17)")
                return (f"levels[{i}]: {what} of {level.big_blind * times} chips is past the "
                        f"maximum of {MAX_CHIPS}")
        return None

    @property
    def effective_min_raise_rule(self) -> MinRaiseRule:
        """R18's rule in force: the explicit option, else the preset's."""
        if self.min_raise_rule is not None:
            return self.min_raise_rule
        return MinRaiseRule.DOUBLE if self.preset is Preset.SEED else MinRaiseRule.STANDARD

    @property
    def effective_turn_river_min_bet(self) -> int:
        """R17's turn and river minimum bet in big blinds: the option, else the preset's."""
        if self.turn_river_min_bet is not None:
            return self.turn_river_min_bet
        return 2 if self.preset is Preset.SEED else 1

    def level_at(self, hands_played: int, minutes_played: float = 0.0) -> Level:
        """The level in force for a hand (R9): it rises by hands or by minutes, whichever first.

        >>> TableConfig(levels=(Level(5, 10), Level(10, 20)), minutes_per_level=15).level_at(0, 31)
        Level(small_blind=10, big_blind=20, ante=0)
        """
        index = 0
        if self.hands_per_level:
            index = max(index, hands_played // self.hands_per_level)
        if self.minutes_per_level:
            index = max(index, int(minutes_played // self.minutes_per_level))
        return self.levels[min(index, len(self.levels) - 1)]


#: R34, R35: the longest sit-out limit and time bank a table may set (a day, ten minutes).
MAX_SIT_OUT_LIMIT_MS = 24 * 3_600_000
MAX_TIME_BANK_MS = 600_000
MAX_CLOCK_COUNT = 1_000  # orbits (R34), hands between refills (R35)


def _clock_problem(config: TableConfig) -> str | None:
    """R34's sit-out limit and R35's time bank: whole numbers within their bounds."""
    for name, top, rule in (("sit_out_limit_ms", MAX_SIT_OUT_LIMIT_MS, "R34"),
                            ("sit_out_limit_orbits", MAX_CLOCK_COUNT, "R34"),
                            ("time_bank_ms", MAX_TIME_BANK_MS, "R35"),
                            ("time_bank_refill_ms", MAX_TIME_BANK_MS, "R35"),
                            ("time_bank_refill_hands", MAX_CLOCK_COUNT, "R35")):
        value = getattr(config, name)
        if not _is_int(value) or not 0 <= value <= top:
            return f"{name}: {value!r} must be a whole number from 0 (none) to {top} ({rule})"
    return None


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
