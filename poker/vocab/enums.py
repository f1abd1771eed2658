"""The enums of the game: streets, decisions, actions, forced bets, table options.

Values are the lower-case words the store, the PHH writer and the SDK use.

>>> ActionKind("all_in"), Street.FLOP.value
(<ActionKind.ALL_IN: 'all_in'>, 'flop')
"""

from __future__ import annotations

from enum import StrEnum


class Street(StrEnum):
    """Where a hand is."""

    PREFLOP = "preflop"
    FLOP = "flop"
    TURN = "turn"
    RIVER = "river"
    SHOWDOWN = "showdown"
    COMPLETE = "complete"


class Visibility(StrEnum):
    """Who sees an event whole."""

    PUBLIC = "public"
    OWNER = "owner"
    AUDIT = "audit"


class BlindKind(StrEnum):
    """A forced bet: small blind, big blind, a late joiner's live post (R10), a straddle (R37),
    or a missed small blind posted dead (R33: into the pot, counting toward no call)."""

    SMALL = "small"
    BIG = "big"
    LATE = "late"
    STRADDLE = "straddle"  # R37: a live straddle of twice the big blind, left of the big blind
    DEAD = "dead"


class ShowReason(StrEnum):
    """Why cards were turned up: at showdown (R26/R27) or an all-in exposure (R28)."""

    SHOWDOWN = "showdown"
    ALL_IN = "all_in"


class ActionKind(StrEnum):
    """A player's action (R14) or showdown choice (R27)."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    ALL_IN = "all_in"
    SHOW = "show"
    MUCK = "muck"
    RUN_IT = "run_it"  # R38: the amount is how many times, 1 or 2


class Decision(StrEnum):
    """The kind of decision awaited from the player to act."""

    BET = "bet"
    SHOW_OR_MUCK = "show_or_muck"
    RUN_IT = "run_it"  # R38: run the rest of the board once or twice


class Structure(StrEnum):
    """Betting structure (R16)."""

    NO_LIMIT = "no_limit"
    POT_LIMIT = "pot_limit"
    FIXED_LIMIT = "fixed_limit"


class Preset(StrEnum):
    """Rule presets (RULES.md, Presets table)."""

    SEED = "seed"
    STANDARD = "standard"


class MinRaiseRule(StrEnum):
    """Minimum raise rule (R18)."""

    DOUBLE = "double"
    STANDARD = "standard"


class AnteForm(StrEnum):
    """Who posts the ante (R8)."""

    EACH_PLAYER = "each_player"
    BIG_BLIND = "big_blind"


class ButtonRule(StrEnum):
    """How the button and the blinds move when seats empty (R5)."""

    DEAD = "dead"
    MOVING = "moving"


class SitOutReason(StrEnum):
    """Why a player sits out: asked to, or timed out (R32)."""

    REQUESTED = "requested"
    TIMED_OUT = "timed_out"


class UnseatReason(StrEnum):
    """Why the dealer took a player off the table by itself (R34); a player the lobby
    unseats has no reason (the empty text)."""

    SIT_OUT_LIMIT = "sit_out_limit"
