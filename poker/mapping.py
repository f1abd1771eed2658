"""One mapping between a domain value (a frozen dataclass) and its protobuf message,
driven by the message's descriptor: field names, numbers, types, oneofs and enums come
from the descriptor, never from a list written out here.

A dataclass field maps to the message field of the same name. How a value crosses
is read off the pair (the field's type hint, the message field's type):

- int, bool, str, bytes, float: as they are; `X | None` is unset (or zero without
  presence) for None, and None when unset (or zero, for a field without presence);
- a card: an `int` (0..51, R1) in the domain, its text ("As") in a `string` field;
  another scalar type registered with `scalar()` (the SDK's `Card`) likewise;
- an `Enum` member, or a `str` of a vocabulary enum's value (poker.vocab.enums, found
  by the proto enum's name), <-> the proto enum number, by poker.enum_wire's rule;
- a nested dataclass <-> a sub-message, recursively; `tuple[...]` <-> a repeated field;
  a row (`tuple[tuple[int, int], ...]`, e.g. (seat, stack)) <-> a repeated sub-message,
  the row's items in the sub-message's field order (or the names `Override.rows` gives);
- a field of the `TableEvent` envelope (sequence, time_unix_ms, hand_id) that the
  event message lacks is the envelope's;
- a time (AIP-142): an int field's message field with a Duration or Timestamp twin
  (poker.timefields' rule: `time_bank_ms` <-> `time_bank`, `X_unix_ms` <-> `X_time`) is
  written both ways and read from the twin when set, else from the int.

Where a domain value and its message genuinely differ, `OVERRIDES` (one table, below)
says so; anything else is a mistake and raises `MappingError` naming the field.

Events: each case of `TableEvent`'s `event` oneof is the vocabulary class of the same
name (poker.vocab.events, poker.vocab.table_events); a case without a class, or a
class without a case, fails at import. Adding an event kind is one dataclass, one
message, one `apply`: nothing here changes.

Two profiles: STORE is the dealer's store (every domain field, losslessly: fields
numbered for the store alone included), WIRE what streams carry (store-only fields
left out, derived fields computed from a context, e.g. the table). Each (class,
message, profile) compiles once, from the descriptor and the type hints alone, into a
writer that puts the value's bytes together field by field (tags from the descriptor;
the bytes are the message's serialization, tests/test_mapping.py) and a decoder that
reads a parsed message into the dataclass. Each is made one function the way
dataclasses makes an `__init__`: one expression a field, the field codecs it calls
bound by name, nothing written by hand. The dealer writes every event it stores and
the SDK decodes every event of its streams: one function is 1.4 to 1.6 times as fast
as a plan of closures called field by field.

>>> from poker.vocab.table_events import PlayerSatOut
>>> message = to_event(PlayerSatOut(seat=2, reason="timed_out"))
>>> message.WhichOneof("event"), message.player_sat_out.reason
('player_sat_out', 2)
>>> from_event(message)
PlayerSatOut(seat=2, reason='timed_out')
"""

from __future__ import annotations

import dataclasses
import keyword
import operator
import struct
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from google.protobuf.descriptor import FieldDescriptor  # type: ignore[import-untyped,unused-ignore]

from poker import enum_wire, timefields
from poker.cards import CARD_TEXT
from poker.v1 import table_events_pb2 as tpb
from poker.varints import ONE_BYTE, varint
from poker.varints import uvarint as _uvarint
from poker.vocab import enums as vocab_enums
from poker.vocab import events as hand_events
from poker.vocab import table_events as dealer_events

__all__ = [
    "EVENTS", "MESSAGES", "OVERRIDES", "STORE", "WIRE", "MappingError", "Override",
    "decoder", "encoder", "field_tag", "from_event", "length_delimited", "scalar",
    "to_event", "to_event_bytes", "varint",
]


class MappingError(TypeError):
    """A dataclass and a message that do not pair up: names the class, message and field."""


STORE = "store"
WIRE = "wire"


@dataclass(frozen=True)
class Override:
    """How one domain class differs from its message (the only hand-written part).

    renames: dataclass field -> message field. rows: a repeated sub-message field whose
    domain value is a tuple of rows -> the sub-message fields the row's items go to.
    flatten: message fields whose sub-message's fields are the dataclass's fields of the
    same names. derived: WIRE-only message fields computed as f(value, context).
    store_only: message fields only the store writes. wire_only: message fields the
    domain value lacks, built elsewhere (they are never read into it). stream: "mapped"
    (the WIRE plan), "per_viewer" (built by services.dealer.views for each viewer) or
    "never" (streamed without payload, as audit trail).
    """

    renames: Mapping[str, str] = field(default_factory=dict)
    rows: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    flatten: tuple[str, ...] = ()
    derived: Mapping[str, Callable[[Any, Any], Any]] = field(default_factory=dict)
    store_only: tuple[str, ...] = ()
    wire_only: tuple[str, ...] = ()
    stream: str = "mapped"


def _hand_number(value: Any, context: Any) -> int:
    return int(value.hand_id.rsplit("-", 1)[1])


def _level_of(value: Any, context: Any) -> Any:
    config = getattr(context, "config", None)
    return None if config is None else config.levels[value.level_index]


_SEAT_STACK = ("seat", "stack")

#: Every place a domain class and its message differ, keyed by the domain class.
OVERRIDES: dict[type, Override] = {
    # hand_number is the hand id's; the table's config is the store's (field 130).
    # button_dead (R5): no player dealt in sits at the button.
    hand_events.HandStarted: Override(
        derived={"hand_number": _hand_number,
                 "test_mode": lambda value, context: value.config.test_mode,
                 "button_dead": lambda value, context: all(
                     p.seat != value.button for p in value.players)},
        store_only=("config",)),
    hand_events.HandEnded: Override(rows={"stacks": _SEAT_STACK}),
    # The wire form differs per viewer (views.reveal_for); the store keeps the domain's.
    dealer_events.DeckRevealed: Override(
        store_only=("public", "dealt"), wire_only=("hashes", "withheld"), stream="per_viewer"),
    dealer_events.HandSalt: Override(stream="never"),  # the salts go with their cards
    # LegalActions is a sub-message on the wire, flat in the event.
    dealer_events.TurnStarted: Override(renames={"deadline_ms": "deadline_unix_ms"},
                                        flatten=("legal_actions",)),
    dealer_events.DeckCommitted: Override(renames={"deadline_ms": "deadline_unix_ms"}),
    dealer_events.HandVoided: Override(rows={"stacks": _SEAT_STACK}),
    dealer_events.PlayerUnseated: Override(flatten=("stack",)),
    dealer_events.ChipsAdded: Override(store_only=("idempotency_key",)),
    dealer_events.LevelSet: Override(derived={"level": _level_of}),
}
_NONE = Override()

# ------------------------------------------------------------------- scalar values

_CARD_INDEX: dict[str, int] = {text: i for i, text in enumerate(CARD_TEXT)}
#: Registered scalar types: type -> (to the wire, from the wire).
_SCALARS: dict[type, tuple[Callable[[Any], Any], Callable[[Any], Any]]] = {}
_PLAN_CACHE: dict[tuple[Any, ...], Any] = {}


def scalar(kind: type, encode: Callable[[Any], Any], decode: Callable[[Any], Any],
           known: Mapping[Any, Any] | None = None) -> None:
    """Registers a scalar type of its own (the SDK's `Card` <-> card text); `known`, the
    decoded value of each usual wire value, lets a repeated field decode at C speed."""
    _SCALARS[kind] = (encode, decode)
    if known is not None:
        _KNOWN[decode] = known
    _PLAN_CACHE.clear()


_KNOWN: dict[Any, Mapping[Any, Any]] = {}


def _card_text(index: int) -> str:
    return CARD_TEXT[index]


def _card_index(text: str) -> int:
    try:
        return _CARD_INDEX[text]
    except KeyError:
        raise ValueError(f"{text!r} is not a card") from None


_T = FieldDescriptor
_INTS = frozenset({_T.TYPE_INT32, _T.TYPE_INT64, _T.TYPE_UINT32, _T.TYPE_UINT64,
                   _T.TYPE_SINT32, _T.TYPE_SINT64, _T.TYPE_FIXED32, _T.TYPE_FIXED64,
                   _T.TYPE_SFIXED32, _T.TYPE_SFIXED64})
_PLAIN = {int: _INTS, bool: {_T.TYPE_BOOL}, str: {_T.TYPE_STRING}, bytes: {_T.TYPE_BYTES},
          float: {_T.TYPE_DOUBLE, _T.TYPE_FLOAT}}
_VOCAB_ENUMS: dict[str, type[Enum]] = {
    name: value for name, value in vars(vocab_enums).items()
    if isinstance(value, type) and issubclass(value, Enum)
    and value.__module__ == vocab_enums.__name__}


class _Enum:
    """An enum descriptor where poker.enum_wire expects a generated enum (`DESCRIPTOR`)."""

    def __init__(self, descriptor: Any) -> None:
        self.DESCRIPTOR = descriptor


def _where(cls: Any, descriptor: Any, name: str) -> str:
    return f"{getattr(cls, '__name__', cls)}.{name} <-> {descriptor.full_name}"


def _scalar_codec(hint: Any, fd: Any, where: str
                  ) -> tuple[Callable[[Any], Any] | None, Callable[[Any], Any] | None]:
    """(to the wire, from the wire) of one scalar value; None where it is the identity."""
    if hint in _SCALARS:
        return _SCALARS[hint]
    if fd.type == _T.TYPE_ENUM:
        enum_cls = hint if isinstance(hint, type) and issubclass(hint, Enum) else None
        as_text = hint is str
        if as_text:
            enum_cls = _VOCAB_ENUMS.get(fd.enum_type.name)
        if enum_cls is None:
            raise MappingError(f"{where}: {hint!r} for the enum {fd.enum_type.full_name}")
        to_number = enum_wire.numbers(enum_cls, _Enum(fd.enum_type))
        to_member = enum_wire.members(enum_cls, _Enum(fd.enum_type))
        if as_text:
            by_text = {member.value: number for member, number in to_number.items()}
            by_text[""] = 0
            texts = {number: ("" if m is None else m.value) for number, m in to_member.items()}
            return by_text.__getitem__, lambda number: texts.get(number, "")
        return to_number.__getitem__, to_member.get
    if hint is int and fd.type == _T.TYPE_STRING:  # a card (R1)
        return _card_text, _card_index
    if hint in _PLAIN and fd.type in _PLAIN[hint]:
        return None, None
    raise MappingError(f"{where}: {hint!r} cannot carry a {_type_name(fd)}")


def _type_name(fd: Any) -> str:
    for name in dir(_T):
        if name.startswith("TYPE_") and getattr(_T, name) == fd.type:
            return name[5:].lower()
    return str(fd.type)


def _optional(hint: Any) -> tuple[Any, bool]:
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(args) == 1:
            return args[0], True
    return hint, False


def _element(hint: Any) -> Any:
    """`X` of `tuple[X, ...]`, or None when `hint` is not such a tuple."""
    if typing.get_origin(hint) is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return args[0]
    return None


def _init_fields(cls: Any) -> list[Any]:
    return [f for f in dataclasses.fields(cls) if f.init]


def _proto_name(f: Any, override: Override) -> str:
    return override.renames.get(f.name) or f.metadata.get("proto", f.name)


# ---------------------------------------------------------------- field codecs

def _value_decoder(hint: Any, fd: Any, profile: str, override: Override,
                   where: str) -> Callable[[Any], Any] | None:
    """The decoder of one field's whole value (repeated, nested or scalar); None where the
    message's value is the domain's."""
    if fd.is_repeated:
        item = _element(hint)
        if item is None:
            raise MappingError(f"{where}: a repeated field needs a tuple[..., ...], not {hint!r}")
        if fd.type == _T.TYPE_MESSAGE:
            if dataclasses.is_dataclass(item):
                dec = decoder(item, fd.message_type, profile)
                return lambda values: tuple([dec(v) for v in values])
            if typing.get_origin(item) is tuple:
                return _rows_decoder(item, fd, override.rows.get(fd.name), where)
            raise MappingError(f"{where}: {item!r} cannot carry a {fd.message_type.full_name}")
        _, from_wire = _scalar_codec(item, fd, where)
        if from_wire is None:
            return tuple
        known = _CARD_INDEX if from_wire is _card_index else _KNOWN.get(from_wire)
        if known is not None:
            lookup = known.__getitem__
            slow = from_wire

            def each_known(values: Any) -> tuple[Any, ...]:
                try:
                    return tuple(map(lookup, values))  # a whole deck at C speed
                except KeyError:
                    return tuple(map(slow, values))  # raises naming the value
            return each_known
        return lambda values: tuple(map(from_wire, values))
    hint, _ = _optional(hint)
    if fd.type == _T.TYPE_MESSAGE:
        if not dataclasses.is_dataclass(hint):
            raise MappingError(f"{where}: {hint!r} cannot carry a {fd.message_type.full_name}")
        return decoder(hint, fd.message_type, profile)
    return _scalar_codec(hint, fd, where)[1]


def _row_fields(row: Any, fd: Any, names: tuple[str, ...] | None, where: str) -> list[Any]:
    """The sub-message fields a row's items go to: the ones `names` gives, or every field
    of the sub-message in field-number order."""
    sub = fd.message_type
    fields = ([sub.fields_by_name[n] for n in names] if names
              else sorted(sub.fields, key=lambda x: x.number))
    items = typing.get_args(row)
    if len(items) != len(fields) or Ellipsis in items:
        raise MappingError(f"{where}: a row {row!r} for the fields "
                           f"{[x.name for x in fields]} of {sub.full_name}")
    return fields


def _rows_decoder(row: Any, fd: Any, names: tuple[str, ...] | None, where: str
                  ) -> Callable[[Any], Any]:
    """A repeated sub-message -> a tuple of rows (item k of a row: the k-th field)."""
    fields = _row_fields(row, fd, names, where)
    decs = [_scalar_codec(item, sub_fd, f"{where}[{sub_fd.name}]")[1]
            for item, sub_fd in zip(typing.get_args(row), fields, strict=True)]
    get = operator.attrgetter(*[x.name for x in fields])
    if all(d is None for d in decs):
        return lambda messages: tuple(map(get, messages))
    return lambda messages: tuple([tuple([v if dec is None else dec(v) for v, dec in zip(
        get(m), decs, strict=True)]) for m in messages])


def _message_class(descriptor: Any) -> Any:
    from google.protobuf import message_factory  # type: ignore[import-untyped,unused-ignore]

    return message_factory.GetMessageClass(descriptor)


# ----------------------------------------------------------------------- plans

def encoder(cls: Any, descriptor: Any, profile: str = STORE) -> Callable[..., Any]:
    """`encode(value, context=None) -> message` for dataclass `cls` and message
    `descriptor`: the message `writer`'s bytes are."""
    write = writer(cls, descriptor, profile)
    parse = _message_class(descriptor).FromString
    return lambda value, context=None: parse(write(value, context))


def decoder(cls: Any, descriptor: Any, profile: str = STORE) -> Callable[..., Any]:
    """`decode(message, envelope=None) -> value` for dataclass `cls` and message
    `descriptor`, compiled once (per profile); fields of the TableEvent envelope the
    message lacks are read from `envelope`."""
    key = ("dec", cls, descriptor.full_name, profile)
    plan = _PLAN_CACHE.get(key)
    if plan is None:
        plan = _PLAN_CACHE[key] = _compile_decoder(cls, descriptor, profile)
    return plan  # type: ignore[no-any-return,unused-ignore]


_ENVELOPE = frozenset(f.name for f in tpb.TableEvent.DESCRIPTOR.fields
                      if f.containing_oneof is None)
_EVENT_MESSAGES = frozenset(f.message_type.full_name for f in tpb.TableEvent.DESCRIPTOR.fields
                            if f.containing_oneof is not None)


@dataclass
class _Pairing:
    """Which message field each dataclass field goes to, checked both ways."""

    direct: list[tuple[Any, Any]]  # (dataclass field, message field)
    flat: list[tuple[Any, list[tuple[Any, Any]]]]  # (message field, [(dc field, sub field)])
    envelope: list[Any]  # dataclass fields of the envelope
    derived: list[tuple[Any, Callable[[Any, Any], Any]]]  # (message field, f)
    timed: dict[str, Any] = field(default_factory=dict)  # dc field -> its timefields.Twin


def _pair(cls: Any, descriptor: Any, profile: str) -> _Pairing:
    """Strict for the vocabulary's classes (every field maps; an event's message has no
    field left over); the SDK's may have fields of their own (left at their defaults)."""
    event = descriptor.full_name in _EVENT_MESSAGES
    domain = cls.__module__.startswith("poker.vocab")
    override = OVERRIDES.get(cls, _NONE)
    by_name = descriptor.fields_by_name
    flat_names = set(override.flatten)
    skip = set(override.wire_only) | set(override.derived)
    if profile == WIRE:
        skip |= set(override.store_only)
    fields = _init_fields(cls)
    claimed: set[str] = set()
    direct, envelope, unmatched = [], [], []
    twins, timed = timefields.twins(descriptor), {}
    for f in fields:
        name = _proto_name(f, override)
        fd = by_name.get(name)
        if fd is not None and name not in flat_names:
            claimed.add(name)
            if name in twins:  # its Duration / Timestamp twin (AIP-142) goes with it
                claimed.add(twins[name].typed.name)
                timed[f.name] = twins[name]
            if (event and domain and f.default is None and not fd.has_presence
                    and fd.type != _T.TYPE_MESSAGE):
                raise MappingError(f"{_where(cls, descriptor, name)}: None would come back as "
                                   "the field's zero; declare the field `optional`")
            if name not in skip:
                direct.append((f, fd))
        elif event and name in _ENVELOPE:
            envelope.append(f)
        elif domain or (f.default is dataclasses.MISSING
                        and f.default_factory is dataclasses.MISSING):
            unmatched.append(f)
    flat = []
    for name in override.flatten:
        fd = by_name.get(name)
        if fd is None or fd.type != _T.TYPE_MESSAGE:
            raise MappingError(f"{_where(cls, descriptor, name)}: flatten names no sub-message")
        claimed.add(name)
        pairs = []
        own = {f.name: f for f in fields}
        for sub_fd in fd.message_type.fields:
            f = own.get(sub_fd.name)
            if f is None:
                raise MappingError(f"{_where(cls, descriptor, name + '.' + sub_fd.name)}: "
                                   "no dataclass field of that name")
            pairs.append((f, sub_fd))
        flat.append((fd, pairs))
        flat_fields = {f.name for f, _ in pairs}
        unmatched = [f for f in unmatched if f.name not in flat_fields]
    derived = []
    for name, make in override.derived.items():
        if name not in by_name:
            raise MappingError(f"{_where(cls, descriptor, name)}: derived names no field")
        claimed.add(name)
        if profile == WIRE:
            derived.append((by_name[name], make))
    if unmatched:
        raise MappingError(f"{_where(cls, descriptor, unmatched[0].name)}: the message has "
                           "no such field (name it the same, or declare it in OVERRIDES)")
    if domain and event:
        missing = [fd.name for fd in descriptor.fields
                   if fd.name not in claimed and fd.name not in override.wire_only]
        if missing:
            raise MappingError(f"{_where(cls, descriptor, missing[0])}: the dataclass has no "
                               "such field (name it the same, or declare it in OVERRIDES)")
    return _Pairing(direct, flat, envelope, derived, timed)


def _compile_decoder(cls: Any, descriptor: Any, profile: str) -> Callable[..., Any]:
    """The decoder as one function, the way dataclasses makes an `__init__`: each field's
    read (from the descriptor and the type hint, `_read`) is one expression of its body,
    and the helpers it calls (value decoders, twins' readers, defaults) are bound by
    name (`_Generated`). A stream decodes tens of events a hand; one straight function
    is about 1.5 times as fast as a plan of closures called field by field."""
    override = OVERRIDES.get(cls, _NONE)
    pairing = _pair(cls, descriptor, profile)
    hints = typing.get_type_hints(cls)
    made = _Generated(cls=cls, new=object.__new__)
    bind = made.bind
    values: dict[str, str] = {}  # dataclass field -> the expression of its value
    prelude: list[str] = []  # a flattened sub-message, fetched once
    for f, fd in pairing.direct:
        dec = _value_decoder(hints[f.name], fd, profile, override,
                             _where(cls, descriptor, fd.name))
        value = _read("message", fd, hints[f.name], dec and bind(dec))
        twin = pairing.timed.get(f.name)
        if twin is not None:  # AIP-142: the Duration / Timestamp twin's value when it is set
            typed = twin.typed.name
            value = (f"({bind(twin.reader())}({_attr('message', typed)})"
                     f" if message.HasField({typed!r}) else {value})")
        values[f.name] = value
    for fd, pairs in pairing.flat:
        sub = f"sub{fd.number}"
        prelude.append(f"{sub} = {_attr('message', fd.name)}")
        for f, sub_fd in pairs:
            if f.name in values:
                continue  # the event's own field wins (TurnStarted.seat, .decision)
            dec = _value_decoder(hints[f.name], sub_fd, profile, override,
                                 _where(cls, fd.message_type, sub_fd.name))
            values[f.name] = _read(sub, sub_fd, hints[f.name], dec and bind(dec))
    for f in pairing.envelope:
        values[f.name] = _attr("envelope", f.name)
    fields = _init_fields(cls)
    for f in fields:
        if f.name in values:
            continue
        if f.default is not dataclasses.MISSING:
            values[f.name] = bind(f.default)
        elif f.default_factory is not dataclasses.MISSING:
            values[f.name] = f"{bind(f.default_factory)}()"
        else:
            raise MappingError(f"{_where(cls, descriptor, f.name)}: nothing to read it from")
    if _slots_only(cls):
        # A frozen dataclass's __init__ sets each field through object.__setattr__;
        # filling its slots directly builds the same value in about half the time.
        body = ["value = new(cls)",
                *(f"{bind(getattr(cls, f.name).__set__)}(value, {values[f.name]})"
                  for f in fields), "return value"]
    else:  # its own __init__ (a TableConfig checks itself), called by keyword
        body = [f"return cls({', '.join(f'{f.name}={values[f.name]}' for f in fields)})"]
    return made.function("decode(message, envelope=None)", [*prelude, *body],
                         f"decoder of {cls.__qualname__} from {descriptor.full_name}")


def _read(var: str, fd: Any, hint: Any, dec: str | None) -> str:
    """The expression that reads field `fd` of the message named `var` for a dataclass
    field typed `hint`, through the decoder bound as `dec` (None: the value as it is).
    An optional hint reads None for a field unset (presence) or zero (no presence)."""
    get = _attr(var, fd.name)
    value = f"{dec}({get})" if dec else get
    _, optional = _optional(hint)
    if not optional or fd.is_repeated:
        return value
    if fd.has_presence:
        return f"({value} if {var}.HasField({fd.name!r}) else None)"
    return f"({dec}(x) if (x := {get}) else None)" if dec else f"({get} or None)"


class _Generated:
    """A function put together from source lines (a decoder's or a writer's), the values
    it calls bound by name: how dataclasses makes an `__init__`. Its file name says what
    it is (`<decoder of C from M>`), as tracebacks and profiles show it."""

    def __init__(self, **names: Any) -> None:
        self.env: dict[str, Any] = dict(names)

    def bind(self, value: Any) -> str:
        """A name in the function's globals for `value`."""
        name = f"h{len(self.env)}"
        self.env[name] = value
        return name

    def function(self, signature: str, lines: list[str], label: str) -> Callable[..., Any]:
        source = f"def {signature}:\n" + "".join(f"    {line}\n" for line in lines)
        exec(compile(source, f"<{label}>", "exec"), self.env)
        made: Callable[..., Any] = self.env[signature.partition("(")[0]]
        return made


def _attr(var: str, name: str) -> str:
    """`var.name`, or getattr where the name is a Python keyword (protobuf allows it)."""
    if name.isidentifier() and not keyword.iskeyword(name):
        return f"{var}.{name}"
    return f"getattr({var}, {name!r})"


def _slots_only(cls: Any) -> bool:
    """Whether building `cls` is only setting its slots: dataclasses' own __init__ taking
    every field, no __post_init__ (a TableConfig checks itself: it is built by __init__)."""
    init = getattr(cls.__init__, "__code__", None)
    return (init is not None and init.co_filename == "<string>"
            and not hasattr(cls, "__post_init__")
            and all(f.init and isinstance(getattr(cls, f.name, None),
                                          types.MemberDescriptorType)
                    for f in dataclasses.fields(cls)))



# ----------------------------------------------------------------- wire framing

def length_delimited(tag: bytes, body: bytes) -> bytes:
    """A length-delimited field of the protobuf wire format: tag, varint length, body."""
    size = len(body)
    if size < 0x80:
        return tag + ONE_BYTE[size] + body  # most bodies: the length looked up, no call
    return tag + varint(size) + body


# ------------------------------------------------------------------ byte writers

def writer(cls: Any, descriptor: Any, profile: str = STORE) -> Callable[..., bytes]:
    """`write(value, context=None) -> bytes`: what `encoder`'s message serializes to,
    written straight from the value (no message object), field by field in number order
    with each field's tag from the descriptor; compiled once (per profile)."""
    key = ("write", cls, descriptor.full_name, profile)
    plan = _PLAN_CACHE.get(key)
    if plan is None:
        plan = _PLAN_CACHE[key] = _compile_writer(cls, descriptor, profile)
    return plan  # type: ignore[no-any-return,unused-ignore]


def _tag(fd: Any, wire_type: int) -> bytes:
    return varint(fd.number << 3 | wire_type)


_FIXED = {_T.TYPE_DOUBLE: ("<d", 1), _T.TYPE_FLOAT: ("<f", 5), _T.TYPE_FIXED64: ("<Q", 1),
          _T.TYPE_SFIXED64: ("<q", 1), _T.TYPE_FIXED32: ("<I", 5), _T.TYPE_SFIXED32: ("<i", 5)}
_ZIGZAG = frozenset({_T.TYPE_SINT32, _T.TYPE_SINT64})


class _Memo(dict[Any, bytes]):
    """A field's bytes by value, made by `make` the first time a value is seen: a field
    whose values repeat (amounts, seats, counts, durations, ids) is then written by a C
    lookup (`__getitem__`) instead of a Python call a field. Bounded: at MEMO_LIMIT
    values it starts again empty."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[Any], bytes]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, value: Any) -> bytes:
        data = self.make(value)
        if len(self) >= MEMO_LIMIT:
            self.clear()
        self[value] = data
        return data


#: The values a field's `_Memo` keeps before it starts again.
MEMO_LIMIT = 1024


def _repeats(fd: Any) -> bool:
    """Whether a field's values repeat, so that its bytes are worth keeping by value: not
    an instant (`X_unix_ms`, a Timestamp) or a log position (`sequence`), which each come
    once."""
    return not (fd.name.endswith("_unix_ms") or fd.name == "sequence" or (
        fd.type == _T.TYPE_MESSAGE and fd.message_type.full_name == timefields.TIMESTAMP))


def _memoized(write: Callable[[Any], bytes], fd: Any) -> Callable[[Any], bytes]:
    """`write`, through a `_Memo` when the field's values repeat (`_repeats`)."""
    return _Memo(write).__getitem__ if _repeats(fd) else write


def _varint_writer(tag: bytes, convert: Callable[[Any], int] | None = None,
                   zero: bytes | None = None) -> Callable[[Any], bytes]:
    """A varint field (ints, bools, enums): the 128 small values' bytes made once; with
    `zero` (b""), a zero is written as that (proto3 writes no zero)."""
    small = [tag + bytes((i,)) for i in range(0x80)]
    if zero is not None:
        small[0] = zero
    if convert is None:
        return lambda v: small[v] if 0 <= v < 0x80 else tag + _uvarint(v)

    def converted(v: Any) -> bytes:
        n = convert(v)
        return small[n] if 0 <= n < 0x80 else tag + _uvarint(n)
    return converted


def _delimited_writer(tag: bytes, text: bool) -> Callable[[Any], bytes]:
    """A string (UTF-8) or bytes field."""
    if text:
        def string(v: str) -> bytes:
            data = v.encode()
            return tag + _uvarint(len(data)) + data
        return string
    return lambda v: tag + _uvarint(len(v)) + v


def _lookup_writer(fd: Any, kind: int, to_wire: Callable[[Any], Any] | None,
                   hint: Any) -> Callable[[Any], bytes] | None:
    """A bool or an enum without presence: every value's bytes made once, looked up by a
    C method (no Python call a field); a zero, and None where the hint allows it, as b""."""
    tag = _tag(fd, 0)
    if kind == _T.TYPE_BOOL and to_wire is None and hint is bool:
        return (b"", tag + b"\x01").__getitem__
    table = getattr(to_wire, "__self__", None)
    if kind != _T.TYPE_ENUM or type(table) is not dict:
        return None
    out: dict[Any, bytes] = {key: tag + _uvarint(n) if n else b"" for key, n in table.items()}
    if _optional(hint)[1]:
        out[None] = b""
    return out.__getitem__


def _same_length_writer(tag: bytes, one: Callable[[Any], bytes]) -> Callable[[Any], bytes]:
    """A repeated bytes field: when every item has one length under 128 (a deck's 52
    salts), the items joined at C speed with their shared tag and length between."""
    heads = [tag + bytes((n,)) for n in range(0x80)]

    def write(values: Any) -> bytes:
        if values:
            sizes = set(map(len, values))
            if len(sizes) == 1 and (size := sizes.pop()) < 0x80:
                head = heads[size]
                return head + head.join(values)
        return b"".join(map(one, values))
    return write


def _fixed_writer(tag: bytes, kind: int) -> Callable[[Any], bytes]:
    pack = struct.Struct(_FIXED[kind][0]).pack
    return lambda v: tag + pack(v)


def _packed(values: Any, raw: Callable[[Any], bytes]) -> bytes:
    if raw is _uvarint and min(values) >= 0 and max(values) < 0x80:
        return bytes(values)  # seats, cards, permutations: one byte each
    return b"".join(map(raw, values))


def _field_writer(hint: Any, fd: Any, cls: Any, profile: str, override: Override,
                  where: str) -> tuple[Callable[[Any], bytes], bool | None]:
    """(value -> the field's bytes, tag included; whether to write a falsy value too).

    A falsy value that is not None is skipped (proto3 writes no zero, no empty list)
    unless the field has presence (`optional`) or a zero means something (card 0, "2c").
    None for the flag: the writer takes any value itself (a zero gives b"")."""
    repeated = fd.is_repeated
    if fd.type == _T.TYPE_MESSAGE:
        tag = _tag(fd, 2)
        if repeated:
            item = _element(hint)
            if item is None:
                raise MappingError(f"{where}: a repeated field needs a tuple, not {hint!r}")
            if dataclasses.is_dataclass(item):
                sub = writer(item, fd.message_type, profile)
            elif typing.get_origin(item) is tuple:
                sub = _row_writer(item, fd, override.rows.get(fd.name), where)
            else:
                raise MappingError(f"{where}: {item!r} cannot carry a {fd.message_type.full_name}")

            def messages(values: Any) -> bytes:
                out = []
                for v in values:
                    body = sub(v)
                    out.append(length_delimited(tag, body))
                return b"".join(out)
            return messages, False
        hint, _ = _optional(hint)
        if not dataclasses.is_dataclass(hint):
            raise MappingError(f"{where}: {hint!r} cannot carry a {fd.message_type.full_name}")
        sub_one = writer(hint, fd.message_type, profile)
        memo: dict[int, tuple[Any, bytes]] = {}

        def message(value: Any) -> bytes:
            # A frozen value many events share (a hand's config, its level) is written
            # once, kept by identity.
            hit = memo.get(id(value))
            if hit is not None and hit[0] is value:
                return hit[1]
            body = sub_one(value)
            data = length_delimited(tag, body)
            if len(memo) >= 256:
                memo.clear()
            memo[id(value)] = (value, data)
            return data
        return message, True
    item_hint = _element(hint) if repeated else _optional(hint)[0]
    if repeated and item_hint is None:
        raise MappingError(f"{where}: a repeated field needs a tuple[..., ...], not {hint!r}")
    to_wire, _ = _scalar_codec(item_hint, fd, where)
    kind = fd.type
    delimited = kind in (_T.TYPE_STRING, _T.TYPE_BYTES)
    if not repeated and not fd.has_presence:
        looked_up = _lookup_writer(fd, kind, to_wire, hint)
        if looked_up is not None:
            return looked_up, None
    if to_wire is _card_text:
        tagged = [_tag(fd, 2) + x for x in _CARD_FIELD]
        if repeated:
            return (lambda values: b"".join(map(tagged.__getitem__, values))), False
        return tagged.__getitem__, True
    if repeated and delimited:  # one tag each
        one = _delimited_writer(_tag(fd, 2), kind == _T.TYPE_STRING)
        if to_wire is None and kind == _T.TYPE_BYTES:
            return _same_length_writer(_tag(fd, 2), one), False
        if to_wire is None:
            return (lambda values: b"".join(map(one, values))), False
        return (lambda values: b"".join([one(to_wire(v)) for v in values])), False
    if kind in _FIXED:
        wire_type = _FIXED[kind][1]
        raw: Callable[[Any], bytes] = struct.Struct(_FIXED[kind][0]).pack
        single = _fixed_writer(_tag(fd, wire_type), kind)
    elif kind in _ZIGZAG:
        wire_type = 0
        raw = lambda v: _uvarint((v << 1) ^ (v >> 63))  # noqa: E731
        tag = _tag(fd, 0)
        single = lambda v: tag + raw(v)  # noqa: E731
    elif delimited:
        wire_type = 2
        raw = _uvarint
        single = _delimited_writer(_tag(fd, 2), kind == _T.TYPE_STRING)
        if kind == _T.TYPE_STRING and not repeated:
            single = _memoized(single, fd)
    else:
        wire_type = 0
        raw = _uvarint
        single = _varint_writer(_tag(fd, 0), to_wire)
        if not repeated and not fd.has_presence and not _optional(hint)[1]:
            return _memoized(_varint_writer(_tag(fd, 0), to_wire, zero=b""), fd), None
        if not repeated:
            single = _memoized(single, fd)
    if repeated:  # packed
        tag = _tag(fd, 2)
        if to_wire is None:
            def packed(values: Any) -> bytes:
                body = _packed(values, raw)
                return length_delimited(tag, body)
            return packed, False

        def packed_converted(values: Any) -> bytes:
            body = _packed([to_wire(v) for v in values], raw)
            return length_delimited(tag, body)
        return packed_converted, False
    if to_wire is not None and (kind in _FIXED or kind in _ZIGZAG):  # (a varint converts)
        return (lambda v: single(to_wire(v))), fd.has_presence
    if to_wire is not None and delimited:
        def delimited_converted(v: Any) -> bytes:
            wire = to_wire(v)
            return single(wire) if wire or fd.has_presence else b""
        return delimited_converted, fd.has_presence
    return single, fd.has_presence


#: Each card's bytes as a string field's value (length and text), for the card rule.
_CARD_FIELD = [bytes((len(text),)) + text.encode() for text in CARD_TEXT]


def _row_writer(row: Any, fd: Any, names: tuple[str, ...] | None, where: str
                ) -> Callable[[Any], bytes]:
    fields = _row_fields(row, fd, names, where)
    items = typing.get_args(row)
    order = sorted(range(len(fields)), key=lambda k: fields[k].number)
    parts = [(k, *_field_writer(items[k], fields[k], None, STORE, _NONE,
                                f"{where}[{fields[k].name}]")) for k in order]

    def write(r: Any) -> bytes:
        return b"".join([w(v) for k, w, always in parts
                         if (v := r[k]) or always is None or (always and v is not None)])
    return write


def _compile_writer(cls: Any, descriptor: Any, profile: str) -> Callable[..., bytes]:
    """The fields in number order: attribute fields (a falsy one skipped without a
    call) and whole-value steps (flattened sub-messages, derived fields), made one
    function (`_generated_writer`)."""
    override = OVERRIDES.get(cls, _NONE)
    pairing = _pair(cls, descriptor, profile)
    hints = typing.get_type_hints(cls)
    steps: list[tuple[int, Any]] = []  # (number, ("attr", name, w, always) | ("whole", f))
    for f, fd in pairing.direct:
        w, always = _field_writer(hints[f.name], fd, cls, profile, override,
                                  _where(cls, descriptor, fd.name))
        steps.append((fd.number, ("attr", f.name, w, always)))
        twin = pairing.timed.get(f.name)
        if twin is not None:  # AIP-142: the same value as a Duration / Timestamp
            typed = _memoized(twin.writer(always is True), twin.typed)
            steps.append((twin.typed.number, ("attr", f.name, typed, always)))
    for fd, pairs in pairing.flat:
        inner = []
        for f, sub_fd in sorted(pairs, key=lambda pair: pair[1].number):
            w, always = _field_writer(hints[f.name], sub_fd, cls, profile, override,
                                      _where(cls, fd.message_type, sub_fd.name))
            inner.append(("attr", f.name, w, always))
        steps.append((fd.number, ("whole", _generated_writer(cls, fd.message_type, inner,
                                                              _tag(fd, 2)))))
    for fd, make in pairing.derived:
        steps.append((fd.number, ("whole", _derived_writer(fd, make, profile))))
    steps.sort(key=operator.itemgetter(0))
    return _generated_writer(cls, descriptor, [step for _, step in steps])


def _generated_writer(cls: Any, descriptor: Any, steps: list[Any],
                      tag: bytes = b"") -> Callable[..., bytes]:
    """The steps, in field-number order, as one function that joins their bytes (as the
    decoders are made, `_Generated`: one expression a field, the writers bound by name).
    A falsy value is skipped without a call unless its field writes one (`always`: True
    for presence, None for a writer that takes any value). With `tag`: those bytes as a
    length-delimited field (a flattened sub-message)."""
    made = _Generated(length_delimited=length_delimited)
    bind = made.bind
    parts = []
    for step in steps:
        if step[0] == "whole":
            parts.append(f"{bind(step[1])}(value, context)")
            continue
        _, name, write, always = step
        w, get = bind(write), _attr("value", name)
        parts.append(f"{w}({get})" if always is None else
                     f"(b'' if (v := {get}) is None else {w}(v))" if always else
                     f"({w}(v) if (v := {get}) else b'')")
    body = (f"b''.join(({', '.join(parts)},))" if len(parts) > 1 else
            parts[0] if parts else "b''")
    if tag:
        body = f"length_delimited({bind(tag)}, {body})"
    return made.function("write(value, context=None)", [f"return {body}"],
                         f"writer of {cls.__qualname__} to {descriptor.full_name}")


def _derived_writer(fd: Any, make: Callable[[Any, Any], Any], profile: str
                    ) -> Callable[[Any, Any], bytes]:
    """A derived field: its value computed, then written by its own type's plan."""
    cache: dict[type, Callable[[Any], bytes]] = {}

    def derived(value: Any, context: Any) -> bytes:
        v = make(value, context)
        if v is None:
            return b""
        write = cache.get(type(v))
        if write is None:
            if fd.is_repeated:
                raise MappingError(f"derived {fd.full_name}: a repeated field is not derived")
            hint = type(v)
            write = cache[type(v)] = _field_writer(hint, fd, None, profile, _NONE,
                                                   f"derived {fd.full_name}")[0]
        return write(v) if v or fd.has_presence else b""
    return derived


# ---------------------------------------------------------------------- events

def _vocabulary_events() -> dict[str, type]:
    found: dict[str, type] = {}
    for cls in (*hand_events.EVENT_TYPES, *dealer_events.DEALER_EVENTS):
        found[cls.__name__] = cls
    return found


def _pair_events() -> tuple[dict[str, type], dict[type, Any]]:
    """Each TableEvent oneof case's domain class, and each class's case (its field)."""
    classes = _vocabulary_events()
    cases = tpb.TableEvent.DESCRIPTOR.oneofs_by_name["event"].fields
    events: dict[str, type] = {}
    by_class: dict[type, Any] = {}
    for fd in cases:
        cls = classes.get(fd.message_type.name)
        if cls is None:
            raise MappingError(
                f"TableEvent.{fd.name} ({fd.message_type.full_name}) has no dataclass of that "
                "name in poker.vocab.events or poker.vocab.table_events")
        events[fd.name] = cls
        by_class[cls] = fd
    for name, cls in classes.items():
        if cls not in by_class:
            raise MappingError(f"poker.vocab event {name} has no case in TableEvent's `event` "
                               "oneof (add its message to table_events.proto)")
    return events, by_class


#: Each TableEvent oneof case (its field name) -> the domain event class.
EVENTS, _CASES = _pair_events()
#: Each domain event class -> its message class.
MESSAGES: dict[type, Any] = {cls: _message_class(fd.message_type) for cls, fd in _CASES.items()}
_TableEvent = tpb.TableEvent


def stream_policy(cls: type) -> str:
    """How streams carry events of `cls`: "mapped", "per_viewer" or "never"."""
    return OVERRIDES.get(cls, _NONE).stream


def same_on_wire(cls: type) -> bool:
    """Whether an event's WIRE bytes are its STORE bytes (no override that only one
    profile writes, no envelope field of its own): a stream may send the stored payload
    as it is."""
    same = _SAME.get(cls)
    if same is None:
        fd = _CASES[cls]
        o = OVERRIDES.get(cls, _NONE)
        # renames, rows and flatten shape both profiles alike; what only one writes
        # (derived, store_only) or the domain lacks (wire_only) makes them differ.
        alike = not (o.derived or o.store_only or o.wire_only) and o.stream == "mapped"
        same = _SAME[cls] = alike and not _pair(cls, fd.message_type, STORE).envelope
    return same


_SAME: dict[type, bool] = {}


def case(cls: type) -> str:
    """The TableEvent oneof case (field name) of a domain event class."""
    return _CASES[cls].name  # type: ignore[no-any-return]


_DECODERS: dict[str, Callable[..., Any]] = {}


def to_event(event: Any, context: Any = None, profile: str = STORE, **envelope: Any) -> Any:
    """The TableEvent of a domain event: its oneof case set and the envelope fields the
    event has (HandStarted's hand_id), then `envelope` (sequence, time_unix_ms, hand_id)."""
    for name in _own_envelope(type(event)):
        envelope.setdefault(name, getattr(event, name))
    return _TableEvent.FromString(to_event_bytes(event, context, profile,
                                                 envelope_bytes(**envelope)))


def _own_envelope(cls: type) -> tuple[str, ...]:
    fd = _CASES.get(cls)
    if fd is None:
        raise MappingError(f"{cls.__name__} is not an event of TableEvent")
    return tuple(f.name for f in _pair(cls, fd.message_type, STORE).envelope)


def to_event_bytes(event: Any, context: Any = None, profile: str = STORE,
                   head: bytes = b"") -> bytes:
    """The serialized TableEvent of a domain event, written straight from it (the bytes
    `to_event(...).SerializeToString()` gives): the store's canonical encoding (STORE),
    or a stream's (WIRE), after `head` (the envelope's bytes: `envelope_bytes`)."""
    cls = type(event)
    write = _WRITERS.get((cls, profile))
    if write is None:
        write = _WRITERS[cls, profile] = _event_writer(cls, profile)
    return write(event, context, head)


_WRITERS: dict[tuple[type, str], Callable[[Any, Any, bytes], bytes]] = {}


def _event_writer(cls: type, profile: str) -> Callable[[Any, Any, bytes], bytes]:
    fd = _CASES.get(cls)
    if fd is None:
        raise MappingError(f"{cls.__name__} is not an event of TableEvent")
    body_of = writer(cls, fd.message_type, profile)
    tag = _tag(fd, 2)
    own = [(_ENVELOPE_TAGS[f.name], operator.attrgetter(f.name))
           for f in _pair(cls, fd.message_type, profile).envelope]

    def write(event: Any, context: Any, head: bytes) -> bytes:
        body = body_of(event, context)
        if own and not head:  # the event's own envelope fields (HandStarted's hand_id)
            head = b"".join([w(v) for w, get in own if (v := get(event))])
        return head + length_delimited(tag, body)
    return write


_ENVELOPE_TAGS = {fd.name: _field_writer(str if fd.type == _T.TYPE_STRING else int, fd, None,
                                         STORE, _NONE, fd.full_name)[0]
                  for fd in tpb.TableEvent.DESCRIPTOR.fields if fd.containing_oneof is None}
_SEQUENCE, _TIME, _HAND = (_ENVELOPE_TAGS[name] for name in ("sequence", "time_unix_ms",
                                                              "hand_id"))


def envelope_bytes(sequence: int = 0, time_unix_ms: int = 0, hand_id: str = "") -> bytes:
    """The bytes of a TableEvent's envelope fields (zero ones are not written). The events
    of one write share their time and hand: the last ones' bytes are kept."""
    global _last_time, _last_hand
    if time_unix_ms != _last_time[0]:
        _last_time = (time_unix_ms, _TIME(time_unix_ms) if time_unix_ms else b"")
    if hand_id != _last_hand[0]:
        _last_hand = (hand_id, _HAND(hand_id) if hand_id else b"")
    return (_SEQUENCE(sequence) if sequence else b"") + _last_time[1] + _last_hand[1]


_last_time: tuple[int, bytes] = (0, b"")
_last_hand: tuple[str, bytes] = ("", b"")


def from_event(message: Any, profile: str = STORE) -> Any:
    """The domain event of a TableEvent; MappingError when it has no payload."""
    kind = message.WhichOneof("event")
    dec = _DECODERS.get(kind) if profile == STORE else None
    if dec is None:
        cls = EVENTS.get(kind) if kind is not None else None
        if cls is None:
            raise MappingError(f"a TableEvent without a known event (case {kind!r})")
        dec = decoder(cls, _CASES[cls].message_type, profile)
        if profile == STORE:
            _DECODERS[kind] = dec
    return dec(getattr(message, kind), message)


_LENGTH_DELIMITED = frozenset({_T.TYPE_MESSAGE, _T.TYPE_STRING, _T.TYPE_BYTES})
_VARINTS = frozenset({_T.TYPE_INT32, _T.TYPE_INT64, _T.TYPE_UINT32, _T.TYPE_UINT64,
                      _T.TYPE_BOOL, _T.TYPE_ENUM})


def field_tag(message: Any, name: str) -> bytes:
    """The wire tag of field `name` of a message class, from its descriptor (number and
    wire type): what a frame put together by hand begins with.

    >>> field_tag(tpb.TableEvent, "hand_id")
    b'\\x1a'
    """
    fd = message.DESCRIPTOR.fields_by_name[name]
    if fd.is_repeated and fd.type not in _LENGTH_DELIMITED:
        raise ValueError(f"{message.DESCRIPTOR.name}.{name}: a packed field has no one tag")
    if fd.type not in _LENGTH_DELIMITED and fd.type not in _VARINTS:
        raise ValueError(f"{message.DESCRIPTOR.name}.{name}: not a varint or length-delimited")
    wire_type = 2 if fd.type in _LENGTH_DELIMITED else 0
    return varint(fd.number << 3 | wire_type)
