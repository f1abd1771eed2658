"""Generates the Python protobuf/gRPC code of `protos/` into the `poker.v1` package.

One command (`make proto`, or `python -m poker.protogen`) writes `poker/v1/`,
every `.proto` below `protos/` (a new file needs no change here);
`tests/test_foundation.py` regenerates into a temporary folder and fails when
the committed code is stale or a generated file is missing or left over.

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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT, help="import root to write into")
    args = parser.parse_args(argv)
    written = generate(args.out)
    print(f"generated {len(written)} files under {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
