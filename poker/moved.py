"""TABLE_MOVED: the status that sends a client of a table to the dealer that owns it now.

A dealer sharing a PostgreSQL store with others (services.dealer.lease) answers a
call for a table it does not own (it never did, or lost its lease) with UNAVAILABLE
and a `google.rpc.ErrorInfo` in the status details (grpcio-status's
`grpc-status-details-bin` trailer): reason `TABLE_MOVED`, domain `poker`, metadata
`table_id` and `dealer_address`, the owner's HOST:PORT, or "" while the table has
no live owner (its lease expired and no dealer adopted it yet: ask again shortly).
UNAVAILABLE because a client that knows nothing of it retries, as after a restart.

A dealer raises services.dealer.errors.TableMoved (reason and metadata), which
poker.status sends as every refusal's details; `trailers(...)` builds the same trailers
(for tests); `moved_to(error)` is the client's half (clients.aio, services.lobby's
dealer client): the address, or None when the error is no TABLE_MOVED.

>>> err = _Fake(trailers("t1", "10.0.0.2:50052"))
>>> moved_to(err)
'10.0.0.2:50052'
>>> moved_to(_Fake(())) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

REASON = "TABLE_MOVED"
DOMAIN = "poker"
ADDRESS = "dealer_address"
DETAILS_KEY = "grpc-status-details-bin"
_CODE_UNAVAILABLE = 14


def error_info_trailers(reason: str, metadata: Mapping[str, str], message: str = "",
                        code: int = _CODE_UNAVAILABLE) -> tuple[tuple[str, bytes], ...]:
    """The trailing metadata carrying a google.rpc.Status with one ErrorInfo."""
    from google.protobuf import any_pb2  # type: ignore[import-untyped,unused-ignore]
    from google.rpc import error_details_pb2, status_pb2  # type: ignore[import-untyped,unused-ignore]

    info = error_details_pb2.ErrorInfo(reason=reason, domain=DOMAIN, metadata=dict(metadata))
    packed = any_pb2.Any()
    packed.Pack(info)
    status = status_pb2.Status(code=code, message=message, details=[packed])
    return ((DETAILS_KEY, status.SerializeToString()),)


def trailers(table_id: str, address: str, message: str = "") -> tuple[tuple[str, bytes], ...]:
    """A TABLE_MOVED status's trailers (the module docstring)."""
    return error_info_trailers(REASON, {"table_id": table_id, ADDRESS: address}, message)


def error_info(error: Any) -> tuple[str, dict[str, str]] | None:
    """(reason, metadata) of the ErrorInfo in a gRPC error's trailers, if any."""
    from google.rpc import error_details_pb2, status_pb2  # type: ignore[import-untyped,unused-ignore]

    try:
        metadata = error.trailing_metadata() or ()
    except Exception:  # noqa: BLE001 - not a call's error
        return None
    for key, value in metadata:
        if key != DETAILS_KEY:
            continue
        status = status_pb2.Status.FromString(value)
        for detail in status.details:
            if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                info = error_details_pb2.ErrorInfo()
                detail.Unpack(info)
                return info.reason, dict(info.metadata)
    return None


def moved_to(error: Any) -> str | None:
    """The new owner's address of a TABLE_MOVED error ("" while it has none); None when
    `error` is anything else."""
    found = error_info(error)
    if found is None or found[0] != REASON:
        return None
    return found[1].get(ADDRESS, "")


class _Fake:
    def __init__(self, metadata: Any) -> None:
        self.metadata = metadata

    def trailing_metadata(self) -> Any:
        return self.metadata
