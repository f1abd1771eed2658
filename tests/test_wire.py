"""Finding 4, the wire part: a request whose bytes do not parse is INVALID_ARGUMENT naming
the method and what is wrong, on every RPC of every service (a unary request, and a
request in the middle of a stream), never INTERNAL; and the servers stay healthy."""

from __future__ import annotations

import doctest
from collections.abc import Iterator
from concurrent import futures

import grpc
import pytest
from google.protobuf import descriptor as _descriptor
from google.protobuf import message_factory
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from poker import wire
from poker.v1 import dealer_pb2 as dpb
from poker.v1 import evaluator_pb2 as epb
from poker.v1 import evaluator_pb2_grpc as epb_grpc
from tests.wire_helpers import Rpc, Suite, bearer, call_raw, every_rpc, start_suite

pytestmark = pytest.mark.timeout(150)

_F = _descriptor.FieldDescriptor
#: A field number no request has: the malformed bytes that need no particular field use it.
SPARE = 1000
_VARINT_TYPES = {_F.TYPE_INT32, _F.TYPE_INT64, _F.TYPE_UINT32, _F.TYPE_UINT64, _F.TYPE_BOOL,
                 _F.TYPE_ENUM, _F.TYPE_SINT32, _F.TYPE_SINT64}


def tag(number: int, wire_type: int) -> bytes:
    return wire_varint(number << 3 | wire_type)


def wire_varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _string_path(message: _descriptor.Descriptor, depth: int = 0) -> list[int] | None:
    """Field numbers down to a string field (through nested messages), if there is one."""
    for field in message.fields:
        if field.type == _F.TYPE_STRING:
            return [field.number]
    for field in message.fields:
        if field.type == _F.TYPE_MESSAGE and depth < 3:
            below = _string_path(field.message_type, depth + 1)
            if below:
                return [field.number, *below]
    return None


def _bad_utf8(message: _descriptor.Descriptor) -> bytes | None:
    path = _string_path(message)
    if path is None:
        return None
    data = b"\xc3\x28"  # a lead byte followed by no continuation byte
    for number in reversed(path):
        data = tag(number, 2) + wire_varint(len(data)) + data
    return data


def _mistyped(message: _descriptor.Descriptor) -> bytes | None:
    """The first field sent with a wire type it does not have (None: no field)."""
    if not message.fields:
        return None
    field = message.fields[0]
    if field.type in _VARINT_TYPES:
        return tag(field.number, 5) + b"\x01\x02\x03\x04"
    return tag(field.number, 0) + b"\x01"


def malformed(message: _descriptor.Descriptor) -> dict[str, bytes]:
    """The seven ways a request's bytes are wrong, for `message` (fewer when it has no
    string field, or no field at all)."""
    cases = {
        "truncated length-delimited field": tag(SPARE, 2) + b"\x05ab",
        "truncated varint": tag(SPARE, 0) + b"\xff\xff",
        "11-byte varint": tag(SPARE, 0) + b"\xff" * 10 + b"\x01",
        "field number 0": b"\x00\x01",
        "group closed by another field's end-group": tag(SPARE, 3) + tag(SPARE + 1, 4),
    }
    for name, data in (("wrong wire type for a field", _mistyped(message)),
                       ("invalid UTF-8 in a string field", _bad_utf8(message))):
        if data is not None:
            cases[name] = data
    return cases


CASES = [(rpc, name, data) for rpc in every_rpc()
         for name, data in malformed(rpc.request).items()]


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Suite]:
    yield from start_suite(tmp_path_factory.mktemp("wire"))


@pytest.fixture(scope="module")
def first_requests(suite: Suite) -> dict[str, tuple[bytes, str | None]]:
    """For each streaming RPC, a first request the service accepts, and its credential: so
    the malformed one after it is read in the middle of a stream that is running."""
    channel = suite.channels["dealer"]
    svc = bearer(suite.service_token)
    create = channel.unary_unary("/poker.v1.DealerService/CreateTable",
                                 dpb.CreateTableRequest.SerializeToString,
                                 dpb.CreateTableResponse.FromString)
    seat = channel.unary_unary("/poker.v1.DealerService/SeatPlayer",
                               dpb.SeatPlayerRequest.SerializeToString,
                               dpb.SeatPlayerResponse.FromString)
    table_id = create(dpb.CreateTableRequest(config=dpb.TableConfig(seats=2)), metadata=svc,
                      timeout=10).table_id
    token = seat(dpb.SeatPlayerRequest(table_id=table_id, seat=0, player_id="wire-0",
                                       stack=1000), metadata=svc, timeout=10).seat_token
    return {
        "EvaluateBatchStream": (
            epb.EvaluateBatchStreamRequest(cards_per_hand=5).SerializeToString(), None),
        "Play": (dpb.PlayRequest(start=dpb.PlayStart(table_id=table_id)).SerializeToString(),
                 token),
        "PlayMany": (dpb.PlayManyRequest(open=[dpb.PlaySeat(
            table_id=table_id, seat_token=token)]).SerializeToString(), None),
    }


def test_the_first_requests_of_the_streams_are_accepted(
        suite: Suite, first_requests: dict[str, tuple[bytes, str | None]]) -> None:
    # Else the malformed request would not be read mid-stream: the stream would end first.
    for rpc in every_rpc():
        if rpc.streams_requests:
            first, token = first_requests[rpc.method.name]
            assert call_raw(suite.channel(rpc), rpc, [first], token)[0] == grpc.StatusCode.OK


@pytest.mark.parametrize(("rpc", "case", "data"), CASES,
                         ids=[f"{rpc}-{case}" for rpc, case, _ in CASES])
def test_malformed_request_bytes_are_invalid_argument(
        suite: Suite, first_requests: dict[str, tuple[bytes, str | None]], rpc: Rpc, case: str,
        data: bytes) -> None:
    if rpc.streams_requests:
        first, token = first_requests[rpc.method.name]
        code, message = call_raw(suite.channel(rpc), rpc, [first, data], token)
        which = "request 2 of the stream"
    else:
        code, message = call_raw(suite.channel(rpc), rpc, [data], suite.token_for(rpc))
        which = "the request"
    assert code == grpc.StatusCode.INVALID_ARGUMENT, (case, data, code, message)
    assert message.startswith(
        f"{rpc.method.containing_service.full_name}/{rpc.method.name}: {which} is not a "
        f"valid {rpc.request.full_name}: "), message
    assert len(message) < 300


def test_every_server_is_healthy_after_the_malformed_requests(suite: Suite) -> None:
    for rpc in every_rpc():
        for data in malformed(rpc.request).values():
            call_raw(suite.channel(rpc), rpc, [data, data] if rpc.streams_requests else [data])
    suite.assert_healthy()


def test_the_message_says_what_is_wrong() -> None:
    hand = epb.EvaluateHandRequest.DESCRIPTOR
    said = {name: wire.explain(data, hand) for name, data in malformed(hand).items()}
    assert said == {
        "truncated length-delimited field": "byte 0: field '#1000' says 5 bytes, 2 are left "
                                            "(truncated)",
        "truncated varint": "byte 2: field '#1000': truncated varint",
        "11-byte varint": "byte 2: field '#1000': a varint longer than 10 bytes",
        "wrong wire type for a field": "byte 0: field 'cards' (1) is string, sent as wire "
                                       "type 0 (varint)",
        "field number 0": "byte 0: field number 0 (no field has number 0)",
        "group closed by another field's end-group": "byte 2: an end-group tag of field 1001 "
                                                     "closes the group of field 1000",
        "invalid UTF-8 in a string field": "byte 2: field 'cards': invalid UTF-8 (a string "
                                           "must be UTF-8)",
    }


def test_packed_numbers_are_explained_too() -> None:
    showdown = epb.ShowdownResponse.DESCRIPTOR  # winners: repeated uint32, packed
    assert wire.explain(b"\x12\x02\x00\xff", showdown) == \
        "byte 3: field 'winners' (packed): truncated varint"
    valid = epb.ShowdownResponse(winners=[0, 2, 300]).SerializeToString()
    assert wire.explain(valid, showdown) == "it does not parse"  # nothing wrong to say


def test_a_field_number_no_version_knows_is_still_accepted(suite: Suite) -> None:
    # Forward compatibility: a newer client's field is skipped, as protobuf wants.
    rpc = next(r for r in every_rpc() if r.method.name == "EvaluateHand")
    request = epb.EvaluateHandRequest(cards=["As", "Ks", "Qs", "Js", "Ts"]).SerializeToString()
    assert call_raw(suite.channel(rpc), rpc, [request + tag(SPARE, 0) + b"\x01"])[0] == \
        grpc.StatusCode.OK


def test_the_wire_module_doctests_pass() -> None:
    result = doctest.testmod(wire)
    assert result.attempted and not result.failed


def test_a_status_message_is_bounded() -> None:
    assert wire.bounded("x" * 900) == "x" * 900
    cut = wire.bounded("x" * 100_000)
    assert len(cut) == wire.MAX_STATUS_CHARS and cut.endswith("(cut, 100000 characters)")


class _Raising(epb_grpc.EvaluatorServiceServicer):
    def EvaluateHand(self, request: object, context: object) -> object:
        raise ValueError("x" * 100_000)


def test_an_exception_a_handler_lets_out_is_unknown_with_a_bounded_message() -> None:
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    wire.add(server, "poker.v1.EvaluatorService",
             epb_grpc.add_EvaluatorServiceServicer_to_server, _Raising())
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            rpc = next(r for r in every_rpc() if r.method.name == "EvaluateHand")
            code, message = call_raw(channel, rpc, [b""])
    finally:
        server.stop(None)
    assert code == grpc.StatusCode.UNKNOWN
    assert message.startswith("Exception calling application: xxx")
    assert len(message) == wire.MAX_STATUS_CHARS


def _stuffed(message: _descriptor.Descriptor, text: str) -> bytes:
    """A request with every top-level string field (one of each oneof) set to `text`."""
    cls = message_factory.GetMessageClass(message)
    request, oneofs = cls(), set()
    for field in message.fields:
        if field.type != _F.TYPE_STRING or (field.containing_oneof in oneofs):
            continue
        if field.containing_oneof is not None:
            oneofs.add(field.containing_oneof)
        if field.is_repeated:
            getattr(request, field.name).append(text)
        else:
            setattr(request, field.name, text)
    return request.SerializeToString()  # type: ignore[no-any-return]


def test_no_status_message_is_longer_than_the_bound(suite: Suite) -> None:
    # Even where a service quotes what it was sent whole, no caller swells a status.
    huge = "As" + "z" * 200_000
    for rpc in every_rpc():
        data = _stuffed(rpc.request, huge)
        for token in (None, suite.token_for(rpc)):
            code, message = call_raw(suite.channel(rpc), rpc, [data], token, timeout=3)
            assert len(message) <= wire.MAX_STATUS_CHARS, (str(rpc), code, message[:200])
    suite.assert_healthy()


def test_health_and_reflection_keep_working(suite: Suite) -> None:
    suite.assert_healthy()
    for name, channel in suite.channels.items():
        watch = health_pb2_grpc.HealthStub(channel).Watch(
            health_pb2.HealthCheckRequest(service=""), timeout=5)
        assert next(watch).status == health_pb2.HealthCheckResponse.SERVING, name
        watch.cancel()
        stub = reflection_pb2_grpc.ServerReflectionStub(channel)
        answers = list(stub.ServerReflectionInfo(
            iter([reflection_pb2.ServerReflectionRequest(list_services="")]), timeout=5))
        services = {s.name for s in answers[0].list_services_response.service}
        assert any(s.startswith("poker.v1.") for s in services), (name, services)


@pytest.mark.parametrize("method", ["/grpc.health.v1.Health/Check",
                                    "/grpc.health.v1.Health/Watch"])
def test_health_refuses_malformed_bytes_too(suite: Suite, method: str) -> None:
    for name, channel in suite.channels.items():
        call = (channel.unary_stream if method.endswith("Watch") else channel.unary_unary)(
            method, request_serializer=None, response_deserializer=None)
        with pytest.raises(grpc.RpcError) as refused:
            answer = call(b"\x0a\x05ab", timeout=5)
            if method.endswith("Watch"):
                next(answer)
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT, name
        assert "grpc.health.v1.HealthCheckRequest" in (refused.value.details() or "")


def test_reflection_refuses_malformed_bytes_mid_stream(suite: Suite) -> None:
    good = reflection_pb2.ServerReflectionRequest(list_services="").SerializeToString()
    for name, channel in suite.channels.items():
        call = channel.stream_stream("/grpc.reflection.v1alpha.ServerReflection/"
                                     "ServerReflectionInfo", request_serializer=None,
                                     response_deserializer=None)
        with pytest.raises(grpc.RpcError) as refused:
            list(call(iter([good, b"\x00\x01"]), timeout=5))
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT, name
        assert "request 2 of the stream" in (refused.value.details() or ""), name
    suite.assert_healthy()
