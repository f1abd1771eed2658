"""`poker acpc`: research bots that speak the ACPC dealer protocol play our tables.

The Annual Computer Poker Competition's dealer protocol, **version 2.0.0** (the
competition's `protocol.pdf` and `project_acpc_server`'s dealer): text over TCP, one
message per line. A client connects and sends `VERSION:2.0.0`; the dealer sends match
states

    MATCHSTATE:<position>:<hand number>:<betting>:<cards>

and the client answers a state in which it must act with that state, a colon and its
action: `f` (fold), `c` (check or call), `r` (limit raise) or `r<N>` (no-limit raise to
a total of N chips put in the pot this hand, blinds included). Lines starting with `#` or
`;` are comments.

The gateway seats each connection as its own player: it creates the player in the lobby
(operator token), deposits `--deposit` chips, buys in for `--stack` and plays over the
seat's own `Play` stream with the seat token, exactly as a Python bot would. When the
client leaves (or after `--hands` hands, the match length), the seat leaves the table and
the stack goes back to the player's balance (R31): no chip is lost.

What the gateway follows, and where a table differs from an ACPC game:
- **Positions**: per hand, the players dealt in, counted from the first seat after the
  button, so the button is the last position (heads-up: position 0 is the big blind and
  position 1 the button, `blind = 100 50`; with more players position 0 posts the small
  blind and position 1 the big blind, `blind = 50 100 0 ...`). `firstPlayer` is therefore
  `2 1 1 1` heads-up and `3 1 1 1` otherwise, as in the competition's game files.
- **Betting**: one character per action, rounds separated by `/`. `r<N>` counts blinds
  but not antes (ACPC games have none); a fixed-limit raise is a bare `r`.
- **Cards**: `As`, `Td`, ...; hole cards by position separated by `|` (a client sees its
  own, and the others' once shown at showdown, R27), then `/` and each street's board.
- **States sent**: a state whenever the client must act, and the last state of every hand
  (with the cards shown). The states between (other players' actions) are folded into the
  next one the client receives, whose betting string carries every action.
- **Invalid actions are fixed** as the ACPC dealer's fixing does: a fold when nothing is
  to be called checks, a raise where none is allowed calls, a no-limit size below the
  minimum or above the stack is raised or lowered to it. A line that is not an action is
  ignored (the table's clock, R32, then checks or folds).
- **Stacks**: the printed game definition (`--gamedef`) gives every position `--stack`,
  the buy-in. ACPC's no-limit matches reset stacks each hand (Doyle's game); a cash
  table keeps them, so after the first hand a stack may differ from the definition's.
  A busted seat rebuys `--stack` (R30) at once; if the table's rules refuse, the lobby
  takes the seat off the table after its rebuy wait and the client's match ends.
- **Not representable in ACPC**: antes, a dead small blind or button (R5 `dead`), straddles
  and R10/R33 posts are played by the table but appear in no `r` amount.
- **Show or muck** (R27) and other decisions ACPC has no word for are answered for the
  client: it shows. A hand dealt to the seat before its Play stream started (the table
  deals as soon as a second player sits) is checked or folded for the client; the
  client's hand numbers start with the first hand it is sent. So is a hand dealt to fewer
  players than the game definition's `numPlayers` (the table's seats): an ACPC match has
  a fixed number of players, so such a hand (while the table fills, or while a seat waits
  for its rebuy) is not part of the match; `--hands` counts the match's hands.

    poker acpc --lobby 127.0.0.1:50053 --token $OPERATOR --table t1 --port 48777
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import logging
import secrets
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from poker.cards import card_text
from poker.limits import MAX_TEXT_CHARS
from poker.log import add_log_format_argument
from poker.vocab.actions import Action, LegalActions
from poker.vocab.enums import ActionKind, Decision, Structure

log = logging.getLogger("poker.acpc")

VERSION = "2.0.0"
#: A client line longer than this is refused (the connection is closed).
MAX_LINE = MAX_TEXT_CHARS
#: Seconds a new connection has to send its VERSION line.
HELLO_SECONDS = 10.0


def _card(card: Any) -> str:
    """ACPC card text (`As`, `Td`) of an engine card index or an SDK `Card`."""
    return card_text(card) if isinstance(card, int) else str(card)


@dataclass
class AcpcHand:
    """One hand as an ACPC client sees it, built from the table's events.

    `seats` are the seats dealt in, in ACPC position order (first after the button, the
    button last). Amounts are the chips each seat put in during earlier rounds (`before`)
    and this round (`bet`); antes are left out, as ACPC games have none.
    """

    number: int
    seats: tuple[int, ...]
    limit: bool
    rounds: list[list[str]] = field(default_factory=lambda: [[]])
    board: list[str] = field(default_factory=list)
    hole: dict[int, str] = field(default_factory=dict)
    before: dict[int, int] = field(default_factory=dict)
    bet: dict[int, int] = field(default_factory=dict)
    over: bool = False

    @classmethod
    def start(cls, number: int, dealt_in: Iterable[int], button: int, table_seats: int,
              limit: bool) -> AcpcHand:
        """The hand with its positions: seats in order from the one after the button."""
        order = tuple(sorted(dealt_in, key=lambda s: (s - button - 1) % table_seats))
        return cls(number, order, limit, before={s: 0 for s in order},
                   bet={s: 0 for s in order})

    def position(self, seat: int) -> int:
        return self.seats.index(seat)

    def spent(self, seat: int) -> int:
        """Chips `seat` has put in this hand (blinds and bets, no antes)."""
        return self.before.get(seat, 0) + self.bet.get(seat, 0)

    # ------------------------------------------------------------------ events

    def apply(self, event: Any) -> None:
        """Folds one table event into the hand (events of other kinds are ignored)."""
        kind = event.kind
        if kind == "blind_posted":
            if getattr(event.blind, "value", event.blind) != "dead":  # R33's dead part
                self.bet[event.seat] = self.bet.get(event.seat, 0) + event.amount
        elif kind == "hole_cards_dealt":
            if event.cards:
                self.hole[event.seat] = "".join(_card(c) for c in event.cards)
        elif kind == "action_taken":
            self.rounds[-1].append(self._token(event))
            if event.action is not ActionKind.FOLD:
                self.bet[event.seat] = event.to
        elif kind == "board_dealt":
            for seat in self.seats:
                self.before[seat] += self.bet.get(seat, 0)
                self.bet[seat] = 0
            self.rounds.append([])
            self.board.append("".join(_card(c) for c in event.cards))
        elif kind == "cards_shown":
            self.hole[event.seat] = "".join(_card(c) for c in event.cards)
        elif kind in ("hand_ended", "hand_voided"):
            self.over = True

    def _token(self, event: Any) -> str:
        action = event.action
        if action is ActionKind.FOLD:
            return "f"
        if action in (ActionKind.CHECK, ActionKind.CALL):
            return "c"
        if self.limit:
            return "r"
        return f"r{self.before.get(event.seat, 0) + event.to}"

    # ------------------------------------------------------------------ states

    def betting(self) -> str:
        return "/".join("".join(r) for r in self.rounds)

    def cards(self, viewer: int) -> str:
        holes = "|".join(self.hole.get(s, "") if s == viewer or self.over else ""
                         for s in self.seats)
        return holes + "".join("/" + b for b in self.board)

    def matchstate(self, viewer: int) -> str:
        """The state line for the client at seat `viewer` (without the line end)."""
        return (f"MATCHSTATE:{self.position(viewer)}:{self.number}:{self.betting()}:"
                f"{self.cards(viewer)}")

    # ----------------------------------------------------------------- actions

    def action(self, text: str, seat: int, legal: LegalActions) -> Action:
        """The table action for an ACPC action `text` (`f`, `c`, `r`, `r<N>`), fixed
        where invalid as the ACPC dealer fixes it (see the module's notes)."""
        if legal.decision is not Decision.BET:
            return Action.show() if legal.can_show else Action.muck()
        passive = Action.check() if legal.can_check else Action.call()
        if text == "f":
            return passive if legal.can_check else Action.fold()
        if text == "c" or not text.startswith("r") or legal.bet_kind is None:
            return passive
        if self.limit or text == "r":
            return Action(legal.bet_kind, legal.min_to)
        total = int(text[1:])
        to = min(max(total - self.before.get(seat, 0), legal.min_to), legal.max_to)
        return Action(legal.bet_kind, to)


def parse_action(line: str, state: str) -> str | None:
    """The action of a client's answer `line` to `state`: `f`, `c`, `r` or `r<N>`; None
    when the line answers another state or is not an action."""
    head, sep, action = line.rpartition(":")
    if not sep or head != state:
        return None
    if action in ("f", "c", "r"):
        return action
    if action.startswith("r") and action[1:].isdigit() and len(action) <= 20:
        return action
    return None


def gamedef(players: int, small_blind: int, big_blind: int, stack: int,
            structure: Structure, limit_cap: int = 4) -> str:
    """The ACPC game definition of a table (the format of the competition's `.game` files)."""
    limit = structure is Structure.FIXED_LIMIT
    if players == 2:
        blinds, first = [big_blind, small_blind], "2 1 1 1"
    else:
        blinds, first = [small_blind, big_blind] + [0] * (players - 2), "3 1 1 1"
    lines = ["GAMEDEF", "limit" if limit else "nolimit", f"numPlayers = {players}",
             "numRounds = 4"]
    if not limit:
        lines.append("stack = " + " ".join([str(stack)] * players))
    lines.append("blind = " + " ".join(map(str, blinds)))
    if limit:
        lines.append(f"raiseSize = {big_blind} {big_blind} {2 * big_blind} {2 * big_blind}")
        lines.append(f"maxRaises = {limit_cap - 1} {limit_cap} {limit_cap} {limit_cap}")
    lines += [f"firstPlayer = {first}", "numSuits = 4", "numRanks = 13", "numHoleCards = 2",
              "numBoardCards = 0 3 1 1", "END GAMEDEF"]
    return "\n".join(lines)


class ClientGone(Exception):
    """The ACPC client closed its connection (or broke the protocol)."""


class AcpcSeat:
    """One ACPC client at one seat: the SDK's bot (`act`) and event hook (`on_events`)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, seat: int,
                 table_seats: int, limit: bool) -> None:
        self.reader, self.writer = reader, writer
        self.seat, self.table_seats, self.limit = seat, table_seats, limit
        self.players = table_seats  # the game definition's numPlayers
        self.hand: AcpcHand | None = None
        self.numbers = itertools.count()
        self.hands = 0

    def send(self, line: str) -> None:
        self.writer.write(line.encode() + b"\r\n")

    def on_events(self, events: Sequence[Any]) -> None:
        for event in events:
            if event.kind == "hand_started":
                dealt = [p.seat for p in event.players]
                if self.seat in dealt and len(dealt) == self.players:
                    self.hand = AcpcHand.start(next(self.numbers), dealt, event.button,
                                               self.table_seats, self.limit)
                else:
                    self.hand = None
                continue
            hand = self.hand
            if hand is None or hand.over:
                continue
            hand.apply(event)
            if hand.over:
                self.hands += 1
                self.send(hand.matchstate(self.seat))

    async def act(self, view: Any) -> Action:
        legal = view.legal
        hand = self.hand
        if legal.decision is not Decision.BET:
            return Action.show() if legal.can_show else Action.muck()
        if hand is None:  # a hand dealt before the client's first state: sat through
            return Action.check() if legal.can_check else Action.fold()
        state = hand.matchstate(self.seat)
        self.send(state)
        await self.writer.drain()
        while True:
            line = await read_line(self.reader)
            if line.startswith(("#", ";")):
                continue
            action = parse_action(line, state)
            if action is not None:
                return hand.action(action, self.seat, legal)
            log.info("acpc: ignored %r (the state was %r)", line[:80], state)


def _rebuy_done(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.info("acpc: a rebuy was refused: %s", task.exception())


def _peer(writer: asyncio.StreamWriter) -> str:
    peer = writer.get_extra_info("peername")
    return f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)


async def read_line(reader: asyncio.StreamReader) -> str:
    """One line from a client, without its end; ClientGone at the end or on a long line."""
    try:
        raw = await reader.readuntil(b"\n")
    except asyncio.IncompleteReadError as err:
        raise ClientGone("the client closed the connection") from err
    except asyncio.LimitOverrunError as err:
        raise ClientGone(f"a line longer than {MAX_LINE} bytes") from err
    return raw.decode("ascii", "replace").rstrip("\r\n")


class Gateway:
    """Accepts ACPC clients and seats each as a player at `table_id` through the lobby."""

    def __init__(self, lobby: str, operator_token: str, table_id: str, *, stack: int,
                 deposit: int, hands: int = 0, prefix: str = "acpc") -> None:
        self.lobby, self.operator_token, self.table_id = lobby, operator_token, table_id
        self.stack, self.deposit, self.hands, self.prefix = stack, deposit, hands, prefix
        self.players: list[str] = []
        self.server: asyncio.Server | None = None

    async def start(self, host: str, port: int) -> int:
        self.server = await asyncio.start_server(self.serve, host, port, limit=MAX_LINE)
        return int(self.server.sockets[0].getsockname()[1])

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        from clients.aio import AsyncLobbyClient

        try:
            hello = await asyncio.wait_for(read_line(reader), HELLO_SECONDS)
            if not hello.startswith("VERSION:2."):
                writer.write(f"# expected VERSION:{VERSION}\r\n".encode())
                return
            player_id = f"{self.prefix}-{secrets.token_hex(4)}"
            self.players.append(player_id)
            print(f"seated {player_id} (an ACPC client from {_peer(writer)})", flush=True)
            async with AsyncLobbyClient(self.lobby, self.operator_token) as operator:
                _, token = await operator.create_player(player_id, player_id)
                await operator.deposit(player_id, self.deposit)
            async with AsyncLobbyClient(self.lobby, token) as me:
                await self._play(me, reader, writer)
        except (ClientGone, TimeoutError, ConnectionError) as err:
            log.info("acpc: a client left: %s", err)
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    async def _play(self, me: Any, reader: asyncio.StreamReader,
                    writer: asyncio.StreamWriter) -> None:
        table = await me.sit(self.table_id, self.stack)
        try:
            view = await table.view()
            config = view.config
            seat = AcpcSeat(reader, writer, table.seat, config.seats,
                            config.structure is Structure.FIXED_LIMIT)
            rebuys: set[asyncio.Task[Any]] = set()

            def rebuy() -> bool:  # R30, between hands: the seat waits for it, dealt out
                task = asyncio.get_running_loop().create_task(me.rebuy(self.table_id,
                                                                      self.stack))
                rebuys.add(task)
                task.add_done_callback(_rebuy_done)
                task.add_done_callback(rebuys.discard)
                return True

            def enough(_: Any) -> bool:
                return bool(self.hands) and seat.hands >= self.hands

            await table.play(seat, until=enough, on_events=seat.on_events, rebuy=rebuy)
            await writer.drain()
        finally:
            with contextlib.suppress(Exception):
                await me.leave(self.table_id)
            await table.close()

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lobby", required=True, help="the lobby's address (host:port)")
    parser.add_argument("--token", required=True,
                        help="the lobby's operator token (the gateway creates one player "
                             "per ACPC client and funds it)")
    parser.add_argument("--table", required=True, help="the table the clients sit at")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=0,
                        help="TCP port for ACPC clients (0: a free one, printed)")
    parser.add_argument("--stack", type=int, default=20_000,
                        help="each client's buy-in and the game definition's stack "
                             "(default 20000, the competition's)")
    parser.add_argument("--deposit", type=int, default=0,
                        help="chips deposited for each client (default: 10 stacks)")
    parser.add_argument("--hands", type=int, default=0,
                        help="hands per client, the match length (0: until it leaves)")
    parser.add_argument("--gamedef", action="store_true",
                        help="print the table's ACPC game definition and exit")
    add_log_format_argument(parser)


def run(args: argparse.Namespace) -> int:
    return asyncio.run(_main(args))


async def _main(args: argparse.Namespace) -> int:
    from clients.aio import AsyncLobbyClient

    async with AsyncLobbyClient(args.lobby, args.token) as operator:
        table = await operator.table(args.table)
    config = table.config
    if config is None:
        print(f"poker acpc: table {args.table} has no configuration", file=sys.stderr)
        return 2
    level = config.levels[0]
    text = gamedef(config.seats, level.small_blind, level.big_blind, args.stack,
                   config.structure or Structure.NO_LIMIT, config.fixed_limit_cap or 4)
    if args.gamedef:
        print(text)
        return 0
    gateway = Gateway(args.lobby, args.token, args.table, stack=args.stack,
                      deposit=args.deposit or 10 * args.stack, hands=args.hands)
    port = await gateway.start(args.host, args.port)
    print(f"ACPC {VERSION} gateway for table {args.table} on {args.host}:{port}", flush=True)
    print(text, flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await gateway.close()
    return 0
