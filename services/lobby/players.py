"""Players: created by the embedding platform, each with a balance and a token the lobby issues.

The lobby keeps only the SHA-256 of a player's token; the token itself is shown
once, when it is issued.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from dataclasses import dataclass

from services.lobby import ledger
from services.lobby.errors import AlreadyExists, InvalidArgument, NotFound
from services.lobby.ledger import AccountKind, TransferKind
from services.lobby.storage import Tx

_ID = re.compile(r"^[A-Za-z0-9_.:@-]{1,128}$")


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
    if not _ID.match(value):
        raise InvalidArgument(
            f"{kind} {value!r} is not a valid id: 1 to 128 of letters, digits, _ . : @ -"
        )


def create(tx: Tx, player_id: str, display_name: str) -> tuple[Player, str]:
    """Creates a player with balance 0; returns the player and their token."""
    check_id("player_id", player_id)
    if not display_name.strip():
        raise InvalidArgument("display_name is required")
    if tx.one("SELECT id FROM players WHERE id = ?", (player_id,)):
        raise AlreadyExists(f"player {player_id!r} already exists")
    token = new_token()
    tx.execute(
        "INSERT INTO players (id, display_name, token_hash, created_at) VALUES (?, ?, ?, ?)",
        (player_id, display_name.strip(), token_hash(token), time.time()),
    )
    ledger.open_account(tx, ledger.player_account(player_id), AccountKind.PLAYER)
    return Player(player_id, display_name.strip(), 0), token


def get(tx: Tx, player_id: str) -> Player:
    """A player with their balance; NotFound for an unknown id."""
    row = tx.one("SELECT id, display_name FROM players WHERE id = ?", (player_id,))
    if row is None:
        raise NotFound(f"there is no player {player_id!r}")
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
    """A deposit (from the operator) or a withdrawal (to the operator), once per request id."""
    get(tx, player_id)
    if not request_id:
        raise InvalidArgument("request_id is required: it makes a retried request move money once")
    account = ledger.player_account(player_id)
    source, destination = (
        (ledger.OPERATOR, account) if kind is TransferKind.DEPOSIT else (account, ledger.OPERATOR)
    )
    ledger.ensure_operator(tx)
    ledger.transfer(tx, key=f"{kind.value}:{player_id}:{request_id}", kind=kind,
                    source=source, destination=destination, amount=amount)
    return get(tx, player_id)
