"""The Node.js client (clients/node, grpc-js + proto-loader from the .proto files): two Node bots
join a table through the lobby, play their hands over Play against the real suite, check every
deck proof in JavaScript (R3) and leave with every chip accounted; the JavaScript checker agrees
with poker/deckproof.py on honest and doctored proofs, R39's seeded permutation included.

`node_modules` comes from `npm ci` on the repository's own package.json (a workspace holding
clients/node/package.json), as `make test` runs it."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from clients.sdk import LobbyClient
from clients.stack import LocalSuite
from poker import deckproof
from poker.cards import CARD_TEXT
from tests.sdk.conftest import funded, open_table

ROOT = Path(__file__).resolve().parents[1]
BOT = ROOT / "clients" / "node" / "bot.js"
NODE = shutil.which("node") or "node"
DEPOSIT = 5_000


def test_the_node_dependencies_come_from_the_projects_own_lock() -> None:
    root = json.loads((ROOT / "package.json").read_text())
    lock = json.loads((ROOT / "package-lock.json").read_text())
    client = json.loads((ROOT / "clients/node/package.json").read_text())
    assert "clients/node" in root["workspaces"]
    assert lock["packages"]["clients/node"]["dependencies"] == client["dependencies"]
    for name in client["dependencies"]:
        assert f"node_modules/{name}" in lock["packages"], name
        assert (ROOT / "node_modules" / name / "package.json").exists(), (
            f"{name} is not installed: run `npm ci` (make test does)")


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalSuite]:
    with LocalSuite(folder=tmp_path_factory.mktemp("node")) as running:
        yield running


def _bot(suite: LocalSuite, token: str, table_id: str, seed: int, hands: int
         ) -> subprocess.Popen[str]:
    env = {**os.environ, "POKER_LOBBY": suite.lobby, "POKER_TOKEN": token,
           "POKER_TABLE": table_id}
    return subprocess.Popen([NODE, str(BOT), "--hands", str(hands), "--seed", str(seed),
                             "--timeout-s", "90"], cwd=ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_R3_node_bots_join_through_the_lobby_play_and_check_every_deck_proof(
        suite: LocalSuite) -> None:
    with LobbyClient(suite.lobby, suite.operator_token) as operator:
        table = open_table(operator, 2)
        players = funded(suite, operator, 2, deposit=DEPOSIT)
        # twice: the second sitting starts after the first's events, answering none again
        for sitting, hands in enumerate((5, 3)):
            bots = [_bot(suite, p.token, table.table_id, 10 * sitting + seed, hands=hands)
                    for seed, p in enumerate(players, start=1)]
            results: list[dict[str, Any]] = []
            for bot in bots:
                out, err = bot.communicate(timeout=120)
                assert bot.returncode == 0, (bot.returncode, out, err)
                results.append(json.loads(out.strip().splitlines()[-1]))
            print("node bots:", results)
            for result, player in zip(results, players, strict=True):
                assert result["player"] == player.player_id
                assert result["hands_played"] >= hands and result["actions"] >= hands
                # every hand it saw to its end is proven in JavaScript, its own among them
                assert result["verified"] >= result["hands_played"]
                assert result["violations"] == [] and result["unverified"] == 0
                assert result["refused"] == []
                assert result["left"] == "LEAVE_STATUS_DONE"
        # both left: every chip is back in a balance, as the lobby's ledger says
        balances = [operator.player(p.player_id).balance for p in players]
        assert balances == [r["balance"] for r in results]
        assert sum(balances) == 2 * DEPOSIT
        audit = operator.audit()
        assert audit.ok and audit.total == 0, audit.problems


# ------------------------------------------- the JavaScript checker against Python's

_FEED = """
const { FairDeckChecker } = require("./clients/node/deckproof.js");
const bytes = new Set(["salts", "hashes", "seed"]);
const revive = (key, value) => bytes.has(key) ? (Array.isArray(value)
    ? value.map((h) => Buffer.from(h, "hex")) : Buffer.from(value, "hex")) : value;
const checker = new FairDeckChecker();
for (const event of JSON.parse(require("fs").readFileSync(0, "utf8"), revive)) checker.feed(event);
console.log(JSON.stringify({ verified: checker.verified, violations: checker.violations }));
"""


def _node_check(events: list[dict[str, Any]]) -> dict[str, Any]:
    done = subprocess.run([NODE, "-e", _FEED], cwd=ROOT, input=json.dumps(events), text=True,
                          capture_output=True, timeout=30, check=True)
    return dict(json.loads(done.stdout))


def _hand(seeds: list[bytes] | None = None, lie: str = "") -> list[dict[str, Any]]:
    """A heads-up hand (seats 0 and 3, button 3) as the Play stream gives it to seat 0, made
    with poker/deckproof.py; `lie` doctors one thing."""
    committed = list(range(51, -1, -1))  # the committed deck, position i holds card 51-i
    salts = [secrets.token_bytes(16) for _ in range(52)]
    hashes = [deckproof.position_hash(i, committed[i], salts[i]) for i in range(52)]
    commitment = deckproof.commitment_of(hashes)
    perm = deckproof.permutation(seeds) if seeds is not None else list(range(52))

    def dealt(j: int) -> tuple[str, str]:  # deal position j: committed position perm[j]
        return CARD_TEXT[committed[perm[j]]], salts[perm[j]].hex()

    events: list[dict[str, Any]] = []
    if seeds is not None:
        events.append({"event": "deck_seeded", "hand_id": "h", "deck_seeded": {
            "seeds": [{"seat": s, "seed": seed.hex()} for s, seed in zip((0, 3), seeds,
                                                                      strict=True)],
            "permutation": perm}})
    events.append({"event": "hand_started", "hand_id": "h", "hand_started": {
        "button": 3, "players": [{"seat": 0}, {"seat": 3}], "commitment": commitment}})
    # dealing order: seat 0 first (left of the button), then the button: seat 0 holds 0 and 2
    mine = [dealt(0), dealt(2)]
    events.append({"event": "hole_cards_dealt", "hand_id": "h", "hole_cards_dealt": {
        "seat": 0, "cards": [c for c, _ in mine], "salts": [s for _, s in mine]}})
    opened = {0, 2}
    for street, positions in (("STREET_FLOP", [5, 6, 7]), ("STREET_TURN", [9]),
                              ("STREET_RIVER", [11])):
        cards = [dealt(j) for j in positions]
        if lie == "board" and street == "STREET_TURN":
            cards = [dealt(10)]  # the card of another position
        events.append({"event": "board_dealt", "hand_id": "h", "board_dealt": {
            "street": street, "cards": [c for c, _ in cards], "salts": [s for _, s in cards]}})
        opened.update(positions)
    committed_opened = {perm[j] for j in opened}
    revealed = [b"" if i in committed_opened else hashes[i] for i in range(52)]
    if lie == "hash":
        unopened = next(i for i in range(52) if i not in committed_opened)
        revealed[unopened] = bytes(32)
    events.append({"event": "deck_revealed", "hand_id": "h", "deck_revealed": {
        "commitment": commitment, "hashes": [h.hex() for h in revealed], "withheld": False}})
    return events


@pytest.mark.parametrize("seeded", [False, True], ids=["R3", "R39"])
def test_R3_the_javascript_checker_agrees_with_poker_deckproof(seeded: bool) -> None:
    seeds = [secrets.token_bytes(32), secrets.token_bytes(32)] if seeded else None
    assert _node_check(_hand(seeds)) == {"verified": 1, "violations": []}
    for lie in ("hash", "board"):
        found = _node_check(_hand(seeds, lie))
        assert found["verified"] == 0 and len(found["violations"]) == 1, (lie, found)
