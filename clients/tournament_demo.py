"""`poker tournament`: the suite on this machine, a field of bots playing a tournament to
its end (RULES.md T1-T9), every chip and every coin accounted for.

Starts an evaluator, dealers and a lobby (as `poker demo` does), creates players and
funds them, announces a sit-and-go of `--players` (default 60) with a fast structure,
registers them all and lets them play (`clients.field.play_field`: one BotFarm, one
PlayMany stream, a dealer for all its bots; `--streams play` for one Play stream a bot),
each bot following its player from table to table, while a progress line shows the
level, the players left and the tables. At the end it prints the final table's story,
the places and the payouts, and checks that prizes paid + fees == buy-ins, that the
ledger's audit is clean, that every chip was accounted for at every level and that
every bot got its place and prize (exit 1 if not).

    poker tournament --players 60 [--streams farm|play]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import threading
import time
from typing import Any, TextIO

from clients import tournament as tn
from clients.bots import CallingStation, RandomBot
from clients.field import STREAMS, play_field
from clients.sdk import LobbyClient
from clients.stack import LocalSuite
from poker.log import add_log_format_argument

BUY_IN, FEE, STACK = 100, 10, 1000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, default=60, help="the field (default 60)")
    parser.add_argument("--table-size", type=int, default=9, help="seats a table (default 9)")
    parser.add_argument("--dealers", type=int, default=2, help="dealer processes (default 2)")
    parser.add_argument("--level-seconds", type=float, default=8.0,
                        help="length of each level in seconds (default 8: a fast structure)")
    parser.add_argument("--streams", choices=STREAMS, default="farm",
                        help="farm: one PlayMany stream a dealer for all its bots (default); "
                        "play: one Play stream a bot")
    parser.add_argument("--keep", metavar="FOLDER", default=None,
                        help="keep databases and logs in FOLDER (default: a temporary folder)")
    add_log_format_argument(parser)


def structure(players: int, table_size: int, level_seconds: float) -> tn.TournamentStructure:
    """A fast turbo: blinds from 10/20 up by half each level, antes from the fourth."""
    levels, small = [], 10
    for i in range(40):
        levels.append(tn.TournamentLevel(small_blind=small, big_blind=2 * small,
                                         ante=small // 5 if i >= 3 else 0,
                                         minutes=level_seconds / 60))
        small = small * 3 // 2
    return tn.TournamentStructure(buy_in=BUY_IN, fee=FEE, starting_stack=STACK,
                                  levels=tuple(levels), table_size=table_size,
                                  max_players=players, action_time_ms=5_000)


def bot_for(player_id: str) -> CallingStation | RandomBot:
    """Every third player a calling station, the others random."""
    number = int("".join(filter(str.isdigit, player_id)) or 0)
    return CallingStation() if number % 3 == 0 else RandomBot()


def run(args: argparse.Namespace) -> int:
    out = sys.stdout
    if not 2 <= args.players <= 1000:
        print("poker tournament: --players must be 2..1000", file=out)
        return 2
    print(f"poker tournament: starting an evaluator, {args.dealers} dealer(s) and a lobby; "
          f"{args.players} bots", file=out, flush=True)
    try:
        with LocalSuite(evaluators=1, dealers=args.dealers, folder=args.keep) as suite:
            return play(suite, args, out)
    except KeyboardInterrupt:
        print("\ninterrupted: every process started was stopped", file=out)
        return 130


def fund_field(op: LobbyClient, players: int, player_id: str, name: str
               ) -> list[tuple[str, str]]:
    """Creates `players` players (ids and names from the templates, formatted with the
    player's index) with a buy-in and fee each; their (player id, token) pairs."""
    tokens = []
    for i in range(players):
        player = player_id.format(i)
        _, token = op.create_player(player, name.format(i))
        op.deposit(player, BUY_IN + FEE)
        tokens.append((player, token))
    return tokens


def play(suite: LocalSuite, args: argparse.Namespace, out: TextIO) -> int:
    started = time.monotonic()
    op = LobbyClient(suite.lobby, token=suite.operator_token)
    tokens = fund_field(op, args.players, "bot{:03d}", "Bot {}")
    tid = "demo-tournament"
    op.create_tournament(tid, "poker tournament",
                         structure(args.players, args.table_size, args.level_seconds))
    result: dict[str, Any] = {}

    def field() -> None:
        try:  # registers the field (a sit-and-go: it starts once full), then plays it
            result["finishes"] = asyncio.run(play_field(
                suite.lobby, tokens, tid, bot_for, register=True,
                streams=getattr(args, "streams", "farm")))
        except BaseException as err:  # shown below
            result["error"] = err

    thread = threading.Thread(target=field, name="field", daemon=True)
    thread.start()
    while thread.is_alive():
        thread.join(0.5)
        t = op.tournament(tid)
        level = t.level or tn.TournamentLevel()
        print(f"\r  level {t.level_index + 1:>2} ({level.small_blind}/{level.big_blind}"
              f"{f' ante {level.ante}' if level.ante else ''})  {t.players_left:>4} players "
              f"left  {len(t.tables):>2} tables  {t.hands:>5} hands  {t.moves:>3} moves"
              f"{'  hand for hand' if t.hand_for_hand else ''}   ", end="", file=out, flush=True)
    print(file=out)
    if "error" in result:
        print(f"the field failed: {result['error']!r}", file=out)
        return 1
    elapsed = time.monotonic() - started
    t = op.tournament(tid)
    story(list(op.watch_tournament(tid)), out)
    ok = report(op, t, elapsed, out, result["finishes"])
    return 0 if ok else 1


def story(events: list[tn.TournamentEvent], out: TextIO) -> None:
    """The final table's story: who sat where, who busted in which place."""
    kinds = tn.TournamentEventKind
    start = next((i for i, e in enumerate(events) if e.kind is kinds.FINAL_TABLE), None)
    if start is None:  # a one-table field: the first table is the final table
        start = next(i for i, e in enumerate(events) if e.kind is kinds.STARTED)
    print("\nThe final table:", file=out)
    seats = [e for e in events[start:] if e.kind is kinds.MOVED and e.reason == "final table"]
    if seats:
        print("  seats drawn: " + ", ".join(f"{e.player_id} seat {e.to_seat} "
                                             f"({e.chips} chips)" for e in
                                             sorted(seats, key=lambda e: e.to_seat)), file=out)
    for e in events[start:]:
        if e.kind is kinds.BUSTED:
            shared = f" (shared by {e.shared})" if e.shared > 1 else ""
            print(f"  {e.player_id} is out in place {e.place}{shared}", file=out)
        elif e.kind is kinds.LEVEL_UP and e.level is not None:
            print(f"  level {e.level_index + 1}: blinds {e.level.small_blind}/"
                  f"{e.level.big_blind}{f' ante {e.level.ante}' if e.level.ante else ''}",
                  file=out)
        elif e.kind is kinds.FINISHED:
            winner = min(e.results, key=lambda r: r.place)
            print(f"  {winner.player_id} wins, holding every chip", file=out)


def report(op: LobbyClient, t: tn.Tournament, elapsed: float, out: TextIO,
           finishes: list[tn.TournamentFinish]) -> bool:
    paid = [p for p in t.players if p.prize]
    print("\nPlaces and payouts:", file=out)
    for p in sorted(t.players, key=lambda p: p.place)[:max(len(paid), 3)]:
        print(f"  {p.place:>3}. {p.player_id:<10} {p.prize:>6}", file=out)
    entries = sum(p.entries for p in t.players)
    rebuys = sum(p.rebuys for p in t.players)
    taken = (entries + rebuys) * (BUY_IN + FEE)
    prizes = sum(p.prize for p in t.players)
    audit = op.audit()
    places = sorted(f.place for f in finishes)
    checks = [
        (f"prizes paid {prizes} + fees {t.fees} = buy-ins {taken}", prizes + t.fees == taken),
        (f"every chip accounted for at every level ({t.chip_checks} counts of "
         f"{t.chips_in_play} chips)", t.chip_checks > 0 and not t.chip_errors),
        (f"ledger audit: total {audit.total}", audit.ok),
        ("finished with one player holding every chip",
         t.state is tn.TournamentState.FINISHED),
        (f"every bot got its place and prize ({len(finishes)} of {len(t.players)})",
         len(finishes) == len(t.players) and places[:1] == [1]
         and {(f.player_id, f.place, f.prize) for f in finishes}
         == {(p.player_id, p.place, p.prize) for p in t.players}),
    ]
    print(f"\n{len(t.players)} players, {t.hands} hands, {t.moves} moves, largest table gap "
          f"{t.largest_table_gap} ({t.largest_table_gap_balanced} with every table between "
          f"hands), in {elapsed:.1f} s", file=out)
    for text, good in checks:
        print(f"  {'ok ' if good else 'FAIL'} {text}", file=out)
    for problem in t.chip_errors:
        print(f"       {problem}", file=out)
    return all(good for _, good in checks)
