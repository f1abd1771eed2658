"""Generates the Python protobuf/gRPC code of `protos/` into the `poker.v1` package.

One command (`make proto`, or `python -m poker.protogen`) writes `poker/v1/`,
every `.proto` below `protos/` (a new file needs no change here);
`tests/test_foundation.py` regenerates into a temporary folder and fails when
the committed code is stale or a generated file is missing or left over.

Beside them, `poker/v1/source_info.py` holds the same files' descriptors WITH their
source info (`--include_source_info`: the comments of every message, field and call),
which protoc leaves out of the code it generates; server reflection
(poker/reflection.py) serves those, so a generic tool shows the documentation with the
schema.

The protos are compiled from `protos/` as include root, so `poker/v1/x.proto`
becomes module `poker.v1.x_pb2` and the generated `_pb2_grpc` files import
their siblings by that package path.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTO_ROOT = ROOT / "protos"


def proto_files(proto_root: Path = PROTO_ROOT) -> list[Path]:
    """Every .proto below the root, sorted so output is reproducible."""
    return sorted(proto_root.rglob("*.proto"))


def generate(out_dir: Path, proto_root: Path = PROTO_ROOT) -> list[Path]:
    """Compiles every proto into `out_dir` (the import root); returns the files written."""
    import grpc_tools
    from grpc_tools import protoc  # dev dependency: only needed to regenerate

    files = proto_files(proto_root)
    well_known = Path(grpc_tools.__file__).parent / "_proto"
    out_dir.mkdir(parents=True, exist_ok=True)
    args = [
        "grpc_tools.protoc",
        f"-I{proto_root}",
        f"-I{well_known}",
        f"--python_out={out_dir}",
        f"--pyi_out={out_dir}",
        f"--grpc_python_out={out_dir}",
        *(str(f.relative_to(proto_root)) for f in files),
    ]
    if protoc.main(args) != 0:
        raise RuntimeError("protoc failed; see the messages above")
    _write_source_info(out_dir, proto_root, well_known, files)
    package_dirs = sorted({f.parent.relative_to(proto_root) for f in files})
    for package_dir in package_dirs:
        # Each directory on the way becomes a package.
        for depth in range(1, len(package_dir.parts) + 1):
            init = out_dir.joinpath(*package_dir.parts[:depth], "__init__.py")
            if not init.exists():
                init.write_text('"""Generated from protos/; do not edit."""\n')
    return sorted(
        path
        for package_dir in package_dirs
        for path in (out_dir / package_dir).iterdir()
        if path.suffix in {".py", ".pyi"}
    )


#: The module (below the import root) that carries the descriptors with source info.
SOURCE_INFO = Path("poker", "v1", "source_info.py")


def _write_source_info(out_dir: Path, proto_root: Path, well_known: Path,
                       files: list[Path]) -> None:
    import base64
    import tempfile
    import textwrap

    from grpc_tools import protoc

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp, "set.binpb")
        args = ["grpc_tools.protoc", f"-I{proto_root}", f"-I{well_known}",
                "--include_source_info", f"--descriptor_set_out={out}",
                *(str(f.relative_to(proto_root)) for f in files)]
        if protoc.main(args) != 0:
            raise RuntimeError("protoc failed (descriptor set); see the messages above")
        data = out.read_bytes()
    encoded = "\n".join(textwrap.wrap(base64.b64encode(data).decode(), 96))
    target = out_dir / SOURCE_INFO
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(
        '"""Generated from protos/ by poker/protogen.py; do not edit.\n\n'
        "`FILE_DESCRIPTOR_SET`: a serialized google.protobuf.FileDescriptorSet of every\n"
        "file of protos/, with its source info (comments), for server reflection.\n"
        '"""\n\nimport base64\n\n'
        f'FILE_DESCRIPTOR_SET = base64.b64decode("""\n{encoded}\n""")\n')


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT, help="import root to write into")
    args = parser.parse_args(argv)
    written = generate(args.out)
    print(f"generated {len(written)} files under {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
