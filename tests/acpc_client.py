"""An ACPC client written from the protocol's published description (version 2.0.0), for
the gateway's tests: it reads each MATCHSTATE with its own reading of the betting (the
game definition's blinds, `firstPlayer` and stacks; a round ends once every player still
able to act has called the last raise), answers when it is its turn, and records what it
saw. It shares no code with `clients/acpc.py`.
"""

from __future__ import annotations

import random
import socket
from dataclasses import dataclass, field


@dataclass
class Game:
    """The parts of an ACPC game definition the client reads."""

    players: int
    blinds: list[int]
    first: list[int]  # 1-based, per round
    limit: bool
    stack: int
    raise_size: list[int] = field(default_factory=list)
    max_raises: list[int] = field(default_factory=list)

    @classmethod
    def parse(cls, text: str) -> Game:
        values: dict[str, list[str]] = {}
        limit = False
        for line in text.splitlines():
            line = line.strip()
            if line in ("limit", "nolimit"):
                limit = line == "limit"
            elif "=" in line:
                key, _, rest = line.partition("=")
                values[key.strip()] = rest.split()
        ints = {k: [int(x) for x in v] for k, v in values.items()}
        return cls(ints["numPlayers"][0], ints["blind"], ints["firstPlayer"], limit,
                   ints.get("stack", [1 << 31])[0], ints.get("raiseSize", []),
                   ints.get("maxRaises", []))


@dataclass
class Reading:
    """A betting string read by the rules: whose turn it is, whether the hand is over."""

    game: Game
    players: int
    spent: list[int]
    folded: list[bool]
    round: int = 0
    acts: list[list[tuple[int, str]]] = field(default_factory=lambda: [[]])
    over: bool = False

    @classmethod
    def read(cls, game: Game, players: int, betting: str) -> Reading:
        blinds = game.blinds[:players] + [0] * max(0, players - len(game.blinds))
        r = cls(game, players, list(blinds), [False] * players)
        text = betting.replace("/", "")
        i = 0
        while i < len(text):
            kind = text[i]
            i += 1
            size = 0
            if kind == "r" and not game.limit:
                j = i
                while i < len(text) and text[i].isdigit():
                    i += 1
                size = int(text[j:i])
            r.do(kind, size)
        return r

    def max_spent(self) -> int:
        return max(self.spent)

    def acting(self) -> list[int]:
        return [p for p in range(self.players)
                if not self.folded[p] and self.spent[p] < self.game.stack]

    def called(self) -> int:
        n = 0
        for p, kind in reversed(self.acts[self.round]):
            if self.spent[p] < self.game.stack and kind in "rc":
                n += 1
            if kind == "r":
                break
        return n

    def to_act(self) -> int:
        acts = self.acts[self.round]
        p = (acts[-1][0] + 1) % self.players if acts else self.game.first[self.round] - 1
        while self.folded[p] or self.spent[p] >= self.game.stack:
            p = (p + 1) % self.players
        return p

    def do(self, kind: str, size: int) -> None:
        p = self.to_act()
        self.acts[self.round].append((p, kind))
        if kind == "f":
            self.folded[p] = True
        elif kind == "c":
            self.spent[p] = min(self.max_spent(), self.game.stack)
        elif kind == "r":
            if self.game.limit:
                self.spent[p] = self.max_spent() + self.game.raise_size[self.round]
            else:
                self.spent[p] = size
        if sum(not f for f in self.folded) <= 1:
            self.over = True
        elif self.called() >= len(self.acting()):
            if len(self.acting()) > 1 and self.round < 3:
                self.round += 1
                self.acts.append([])
            else:
                self.over = True
                self.round = 3


@dataclass
class Seen:
    states: int = 0
    answers: int = 0
    hands: int = 0
    errors: list[str] = field(default_factory=list)
    showdowns: int = 0


class AcpcClient:
    """Connects, says VERSION:2.0.0, answers its turns with random actions."""

    def __init__(self, host: str, port: int, game: Game, seed: int, cap: int) -> None:
        self.game, self.rng, self.cap = game, random.Random(seed), cap
        self.sock = socket.create_connection((host, port), timeout=60)
        self.file = self.sock.makefile("rwb")
        self.seen = Seen()
        self.last_hand = -1
        self.send("VERSION:2.0.0")

    def send(self, line: str) -> None:
        self.file.write(line.encode() + b"\r\n")
        self.file.flush()

    def run(self) -> Seen:
        for raw in self.file:
            line = raw.decode().rstrip("\r\n")
            if not line.startswith("MATCHSTATE:"):
                continue
            self.seen.states += 1
            self.on_state(line)
        return self.seen

    def on_state(self, line: str) -> None:
        _, position, number, betting, cards = line.split(":")
        me, hand = int(position), int(number)
        holes, *board = cards.split("/")
        players = holes.count("|") + 1
        reading = Reading.read(self.game, players, betting)
        if len(board) != reading.round and not (reading.over and len(board) < reading.round):
            self.seen.errors.append(f"{line}: {len(board)} streets of board in round "
                                    f"{reading.round}")
        if len(holes.split("|")[me]) != 4:
            self.seen.errors.append(f"{line}: my hole cards are missing")
        if reading.over:
            if hand != self.last_hand + 1:
                self.seen.errors.append(f"{line}: hand {hand} after {self.last_hand}")
            self.last_hand = hand
            self.seen.hands += 1
            if sum(len(h) == 4 for h in holes.split("|")) > 1:
                self.seen.showdowns += 1
            return
        if reading.to_act() != me:
            self.seen.errors.append(f"{line}: sent while position {reading.to_act()} acts")
            return
        self.send(f"{line}:{self.choose(reading, me)}")
        self.seen.answers += 1

    def choose(self, reading: Reading, me: int) -> str:
        roll = self.rng.random()
        owed = reading.max_spent() > reading.spent[me]
        if roll < 0.15 and owed:
            return "f"
        if roll < 0.45 and reading.max_spent() < self.cap:
            if self.game.limit:
                raises = sum(k == "r" for _, k in reading.acts[reading.round])
                if raises < self.game.max_raises[reading.round]:
                    return "r"
                return "c"
            bb = max(self.game.blinds)
            return f"r{min(self.cap, reading.max_spent() + bb * self.rng.randint(1, 3))}"
        return "c"

    def close(self) -> None:
        self.sock.close()
