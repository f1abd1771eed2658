"""The wire edge of every server: a request that does not parse is INVALID_ARGUMENT, and
no status message outgrows gRPC's metadata.

gRPC parses a request before the servicer sees it and answers INTERNAL ("Exception
deserializing request!") when it cannot: the caller's fault reported as the server's.
`add` registers a servicer with its requests passed through as bytes and parsed in a
thin wrapper instead, which answers INVALID_ARGUMENT naming the method, the message
and what is wrong (`explain`), for unary requests and for each request of a stream.
The wrapper costs one Python call a message (see bench/wire.py); the explaining is
done only for a request that failed.

A known field sent with another wire type is parsed by protobuf as an unknown field
and silently dropped (and upb lets field number 0 by in a message with no fields); in
the top-level fields of a request both are refused too. A field number no version of
the API knows is still accepted, as protobuf wants.

`bounded` (poker.status) cuts a status message to `MAX_STATUS_CHARS`. Every abort point of the
services goes through it, and so does the UNKNOWN status of an exception a synchronous
unary handler lets out (gRPC would quote the exception whole): a message quoting a
huge input stays far below the metadata limit (8 KiB by default) past which the caller
would see an opaque transport error instead.
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import grpc
from google.protobuf import descriptor as _descriptor  # type: ignore[import-untyped,unused-ignore]
from google.protobuf import unknown_fields  # type: ignore[import-untyped,unused-ignore]
from google.protobuf.message import DecodeError  # type: ignore[import-untyped,unused-ignore]

from poker import errors, metrics
from poker.log import get_logger
from poker.status import (
    INTERNAL_REASON,
    MAX_STATUS_CHARS,
    abort_with,
    abort_with_async,
    bounded,
    details,
    details_of,
)

__all__ = ["MAX_STATUS_CHARS", "add", "bounded", "explain", "guarded", "handlers_of", "register"]

log = get_logger(__name__)

Handlers = dict[str, grpc.RpcMethodHandler]


# ---------------------------------------------------------------------- registering


def handlers_of(add_to_server: Callable[[Any, Any], None], servicer: Any) -> Handlers:
    """The method handlers a generated `add_XServicer_to_server` would register."""
    found: Handlers = {}

    class Capture:
        def add_generic_rpc_handlers(self, generic: Any) -> None:
            pass

        def add_registered_method_handlers(self, service: str, handlers: Handlers) -> None:
            found.update(handlers)

    add_to_server(servicer, Capture())
    return found


def register(server: grpc.Server | grpc.aio.Server, service: str, handlers: Handlers) -> None:
    """Adds `handlers` to `server` as the generated code would, their requests guarded
    (`guarded`) and, when metrics are on (poker.metrics.enabled), their calls counted
    (poker.metrics.instrumented, outside the guard, so that a request refused here is
    counted with its INVALID_ARGUMENT)."""
    guarded_handlers = guarded(service, handlers)
    if metrics.enabled():
        guarded_handlers = metrics.instrumented(service, guarded_handlers,
                                                on_loop=isinstance(server, grpc.aio.Server))
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler(service, guarded_handlers),))
    server.add_registered_method_handlers(service, guarded_handlers)


def add(server: grpc.Server | grpc.aio.Server, service: str,
        add_to_server: Callable[[Any, Any], None], servicer: Any) -> None:
    """Registers `servicer` like `add_to_server(servicer, server)`, its requests guarded."""
    register(server, service, handlers_of(add_to_server, servicer))


def guarded(service: str, handlers: Handlers) -> Handlers:
    """The handlers with their requests taken as bytes and parsed by `_Parser`."""
    return {name: _guard(f"{service}/{name}", handler) for name, handler in handlers.items()}


def _guard(method: str, handler: grpc.RpcMethodHandler) -> grpc.RpcMethodHandler:
    deserialize = handler.request_deserializer
    if deserialize is None:  # bytes already: nothing to parse
        return handler
    parser = _Parser(method, deserialize)
    kind = ("stream" if handler.request_streaming else "unary") + "_" + (
        "stream" if handler.response_streaming else "unary")
    behavior = getattr(handler, kind)
    streams = bool(handler.request_streaming)
    if inspect.isasyncgenfunction(behavior):
        wrapped = (_async_stream_gen if streams else _async_unary_gen)(parser, behavior)
    elif inspect.iscoroutinefunction(behavior):  # one answer, or written with context.write
        wrapped = (_async_stream if streams else _async_unary)(parser, behavior)
    else:
        wrapped = (_sync_stream if streams else _sync_unary)(
            parser, behavior, not handler.response_streaming)
    return handler._replace(request_deserializer=None, **{kind: wrapped})


class _Parser:
    """Parses one method's requests; refuses what does not parse as INVALID_ARGUMENT."""

    def __init__(self, method: str, deserialize: Callable[[bytes], Any]) -> None:
        self.method, self.deserialize = method, deserialize
        cls = getattr(deserialize, "__self__", None)
        self.descriptor: _descriptor.Descriptor | None = getattr(cls, "DESCRIPTOR", None)

    def parse(self, data: bytes, index: int | None = None) -> tuple[Any, str | None]:
        """(request, None), or (None, why it is refused); `index`: its place in a stream."""
        try:
            request = self.deserialize(data)
        except DecodeError:
            return None, self.refusal(explain(data, self.descriptor), index)
        except Exception as err:  # noqa: BLE001 - whatever a parser raises, the bytes are bad
            return None, self.refusal(type(err).__name__, index)
        if self.descriptor is not None and unknown_fields.UnknownFieldSet(request):
            problem = _mistyped(request, self.descriptor)
            if problem:
                return None, self.refusal(problem, index)
        return request, None

    def refusal(self, problem: str, index: int | None = None) -> str:
        name = self.descriptor.full_name if self.descriptor is not None else "request"
        which = "the request" if index is None else f"request {index} of the stream"
        return bounded(f"{self.method}: {which} is not a valid {name}: {problem}")


_INVALID = grpc.StatusCode.INVALID_ARGUMENT
#: The reason of a request that does not parse (poker.v1.ErrorReason).
MALFORMED = "MALFORMED_REQUEST"


def _malformed(refused: str) -> Any:
    return details(_INVALID, refused, MALFORMED)


def _sync_unary(parser: _Parser, behavior: Callable[..., Any],
                one_answer: bool) -> Callable[..., Any]:
    def unary(data: bytes, context: grpc.ServicerContext) -> Any:
        request, refused = parser.parse(data)
        if refused is not None:
            abort_with(context, _malformed(refused))
        if not one_answer:  # an iterator of answers: gRPC runs it
            return behavior(request, context)
        try:
            return behavior(request, context)
        except Exception as err:
            _unexpected(parser.method, err, context)
            raise

    return unary


def _sync_stream(parser: _Parser, behavior: Callable[..., Any],
                 one_answer: bool) -> Callable[..., Any]:
    def stream(requests: Iterator[bytes], context: grpc.ServicerContext) -> Any:
        parsed = _sync_requests(parser, requests, context)
        if not one_answer:
            return behavior(parsed, context)
        try:
            return behavior(parsed, context)
        except Exception as err:
            _unexpected(parser.method, err, context)
            raise

    return stream


def _unexpected(method: str, err: Exception, context: grpc.ServicerContext) -> None:
    """An exception the handler did not turn into a status (none was set): a domain
    error's own status (poker.status); anything else UNKNOWN, as gRPC would answer, but
    with its message bounded and the traceback logged."""
    if context.code() is not None:  # aborted, or set_code: the handler's own answer
        return
    if isinstance(err, errors.PokerError):
        abort_with(context, details_of(err, context))
    log.exception("rpc_failed", rpc=method)
    abort_with(context, details(grpc.StatusCode.UNKNOWN,
                                bounded(f"Exception calling application: {err}"),
                                INTERNAL_REASON))


def _sync_requests(parser: _Parser, requests: Iterator[bytes],
                   context: grpc.ServicerContext) -> Iterator[Any]:
    for index, data in enumerate(requests, 1):
        request, refused = parser.parse(data, index)
        if refused is not None:
            abort_with(context, _malformed(refused))
        yield request


def _async_unary(parser: _Parser, behavior: Callable[..., Any]) -> Callable[..., Any]:
    async def unary(data: bytes, context: grpc.aio.ServicerContext) -> Any:
        request, refused = parser.parse(data)
        if refused is not None:
            await abort_with_async(context, _malformed(refused))
        return await behavior(request, context)

    return unary


def _async_unary_gen(parser: _Parser, behavior: Callable[..., Any]) -> Callable[..., Any]:
    async def unary_stream(data: bytes, context: grpc.aio.ServicerContext) -> Any:
        request, refused = parser.parse(data)
        if refused is not None:
            await abort_with_async(context, _malformed(refused))
        async for response in behavior(request, context):
            yield response

    return unary_stream


def _async_stream(parser: _Parser, behavior: Callable[..., Any]) -> Callable[..., Any]:
    async def stream(requests: AsyncIterator[bytes], context: grpc.aio.ServicerContext) -> Any:
        return await behavior(_async_requests(parser, requests, context), context)

    return stream


def _async_stream_gen(parser: _Parser, behavior: Callable[..., Any]) -> Callable[..., Any]:
    async def stream_stream(requests: AsyncIterator[bytes],
                            context: grpc.aio.ServicerContext) -> Any:
        async for response in behavior(_async_requests(parser, requests, context), context):
            yield response

    return stream_stream


async def _async_requests(parser: _Parser, requests: AsyncIterator[bytes],
                          context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
    index = 0
    async for data in requests:
        index += 1
        request, refused = parser.parse(data, index)
        if refused is not None:
            # The status goes out now; the handler reading this stream (perhaps in a task
            # of its own) then sees its requests end rather than an exception to report.
            try:
                await abort_with_async(context, _malformed(refused))
            except grpc.aio.AbortError:
                return
        yield request


# ---------------------------------------------------------------------- explaining


class _Problem(Exception):
    pass


_F = _descriptor.FieldDescriptor
_WIRE_NAMES = {0: "varint", 1: "64-bit", 2: "length-delimited", 3: "start-group",
               4: "end-group", 5: "32-bit"}
_WIRE_OF = {
    **dict.fromkeys((_F.TYPE_INT32, _F.TYPE_INT64, _F.TYPE_UINT32, _F.TYPE_UINT64,
                     _F.TYPE_SINT32, _F.TYPE_SINT64, _F.TYPE_BOOL, _F.TYPE_ENUM), 0),
    **dict.fromkeys((_F.TYPE_FIXED64, _F.TYPE_SFIXED64, _F.TYPE_DOUBLE), 1),
    **dict.fromkeys((_F.TYPE_STRING, _F.TYPE_BYTES, _F.TYPE_MESSAGE), 2),
    _F.TYPE_GROUP: 3,
    **dict.fromkeys((_F.TYPE_FIXED32, _F.TYPE_SFIXED32, _F.TYPE_FLOAT), 5),
}
_TYPE_NAMES = {v: k[5:].lower() for k, v in vars(_F).items()
               if k.startswith("TYPE_") and isinstance(v, int)}


def _fits(field: _descriptor.FieldDescriptor, wire: int) -> bool:
    expected = _WIRE_OF.get(field.type)
    # A repeated number may come packed (length-delimited) as well.
    return wire == expected or (wire == 2 and expected in (0, 1, 5)
                                and field.is_repeated)


def _mistyped(request: Any, descriptor: _descriptor.Descriptor) -> str | None:
    for unknown in unknown_fields.UnknownFieldSet(request):
        if unknown.field_number == 0:  # upb lets it by in a message with no fields
            return "field number 0 (no field has number 0)"
        field = descriptor.fields_by_number.get(unknown.field_number)
        if field is not None:
            return _mistyped_text(field, unknown.wire_type)
    return None


def _mistyped_text(field: _descriptor.FieldDescriptor, wire: int) -> str:
    return (f"field {field.name!r} ({field.number}) is {_TYPE_NAMES.get(field.type, '?')}, "
            f"sent as wire type {wire} ({_WIRE_NAMES.get(wire, 'none')})")


def explain(data: bytes, descriptor: _descriptor.Descriptor | None) -> str:
    """What is wrong with `data` as a message of `descriptor`, for a person.

    >>> from poker.v1 import evaluator_pb2 as pb
    >>> explain(b"\\x0a\\x05As", pb.EvaluateHandRequest.DESCRIPTOR)
    "byte 0: field 'cards' says 5 bytes, 2 are left (truncated)"
    >>> explain(b"\\x00\\x01", pb.EvaluateHandRequest.DESCRIPTOR)
    'byte 0: field number 0 (no field has number 0)'
    """
    walker = _Walker(data)
    try:
        walker.walk(0, len(data), descriptor, "", None, 0)
    except _Problem as problem:
        return str(problem)
    return walker.mistyped or "it does not parse"


#: How deep `explain` follows nested messages and groups, and how many fields it reads at
#: most: explaining a refusal must stay cheap, whatever was sent.
_MAX_DEPTH = 64
_MAX_FIELDS = 10_000


def _varint(data: bytes, pos: int, end: int, what: str) -> tuple[int, int]:
    start, value, shift = pos, 0, 0
    while True:
        if pos >= end:
            raise _Problem(f"byte {start}: {what}: truncated varint")
        if pos - start == 10:
            raise _Problem(f"byte {start}: {what}: a varint longer than 10 bytes")
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, pos


class _Walker:
    """Reads a message's fields, raising _Problem at the first thing wrong."""

    def __init__(self, data: bytes) -> None:
        self.data, self.fields = data, 0
        self.mistyped = ""

    def walk(self, pos: int, end: int, descriptor: _descriptor.Descriptor | None,
             path: str, group: int | None, depth: int) -> int:
        """The position after the fields from `pos` to `end` (or to `group`'s end tag)."""
        if depth > _MAX_DEPTH:
            raise _Problem(f"byte {pos}: nested more than {_MAX_DEPTH} deep")
        data = self.data
        while pos < end:
            self.fields += 1
            if self.fields > _MAX_FIELDS:
                raise _Problem(f"somewhere after byte {pos}")
            at = pos
            tag, pos = _varint(data, pos, end, "a field's tag")
            number, wire = tag >> 3, tag & 7
            if number == 0:
                raise _Problem(f"byte {at}: field number 0 (no field has number 0)")
            field = descriptor.fields_by_number.get(number) if descriptor is not None else None
            name = path + (field.name if field is not None else f"#{number}")
            if wire == 4:
                if group == number:
                    return pos
                raise _Problem(f"byte {at}: an end-group tag of field {number} " + (
                    "with no group open" if group is None
                    else f"closes the group of field {group}"))
            if wire not in _WIRE_NAMES:
                raise _Problem(f"byte {at}: wire type {wire} does not exist (field {name!r})")
            if field is not None and not _fits(field, wire):
                # protobuf reads it as an unknown field: said only if nothing else is wrong
                self.mistyped = self.mistyped or f"byte {at}: {_mistyped_text(field, wire)}"
                field = None
            if wire == 0:
                _, pos = _varint(data, pos, end, f"field {name!r}")
            elif wire in (1, 5):
                size = 8 if wire == 1 else 4
                if pos + size > end:
                    raise _Problem(f"byte {at}: field {name!r}: {size} bytes needed, "
                                   f"{end - pos} are left (truncated)")
                pos += size
            elif wire == 2:
                pos = self._length_delimited(at, pos, end, field, name, depth)
            else:  # a group: its fields, up to its end-group tag
                inner = field.message_type if field is not None else None
                pos = self.walk(pos, end, inner, name + ".", number, depth + 1)
        if group is not None:
            raise _Problem(f"the group of field {group} has no end-group tag (truncated)")
        return pos

    def _length_delimited(self, at: int, pos: int, end: int,
                          field: _descriptor.FieldDescriptor | None, name: str,
                          depth: int) -> int:
        length, pos = _varint(self.data, pos, end, f"field {name!r}'s length")
        if length > end - pos:
            raise _Problem(f"byte {at}: field {name!r} says {length} bytes, "
                           f"{end - pos} are left (truncated)")
        if field is not None and field.type == _F.TYPE_STRING:
            try:
                self.data[pos:pos + length].decode("utf-8")
            except UnicodeDecodeError as err:
                raise _Problem(f"byte {pos + err.start}: field {name!r}: invalid UTF-8 "
                               "(a string must be UTF-8)") from None
        elif field is not None and field.type == _F.TYPE_MESSAGE:
            self.walk(pos, pos + length, field.message_type, name + ".", None, depth + 1)
        elif field is not None and _WIRE_OF.get(field.type) in (0, 1, 5):
            self._packed(pos, pos + length, field, name)
        return pos + length

    def _packed(self, pos: int, end: int, field: _descriptor.FieldDescriptor,
                name: str) -> None:
        size = {1: 8, 5: 4}.get(_WIRE_OF[field.type])
        if size is not None:
            if (end - pos) % size:
                raise _Problem(f"byte {pos}: field {name!r}: {end - pos} bytes of packed "
                               f"{size}-byte numbers")
            return
        while pos < end:
            self.fields += 1
            if self.fields > _MAX_FIELDS:
                raise _Problem(f"somewhere after byte {pos}")
            _, pos = _varint(self.data, pos, end, f"field {name!r} (packed)")
