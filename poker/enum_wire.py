"""Vocabulary enums <-> proto enum numbers, by one naming rule, from the descriptors.

`ActionKind.RAISE` is `ACTION_KIND_RAISE`: the proto value's name is the enum class's
name in upper snake case, `_`, then the member's name. The tables are built from the
proto enum's descriptor, so no value is written out twice; a vocabulary member with no
proto value is an error at import, not a silent gap.

>>> from poker.v1 import dealer_pb2 as pb
>>> from poker.vocab.enums import ActionKind
>>> numbers(ActionKind, pb.ActionKind)[ActionKind.RAISE] == pb.ACTION_KIND_RAISE
True
>>> members(ActionKind, pb.ActionKind)[pb.ACTION_KIND_UNSPECIFIED] is None
True
"""

from __future__ import annotations

import re
from enum import Enum
from typing import Any, TypeVar

E = TypeVar("E", bound=Enum)


def prefix(enum_cls: type[Enum]) -> str:
    """`ActionKind` -> `ACTION_KIND_`."""
    return name_prefix(enum_cls.__name__)


def name_prefix(name: str) -> str:
    """The prefix of the values of the proto enum (or enum class) named `name`."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).upper() + "_"


def numbers(enum_cls: type[E], proto_enum: Any) -> dict[E, int]:
    """Each member's proto number; KeyError naming the member the proto lacks."""
    head = prefix(enum_cls)
    by_name = {value.name: value.number for value in proto_enum.DESCRIPTOR.values}
    out: dict[E, int] = {}
    for member in enum_cls:
        name = head + member.name
        if name not in by_name:
            raise KeyError(f"{proto_enum.DESCRIPTOR.full_name} has no {name} for {member!r}")
        out[member] = by_name[name]
    return out


def members(enum_cls: type[E], proto_enum: Any) -> dict[int, E | None]:
    """Each proto number's member; None for UNSPECIFIED and values the vocabulary lacks."""
    head = prefix(enum_cls)
    return {value.number: enum_cls.__members__.get(value.name.removeprefix(head))
            for value in proto_enum.DESCRIPTOR.values}
