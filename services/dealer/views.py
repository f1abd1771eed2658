"""Engine and dealer values as DealerService messages: configs, events per viewer, table views.

Each event's message is poker.mapping's (the WIRE profile: no function per event kind
here); what is decided here is who sees what. Redaction has one source: the engine's
`redact(event, viewer)` for the engine's events, `audit_only` for the dealer's. A seat
sees its own cards only in hands dealt after its player sat down; before that it sees
what a spectator sees. Each stored event keeps its serialized form per audience
(everyone, the viewers who see it whole, the others), so an event is built and
serialized once for all the streams that carry it, and a streamed message is those
bytes joined.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from poker import mapping, timefields
from poker.cards import card_text
from poker.enum_wire import members, numbers
from poker.mapping import field_tag, length_delimited
from poker.v1 import dealer_pb2 as pb
from poker.vocab import table_events as ev
from poker.vocab.config import MAX_RAKE_CAPS
from services.dealer import deck
from services.dealer.auth import Caller
from services.dealer.engine import (
    AUDITOR,
    SPECTATOR,
    ActionKind,
    ActionTaken,
    AnteForm,
    ButtonRule,
    CardsMucked,
    CardsShown,
    Decision,
    HoleCardsDealt,
    Level,
    MinRaiseRule,
    Preset,
    Rake,
    RakeCap,
    Street,
    Structure,
    TableConfig,
    Visibility,
    redact,
)
from services.dealer.errors import InvalidArgument
from services.dealer.table.owed import owed_blinds
from services.dealer.table.state import kinds
from services.dealer.tables import Stored, Table, TableOptions

DEFAULT_PAUSE_MS = 2000


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who reads: the engine's viewer (a seat, SPECTATOR or AUDITOR) and, for a seat,
    the sequence its player sat down at (earlier events are seen as a spectator)."""

    who: Any
    since: int = 0
    seat: int | None = field(init=False, default=None)  # who, when it is a seat

    def __post_init__(self) -> None:
        object.__setattr__(self, "seat", self.who if isinstance(self.who, int) else None)

    def at(self, sequence: int) -> Any:
        """The engine viewer for an event at `sequence`."""
        if isinstance(self.who, int) and sequence < self.since:
            return SPECTATOR
        return self.who


def viewer_for(caller: Caller, table: Table) -> Viewer:
    if caller.role == "auditor":
        return Viewer(AUDITOR)
    if caller.role == "seat":
        return Viewer(caller.seat, table.seated_at.get(caller.seat, 0))
    return _SPECTATOR


#: A spectator (a frozen value: one serves every call).
_SPECTATOR = Viewer(SPECTATOR)


def texts(cards: Sequence[int]) -> list[str]:
    return [card_text(c) for c in cards]


# ------------------------------------------------------------------ configuration

def _with_default(table: dict[int, Any], default: Any) -> dict[int, Any]:
    """A proto enum's members with UNSPECIFIED (0) read as the table option's default."""
    return {**table, 0: default}


#: proto number -> vocabulary member, from the descriptors (poker.enum_wire's rule).
_STRUCTURES: dict[int, Structure] = _with_default(members(Structure, pb.Structure),
                                                  Structure.NO_LIMIT)
_PRESETS: dict[int, Preset] = _with_default(members(Preset, pb.Preset), Preset.SEED)
_RAISE_RULES: dict[int, MinRaiseRule | None] = members(MinRaiseRule, pb.MinRaiseRule)
_ANTE_FORMS: dict[int, AnteForm] = _with_default(members(AnteForm, pb.AnteForm),
                                                 AnteForm.EACH_PLAYER)
_BUTTON_RULES: dict[int, ButtonRule] = _with_default(members(ButtonRule, pb.ButtonRule),
                                                     ButtonRule.DEAD)


def _enum(table: Mapping[int, Any], value: int, field: str) -> Any:
    if value not in table:
        raise InvalidArgument(f"config.{field}: {value} is not a known value")
    return table[value]


def _reverse(table: Mapping[int, Any]) -> dict[Any, Any]:
    return {v: k for k, v in table.items() if k}


def config_from_proto(config: pb.TableConfig) -> tuple[TableConfig, TableOptions]:
    """The engine's configuration and the dealer's options; defaults for zero fields. A
    time field given as a Duration wins over its deprecated integer (AIP-142)."""
    timefields.settle(config, "config.")
    levels = tuple(Level(int(x.small_blind), int(x.big_blind), int(x.ante)) for x in config.levels)
    if config.deck_seed and not config.test_mode:
        raise InvalidArgument("config.deck_seed: a fixed deck is allowed only in test mode (R2)")
    engine = TableConfig(
        seats=config.seats or 6,
        structure=_enum(_STRUCTURES, config.structure, "structure"),
        preset=_enum(_PRESETS, config.preset, "preset"),
        levels=levels or (Level(50, 100),),
        hands_per_level=config.hands_per_level,
        minutes_per_level=config.minutes_per_level,
        ante_form=_enum(_ANTE_FORMS, config.ante_form, "ante_form"),
        turn_river_min_bet=config.turn_river_min_bet or None,
        min_raise_rule=_enum(_RAISE_RULES, config.min_raise_rule, "min_raise_rule"),
        fixed_limit_cap=config.fixed_limit_cap or 4,
        all_in_exposure=config.all_in_exposure if config.HasField("all_in_exposure") else True,
        action_time_ms=config.action_time_ms or 30_000,
        show_time_ms=config.show_time_ms or 5_000,
        test_mode=config.test_mode,
        player_seeded_decks=config.player_seeded_decks,
        seed_time_ms=config.seed_time_ms or 1_000,
        rake=rake_from_proto(config.rake) if config.HasField("rake") else None,
        straddle=config.straddle,
        absent_dealt_in=config.absent_dealt_in,
        button_rule=_enum(_BUTTON_RULES, config.button_rule, "button_rule"),
        min_players_to_start=config.min_players_to_start or 2,
        **_clock_options(config),
    )
    pause = (config.pause_between_hands_ms if config.HasField("pause_between_hands_ms")
             else DEFAULT_PAUSE_MS)
    return engine, TableOptions(pause, config.deck_seed if config.test_mode else None)


def config_to_proto(config: TableConfig, options: TableOptions) -> pb.TableConfig:
    """The configuration as the dealer runs it, every time both ways (AIP-142)."""
    message = pb.TableConfig(
        seats=config.seats,
        structure=_reverse(_STRUCTURES)[config.structure],
        preset=_reverse(_PRESETS)[config.preset],
        levels=[level_to_proto(x) for x in config.levels],
        hands_per_level=config.hands_per_level,
        minutes_per_level=config.minutes_per_level,
        ante_form=_reverse(_ANTE_FORMS)[config.ante_form],
        turn_river_min_bet=config.effective_turn_river_min_bet,
        min_raise_rule=_reverse(_RAISE_RULES)[config.effective_min_raise_rule],
        fixed_limit_cap=config.fixed_limit_cap,
        all_in_exposure=config.all_in_exposure,
        action_time_ms=config.action_time_ms,
        show_time_ms=config.show_time_ms,
        pause_between_hands_ms=options.pause_ms,
        test_mode=config.test_mode,
        deck_seed=options.deck_seed or 0,
        player_seeded_decks=config.player_seeded_decks,
        seed_time_ms=config.seed_time_ms,
        rake=rake_to_proto(config.rake) if config.rake is not None else None,
        straddle=config.straddle,
        absent_dealt_in=config.absent_dealt_in,
        button_rule=_reverse(_BUTTON_RULES)[config.button_rule],
        min_players_to_start=config.min_players_to_start,
        sit_out_limit_ms=config.sit_out_limit_ms,
        sit_out_limit_orbits=config.sit_out_limit_orbits,
        time_bank_ms=config.time_bank_ms,
        time_bank_refill_ms=config.time_bank_refill_ms,
        time_bank_refill_hands=config.time_bank_refill_hands,
        run_it_twice=config.run_it_twice,
    )
    timefields.fill(message)
    return message


def rake_from_proto(rake: pb.Rake) -> Rake:
    """R36: the table's rake (checked with the rest of the TableConfig)."""
    if len(rake.caps) > MAX_RAKE_CAPS:
        raise InvalidArgument(f"config.rake.caps: {len(rake.caps)} entries; at most "
                              f"{MAX_RAKE_CAPS}")
    return Rake(rake.basis_points, rake.cap,
                tuple(RakeCap(c.players, c.cap) for c in rake.caps))


def rake_to_proto(rake: Rake) -> pb.Rake:
    return pb.Rake(basis_points=rake.basis_points, cap=rake.cap,
                   caps=[pb.RakeCap(players=c.players, cap=c.cap) for c in rake.caps])


#: R34, R35: the options whose unset value is the rule book's default and 0 means none.
_CLOCK_OPTIONS = ("sit_out_limit_ms", "sit_out_limit_orbits", "time_bank_ms",
                  "time_bank_refill_ms", "time_bank_refill_hands")


def _clock_options(config: pb.TableConfig) -> dict[str, Any]:
    """R34, R35, R38: the options set (an unset one keeps TableConfig's default)."""
    given: dict[str, Any] = {name: getattr(config, name) for name in _CLOCK_OPTIONS
                             if config.HasField(name)}
    given["run_it_twice"] = config.run_it_twice
    return given


def level_to_proto(level: Level) -> pb.Level:
    message: pb.Level = _LEVEL(level)
    return message


_LEVEL = mapping.encoder(Level, pb.Level.DESCRIPTOR, mapping.WIRE)


# ------------------------------------------------------------------------ actions

#: vocabulary member -> proto number, from the descriptors (poker.enum_wire's rule). The
#: dealer's events keep their decisions and reasons as the members' texts (a StrEnum is
#: equal to its text and hashes alike, so the same tables serve both).
_ACTIONS: dict[ActionKind, Any] = numbers(ActionKind, pb.ActionKind)
_ACTION_NAMES: dict[int, str] = {v: k.value for k, v in _ACTIONS.items()}
_DECISIONS: dict[str, Any] = {k.value: v for k, v in numbers(Decision, pb.Decision).items()}
_STREETS: dict[Street, Any] = numbers(Street, pb.Street)


def action_kind(kind: int) -> str:
    """The engine's action name of a proto ActionKind; INVALID_ARGUMENT when unset."""
    name = _ACTION_NAMES.get(kind)
    if name is None:
        given = "unset" if kind == 0 else f"{kind} is not an ActionKind"
        raise InvalidArgument(f"kind: {given}; set an ActionKind (fold, check, call, bet, "
                              "raise, all_in, show, muck)")
    return name


def legal_from_turn(turn: ev.TurnStarted) -> pb.LegalActions:
    """The LegalActions of a turn, as its TurnStarted message carries them (poker.mapping)."""
    legal: pb.LegalActions = mapping.to_event(turn, profile=mapping.WIRE).turn_started.legal_actions
    return legal


def hand_number(hand_id: str) -> int:
    return int(hand_id.rsplit("-", 1)[1])


# ------------------------------------------------------------------------- events

#: Each event's message comes from poker.mapping (its WIRE profile): nothing here is
#: written per event kind. DeckRevealed differs per viewer (reveal_for, below).


def _position_hashes(e: ev.DeckRevealed) -> Sequence[bytes]:
    return deck.position_hashes(e.deck, e.salts, e.commitment)


def reveal_for(e: ev.DeckRevealed, who: Any,
               hashes: Sequence[bytes] | None = None) -> pb.DeckRevealed:
    """R3's proof as `who` (an engine viewer) gets it: the auditor the whole deck and its
    salts; anyone else h_i for each position not opened to them (empty where it was).
    A hand dealt before per-position salts: the auditor alone gets its salt and deck."""
    if who is AUDITOR:
        return pb.DeckRevealed(salt=e.salt, deck=texts(e.deck), commitment=e.commitment,
                               salts=e.salts)
    if e.legacy:
        return pb.DeckRevealed(commitment=e.commitment, withheld=True)
    opened = e.opened_to(who)
    every = hashes if hashes is not None else _position_hashes(e)
    return pb.DeckRevealed(commitment=e.commitment,
                           hashes=[b"" if i in opened else h for i, h in enumerate(every)])


def _reveal_frame(s: Stored, viewer: Viewer) -> bytes:
    """A DeckRevealed frame per viewer (the opened positions differ), kept per viewer."""
    event = s.event
    who = viewer.at(s.sequence)
    if isinstance(who, int) and not any(seat == who for seat, _, _ in event.dealt):
        who = SPECTATOR  # a seat not dealt in sees what a spectator sees
    key = ("reveal", who)
    cached: bytes | None = s.views.get(key)
    if cached is not None:
        return cached
    hashes = s.views.get("hashes")
    if hashes is None and not event.legacy:  # 52 SHA-256s once a hand, for every viewer
        hashes = s.views["hashes"] = _position_hashes(event)
    message = _header(s)
    message.deck_revealed.CopyFrom(reveal_for(event, who, hashes))
    frame: bytes = length_delimited(_EVENTS_FIELD, message.SerializeToString())
    s.views[key] = frame
    return frame


def event_frame(s: Stored, viewer: Viewer, table: Table | None = None) -> bytes:
    """The stored event as `viewer` may see it, serialized as one `events` entry (field 1)
    of a WatchTableResponse or a PlayResponse: concatenated frames are such a message.

    Built once per audience and kept on the stored event: a public event once for every
    stream, a hole card twice (its owner's view and everyone else's)."""
    frames: dict[Any, bytes] = s.views
    shared = frames.get("public")
    if shared is not None:  # the same for every viewer: most events
        return shared
    event = s.event
    if type(event) is ev.DeckRevealed:
        return _reveal_frame(s, viewer)
    if type(event) in ev.DEALER_TYPES:
        if not event.audit_only:
            key: Any = "public"
        else:
            key = "whole" if viewer.who is AUDITOR else "hidden"
        cached = frames.get(key)
        if cached is not None:
            return cached
        if key != "hidden" and mapping.stream_policy(type(event)) == "mapped":
            data = _wire_bytes(s, event, table)
        else:
            data = _head(s)
    else:
        if event.visibility is Visibility.PUBLIC:
            key, shown = "public", event
        else:
            shown = redact(event, viewer.at(s.sequence))
            key = "whole" if shown is event else "redacted"  # the same for all the others
        cached = frames.get(key)
        if cached is not None:
            return cached
        data = _wire_bytes(s, shown, table) if shown is not None else _head(s)
    frame: bytes = length_delimited(_EVENTS_FIELD, data)
    frames[key] = frame
    return frame


def _header(s: Stored) -> pb.TableEvent:
    return pb.TableEvent(sequence=s.sequence, time_unix_ms=s.time_ms, hand_id=s.hand_id)


def _wire_bytes(s: Stored, shown: Any, table: Table | None) -> bytes:
    """The TableEvent of `shown` (the stored event or its redacted copy) for streams: the
    stored payload itself after the envelope where the wire form is the store's."""
    payload = s.views.get("payload") if shown is s.event else None
    if payload is not None and _same_on_wire(type(shown)):
        return _head(s) + payload  # type: ignore[no-any-return]
    return _event_bytes(shown, table, _WIRE, _head(s))


def _head(s: Stored) -> bytes:
    """The envelope of a stored event's TableEvent, serialized."""
    return _envelope(s.sequence, s.time_ms, s.hand_id)


_envelope = mapping.envelope_bytes
_event_bytes = mapping.to_event_bytes
_same_on_wire = mapping.same_on_wire
_WIRE = mapping.WIRE




def _same_tag(*fields: tuple[Any, str]) -> bytes:
    """The one tag these fields share (a frame built once serves all of them)."""
    tags = {field_tag(message, name) for message, name in fields}
    if len(tags) != 1:
        raise AssertionError(f"the fields {fields} no longer share a tag")
    return tags.pop()


#: `events` of WatchTableResponse, PlayResponse and SeatEvents: one frame serves all three.
_EVENTS_FIELD = _same_tag((pb.WatchTableResponse, "events"), (pb.PlayResponse, "events"),
                          (pb.SeatEvents, "events"))
_RESULT_FIELD = field_tag(pb.PlayResponse, "action_result")


def result_frame(result: pb.PlayActionResult) -> bytes:
    """A PlayActionResult as the `action_result` field of a serialized PlayResponse."""
    return length_delimited(_RESULT_FIELD, result.SerializeToString())


def shared_frames(batch: Sequence[Stored], table: Table | None = None
                  ) -> tuple[list[bytes | None], bytes | None]:
    """Each event's frame where every viewer sees it alike (None where it is redacted for
    some), and the whole batch joined when every event is alike and none unseats anyone:
    then that one string of bytes is what every viewer of the batch gets (PlayMany
    builds each of a table's seats' batches from it instead of event by event)."""
    spectator = _SPECTATOR
    frames: list[bytes | None] = []
    for s in batch:
        frame = s.views.get("public")
        if frame is None:
            event_frame(s, spectator, table)  # caches the public frame if there is one
            frame = s.views.get("public")
        frames.append(frame)
    # An unseat is checked whether or not its frame was made before (a page of history
    # framed once, then read again at another cursor).
    alike = None not in frames and ev.PlayerUnseated not in kinds(batch)
    return frames, (b"".join(frames) if alike else None)  # type: ignore[arg-type]


def events_for(batch: Sequence[Stored], viewer: Viewer,
               table: Table | None = None,
               shared: list[bytes | None] | None = None) -> tuple[bytes, bool]:
    """A batch as a viewer sees it, serialized (the `events` of a WatchTableResponse or
    PlayResponse), and whether the viewer's stream ends here (its seat was vacated:
    later events of that seat are another player's)."""
    seat = viewer.seat
    if seat is None:
        return b"".join([event_frame(s, viewer, table) for s in batch]), False
    if shared is not None and ev.PlayerUnseated not in kinds(batch):
        if None not in shared:  # every event alike for every viewer: the usual batch
            return b"".join(shared), False  # type: ignore[arg-type]
        return b"".join([f if f is not None else event_frame(s, viewer, table)
                         for s, f in zip(batch, shared, strict=True)]), False
    out = []
    for s in batch:
        out.append(event_frame(s, viewer, table))
        if type(s.event) is ev.PlayerUnseated and s.event.seat == seat \
                and s.sequence >= viewer.since:
            return b"".join(out), True
    return b"".join(out), False


# ----------------------------------------------------------------------- the table

def table_view(table: Table, viewer: Viewer) -> pb.TableView:
    """GetTable's answer for a viewer."""
    view = pb.TableView(
        table_id=table.table_id, config=config_to_proto(table.config, table.options),
        sequence=table.last_sequence, hands_played=table.hands_played,
        next_level=level_to_proto(table.next_level()), closed=table.closed)
    if table.button is not None:
        view.button = table.button
    view.last_hand_end_unix_ms = table.state.hand_ended_ms  # its Timestamp: fill, below
    if viewer.seat is not None:
        view.your_seat = viewer.seat
    hand = table.hand
    seen = _hand_facts(table, viewer) if hand is not None else _Facts()
    owed = owed_blinds(table.state)  # R10, R33
    for seat in sorted(table.seats):
        state = table.seats[seat]
        in_hand = seat in seen.dealt
        view.seats.append(pb.SeatView(
            seat=seat, player_id=state.player_id,
            stack=hand.stacks.get(seat, state.stack) if in_hand and hand else state.stack,
            bet=hand.bets.get(seat, 0) if in_hand and hand else 0,
            sitting_out=state.sitting_out, in_hand=in_hand, folded=seat in seen.folded,
            all_in=in_hand and hand is not None and hand.stacks.get(seat, 1) == 0
            and seat not in seen.folded,
            hole_cards=texts(seen.cards.get(seat, ())),
            hole_card_salts=table.salts_of(seen.cards.get(seat, ())),
            waiting_for_big_blind=state.wait_for_big_blind,
            time_bank_ms=table.state.banks.get(seat, 0)))
        if seat in owed:
            view.seats[-1].owed_blinds.CopyFrom(pb.OwedBlinds(**asdict(owed[seat])))
        if state.sit_out_after:
            view.seats[-1].sits_out_after_hand = state.sit_out_after
    if hand is not None:
        view.hand.CopyFrom(_hand_view(table, viewer))
    timefields.fill(view)  # AIP-142: the seats' and the hand's times as Duration/Timestamp
    return view


@dataclass
class _Facts:
    dealt: frozenset[int] = frozenset()
    folded: frozenset[int] = frozenset()
    cards: dict[int, tuple[int, ...]] = field(default_factory=dict)


def _hand_facts(table: Table, viewer: Viewer) -> _Facts:
    """Who is in, who folded, and which hole cards this viewer may see, from the hand's events."""
    hand = table.hand
    assert hand is not None
    who = viewer.at(table.hand_started_at)
    folded: set[int] = set()
    cards: dict[int, tuple[int, ...]] = {}
    for e in hand.events:
        if isinstance(e, ActionTaken) and e.action is ActionKind.FOLD:
            folded.add(e.seat)
        elif isinstance(e, HoleCardsDealt | CardsShown | CardsMucked):
            shown = redact(e, who)
            if isinstance(shown, HoleCardsDealt | CardsShown | CardsMucked) and shown.cards:
                cards[e.seat] = shown.cards
    return _Facts(frozenset(p.seat for p in hand.players), frozenset(folded), cards)


def _hand_view(table: Table, viewer: Viewer) -> pb.HandView:
    hand = table.hand
    assert hand is not None
    started = hand.events[0]
    out = pb.HandView(
        hand_id=hand.hand_id, hand_number=hand_number(hand.hand_id),
        street=_STREETS[hand.street], board=texts(hand.board),
        pots=[pb.Pot(amount=p.amount, eligible=p.eligible) for p in hand.pots],
        commitment=getattr(started, "commitment", ""), test_mode=table.config.test_mode,
        button=hand.button, level=level_to_proto(hand.level),
        board_salts=table.salts_of(hand.board), deck_permutation=table.permutation)
    turn = table.turn
    if turn is not None:
        out.actor = turn.seat
        out.decision = _DECISIONS[turn.decision]
        out.action_number = turn.action_number
        out.deadline_unix_ms = turn.deadline_ms
        out.time_bank_ms = turn.time_bank_ms  # R35
        out.bank_deadline_unix_ms = turn.bank_deadline_unix_ms
        if viewer.seat == turn.seat or viewer.who is AUDITOR:
            out.legal_actions.CopyFrom(legal_from_turn(turn))
    return out
