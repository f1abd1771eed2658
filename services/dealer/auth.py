"""Who is calling: the service, the auditor, a seat or a spectator, from call metadata.

Credentials travel as `authorization: Bearer <token>`. The dealer keeps only the
SHA-256 of seat tokens; the service and auditor tokens come from its command line
or environment and are compared in constant time.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from poker.limits import MAX_TOKEN_CHARS, quote
from services.dealer.errors import FailedPrecondition, PermissionDenied, Unauthenticated


@dataclass(frozen=True, slots=True)
class Caller:
    """The caller of one request: exactly one role."""

    role: str  # "service", "auditor", "seat", "spectator"
    table_id: str = ""
    seat: int = -1
    read_only: bool = False  # a seat token of a closed table: views and histories only

    @property
    def is_auditor(self) -> bool:
        return self.role == "auditor"


SPECTATOR = Caller("spectator")
SERVICE = Caller("service")
AUDITOR = Caller("auditor")


def new_token() -> str:
    """A fresh seat token: 256 random bits, URL-safe text."""
    return secrets.token_urlsafe(32)


def derived_token(secret: str, nonce: str) -> str:
    """A seat token the dealer can give again: HMAC-SHA256(secret, nonce), URL-safe text like
    `new_token`'s. The store keeps the nonce, never the token: without the secret (the
    service token, which lives outside the store) the nonce tells nothing."""
    digest = hmac.new(secret.encode(), b"poker.v1 seat token\0" + nonce.encode(),
                      hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def token_hash(token: str) -> str:
    """What the store keeps of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


def bearer(metadata: Iterable[tuple[str, str | bytes]] | None) -> str | None:
    """The bearer token of the call's metadata, if any."""
    for key, value in metadata or ():
        if key == "authorization":
            text = value.decode() if isinstance(value, bytes) else value
            scheme, _, token = text.partition(" ")
            if scheme.lower() != "bearer" or not token.strip():
                raise Unauthenticated("authorization must be 'Bearer <token>'")
            if len(token.strip()) > MAX_TOKEN_CHARS:  # never quoted: it may be a secret
                raise Unauthenticated(
                    f"authorization: a token of {len(token.strip())} characters; tokens have at "
                    f"most {MAX_TOKEN_CHARS}")
            return token.strip()
    return None


#: What every seat token this dealer ever gave looks like (`new_token`, `derived_token`:
#: 32 bytes, URL-safe base64 without padding). Another string is no seat token, and is
#: refused without asking the store for a closed table's seat.
SEAT_TOKEN = re.compile(r"[A-Za-z0-9_-]{43}")

#: The closed tables' seats kept in memory, used last first; the others are asked of the
#: store when their token comes (`Authenticator.closed_seat`).
CLOSED_SEATS_IN_MEMORY = 4096


class Authenticator:
    """Resolves tokens to callers. Seat tokens are registered by their hash.

    The seats of open tables are all in memory. A closed table's are not: CloseTable
    moves them to a bounded cache (CLOSED_SEATS_IN_MEMORY, used last kept), and a token
    found in neither is looked up in the store (`closed_seat`, set by the dealer: one
    indexed read, as for an unknown table id), so a room's history of closed tables costs
    no memory and no time at start."""

    def __init__(self, service_token: str | None, auditor_token: str | None) -> None:
        self._service = service_token or None
        self._auditor = auditor_token or None
        self._seats: dict[str, tuple[str, int]] = {}
        self._closed: OrderedDict[str, tuple[str, int]] = OrderedDict()  # read only: LRU
        #: (table_id, seat) of a closed table's seat by its token's hash, or None: the
        #: store's (Dealer sets it); None here: closed tables' tokens are known only
        #: while in the cache.
        self.closed_seat: Callable[[str], tuple[str, int] | None] | None = None
        self.closed_in_memory = CLOSED_SEATS_IN_MEMORY

    def seat_token_for(self, nonce: str) -> str:
        """The seat token derived from a nonce with the service token (see `derived_token`)."""
        if self._service is None:
            raise Unauthenticated("the dealer has no service token to derive seat tokens with")
        return derived_token(self._service, nonce)

    def register_seat(self, hashed: str, table_id: str, seat: int) -> None:
        self._seats[hashed] = (table_id, seat)

    def forget_seat(self, hashed: str) -> None:
        self._seats.pop(hashed, None)
        self._closed.pop(hashed, None)

    def close_seat(self, hashed: str) -> None:
        """The seat's table closed: its token still reads (GetTable, GetHandHistory of its
        own hands, WatchTable) but acts no more (require_seat: FAILED_PRECONDITION). It
        leaves the open seats for the closed ones' cache."""
        found = self._seats.pop(hashed, None)
        if found is not None:
            self._remember_closed(hashed, found)

    def _remember_closed(self, hashed: str, found: tuple[str, int]) -> None:
        closed = self._closed
        closed[hashed] = found
        closed.move_to_end(hashed)
        while len(closed) > self.closed_in_memory:
            closed.popitem(last=False)

    def _closed_seat(self, token: str, hashed: str) -> tuple[str, int] | None:
        """A closed table's seat of the token: from the cache, else from the store."""
        found = self._closed.get(hashed)
        if found is not None:
            self._closed.move_to_end(hashed)
            return found
        if self.closed_seat is None or not SEAT_TOKEN.fullmatch(token):
            return None
        found = self.closed_seat(hashed)
        if found is not None:
            self._remember_closed(hashed, found)
        return found

    def caller(self, token: str | None) -> Caller:
        """The caller a token stands for; no token is a spectator."""
        if token is None:
            return SPECTATOR
        # Bytes, not str: compare_digest refuses a str with non-ASCII characters (a
        # PlayMany seat token is a protobuf string, so any Unicode can arrive).
        given = token.encode()
        if self._service and hmac.compare_digest(given, self._service.encode()):
            return SERVICE
        if self._auditor and hmac.compare_digest(given, self._auditor.encode()):
            return AUDITOR
        hashed = token_hash(token)
        found = self._seats.get(hashed)
        if found is not None:
            return Caller("seat", found[0], found[1])
        found = self._closed_seat(token, hashed)
        if found is None:
            raise Unauthenticated("unknown token: use the seat token SeatPlayer returned")
        return Caller("seat", found[0], found[1], read_only=True)

    def require_service(self, token: str | None) -> None:
        """For the lobby's calls: the service token and nothing else."""
        if token is None:
            raise Unauthenticated(
                "missing credential: internal calls need 'authorization: Bearer <service token>'"
            )
        if self.caller(token) is not SERVICE:
            raise PermissionDenied("this call needs the service token (the lobby's)")

    def require_seat(self, token: str | None, table_id: str, seat: int | None,
                     reading: bool = False) -> Caller:
        """For a player's calls: the token of this table's seat (`seat` None: any seat);
        `reading`: a call that only reads, which a closed table's token may still make."""
        if token is None:
            raise Unauthenticated("missing credential: send 'authorization: Bearer <seat token>'")
        caller = self.caller(token)
        if caller.role != "seat":
            raise PermissionDenied("this call needs a seat token")
        if caller.table_id != table_id:
            raise PermissionDenied(
                f"this seat token is for another table, not {quote(table_id)}")
        if seat is not None and caller.seat != seat:
            raise PermissionDenied(
                f"your token is for seat {caller.seat}; you cannot act for seat {seat}"
            )
        if caller.read_only and not reading:
            raise FailedPrecondition(
                f"table {quote(table_id)} is closed: its seat tokens read only (GetTable, "
                "WatchTable, GetHandHistory of your own hands); nothing can be done at it")
        return caller
