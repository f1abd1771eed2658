"""The SDK's exceptions: a refused call keeps the server's gRPC code, reason and numbers.

Every refusal of the suite carries a google.rpc.Status (protos/poker/v1/errors.proto):
`error_from_rpc` decodes it into a typed exception, one class per status code
(`InvalidArgument`, `FailedPrecondition`, `NotFound`, ...; `ActionRefused` for a refused
decision), with `reason` (a name of poker.v1.ErrorReason: code branches on it, never on
the message), `metadata` (min_to, max_to, call_amount, balance, ...: strings, as sent),
`field_violations` (INVALID_ARGUMENT: field -> what is wrong) and `retry_after`
(seconds, for UNAVAILABLE and RESOURCE_EXHAUSTED). `message` is the text for a person.

>>> err = ActionRefused("raise to 3 is below the minimum raise to 4", code="FAILED_PRECONDITION",
...                     reason="BELOW_MIN_RAISE", metadata={"min_to": "4"})
>>> err.code.name, err.reason, err.number("min_to"), isinstance(err, ServiceError)
('FAILED_PRECONDITION', 'BELOW_MIN_RAISE', 4, True)
>>> err.message
'raise to 3 is below the minimum raise to 4'
>>> type(service_error("NOT_FOUND", "no table 't9'")).__name__
'NotFound'
"""

from __future__ import annotations

from collections.abc import Mapping

import grpc

__all__ = [
    "ActionRefused", "AlreadyExists", "FailedPrecondition", "FairDeckViolation",
    "InvalidArgument", "NotFound", "PermissionDenied", "PokerError", "ResourceExhausted",
    "ServiceError", "StreamGap", "Unauthenticated", "Unavailable", "error_from_rpc",
    "service_error",
]

#: The domain of the suite's ErrorInfo reasons.
DOMAIN = "poker.v1"


class PokerError(Exception):
    """Anything the SDK raises."""


class ServiceError(PokerError):
    """A call the server refused or could not answer: `code` (grpc.StatusCode), `reason`
    (ErrorInfo's, or the code's name when the server sent none), `metadata`,
    `field_violations`, `retry_after` and `message`."""

    def __init__(self, message: str, code: grpc.StatusCode | str = grpc.StatusCode.UNKNOWN,
                 method: str = "", *, reason: str = "",
                 metadata: Mapping[str, str] | None = None,
                 field_violations: Mapping[str, str] | None = None,
                 retry_after: float | None = None) -> None:
        if isinstance(code, str):
            code = grpc.StatusCode[code]
        self.message, self.code, self.method = message, code, method
        self.reason = reason or code.name
        self.metadata: dict[str, str] = dict(metadata or {})
        self.field_violations: dict[str, str] = dict(field_violations or {})
        self.retry_after = retry_after
        where = f"{method}: " if method else ""
        why = f" ({self.reason})" if self.reason != code.name else ""
        super().__init__(f"{where}{code.name}{why}: {message}")

    def number(self, key: str) -> int | None:
        """A metadata value as the integer it is (min_to, call_amount, ...); None if absent."""
        value = self.metadata.get(key)
        return int(value) if value is not None and value.lstrip("-").isdigit() else None


class InvalidArgument(ServiceError):
    """The request is wrong whatever the state; `field_violations` names the field."""


class FailedPrecondition(ServiceError):
    """The state refuses the request now (a balance too low, a table full, ...)."""


class NotFound(ServiceError):
    """No such player, table, hand or seat."""


class AlreadyExists(ServiceError):
    """Creating what exists already."""


class PermissionDenied(ServiceError):
    """A known caller acting outside their rights."""


class Unauthenticated(ServiceError):
    """No credential, or one the service does not know."""


class ResourceExhausted(ServiceError):
    """Over a limit of the service or its load: `retry_after` says when to try again."""


class Unavailable(ServiceError):
    """The service cannot serve now: `retry_after` says when to try again."""


class ActionRefused(ServiceError):
    """The dealer refused a decision (not your turn, an amount out of bounds, a stale hand):
    `reason` says which (NOT_YOUR_TURN, BELOW_MIN_RAISE, ...), `metadata` the numbers."""


class StreamGap(PokerError):
    """An event stream skipped a sequence number: the server broke its promise of no holes."""


class FairDeckViolation(PokerError):
    """A hand's revealed deck does not prove its commitment or the cards dealt (R3)."""

    def __init__(self, hand_id: str, reason: str) -> None:
        self.hand_id, self.reason = hand_id, reason
        super().__init__(f"hand {hand_id}: {reason}")


_BY_CODE: dict[grpc.StatusCode, type[ServiceError]] = {
    grpc.StatusCode.INVALID_ARGUMENT: InvalidArgument,
    grpc.StatusCode.FAILED_PRECONDITION: FailedPrecondition,
    grpc.StatusCode.NOT_FOUND: NotFound,
    grpc.StatusCode.ALREADY_EXISTS: AlreadyExists,
    grpc.StatusCode.PERMISSION_DENIED: PermissionDenied,
    grpc.StatusCode.UNAUTHENTICATED: Unauthenticated,
    grpc.StatusCode.RESOURCE_EXHAUSTED: ResourceExhausted,
    grpc.StatusCode.UNAVAILABLE: Unavailable,
}


def service_error(code: grpc.StatusCode | str, message: str, method: str = "",
                  cls: type[ServiceError] | None = None, **details: object) -> ServiceError:
    """The typed exception of a refusal: `cls`, else the class of its code."""
    if isinstance(code, str):
        code = grpc.StatusCode[code]
    kind = cls if cls is not None and cls is not ServiceError else _BY_CODE.get(code, ServiceError)
    return kind(message, code, method, **details)  # type: ignore[arg-type]


def _details(err: grpc.RpcError) -> dict[str, object]:
    """ErrorInfo, BadRequest and RetryInfo of the call's google.rpc.Status trailer."""
    try:
        from google.rpc import error_details_pb2
        from grpc_status import rpc_status

        found = rpc_status.from_call(err)
    except Exception:  # noqa: BLE001 - no trailer, or one that does not decode: no details
        return {}
    if found is None:
        return {}
    out: dict[str, object] = {}
    for packed in found.details:
        if packed.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            packed.Unpack(info)
            out["reason"], out["metadata"] = info.reason, dict(info.metadata)
        elif packed.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            packed.Unpack(bad)
            out["field_violations"] = {v.field: v.description for v in bad.field_violations}
        elif packed.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
            retry = error_details_pb2.RetryInfo()
            packed.Unpack(retry)
            out["retry_after"] = retry.retry_delay.ToMilliseconds() / 1000
    return out


def error_from_rpc(err: grpc.RpcError, method: str = "",
                   cls: type[ServiceError] | None = None) -> ServiceError:
    """The SDK exception of a failed call (`cls` for its kind, e.g. ActionRefused; else the
    class of its status code), with the reason and numbers the server sent."""
    code = err.code() if hasattr(err, "code") else grpc.StatusCode.UNKNOWN
    details = err.details() if hasattr(err, "details") else str(err)
    return service_error(code, details or "", method, cls, **_details(err))
