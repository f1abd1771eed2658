"""The protos are split by concept; `dealer_pb2` still gives every message of the dealer.

dealer.proto holds DealerService only and re-exports, with `import public`, the
files its requests, answers and the types they carry live in. Code across the
repository does `from poker.v1 import dealer_pb2 as pb` and uses `pb.TableConfig`,
`pb.TableEvent`, `pb.ACTION_KIND_FOLD`: the generated module and its stub keep
all of them.
"""

from __future__ import annotations

import re
from pathlib import Path

from google.protobuf import descriptor

from poker.v1 import dealer_pb2

ROOT = Path(__file__).resolve().parent.parent
PROTOS = ROOT / "protos" / "poker" / "v1"


# What dealer.proto held before the split, by concept.
SPLIT = {
    "poker/v1/table_config.proto",
    "poker/v1/table_view.proto",
    "poker/v1/table_events.proto",
    "poker/v1/dealer_player_api.proto",
    "poker/v1/dealer_operator_api.proto",
}


def _reexported() -> list[descriptor.FileDescriptor]:
    files = list(dealer_pb2.DESCRIPTOR.public_dependencies)
    assert {f.name for f in files} == SPLIT, "dealer.proto must `import public` each of SPLIT"
    return files


def _names(file: descriptor.FileDescriptor) -> dict[str, object]:
    """Every top-level name the generated module of `file` defines, with its descriptor."""
    names: dict[str, object] = {}
    for message in file.message_types_by_name.values():
        names[message.name] = message
    for enum in file.enum_types_by_name.values():
        names[enum.name] = enum
        for value in enum.values:
            names[value.name] = value
    return names


def test_dealer_pb2_has_every_message_and_enum_it_had() -> None:
    for file in _reexported():
        for name, desc in _names(file).items():
            assert hasattr(dealer_pb2, name), f"dealer_pb2.{name} (from {file.name}) is gone"
            got = getattr(dealer_pb2, name)
            if isinstance(desc, descriptor.EnumValueDescriptor):
                assert got == desc.number, name
            else:
                assert got.DESCRIPTOR is desc, name


def test_the_dealer_pb2_stub_names_them_too() -> None:
    """mypy reads dealer_pb2.pyi: each re-exported name is there as `import X as X` or `X: ...`."""
    stub = (ROOT / "poker" / "v1" / "dealer_pb2.pyi").read_text()
    exported = set(re.findall(r"^from \S+ import (\w+) as \1$", stub, re.M))
    exported |= set(re.findall(r"^(\w+): ", stub, re.M))
    for file in _reexported():
        missing = sorted(set(_names(file)) - exported)
        assert not missing, f"dealer_pb2.pyi lacks {missing} from {file.name}"


def test_dealer_proto_holds_the_service_only() -> None:
    """A new message goes to the file of its concept (dealer.proto's comment lists them)."""
    assert [s.name for s in dealer_pb2.DESCRIPTOR.services_by_name.values()] == ["DealerService"]
    assert not dealer_pb2.DESCRIPTOR.message_types_by_name, (
        "messages declared in dealer.proto: move them to table_config, table_view, "
        "table_events, dealer_player_api or dealer_operator_api.proto"
    )
    assert not dealer_pb2.DESCRIPTOR.enum_types_by_name


def _file_comment(text: str) -> bool:
    """A comment on `package`, a detached one (a blank line after it) or the service's own."""
    lines = [line.strip() for line in text.splitlines()]
    for i, line in enumerate(lines):
        if not line.startswith("//"):
            continue
        end = i
        while end < len(lines) and lines[end].startswith("//"):
            end += 1
        after = lines[end] if end < len(lines) else ""
        return after == "" or after.startswith(("package ", "service "))
    return False


def test_every_proto_file_says_what_it_holds() -> None:
    for path in sorted(PROTOS.glob("*.proto")):
        assert _file_comment(path.read_text()), (
            f"{path.name} has no file comment saying what it holds (put one on `package`)"
        )


def test_a_file_whose_first_comment_is_a_message_s_has_none() -> None:
    message = '\n// A.\nmessage A {}\n'
    assert not _file_comment('syntax = "proto3";\npackage poker.v1;\n' + message)
    assert _file_comment('syntax = "proto3";\n// Holds A.\npackage poker.v1;\n' + message)
