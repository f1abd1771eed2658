"""Players: created by the embedding platform, each with a balance and a token the lobby issues.

The lobby keeps only the SHA-256 of a player's token; the token itself is shown
once, when it is issued.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass

from poker.limits import MAX_ID_CHARS, quote
from services.lobby import checks, ledger
from services.lobby import operations as ops
from services.lobby.errors import AlreadyExists, InvalidArgument, NotFound
from services.lobby.ledger import AccountKind, TransferKind
from services.lobby.storage import Tx


@dataclass(frozen=True, slots=True)
class Player:
    """A player and their balance."""

    player_id: str
    display_name: str
    balance: int


def token_hash(token: str) -> str:
    """What the lobby stores of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    """A fresh player token: 256 random bits."""
    return "pl_" + secrets.token_urlsafe(32)


def check_id(kind: str, value: str) -> None:
    """Refuses an id that is empty, too long or has characters other than [A-Za-z0-9_.:@-]."""
    checks.an_id(kind, value)


def create(tx: Tx, player_id: str, display_name: str) -> tuple[Player, str]:
    """Creates a player with balance 0; returns the player and their token."""
    check_id("player_id", player_id)
    checks.name("display_name", display_name)
    if not display_name.strip():
        raise InvalidArgument("display_name is required")
    if tx.one("SELECT id FROM players WHERE id = ?", (player_id,)):
        raise AlreadyExists(f"player {quote(player_id)} already exists")
    token = new_token()
    tx.execute(
        "INSERT INTO players (id, display_name, token_hash, created_at) VALUES (?, ?, ?, ?)",
        (player_id, display_name.strip(), token_hash(token), time.time()),
    )
    ledger.open_account(tx, ledger.player_account(player_id), AccountKind.PLAYER)
    return Player(player_id, display_name.strip(), 0), token


def get(tx: Tx, player_id: str) -> Player:
    """A player with their balance; NotFound for an unknown id."""
    checks.text("player_id", player_id, MAX_ID_CHARS)
    row = tx.one("SELECT id, display_name FROM players WHERE id = ?", (player_id,))
    if row is None:
        raise NotFound(f"there is no player {quote(player_id)}")
    return Player(row["id"], row["display_name"],
                  ledger.balance(tx, ledger.player_account(player_id)))


def issue_token(tx: Tx, player_id: str) -> str:
    """A new token for the player; the old one stops working."""
    get(tx, player_id)
    token = new_token()
    tx.execute("UPDATE players SET token_hash = ? WHERE id = ?", (token_hash(token), player_id))
    return token


def by_token(tx: Tx, token: str) -> str | None:
    """The player a token belongs to, if any."""
    row = tx.one("SELECT id FROM players WHERE token_hash = ?", (token_hash(token),))
    return row["id"] if row else None


def move(tx: Tx, player_id: str, amount: int, request_id: str, kind: TransferKind) -> Player:
    """A deposit (from the operator) or a withdrawal (to the operator), once per request id.

    The request id is the operator's: sent again with another player or amount it is
    refused (ALREADY_EXISTS). A deposit of an older version, keyed by player, is found too.
    """
    checks.lookup_id("player_id", player_id)
    checks.chips("amount", amount)
    checks.request_id(request_id, "a retried request move money once")
    get(tx, player_id)
    account = ledger.player_account(player_id)
    source, destination = (
        (ledger.OPERATOR, account) if kind is TransferKind.DEPOSIT else (account, ledger.OPERATOR)
    )
    rpc = "Deposit" if kind is TransferKind.DEPOSIT else "Withdraw"
    fingerprint = ops.fingerprint(rpc, ops.OPERATOR_SCOPE, player_id=player_id, amount=amount)
    key = f"{kind.value}:{ops.OPERATOR_SCOPE}:{request_id}"
    earlier = ledger.find_transfer(tx, key)
    legacy = ledger.find_transfer(tx, f"{kind.value}:{player_id}:{request_id}")
    if earlier is None and legacy is not None and not legacy.fingerprint:
        key = legacy.key  # made by an older version: compared field by field
    elif earlier is not None and earlier.fingerprint != fingerprint:
        whose = earlier.destination if kind is TransferKind.DEPOSIT else earlier.source
        raise ops.reused(request_id, f"a {kind.value} of {earlier.amount} for "
                         f"{whose.replace(':', ' ', 1)}")
    ledger.ensure_operator(tx)
    ledger.transfer(tx, key=key, kind=kind, source=source, destination=destination,
                    amount=amount, fingerprint=fingerprint)
    return get(tx, player_id)
