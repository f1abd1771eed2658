"""The one place a domain error becomes a gRPC status, for sync and asyncio servicers alike.

A `poker.errors.PokerError` is refused with the status code of its category and its
message (cut by `bounded`); any other exception is a bug: INTERNAL, with a message
that quotes nothing of it, and its traceback in the service's log. `abort` (sync) and
`abort_async` (grpc.aio) end a call that way; `status_of` is the same mapping for a
caller that reports the status in a message of its own (a refused action on a stream).

>>> status_of(errors.NotFound("no table 'x'"))
(<StatusCode.NOT_FOUND: (5, 'not found')>, "no table 'x'")
>>> status_of(KeyError("x"))
(<StatusCode.INTERNAL: (13, 'internal')>, 'internal error (KeyError): the log says more')
"""

from __future__ import annotations

from typing import Any, NoReturn

import grpc

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
    code, message = status_of(err, context)
    _report(err, code, rpc)
    trailing = getattr(err, "trailers", None)  # poker.moved: an ErrorInfo in the details
    if trailing:
        context.abort(code, message, trailing_metadata=trailing)
    context.abort(code, message)
    raise AssertionError("context.abort returned")  # pragma: no cover


async def abort_async(context: grpc.aio.ServicerContext, err: BaseException,
                      rpc: str = "") -> NoReturn:
    """Ends an asyncio call with the status of `err`, as `abort` does. An AbortError (the
    call aborted already) is raised again as it is."""
    if isinstance(err, grpc.aio.AbortError):
        raise err
    code, message = status_of(err, context)
    _report(err, code, rpc)
    trailing = getattr(err, "trailers", None)  # poker.moved: an ErrorInfo in the details
    if trailing:
        await context.abort(code, message, trailing_metadata=trailing)
    await context.abort(code, message)
    raise AssertionError("context.abort returned")  # pragma: no cover
