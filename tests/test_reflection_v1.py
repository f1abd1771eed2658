"""A self-describing server (issue 16): every server answers reflection grpc.reflection.v1
as well as v1alpha, and the descriptors it hands out keep their comments, so a generic
tool describing a method shows its documentation.

The client here is a reflection v1 client built from the v1 protocol's messages alone (a
pool of their own, the calls by path), as grpcurl or Postman would be.
"""

from __future__ import annotations

import asyncio
from typing import Any

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from grpc_health.v1 import health

from poker import reflection, serving

V1_PATH = "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo"
V1ALPHA_PATH = "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo"


def _v1_messages() -> tuple[Any, Any]:
    pool = descriptor_pool.DescriptorPool()
    pool.Add(reflection.v1_file())
    request = message_factory.GetMessageClass(
        pool.FindMessageTypeByName("grpc.reflection.v1.ServerReflectionRequest"))
    response = message_factory.GetMessageClass(
        pool.FindMessageTypeByName("grpc.reflection.v1.ServerReflectionResponse"))
    return request, response


def _ask(address: str, path: str, requests: list[Any]) -> list[Any]:
    request_cls, response_cls = _v1_messages()
    with grpc.insecure_channel(address) as channel:
        call = channel.stream_stream(path, request_serializer=request_cls.SerializeToString,
                                     response_deserializer=response_cls.FromString)
        return list(call(iter(requests), timeout=10))


def _describe(address: str, path: str = V1_PATH) -> None:
    request_cls, _ = _v1_messages()
    listed, described = _ask(address, path, [
        request_cls(list_services=""),
        request_cls(file_containing_symbol="poker.v1.LobbyService.ListTables")])
    names = {s.name for s in listed.list_services_response.service}
    assert {"poker.v1.LobbyService", reflection.V1, reflection.V1ALPHA,
            health.SERVICE_NAME} <= names, names
    assert described.WhichOneof("message_response") == "file_descriptor_response", described
    files = {f.name: f for f in map(descriptor_pb2.FileDescriptorProto.FromString,
                                    described.file_descriptor_response.file_descriptor_proto)}
    lobby = files["poker/v1/lobby.proto"]
    assert "poker/v1/table_config.proto" in files, "its dependencies come along"
    commented = [loc for loc in lobby.source_code_info.location
                 if loc.leading_comments.strip()]
    assert len(commented) > 100, len(commented)
    # the comment on ListTables (service 0 = LobbyService, its method of that name)
    service = next(i for i, s in enumerate(lobby.service) if s.name == "LobbyService")
    method = next(i for i, m in enumerate(lobby.service[service].method)
                  if m.name == "ListTables")
    comment = next(loc.leading_comments for loc in lobby.source_code_info.location
                   if list(loc.path) == [6, service, 2, method])
    assert "page" in comment.lower(), comment


def test_a_sync_server_answers_reflection_v1_with_the_comments() -> None:
    running = serving.start([serving.Service(["poker.v1.LobbyService"], lambda s: None)],
                            "127.0.0.1", 0)
    try:
        _describe(f"127.0.0.1:{running.port}")
        _describe(f"127.0.0.1:{running.port}", V1ALPHA_PATH)  # the same, in v1alpha
        request_cls, _ = _v1_messages()
        [itself] = _ask(f"127.0.0.1:{running.port}", V1_PATH, [
            request_cls(file_containing_symbol=reflection.V1)])
        [file] = itself.file_descriptor_response.file_descriptor_proto
        assert descriptor_pb2.FileDescriptorProto.FromString(file).package == \
            "grpc.reflection.v1"
        [unknown] = _ask(f"127.0.0.1:{running.port}", V1_PATH, [
            request_cls(file_containing_symbol="poker.v1.NoSuchThing")])
        assert unknown.error_response.error_code == grpc.StatusCode.NOT_FOUND.value[0]
    finally:
        running.stop(0)


def test_an_asyncio_server_answers_reflection_v1_with_the_comments() -> None:
    async def run() -> None:
        server = grpc.aio.server()
        serving.add_health_and_reflection(server, health.aio.HealthServicer(),
                                          ["poker.v1.LobbyService"])
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        try:
            await asyncio.to_thread(_describe, f"127.0.0.1:{port}")
        finally:
            await server.stop(0)

    asyncio.run(run())
