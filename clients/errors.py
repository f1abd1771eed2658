"""The SDK's exceptions: a refused call keeps the server's reason and gRPC code.

>>> err = ActionRefused("action number 3 is not the awaited decision", code="FAILED_PRECONDITION")
>>> err.code, err.reason, isinstance(err, ServiceError)
(<StatusCode.FAILED_PRECONDITION: (9, 'failed precondition')>, \
'action number 3 is not the awaited decision', True)
"""

from __future__ import annotations

import grpc

__all__ = [
    "ActionRefused", "FairDeckViolation", "PokerError", "ServiceError", "StreamGap",
    "error_from_rpc",
]


class PokerError(Exception):
    """Anything the SDK raises."""


class ServiceError(PokerError):
    """A call the server refused or could not answer: `code` (grpc.StatusCode), `reason`."""

    def __init__(self, reason: str, code: grpc.StatusCode | str = grpc.StatusCode.UNKNOWN,
                 method: str = "") -> None:
        if isinstance(code, str):
            code = grpc.StatusCode[code]
        self.reason, self.code, self.method = reason, code, method
        where = f"{method}: " if method else ""
        super().__init__(f"{where}{code.name}: {reason}")


class ActionRefused(ServiceError):
    """The dealer refused a decision (not your turn, an amount out of bounds, a stale hand)."""


class StreamGap(PokerError):
    """An event stream skipped a sequence number: the server broke its promise of no holes."""


class FairDeckViolation(PokerError):
    """A hand's revealed deck does not prove its commitment or the cards dealt (R3)."""

    def __init__(self, hand_id: str, reason: str) -> None:
        self.hand_id, self.reason = hand_id, reason
        super().__init__(f"hand {hand_id}: {reason}")


def error_from_rpc(err: grpc.RpcError, method: str = "",
                   cls: type[ServiceError] = ServiceError) -> ServiceError:
    """The SDK exception of a failed call (`cls` for its kind, e.g. ActionRefused)."""
    code = err.code() if hasattr(err, "code") else grpc.StatusCode.UNKNOWN
    details = err.details() if hasattr(err, "details") else str(err)
    return cls(details or "", code, method)
