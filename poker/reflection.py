"""Server reflection, `grpc.reflection.v1` and `v1alpha`, serving the protos' comments.

Every server of the suite answers reflection (poker/serving.py), so a generic tool
(grpcurl, grpcui, Postman, a client built at run time) lists its services and reads
their schema. Two things this module does that grpcio-reflection (1.85) does not:

* it serves `grpc.reflection.v1.ServerReflection` as well as `v1alpha`: the same
  protocol under another package (grpcio-reflection has only v1alpha). The messages
  are v1alpha's, whose wire form is v1's; `v1_file()` is v1alpha's file renamed, so a
  tool may describe the reflection service itself in either version;
* the file descriptors it hands out keep their source info, the comments of every
  service, call, message and field: protoc strips them from the generated code, so
  they are read from `poker/v1/source_info.py` (written by poker/protogen.py with
  `--include_source_info`). Files not of protos/ (health, the well-known types) are
  served as the default pool has them.

>>> catalog = Catalog(["poker.v1.LobbyService"])
>>> request = reflection_pb2.ServerReflectionRequest(
...     file_containing_symbol="poker.v1.LobbyService.ListTables")
>>> files = catalog.answer(request).file_descriptor_response.file_descriptor_proto
>>> lobby = next(f for f in map(descriptor_pb2.FileDescriptorProto.FromString, files)
...              if f.name == "poker/v1/lobby.proto")
>>> any(loc.leading_comments for loc in lobby.source_code_info.location)
True
"""

from __future__ import annotations

import importlib
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from typing import Any

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool
from grpc_health.v1 import health_pb2
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from grpc_reflection.v1alpha.reflection_pb2 import ServerReflectionRequest as Request
from grpc_reflection.v1alpha.reflection_pb2 import ServerReflectionResponse as Response

from poker import wire

#: The two reflection services every server answers.
V1 = "grpc.reflection.v1.ServerReflection"
V1ALPHA = "grpc.reflection.v1alpha.ServerReflection"
SERVICE_NAMES = (V1, V1ALPHA)
_V1_FILE = "grpc/reflection/v1/reflection.proto"



def v1_file() -> descriptor_pb2.FileDescriptorProto:
    """grpc/reflection/v1/reflection.proto: v1alpha's file, package v1 (the same messages,
    field for field: the two versions differ only by their package)."""
    proto = descriptor_pb2.FileDescriptorProto.FromString(reflection_pb2.DESCRIPTOR.serialized_pb)
    old, new = ".grpc.reflection.v1alpha.", ".grpc.reflection.v1."
    proto.name, proto.package = _V1_FILE, "grpc.reflection.v1"
    for message in proto.message_type:
        for field in message.field:
            if field.type_name.startswith(old):
                field.type_name = new + field.type_name[len(old):]
    for service in proto.service:
        for method in service.method:
            method.input_type = new + method.input_type[len(old):]
            method.output_type = new + method.output_type[len(old):]
    proto.options.Clear()
    proto.options.java_package = "io.grpc.reflection.v1"
    proto.options.java_multiple_files = True
    proto.options.go_package = "google.golang.org/grpc/reflection/grpc_reflection_v1"
    return proto


def _source_files() -> list[descriptor_pb2.FileDescriptorProto]:
    from poker.v1 import source_info

    return list(descriptor_pb2.FileDescriptorSet.FromString(
        source_info.FILE_DESCRIPTOR_SET).file)


class Catalog:
    """The files a server describes, by name (serialized, with their comments where
    protos/ has them), in a descriptor pool for finding symbols; answers a request."""

    def __init__(self, service_names: Iterable[str],
                 extra: Sequence[descriptor_pb2.FileDescriptorProto] = ()) -> None:
        self.service_names = sorted({*service_names, *SERVICE_NAMES})
        self.pool = descriptor_pool.DescriptorPool()
        self.files: dict[str, descriptor_pb2.FileDescriptorProto] = {}
        for proto in [*_source_files(), v1_file(), *extra]:
            self.files[proto.name] = proto
        for module in (health_pb2, reflection_pb2):
            self.files[module.DESCRIPTOR.name] = descriptor_pb2.FileDescriptorProto.FromString(
                module.DESCRIPTOR.serialized_pb)
        for name in list(self.files):
            self._add(name)

    def _from_default(self, name: str) -> None:
        if name in self.files:
            return
        if name.startswith("google/protobuf/"):  # a well-known type: loaded with its module
            importlib.import_module("google.protobuf." + name[16:-6].replace("/", ".") + "_pb2")
        found = descriptor_pool.Default().FindFileByName(name)
        self.files[name] = descriptor_pb2.FileDescriptorProto.FromString(found.serialized_pb)

    def _add(self, name: str) -> None:
        """Adds `name` (its dependencies first) to the pool, once."""
        try:
            self.pool.FindFileByName(name)
            return
        except KeyError:
            pass
        if name not in self.files:
            self._from_default(name)
        proto = self.files[name]
        for dependency in proto.dependency:
            self._add(dependency)
        self.pool.Add(proto)

    def _with_dependencies(self, name: str) -> list[bytes]:
        seen: dict[str, bytes] = {}

        def visit(file_name: str) -> None:
            if file_name in seen:
                return
            proto = self.files[file_name]
            seen[file_name] = proto.SerializeToString()
            for dependency in proto.dependency:
                visit(dependency)

        visit(name)
        return list(seen.values())

    def _file_of(self, symbol: str) -> str:
        """The file that defines `symbol`: a type, a service, or a member of one (a call, a
        field, an enum value: the pool finds only some members by name)."""
        try:
            return str(self.pool.FindFileContainingSymbol(symbol).name)
        except KeyError:
            parent, _, member = symbol.rpartition(".")
            if not parent:
                raise
            found = self.pool.FindFileContainingSymbol(parent)
            for service in found.services_by_name.values():
                if service.full_name == parent and member in service.methods_by_name:
                    return str(found.name)
            message = found.message_types_by_name.get(parent.rpartition(".")[2])
            if message is not None and message.full_name == parent and (
                    member in message.fields_by_name or member in message.oneofs_by_name):
                return str(found.name)
            raise

    def _files(self, request: Request, name: str) -> Response:
        return Response(original_request=request,
                        file_descriptor_response=reflection_pb2.FileDescriptorResponse(
                            file_descriptor_proto=self._with_dependencies(name)))

    def answer(self, request: Request) -> Response:
        """The answer to one request of the stream (an error_response for what is unknown)."""
        try:
            which = request.WhichOneof("message_request")
            if which == "file_by_filename":
                if request.file_by_filename not in self.files:
                    raise KeyError(request.file_by_filename)
                return self._files(request, request.file_by_filename)
            if which == "file_containing_symbol":
                return self._files(request, self._file_of(request.file_containing_symbol))
            if which == "file_containing_extension":
                ext = request.file_containing_extension
                message = self.pool.FindMessageTypeByName(ext.containing_type)
                extension = self.pool.FindExtensionByNumber(message, ext.extension_number)
                return self._files(request, extension.file.name)
            if which == "all_extension_numbers_of_type":
                message = self.pool.FindMessageTypeByName(request.all_extension_numbers_of_type)
                numbers = sorted(e.number for e in self.pool.FindAllExtensions(message))
                return Response(original_request=request,
                                all_extension_numbers_response=reflection_pb2.
                                ExtensionNumberResponse(base_type_name=message.full_name,
                                                        extension_number=numbers))
            if which == "list_services":
                return Response(original_request=request,
                                list_services_response=reflection_pb2.ListServiceResponse(
                                    service=[reflection_pb2.ServiceResponse(name=n)
                                             for n in self.service_names]))
        except KeyError:
            return Response(original_request=request, error_response=reflection_pb2.ErrorResponse(
                error_code=grpc.StatusCode.NOT_FOUND.value[0], error_message="not found"))
        return Response(original_request=request, error_response=reflection_pb2.ErrorResponse(
            error_code=grpc.StatusCode.INVALID_ARGUMENT.value[0],
            error_message="no request: set one field of message_request"))


class Reflection:
    """The synchronous servicer of both versions."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    def ServerReflectionInfo(self, requests: Iterator[Request],  # noqa: N802 - gRPC's name
                             context: grpc.ServicerContext) -> Iterator[Response]:
        for request in requests:
            yield self.catalog.answer(request)


class AsyncReflection:
    """The grpc.aio servicer of both versions."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    async def ServerReflectionInfo(self, requests: AsyncIterator[Request],  # noqa: N802
                                   context: grpc.aio.ServicerContext) -> AsyncIterator[Response]:
        async for request in requests:
            yield self.catalog.answer(request)


def add(server: grpc.Server | grpc.aio.Server, service_names: Iterable[str]) -> None:
    """Adds reflection v1 and v1alpha (describing `service_names`, health and themselves)
    to a server, sync or asyncio, their requests guarded by poker.wire."""
    catalog = Catalog(service_names)
    servicer: Any = (AsyncReflection if isinstance(server, grpc.aio.Server) else Reflection)(
        catalog)
    wire.add(server, V1ALPHA, reflection_pb2_grpc.add_ServerReflectionServicer_to_server,
             servicer)
    wire.register(server, V1, {"ServerReflectionInfo": grpc.stream_stream_rpc_method_handler(
        servicer.ServerReflectionInfo, request_deserializer=Request.FromString,
        response_serializer=Response.SerializeToString)})
