"""Code generation as README documents it (issue 16): `buf generate` with buf.gen.yaml,
local plugins only, writes a Python client (the same code as `make proto`) and a
TypeScript one (protoc-gen-es) that compiles; every .proto sets the language options the
other ecosystems' generators read.
"""

from __future__ import annotations

import ast
import os
import py_compile
import shutil
import subprocess
from pathlib import Path

import pytest
from google.protobuf import descriptor_pb2

from poker import protogen
from poker.v1 import source_info

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / "node_modules" / ".bin"
OPTIONS = ("go_package", "java_package", "java_multiple_files", "java_outer_classname",
           "csharp_namespace", "php_namespace", "ruby_package", "objc_class_prefix")


def _buf() -> str:
    found = shutil.which("buf", path=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    assert found, "buf is missing: run `npm ci` (make test does)"
    return found


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("gen")
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run([_buf(), "generate", "-o", str(out)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    return out / "gen"


def _protos() -> list[str]:
    return [str(p.relative_to(protogen.PROTO_ROOT).with_suffix(""))
            for p in protogen.proto_files()]


def _descriptor(path: Path) -> descriptor_pb2.FileDescriptorProto:
    """The FileDescriptorProto a generated _pb2.py embeds (json names cleared: buf fills
    them in, protoc leaves them to the runtime)."""
    tree = ast.parse(path.read_text())
    data = next(node.args[0].value for node in ast.walk(tree)
                if isinstance(node, ast.Call) and getattr(node.func, "attr", "")
                == "AddSerializedFile")
    proto = descriptor_pb2.FileDescriptorProto.FromString(data)
    for message in _messages(proto.message_type):
        for field in message.field:
            field.ClearField("json_name")
    return proto


def _messages(messages: object) -> list[descriptor_pb2.DescriptorProto]:
    out: list[descriptor_pb2.DescriptorProto] = []
    for message in messages:  # type: ignore[attr-defined]
        out += [message, *_messages(message.nested_type)]
    return out


def test_buf_generate_writes_the_python_of_make_proto(generated: Path) -> None:
    for stem in _protos():
        for suffix in ("_pb2.py", "_pb2.pyi", "_pb2_grpc.py"):
            fresh, committed = generated / "python" / (stem + suffix), ROOT / (stem + suffix)
            assert fresh.exists(), f"buf generate wrote no {fresh.name}"
            py_compile.compile(str(fresh), doraise=True)
            if suffix == "_pb2.py":
                assert _descriptor(fresh) == _descriptor(committed), stem
            else:
                assert fresh.read_text() == committed.read_text(), fresh.name


def test_buf_generate_writes_typescript_that_compiles(generated: Path, tmp_path: Path) -> None:
    sources = [generated / "es" / (stem + "_pb.ts") for stem in _protos()]
    assert all(s.exists() for s in sources), [s.name for s in sources if not s.exists()]
    assert "export const LobbyService" in (generated / "es/poker/v1/lobby_pb.ts").read_text()
    # compiled where @bufbuild/protobuf resolves: a folder whose node_modules is the project's
    (tmp_path / "node_modules").symlink_to(ROOT / "node_modules")
    (tmp_path / "package.json").write_text('{"type": "module"}')
    shutil.copytree(generated / "es", tmp_path / "es")
    done = subprocess.run([str(BIN / "tsc"), "--noEmit", "--strict", "--module", "nodenext",
                           "--moduleResolution", "nodenext", "--target", "es2022",
                           "--skipLibCheck", *(str(tmp_path / "es" / (s + "_pb.ts"))
                                               for s in _protos())],
                          cwd=tmp_path, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_proto_sets_the_language_options_of_the_other_ecosystems() -> None:
    files = descriptor_pb2.FileDescriptorSet.FromString(source_info.FILE_DESCRIPTOR_SET).file
    assert {f.name.removesuffix(".proto") for f in files} == set(_protos())
    for proto in files:
        missing = [o for o in OPTIONS if not proto.options.HasField(o)]
        assert not missing, f"{proto.name} lacks {missing}"
    for option in OPTIONS:  # one package: the same value in every file (buf lint's rule)
        if option != "java_outer_classname":
            assert len({getattr(f.options, option) for f in files}) == 1, option
