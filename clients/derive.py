"""The SDK's values derived from the one vocabulary (`poker.vocab`) and the proto
descriptors: a class per `TableEvent` kind (`clients/events.py`), the request form
of a table's config (`clients/table_config.py`) and the TournamentService's answers
(`clients/tournament_values.py`, `_tournament_source`). The three modules are GENERATED
from here (`make events`; `make proto` runs it too, since a new message is what calls
for it); `tests/sdk/test_derive.py` fails when one is stale.

An SDK event has the envelope (`sequence`, `time_unix_ms`, `hand_id`) and one field per
field of its message as streams carry it (the store's own left out), in the message's
order, typed by these rules, the vocabulary class telling what the wire cannot:

- an int, bool, str, bytes or float field: that type, defaulting to its zero; a field
  with presence (`optional`) `X | None`, None when unset;
- card text (a `string` field the vocabulary holds as an `int`, R1): a `Card`;
- an enum: the vocabulary's enum of the same name (poker.vocab.enums); the type alone
  (required) when the vocabulary's field is required, else `E | None` (None: unset);
- a sub-message: the vocabulary's class of it (the field's own type, e.g. `PlayerIn`
  for `HandPlayer`, exported under the message's name; else the class named as the
  message, e.g. `Level`, `LegalActions`), else the SDK's own (`SeatStack`), else a
  value class derived from the sub-message (`SeatCard`, `SeatSeed`: cards where the
  vocabulary's row holds an `int`); required when the vocabulary's field is (or, for a
  sub-message the vocabulary flattens, every field of it), else `X | None`;
- a repeated field: `tuple[X, ...]`, defaulting to ();
- a time's Duration / Timestamp twin (AIP-142, `time_twins`) is left out: the SDK has the
  time as the integer milliseconds, which the mapping reads from the twin when it is set;
- the docstring is the vocabulary class's; each field's comment is its proto comment.

Every field but a required one has a default, so an event is built with keywords
naming only what it needs. Where the SDK keeps a shape bots have always had against
these rules, `NAMES` and `SHAPES` below say so (the only hand-written part).

The request-form `TableConfig` is the `poker.v1.TableConfig` message field by field
by the same rules with nothing required: zero, None or () leaves a field to the
server's default (each field's comment names it); the vocabulary's `TableConfig`
cannot be sent as it is, since its defaults are values, not "unset", it checks itself
(seats=0 is no table) and the dealer's options (pause_between_hands_ms, deck_seed)
are not the rule book's.

Why GENERATED modules rather than classes derived at import with a `.pyi` stub for type
checkers: the derivation is the same either way (`event_class` builds, at import, a kind
the generated module lacks, so an SDK older than its dealer still decodes every event),
and so are the decode (the same slotted dataclasses; bench/sdk_decode.py) and the import
cost (measured in one process, best of 15 on the shared 2-core machine: the generated
module's body 36-42 ms, the 35 kinds derived 38-47 ms; building dataclasses is most of
both). What differs: a stub is what mypy reads INSTEAD of the module, so the classes
bots use would be checked against a second artefact that can drift from what runs (it
would need its own staleness test anyway), while a generated module is the code that
runs, checked by mypy as it is; and a bot author reading `clients/events.py` (or an IDE
going to a definition) finds each class with its fields, types, docstring and the proto
comment of every field written out, as for `clients/sdk.py` (generated from
clients/aio.py the same way, with the same kind of test).

Run: `make events` (`main(["--check"])` only compares).
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import sys
import textwrap
import types
import typing
from collections.abc import Mapping
from dataclasses import MISSING, dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from clients.cards import Card
from poker import mapping
from poker.v1 import table_config_pb2
from poker.v1 import table_events_pb2 as tpb
from poker.vocab import actions as vocab_actions
from poker.vocab import config as vocab_config
from poker.vocab import enums as vocab_enums

__all__ = ["EVENTS_PATH", "NAMES", "SHAPES", "TABLE_CONFIG_PATH", "Slot", "config_slots",
           "event_class", "event_slots", "event_source", "generate", "missing_events",
           "time_twins", "value_class"]

HERE = Path(__file__).resolve().parent
EVENTS_PATH = HERE / "events.py"
TABLE_CONFIG_PATH = HERE / "table_config.py"
TOURNAMENT_VALUES_PATH = HERE / "tournament_values.py"

#: The tournament answers as SDK values (clients/tournament_values.py): the SDK's name of
#: each and its poker.v1 message, in the order they are written (a value after the ones
#: it holds); the enums they use are written first, as StrEnums.
TOURNAMENT_VALUES: dict[str, str] = {
    "TournamentLevel": "TournamentLevel", "PayoutTier": "PayoutTier",
    "TournamentStructure": "TournamentStructure", "TournamentPlayer": "TournamentPlayer",
    "TournamentTable": "TournamentTable", "Tournament": "Tournament",
    "TournamentPage": "ListTournamentsResponse", "TournamentSeat": "TournamentSeat",
    "TournamentResult": "TournamentResult", "TournamentEvent": "TournamentEvent",
    "TournamentSeating": "GetTournamentSeatResponse"}
TOURNAMENT_ENUMS = ("TournamentState", "EntryStatus", "TournamentEventKind")
#: Fields that are never None in the SDK: a tournament always has its structure.
TOURNAMENT_ALWAYS = frozenset({("Tournament", "structure")})

#: Message fields the SDK names its own way (as `HandView.legal`, everywhere).
NAMES: dict[str, str] = {"legal_actions": "legal"}

#: (message, field) -> (type, default, note) where the SDK keeps the shape it has always
#: had against the rules; the note goes into the field's comment.
SHAPES: dict[tuple[str, str], tuple[Any, Any, str]] = {
    ("HandStarted", "big_blind_seat"): (int, 0, "The SDK reads unset as 0."),
    # Built without its reason by the SDK's own narration and tests.
    ("PlayerSatOut", "reason"): (vocab_enums.SitOutReason | None, None, ""),
}

#: The SDK's own value of a sub-message, where it is not derived: SeatStack's fields
#: are (seat, stack, player_id), built positionally since before the message's order.
SDK_VALUES: dict[str, tuple[str, str]] = {"poker.v1.SeatStack": ("clients.models", "SeatStack")}

_FD = type(tpb.TableEvent.DESCRIPTOR.fields[0])
_PLAIN: dict[int, type] = {
    **dict.fromkeys((_FD.TYPE_INT32, _FD.TYPE_INT64, _FD.TYPE_UINT32, _FD.TYPE_UINT64,
                     _FD.TYPE_SINT32, _FD.TYPE_SINT64, _FD.TYPE_FIXED32, _FD.TYPE_FIXED64,
                     _FD.TYPE_SFIXED32, _FD.TYPE_SFIXED64), int),
    _FD.TYPE_BOOL: bool, _FD.TYPE_STRING: str, _FD.TYPE_BYTES: bytes,
    _FD.TYPE_DOUBLE: float, _FD.TYPE_FLOAT: float}
_ZERO: dict[type, Any] = {int: 0, bool: False, str: "", bytes: b"", float: 0.0}
_VOCAB_ENUMS: dict[str, type[Enum]] = {
    name: value for name, value in vars(vocab_enums).items()
    if isinstance(value, type) and issubclass(value, Enum)}
_VOCAB_VALUES: dict[str, type] = {
    name: value for module in (vocab_config, vocab_actions)
    for name, value in vars(module).items()
    if isinstance(value, type) and dataclasses.is_dataclass(value)
    and value.__module__ == module.__name__}


@dataclass(frozen=True)
class Slot:
    """One field of a derived class: its name, type, default (MISSING: required), the
    message field it reads when named otherwise, its proto comment and SHAPES' note."""

    name: str
    hint: Any
    default: Any = MISSING
    proto: str = ""
    doc: str = ""
    note: str = ""


# ------------------------------------------------------------------------ the rules

def _optional(hint: Any) -> Any:
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return hint


def _element(hint: Any) -> Any:
    if typing.get_origin(hint) is tuple:
        return typing.get_args(hint)[0]
    return hint


def _required(f: Any) -> bool:
    return f.default is MISSING and f.default_factory is MISSING


def _slot(fd: Any, hint: Any, required: bool, values: dict[str, type], row: Any = None,
          names: tuple[str, ...] | None = None) -> Slot:
    """A message field as the SDK has it; `hint` is the vocabulary field's type (None
    when it has none), `row` the item type of a row the vocabulary keeps it in, `names`
    the sub-message fields a row's items go to (poker.mapping.Override.rows). `required`
    counts for an enum, a card or a sub-message: a scalar always has its zero."""
    name = NAMES.get(fd.name, fd.name)
    proto = fd.name if name != fd.name else ""
    item = _optional(_element(hint)) if hint is not None else None
    repeated = fd.is_repeated
    if fd.type == _FD.TYPE_MESSAGE:
        if isinstance(item, type) and dataclasses.is_dataclass(item):
            kind: Any = values.setdefault(fd.message_type.full_name, item)
        else:
            kind = value_class(fd.message_type, values,
                               item if typing.get_origin(item) is tuple else None, names)
    elif fd.type == _FD.TYPE_ENUM:
        kind = item if isinstance(item, type) and issubclass(item, Enum) else _VOCAB_ENUMS[
            fd.enum_type.name]
    else:
        kind = _PLAIN[fd.type]
        if kind is str and (item is int or row is int):
            kind = Card  # R1: a card is an int in the vocabulary, its text on the wire
    if repeated:
        return Slot(name, tuple[kind, ...], (), proto)
    if fd.type in (_FD.TYPE_MESSAGE, _FD.TYPE_ENUM) or kind is Card:
        return Slot(name, kind, MISSING, proto) if required else Slot(name, kind | None, None,
                                                                     proto)
    if fd.has_presence:
        return Slot(name, kind | None, None, proto)
    return Slot(name, kind, _ZERO[kind], proto)


def event_slots(domain: type, descriptor: Any, values: dict[str, type]) -> list[Slot]:
    """The fields (beyond the envelope) of the SDK event of vocabulary class `domain`,
    whose message is `descriptor`; value classes it needs are added to `values`."""
    override = mapping.OVERRIDES.get(domain) or mapping.Override()
    hints = typing.get_type_hints(domain)
    own = [f for f in dataclasses.fields(domain) if f.init]
    by_proto = {override.renames.get(f.name) or f.metadata.get("proto", f.name): f for f in own}
    by_name = {f.name: f for f in own}
    slots = []
    twins = time_twins(descriptor)
    for fd in descriptor.fields:
        if fd.name in override.store_only or fd.name in twins:
            continue
        if fd.name in override.flatten:
            required = all(_required(by_name[sub.name]) for sub in fd.message_type.fields)
            slot = _slot(fd, None, required, values)
        elif (f := by_proto.get(fd.name)) is not None:
            slot = _slot(fd, hints[f.name], _required(f), values,
                         names=override.rows.get(fd.name))
        else:  # derived from a context, or the wire's own (poker.mapping.OVERRIDES)
            slot = _slot(fd, None, False, values)
        shape = SHAPES.get((descriptor.name, fd.name))
        if shape is not None:
            slot = dataclasses.replace(slot, hint=shape[0], default=shape[1], note=shape[2])
        slots.append(slot)
    return slots


def value_class(descriptor: Any, values: dict[str, type], row: Any = None,
                names: tuple[str, ...] | None = None) -> type:
    """The SDK value of a sub-message: the vocabulary's class named as it, the SDK's own,
    or one derived from its fields (positional, in field order; a card where the
    vocabulary's `row` holds an int, its items in field order or `names`), kept in
    `values`."""
    found = values.get(descriptor.full_name) or _VOCAB_VALUES.get(descriptor.name)
    if found is not None:
        return values.setdefault(descriptor.full_name, found)
    if descriptor.full_name in SDK_VALUES:
        module, name = SDK_VALUES[descriptor.full_name]
        cls: type = getattr(importlib.import_module(module), name)
    else:
        order = names or [fd.name for fd in descriptor.fields]
        items = dict(zip(order, typing.get_args(row), strict=False)) if row is not None else {}
        slots = [_slot(fd, None, True, values, items.get(fd.name)) for fd in descriptor.fields]
        cls = dataclasses.make_dataclass(
            descriptor.name, _positional(slots), frozen=True, slots=True,
            namespace={"__module__": "clients.events", "__doc__": _comment(descriptor)})
    values[descriptor.full_name] = cls
    return cls


def _positional(slots: list[Slot]) -> list[tuple[str, Any, Any]]:
    """A value class's fields: each trailing one with a zero defaults to it (a positional
    field with a default cannot come before one without)."""
    out: list[tuple[str, Any, Any]] = []
    defaulting = True
    for slot in reversed(slots):
        defaulting = defaulting and slot.default is not MISSING
        out.append((slot.name, slot.hint, dataclasses.field(default=slot.default)
                    if defaulting else dataclasses.field()))
    return out[::-1]


def config_slots(values: dict[str, type]) -> list[Slot]:
    """The request-form TableConfig's fields: the message's, nothing required."""
    hints = typing.get_type_hints(vocab_config.TableConfig)
    descriptor = table_config_pb2.TableConfig.DESCRIPTOR
    twins = time_twins(descriptor)
    return [_slot(fd, hints.get(fd.name), False, values)
            for fd in descriptor.fields if fd.name not in twins]


def time_twins(descriptor: Any) -> frozenset[str]:
    """The AIP-142 Duration / Timestamp twins of a message's integer times, where
    poker.timefields declares them: the SDK keeps each time as its integer field in
    milliseconds, which poker.mapping reads from the twin when a server sent that."""
    try:
        from poker import timefields  # type: ignore[attr-defined,unused-ignore]
    except ImportError:
        return frozenset()
    return frozenset(t.typed.name for t in timefields.twins(descriptor).values())


# ------------------------------------------------------------------- at import time

def event_class(case: str, domain: type, base: type, values: dict[str, type],
                descriptor: Any = None) -> type:
    """The SDK event class of `domain` (its TableEvent case `case`), built now: what the
    generated module holds for every kind it knows."""
    descriptor = descriptor or mapping.MESSAGES[domain].DESCRIPTOR
    fields = [(s.name, s.hint, dataclasses.field(
        default=s.default, metadata={"proto": s.proto} if s.proto else None))
        for s in event_slots(domain, descriptor, values)]
    return dataclasses.make_dataclass(
        descriptor.name, fields, bases=(base,), frozen=True, slots=True, kw_only=True,
        namespace={"kind": case, "__doc__": _event_doc(domain), "__module__": base.__module__})


def missing_events(known: Mapping[str, type], base: type, values: dict[str, type]
                   ) -> dict[str, type]:
    """The classes of the kinds `known` lacks (a vocabulary class and message newer than
    the generated module: still decoded, by the same rules)."""
    return {case: event_class(case, domain, base, values)
            for case, domain in mapping.EVENTS.items() if case not in known}


# --------------------------------------------------------------------- generation

def _comments() -> dict[tuple[str, ...], str]:
    """The proto comments: (message full name,) and (message full name, field) -> text."""
    from google.protobuf import descriptor_pb2  # type: ignore[import-untyped,unused-ignore]

    from poker.v1 import source_info

    found: dict[tuple[str, ...], str] = {}

    def walk(docs: dict[tuple[int, ...], str], messages: Any, prefix: str,
             path: tuple[int, ...]) -> None:
        for i, message in enumerate(messages):
            name = f"{prefix}.{message.name}"
            found[(name,)] = docs.get((*path, i), "")
            for j, fd in enumerate(message.field):
                found[(name, fd.name)] = docs.get((*path, i, 2, j), "")
            walk(docs, message.nested_type, name, (*path, i, 3))

    files = descriptor_pb2.FileDescriptorSet.FromString(source_info.FILE_DESCRIPTOR_SET)
    for file in files.file:
        docs = {tuple(loc.path): loc.leading_comments for loc in file.source_code_info.location}
        walk(docs, file.message_type, file.package, (4,))
        for i, enum in enumerate(file.enum_type):  # top-level enums: (5, i)
            found[(f"{file.package}.{enum.name}",)] = docs.get((5, i), "")
    return found


_COMMENTS: dict[tuple[str, ...], str] = {}


def _comment(descriptor: Any, field_name: str | None = None) -> str:
    if not _COMMENTS:
        _COMMENTS.update(_comments())
    key = (descriptor.full_name,) if field_name is None else (descriptor.full_name, field_name)
    return " ".join(_COMMENTS.get(key, "").split())


class _Source:
    """The text of a generated module: imports collected as types are written."""

    def __init__(self, local: set[type], aliases: dict[type, str]) -> None:
        self.local = local
        self.aliases = aliases
        self.imports: dict[str, set[str]] = {}

    def hint(self, hint: Any) -> str:
        if hint is type(None):
            return "None"
        if typing.get_origin(hint) in (typing.Union, types.UnionType):
            return " | ".join(self.hint(a) for a in typing.get_args(hint))
        if typing.get_origin(hint) is tuple:
            return f"tuple[{self.hint(typing.get_args(hint)[0])}, ...]"
        if hint in _ZERO:
            return str(hint.__name__)
        if hint in self.aliases:
            self.need(hint)
            return self.aliases[hint]
        if hint not in self.local:
            self.need(hint)
        return str(hint.__name__)

    def need(self, cls: type) -> None:
        self.imports.setdefault(cls.__module__, set()).add(cls.__name__)

    def field(self, slot: Slot, indent: str = "    ") -> list[str]:
        lines = [f"{indent}#: {line}" for line in textwrap.wrap(
            slot.doc, 100 - len(indent) - 3)] if slot.doc else []
        text = f"{indent}{slot.name}: {self.hint(slot.hint)}"
        if slot.proto:
            default = "" if slot.default is MISSING else f"default={_literal(slot.default)}, "
            text += f' = field({default}metadata={{"proto": "{slot.proto}"}})'
        elif slot.default is not MISSING:
            text += f" = {_literal(slot.default)}"
        return [*lines, text]

    def import_lines(self, first: list[str]) -> list[str]:
        lines = list(first)
        for module in sorted(self.imports):
            names = ", ".join(sorted(self.imports[module], key=_isort))
            line = f"from {module} import {names}"
            if len(line) > 100:
                inner = "".join(f"    {n},\n" for n in sorted(self.imports[module], key=_isort))
                line = f"from {module} import (\n{inner})"
            lines.append(line)
        return lines


def _literal(value: Any) -> str:
    """A default as source, strings in double quotes."""
    if value == "" and isinstance(value, str):
        return '""'
    if value == b"" and isinstance(value, bytes):
        return 'b""'
    return repr(value)


def _isort(name: str) -> tuple[int, str]:
    return (0 if name.isupper() else 1 if name[:1].isupper() else 2, name)


def _docstring(text: str, indent: str = "    ") -> list[str]:
    body = inspect.cleandoc(text).replace('"""', '\\"\\"\\"')
    lines = body.splitlines()
    if len(lines) == 1:
        return [f'{indent}"""{lines[0]}"""']
    return [f'{indent}"""{lines[0]}', *[f"{indent}{x}" if x else "" for x in lines[1:]],
            f'{indent}"""']


_EVENTS_HEAD = '''\
"""A table's events as SDK values: one frozen dataclass per TableEvent kind, all sharing
`sequence`, `time_unix_ms` and `hand_id`.

GENERATED by clients/derive.py from the vocabulary's event classes (poker.vocab.events,
poker.vocab.table_events) and the TableEvent messages (`make proto` or `make events`):
edit those, not this. Cards are `Card`s, enums and `Level`, `LegalActions` the
vocabulary's; a field the message leaves unset reads as its zero, () or None.

An event the caller may not see (the audit trail) arrives as `Hidden`, so sequence
numbers stay without holes. `clients.convert.event_from_proto` builds them.

>>> from clients.cards import cards
>>> e = BoardDealt(sequence=9, time_unix_ms=0, hand_id="t-1", street=Street.FLOP,
...                cards=cards("As Kd 7c"))
>>> e.kind, [str(c) for c in e.cards]
('board_dealt', ['As', 'Kd', '7c'])
"""
'''

_EVENT_BASE = '''

@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """What every event carries: its place in the table's log and its hand ("" for table events)."""

    kind: ClassVar[str] = ""
    sequence: int
    time_unix_ms: int = 0
    hand_id: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Hidden(Event):
    """An event the caller may not see (audit only): its sequence number, no payload."""

    kind: ClassVar[str] = "hidden"
'''

_EVENTS_TAIL = '''

#: The SDK's value of each sub-message an event carries, by the message's full name.
VALUES: dict[str, type] = {{
{values}}}


def derived_event(case: str, domain: type) -> type[Event]:
    """The SDK event of vocabulary class `domain` (TableEvent case `case`), derived now by
    clients.derive's rules: what this module holds for every kind it knows."""
    cls: type[Event] = derive.event_class(case, domain, Event, VALUES)
    return cls


#: The event class of each TableEvent oneof case (its field name).
EVENT_TYPES: dict[str, type[Event]] = {{
{events}}}
# A kind newer than this module (a vocabulary class and its message, `make events` not
# run) is still decoded: its class is derived at import by the same rules.
EVENT_TYPES.update(derive.missing_events(EVENT_TYPES, Event, VALUES))
'''


def _render(kinds: list[tuple[str, Any, type]], values: dict[str, type]
            ) -> tuple[list[str], _Source, list[tuple[str, Any, type, list[Slot]]]]:
    """The source of the event classes of `kinds` ((case, message, vocabulary class)),
    after the value classes and aliases they need that `values` does not hold yet."""
    before = set(values)
    slotted = []
    for case, descriptor, domain in kinds:
        slots = [dataclasses.replace(s, doc=" ".join(filter(None, (
            _comment(descriptor, s.proto or s.name), s.note))))
            for s in event_slots(domain, descriptor, values)]
        slotted.append((case, descriptor, domain, slots))
    fresh = {full: cls for full, cls in values.items() if full not in before}
    derived = [cls for cls in fresh.values() if cls.__module__ == "clients.events"]
    aliases = _aliases(values)
    src = _Source(set(derived), {cls: name for name, cls in aliases.items()})
    body: list[str] = []
    for name, cls in _aliases(fresh).items():
        body += ["", "", f"#: The vocabulary's `{cls.__name__}`, the SDK's value of a {name} "
                 "message.", f"{name} = {cls.__name__}"]
    for full, cls in fresh.items():
        if cls not in derived:
            continue
        descriptor = _descriptor(full)
        body += ["", "", "@dataclass(frozen=True, slots=True)", f"class {cls.__name__}:",
                 *_docstring(cls.__doc__ or cls.__name__), ""]
        for f in dataclasses.fields(cls):
            body += src.field(Slot(f.name, f.type, f.default, doc=_comment(descriptor, f.name)))
    for case, descriptor, domain, slots in slotted:
        body += ["", "", "@dataclass(frozen=True, slots=True, kw_only=True)",
                 f"class {descriptor.name}(Event):", *_docstring(_event_doc(domain)), "",
                 f'    kind: ClassVar[str] = "{case}"']
        for slot in slots:
            body += src.field(slot)
    return body, src, slotted


def event_source(case: str, domain: type, descriptor: Any, values: dict[str, type]) -> str:
    """The source the generated module has for one kind (and the value classes it needs
    that `values` lacks), to be run in the namespace of clients.events."""
    return "\n".join(_render([(case, descriptor, domain)], values)[0]) + "\n"


def _events_source() -> str:
    values: dict[str, type] = {}
    cases = tpb.TableEvent.DESCRIPTOR.oneofs_by_name["event"].fields
    body, src, kinds = _render([(fd.name, fd.message_type, mapping.EVENTS[fd.name])
                                for fd in cases], values)
    uses_field = any(s.proto for *_, slots in kinds for s in slots)
    imports = src.import_lines(["from clients import derive"])
    names = sorted({"Event", "Hidden", "EVENT_TYPES", "VALUES", *_aliases(values),
                    *(c.__name__ for c in values.values() if c.__module__ == "clients.events"),
                    *(d.name for _, d, _, _ in kinds)}, key=_isort)
    all_lines = textwrap.wrap(", ".join(f'"{n}"' for n in names), 95)
    head = [_EVENTS_HEAD, "from __future__ import annotations", "",
            "from dataclasses import dataclass" + (", field" if uses_field else ""),
            "from typing import ClassVar", "", *imports, "",
            "__all__ = [", *[f"    {line}" for line in all_lines], "]"]
    tail = _EVENTS_TAIL.format(
        values="".join(f'    "{full}": {src.hint(cls)},\n' for full, cls in values.items()),
        events="".join(f'    "{case}": {d.name},\n' for case, d, _, _ in kinds))
    return "\n".join(head) + "\n" + _EVENT_BASE + "\n".join(body) + "\n" + tail


def _event_doc(domain: type) -> str:
    """The vocabulary class's docstring, and what the SDK's event has otherwise."""
    override = mapping.OVERRIDES.get(domain) or mapping.Override()
    doc = inspect.cleandoc(domain.__doc__ or "")
    renamed = [f"`{a}` is `{b}`" for a, b in override.renames.items()]
    if renamed:
        doc += f"\n\nHere {', '.join(renamed)}."
    if override.store_only:
        names = ", ".join(f"`{n}`" for n in override.store_only)
        doc += f"\n\nThe store's own {names} {'is' if len(override.store_only) == 1 else 'are'} " \
            "not streamed."
    return doc


def _aliases(values: dict[str, type]) -> dict[str, type]:
    """Vocabulary classes of a message of another name (PlayerIn for HandPlayer)."""
    return {full.rsplit(".", 1)[1]: cls for full, cls in values.items()
            if cls.__module__.startswith("poker.vocab") and cls.__name__ != full.rsplit(".")[-1]}


def _descriptor(full_name: str) -> Any:
    from google.protobuf import descriptor_pool  # type: ignore[import-untyped,unused-ignore]

    return descriptor_pool.Default().FindMessageTypeByName(full_name)


_CONFIG_HEAD = '''\
"""A table's config as the SDK requests it: the `poker.v1.TableConfig` message field by
field; a zero, None or () field takes the server's default (its comment names it).

GENERATED by clients/derive.py from the TableConfig message and the vocabulary's
TableConfig (`make proto` or `make events`): edit those, not this.
"""
'''

_CONFIG_CLASS = '''

@dataclass(frozen=True, slots=True)
class TableConfig:
    """A table's game: the DealerService TableConfig; zero/None fields take the server default.

    The vocabulary's `poker.vocab.config.TableConfig` is the config a table plays (every
    option a value, checked); this is what a caller asks for (unset: the server decides).

    >>> TableConfig(seats=6, levels=(Level(5, 10),), action_time_ms=5000).to_proto().seats
    6
    """

'''

_CONFIG_TAIL = '''
    def to_proto(self) -> table_config_pb2.TableConfig:
        """The `poker.v1.TableConfig` message (poker.mapping's plan)."""
        message: table_config_pb2.TableConfig = mapping.encoder(
            TableConfig, table_config_pb2.TableConfig.DESCRIPTOR, mapping.WIRE)(self)
        return message
'''


def _config_source() -> str:
    values: dict[str, type] = {}
    descriptor = table_config_pb2.TableConfig.DESCRIPTOR
    src = _Source(set(), {})
    body: list[str] = []
    for slot in config_slots(values):
        body += src.field(dataclasses.replace(slot, doc=_comment(descriptor, slot.name)))
    imports = src.import_lines(["from poker import mapping",
                                "from poker.v1 import table_config_pb2"])
    head = [_CONFIG_HEAD, "from __future__ import annotations", "",
            "from dataclasses import dataclass", "", *imports, "", '__all__ = ["TableConfig"]']
    return "\n".join(head) + "\n" + _CONFIG_CLASS + "\n".join(body) + "\n" + _CONFIG_TAIL


_TOURNAMENT_HEAD = '''\
"""The TournamentService's answers as SDK values: a frozen dataclass per message, field
for field (the same names, in the message's order), and a StrEnum per enum.

GENERATED by clients/derive.py from protos/poker/v1/tournament.proto (`make proto` or
`make events`): edit the messages, not this. clients.tournament re-exports them and
reads the messages into them (clients.convert): an enum is its StrEnum (None when
unset), a sub-message its value (None when unset, but a tournament's structure), a
repeated field a tuple, a time the integer its AIP-142 twin is read into.
"""
'''


def _tournament_source() -> str:
    """clients/tournament_values.py: the tournament messages' values (TOURNAMENT_VALUES)
    and enums (TOURNAMENT_ENUMS), by the rules of the events' scalars and enums."""
    from poker import enum_wire
    from poker.v1 import tournament_pb2

    by_message = {message: name for name, message in TOURNAMENT_VALUES.items()}
    enums = {name: tournament_pb2.DESCRIPTOR.enum_types_by_name[name] for name in TOURNAMENT_ENUMS}
    vocab: set[str] = set()

    def hint(fd: Any) -> str:
        if fd.type == _FD.TYPE_MESSAGE:
            return by_message[str(fd.message_type.name)]
        if fd.type == _FD.TYPE_ENUM:
            name = str(fd.enum_type.name)
            if name not in enums:
                vocab.add(_VOCAB_ENUMS[name].__name__)
            return name
        return _PLAIN[fd.type].__name__

    body: list[str] = []
    for name, descriptor in enums.items():
        prefix = enum_wire.name_prefix(name)
        body += ["", "", f"class {name}(StrEnum):",
                 *_docstring(textwrap.fill(_comment(descriptor) or f"poker.v1.{name}.", 92)),
                 ""]
        body += [f'    {v.name.removeprefix(prefix)} = "{v.name.removeprefix(prefix).lower()}"'
                 for v in descriptor.values if v.number]
    uses_field = False
    for name, message in TOURNAMENT_VALUES.items():
        descriptor = getattr(tournament_pb2, message).DESCRIPTOR
        body += ["", "", "@dataclass(frozen=True, slots=True)", f"class {name}:",
                 *_docstring(textwrap.fill(_comment(descriptor) or f"poker.v1.{message}.", 92)),
                 ""]
        twins = time_twins(descriptor)
        for fd in descriptor.fields:
            if fd.name in twins:
                continue
            kind = hint(fd)
            if fd.is_repeated:
                text = f"{fd.name}: tuple[{kind}, ...] = ()"
            elif (name, fd.name) in TOURNAMENT_ALWAYS:
                uses_field = True
                text = f"{fd.name}: {kind} = field(default_factory={kind})"
            elif fd.type in (_FD.TYPE_MESSAGE, _FD.TYPE_ENUM) or fd.has_presence:
                text = f"{fd.name}: {kind} | None = None"
            else:
                text = f"{fd.name}: {kind} = {_literal(_ZERO[_PLAIN[fd.type]])}"
            doc = _comment(descriptor, fd.name)
            body += [f"    #: {line}" for line in textwrap.wrap(doc, 93)] if doc else []
            body.append(f"    {text}")
    names = sorted([*enums, *TOURNAMENT_VALUES], key=_isort)
    all_lines = textwrap.wrap(", ".join(f'"{n}"' for n in names), 95)
    head = [_TOURNAMENT_HEAD, "from __future__ import annotations", "",
            "from dataclasses import dataclass" + (", field" if uses_field else ""),
            "from enum import StrEnum", "",
            *([f"from poker.vocab.enums import {', '.join(sorted(vocab))}", ""] if vocab else []),
            "__all__ = [", *[f"    {line}" for line in all_lines], "]"]
    return "\n".join(head) + "\n" + "\n".join(body) + "\n"


def generate() -> dict[Path, str]:
    """The text of each generated module, by its path."""
    return {EVENTS_PATH: _events_source(), TABLE_CONFIG_PATH: _config_source(),
            TOURNAMENT_VALUES_PATH: _tournament_source()}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    stale = []
    for path, text in generate().items():
        if path.exists() and path.read_text() == text:
            continue
        stale.append(path)
        if "--check" not in args:
            path.write_text(text)
    for path in stale:
        print(f"{path.relative_to(HERE.parent)} {'is stale' if '--check' in args else 'written'}")
    return 1 if stale and "--check" in args else 0


if __name__ == "__main__":
    raise SystemExit(main())
