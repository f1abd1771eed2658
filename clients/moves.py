"""Following a table to its dealer: the SDK's half of TABLE_MOVED (poker/moved.py).

Dealers that share a PostgreSQL store hand tables over to one another (a dealer that
dies, or froze, loses its tables to a live one). A call to the old dealer answers
UNAVAILABLE with the new dealer's address in an ErrorInfo; a dead dealer does not
answer at all. `DealerRoute` says where a table client goes next:

* TABLE_MOVED with an address: there;
* TABLE_MOVED without one (the table is between owners): the same dealer again, a
  moment later (it names the new owner once there is one);
* UNAVAILABLE with no ErrorInfo (the dealer is gone) and other dealers of the room
  known (`dealers=`): the next of them, which serves the table or redirects.

The streams resume after their last sequence number at the new address (no gap), and
a decision sent again there is answered once (hand id + action number: the dealers
share the decision journal), so nothing is lost and nothing is repeated.

>>> route = DealerRoute("a:1", ["b:2", "c:3"])
>>> route.after(_Moved("c:3")), route.address
(True, 'c:3')
>>> route.after(_Dead()), route.address
(True, 'a:1')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import grpc

from poker.moved import moved_to

#: How many redirects one call follows (each pause is MOVE_PAUSE_S when the table has
#: no owner yet): about the longest failover (a lease) and then some.
MAX_MOVES = 40
MOVE_PAUSE_S = 0.25


class DealerRoute:
    """The address a table client uses, and the room's dealers it may try instead."""

    def __init__(self, address: str, dealers: Sequence[str] = ()) -> None:
        self.address = address
        self.dealers = [address, *[d for d in dealers if d != address]]
        self.moves = 0

    def after(self, error: Any) -> bool:
        """Whether to try again after `error` (`address` is where: maybe a new one)."""
        target = moved_to(error)
        if target:
            self._go(target)
            return True
        if target == "":
            return True  # between owners: the same dealer names the new one shortly
        code = error.code() if hasattr(error, "code") else None
        if code == grpc.StatusCode.UNAVAILABLE and len(self.dealers) > 1:
            at = self.dealers.index(self.address) if self.address in self.dealers else -1
            self._go(self.dealers[(at + 1) % len(self.dealers)])
            return True
        return False

    def _go(self, address: str) -> None:
        if address not in self.dealers:
            self.dealers.append(address)
        if address != self.address:
            self.address = address
            self.moves += 1


class _Moved:
    def __init__(self, address: str) -> None:
        from poker.moved import trailers

        self.metadata = trailers("t", address)

    def trailing_metadata(self) -> Any:
        return self.metadata

    def code(self) -> grpc.StatusCode:
        return grpc.StatusCode.UNAVAILABLE


class _Dead:
    def trailing_metadata(self) -> Any:
        return ()

    def code(self) -> grpc.StatusCode:
        return grpc.StatusCode.UNAVAILABLE
