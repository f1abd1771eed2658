"""A protoc plugin that writes the Python code of the protos with grpc_tools' compiler.

`buf generate` (buf.gen.yaml) runs it as a local plugin, so the Python code needs no
network (no remote plugin) and no `protoc` on the PATH: buf compiles the protos and
hands this plugin their descriptors (a CodeGeneratorRequest on stdin); the plugin asks
grpc_tools' bundled protoc for the messages (`--python_out`), their stubs (`--pyi_out`)
and the gRPC services (`--grpc_python_out`) from those descriptors, and answers the files
(a CodeGeneratorResponse on stdout). The output is the same code as `make proto`'s
(poker/protogen.py): tests/test_codegen.py checks it.

    .venv/bin/python -m poker.protoc_plugin < request.bin > response.bin
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from google.protobuf import descriptor_pb2
from google.protobuf.compiler import plugin_pb2


def generate(request: plugin_pb2.CodeGeneratorRequest) -> plugin_pb2.CodeGeneratorResponse:
    """The Python files of the request's files_to_generate."""
    from grpc_tools import protoc

    response = plugin_pb2.CodeGeneratorResponse(
        supported_features=plugin_pb2.CodeGeneratorResponse.FEATURE_PROTO3_OPTIONAL)
    with tempfile.TemporaryDirectory() as tmp:
        descriptors = Path(tmp, "in.binpb")
        descriptors.write_bytes(descriptor_pb2.FileDescriptorSet(
            file=request.proto_file).SerializeToString())
        out = Path(tmp, "out")
        out.mkdir()
        args = ["grpc_tools.protoc", f"--descriptor_set_in={descriptors}",
                f"--python_out={out}", f"--pyi_out={out}", f"--grpc_python_out={out}",
                *request.file_to_generate]
        if protoc.main(args) != 0:
            response.error = "grpc_tools.protoc failed; see its messages on stderr"
            return response
        for path in sorted(p for p in out.rglob("*") if p.is_file()):
            response.file.add(name=str(path.relative_to(out)), content=path.read_text())
    return response


def main() -> int:
    request = plugin_pb2.CodeGeneratorRequest.FromString(sys.stdin.buffer.read())
    sys.stdout.buffer.write(generate(request).SerializeToString())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
