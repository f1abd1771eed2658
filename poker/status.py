"""The one place a domain error becomes a gRPC status, for sync and asyncio servicers alike.

A `poker.errors.PokerError` is refused with the status code of its category and its
message (cut by `bounded`); any other exception is a bug: INTERNAL, with a message
that quotes nothing of it, and its traceback in the service's log.

Every refusal also carries machine-readable details, the `google.rpc.Status` in the
`grpc-status-details-bin` trailer (read it with `grpc_status.rpc_status.from_call`):
an `ErrorInfo` (domain `poker.v1`, the error's stable `reason`, one of
`poker.v1.ErrorReason`'s names, and its `metadata`: min_to, max_to, call_amount,
balance, ...); for INVALID_ARGUMENT a `BadRequest` naming the field at fault; for
UNAVAILABLE and RESOURCE_EXHAUSTED a `RetryInfo` with how long to wait (`details`).

`abort` (sync) and `abort_async` (grpc.aio) end a call that way; `status_of` is the
same mapping for a caller that reports the status in a message of its own (a refused
action on a stream).

>>> status_of(errors.NotFound("no table 'x'"))
(<StatusCode.NOT_FOUND: (5, 'not found')>, "no table 'x'")
>>> status_of(KeyError("x"))
(<StatusCode.INTERNAL: (13, 'internal')>, 'internal error (KeyError): the log says more')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NoReturn

import grpc
from google.protobuf import any_pb2, duration_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2

from poker import errors
from poker.log import get_logger

log = get_logger(__name__)

#: The longest status message a server sends; longer ones are cut (`bounded`).
MAX_STATUS_CHARS = 1024

#: Each category's gRPC status code (the names are the same: google.rpc.Code's).
CODES: dict[errors.Category, grpc.StatusCode] = {
    category: grpc.StatusCode[category.name] for category in errors.Category}


def bounded(message: str) -> str:
    """`message`, cut to MAX_STATUS_CHARS characters (saying so) when longer: a status
    message quoting a huge input stays far below gRPC's metadata limit (8 KiB by
    default), past which the caller would see an opaque transport error instead.

    >>> bounded("short")
    'short'
    >>> len(bounded("x" * 5000)) <= MAX_STATUS_CHARS
    True
    """
    if len(message) <= MAX_STATUS_CHARS:
        return message
    tail = f"... (cut, {len(message)} characters)"
    return message[:MAX_STATUS_CHARS - len(tail)] + tail


def code_of(err: BaseException, context: Any = None) -> grpc.StatusCode:
    """The status code of `err` (INTERNAL unless a PokerError). A call given up
    (CANCELLED) once its deadline has passed is DEADLINE_EXCEEDED, when `context` says so."""
    if not isinstance(err, errors.PokerError):
        return grpc.StatusCode.INTERNAL
    code = CODES[err.category]
    if code is grpc.StatusCode.CANCELLED and context is not None:
        remaining = context.time_remaining()
        if remaining is not None and remaining <= 0:
            return grpc.StatusCode.DEADLINE_EXCEEDED
    return code


def status_of(err: BaseException, context: Any = None) -> tuple[grpc.StatusCode, str]:
    """The (code, message) of the status that refuses a call with `err`."""
    if isinstance(err, errors.PokerError):
        return code_of(err, context), bounded(str(err))
    return grpc.StatusCode.INTERNAL, f"internal error ({type(err).__name__}): the log says more"


#: The reason of an error that is not a refusal but a bug (INTERNAL).
INTERNAL_REASON = "INTERNAL_ERROR"
#: The wait a RetryInfo advises when the error does not say (seconds).
DEFAULT_RETRY_S = 1.0
_RETRIED = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.RESOURCE_EXHAUSTED)


def details(code: grpc.StatusCode, message: str, reason: str,
            metadata: Mapping[str, str] | None = None, field: str = "",
            retry_after_s: float = DEFAULT_RETRY_S) -> status_pb2.Status:
    """The google.rpc.Status of a refusal: ErrorInfo always, BadRequest (INVALID_ARGUMENT)
    and RetryInfo (UNAVAILABLE, RESOURCE_EXHAUSTED) when they apply.

    >>> d = details(grpc.StatusCode.INVALID_ARGUMENT, "amount: below 1", "INVALID_ARGUMENT",
    ...             {"min": "1"}, field="amount")
    >>> [a.TypeName() for a in d.details]
    ['google.rpc.ErrorInfo', 'google.rpc.BadRequest']
    """
    found = status_pb2.Status(code=code.value[0], message=message)
    packed = any_pb2.Any()
    packed.Pack(error_details_pb2.ErrorInfo(reason=reason, domain=errors.DOMAIN,
                                            metadata=dict(metadata or {})))
    found.details.append(packed)
    if code is grpc.StatusCode.INVALID_ARGUMENT:
        packed = any_pb2.Any()
        packed.Pack(error_details_pb2.BadRequest(field_violations=[
            error_details_pb2.BadRequest.FieldViolation(
                field=field, description=message, reason=reason)]))
        found.details.append(packed)
    if code in _RETRIED:
        delay = duration_pb2.Duration()
        delay.FromMilliseconds(int(retry_after_s * 1000))
        packed = any_pb2.Any()
        packed.Pack(error_details_pb2.RetryInfo(retry_delay=delay))
        found.details.append(packed)
    assert code_pb2.Code.Name(found.code) == code.name
    return found


def reason_of(err: BaseException) -> tuple[str, dict[str, str]]:
    """The (reason, metadata) of `err`'s ErrorInfo: for a status reported in a message of
    its own (PlayActionResult.reason and .metadata)."""
    if not isinstance(err, errors.PokerError):
        return INTERNAL_REASON, {}
    return err.reason, dict(err.metadata)


def details_of(err: BaseException, context: Any = None) -> status_pb2.Status:
    """The google.rpc.Status refusing a call with `err` (as `status_of`, with details)."""
    code, message = status_of(err, context)
    if not isinstance(err, errors.PokerError):
        return details(code, message, INTERNAL_REASON)
    return details(code, message, err.reason, err.metadata, errors.field_of(err),
                   err.retry_after_s)


#: The trailer that carries a status's details (gRPC's convention).
DETAILS_KEY = "grpc-status-details-bin"


def trailers(found: status_pb2.Status) -> tuple[tuple[str, bytes], ...]:
    """The trailing metadata that carries `found`'s details."""
    return ((DETAILS_KEY, found.SerializeToString()),)


def abort_with(context: grpc.ServicerContext, found: status_pb2.Status) -> NoReturn:
    """Ends a synchronous call with `found` (its code, message and details)."""
    context.set_trailing_metadata(trailers(found))
    context.abort(grpc.StatusCode[code_pb2.Code.Name(found.code)], found.message)
    raise AssertionError("context.abort returned")  # pragma: no cover


async def abort_with_async(context: grpc.aio.ServicerContext,
                           found: status_pb2.Status) -> NoReturn:
    """Ends an asyncio call with `found` (its code, message and details)."""
    await context.abort(grpc.StatusCode[code_pb2.Code.Name(found.code)], found.message,
                        trailers(found))
    raise AssertionError("context.abort returned")  # pragma: no cover


def _report(err: BaseException, code: grpc.StatusCode, rpc: str) -> None:
    if not isinstance(err, errors.PokerError):
        log.error("internal_error", rpc=rpc, error=repr(err)[:200], exc_info=err)
    elif code in (grpc.StatusCode.CANCELLED, grpc.StatusCode.DEADLINE_EXCEEDED):
        log.info("call_abandoned", rpc=rpc, code=code.name, reason=err.reason)
    else:
        log.info("request_refused", rpc=rpc, code=code.name, reason=err.reason,
                 message=str(err)[:200])


def abort(context: grpc.ServicerContext, err: BaseException, rpc: str = "") -> NoReturn:
    """Ends a synchronous call with the status of `err` (logged; with its traceback if a
    bug). A call that already has its status (context.abort in poker.wire, say) keeps it:
    `err` is raised again."""
    if context.code() is not None:
        raise err
    found = details_of(err, context)
    _report(err, grpc.StatusCode[code_pb2.Code.Name(found.code)], rpc)
    abort_with(context, found)


async def abort_async(context: grpc.aio.ServicerContext, err: BaseException,
                      rpc: str = "") -> NoReturn:
    """Ends an asyncio call with the status of `err`, as `abort` does. An AbortError (the
    call aborted already) is raised again as it is."""
    if isinstance(err, grpc.aio.AbortError):
        raise err
    found = details_of(err, context)
    _report(err, grpc.StatusCode[code_pb2.Code.Name(found.code)], rpc)
    await abort_with_async(context, found)
