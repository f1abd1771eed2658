"""The dealer's instructions a hand, counted by callgrind: an A/B that a noisy machine
does not move.

On a shared machine the timed benchmarks (bench/dealer.py, bench/table.py) move by
10 % and more between runs of the same commit. This one counts what the dealer
executes instead: it starts an evaluator, then a dealer under `valgrind
--tool=callgrind`, and drives one table (heads-up; `--seats` for more) one decision
at a time (a fixed policy: check, call, a minimum raise every seventh decision, a fold
every eleventh call, muck) for `--hands` hands; then again for three times as many.
`--style` picks the clients' calls as bench/dealer.py's styles do: `farm` (the
default) one PlayMany stream for every seat, `play` a Play stream a seat, `unary` a
WatchTable stream a seat and an Act a decision: each takes its own path through the
dealer's server and streams.
The difference of the two counts over the difference of hands (and of decisions) is
the dealer's instructions a hand (a decision), start-up and shut-down cancelled out.
The deck is made deterministic for the run only: the dealer's process gets a
`sitecustomize` (written to a temporary folder, first on its PYTHONPATH) that seeds
`os.urandom`, so both runs, and both sides of an A/B, deal the same cards and play
the same decisions. With `--base REV` the same is done for REV's code (a git
worktree) at the same time, beside this checkout's, and the ratio is printed: both
sides then share the machine alike, which matters because a dealer's timers cost
instructions by the wall-clock second, and valgrind stretches seconds.

What it counts: user-space instructions of the dealer process (its threads
included), not the kernel's time, nor cache misses: a proxy for CPU, exact to about
2 % between runs, which the timed benchmarks are not. It needs valgrind (Debian's
package `valgrind`); it takes 3-5 minutes.

Run: .venv/bin/python bench/dealer_instructions.py [--hands 20] [--seats 6] [--style unary]
     [--base 93dc1d7] [--json out.json]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from poker.grpc_engine import POLLING_ENGINE, prefer_polling_engine  # noqa: E402, I001

prefer_polling_engine()  # before grpc loads: the I/O engine the services run on

import grpc  # noqa: E402

from bench.ab import worktree  # noqa: E402
from poker.procs import start_service  # noqa: E402
from poker.v1 import dealer_pb2 as pb  # noqa: E402
from poker.v1 import dealer_pb2_grpc as pb_grpc  # noqa: E402

SERVICE = [("authorization", "Bearer bench-service")]
#: Seeds os.urandom in the dealer's process (and only there): the bench's own deck.
DETERMINISTIC = '''import os, random
_rng = random.Random(int(os.environ["POKER_BENCH_URANDOM_SEED"]))
def _urandom(n):
    return _rng.randbytes(n)
os.urandom = random._urandom = _urandom
'''


#: The client styles of bench/dealer.py: the dealer's paths a decision takes differ.
STYLES = ("farm", "play", "unary")

#: What a style's reader threads hand the driver: (seat, its events, a refusal's message).
Inbox = queue.Queue[tuple[int, Any, str] | None]


def drive(address: str, hands: int, seats: int = 2, style: str = "farm") -> int:
    """Plays `hands` hands on a new table of `seats` of the dealer at `address`, one
    decision at a time, as `style`'s clients would (one PlayMany stream for every seat, a
    Play stream a seat, or a WatchTable stream a seat and a unary Act a decision); the
    decisions sent."""
    channel = grpc.insecure_channel(address)
    grpc.channel_ready_future(channel).result(timeout=600)
    stub = pb_grpc.DealerServiceStub(channel)  # type: ignore[no-untyped-call]
    config = pb.TableConfig(seats=seats, pause_between_hands_ms=0, action_time_ms=3_600_000,
                            preset=pb.PRESET_STANDARD)
    if "time_bank_ms" in pb.TableConfig.DESCRIPTOR.fields_by_name:
        config.time_bank_ms = 0  # R35 off: an older dealer has no bank
    table_id = stub.CreateTable(pb.CreateTableRequest(table_id="bench", config=config),
                                metadata=SERVICE, timeout=600).table_id
    tokens = [stub.SeatPlayer(pb.SeatPlayerRequest(
        table_id=table_id, seat=seat, player_id=f"p{seat}", stack=10**9),
        metadata=SERVICE, timeout=600).seat_token for seat in range(seats)]
    inbox: Inbox = queue.Queue()
    send, calls = _OPEN[style](stub, table_id, tokens, inbox)
    readers = [threading.Thread(target=_pump, args=(call, inbox, read), daemon=True)
               for call, read in calls]
    for reader in readers:
        reader.start()
    ended = decisions = 0
    try:
        while ended < hands:
            got = inbox.get(timeout=600)
            if got is None:
                raise RuntimeError("a stream of the dealer ended")
            seat, events, refused = got
            if refused:
                raise RuntimeError(f"decision refused: {refused}")
            for event in events:
                kind = event.WhichOneof("event")
                if kind == "hand_ended" and seat == 0:
                    ended += 1
                if kind == "turn_started" and event.turn_started.seat == seat:
                    decisions += 1
                    action = _answer(event.turn_started, decisions)
                    action.hand_id = event.hand_id
                    send(seat, action)
    finally:
        for call, _ in calls:
            call.cancel()
        channel.close()
    return decisions


def _pump(call: Any, inbox: Inbox, read: Any) -> None:
    """Hands each response of `call`, as `read` splits it, to the driver; None at its end."""
    try:
        for response in call:
            for item in read(response):
                inbox.put(item)
    except grpc.RpcError:
        pass  # cancelled when the driver is done
    inbox.put(None)


def _open_farm(stub: Any, table_id: str, tokens: list[str], inbox: Inbox) -> tuple[Any, Any]:
    outbox: queue.Queue[pb.PlayManyRequest | None] = queue.Queue()
    outbox.put(pb.PlayManyRequest(open=[pb.PlaySeat(table_id=table_id, seat_token=t)
                                        for t in tokens]))
    call = stub.PlayMany(iter(outbox.get, None))

    def read(response: pb.PlayManyResponse) -> list[tuple[int, Any, str]]:
        items = [(part.seat, part.events, "") for part in response.events]
        return items + [(0, (), r.result.message) for r in response.results if r.result.code]

    def send(seat: int, action: pb.PlayAction) -> None:
        outbox.put(pb.PlayManyRequest(actions=[pb.PlaySeatAction(
            table_id=table_id, seat=seat, action=action)]))

    return send, [(call, read)]


def _open_play(stub: Any, table_id: str, tokens: list[str], inbox: Inbox) -> tuple[Any, Any]:
    outboxes: list[queue.Queue[pb.PlayRequest | None]] = []
    calls = []
    for seat, token in enumerate(tokens):
        outbox: queue.Queue[pb.PlayRequest | None] = queue.Queue()
        outbox.put(pb.PlayRequest(start=pb.PlayStart(table_id=table_id)))
        outboxes.append(outbox)
        call = stub.Play(iter(outbox.get, None), metadata=_bearer(token))

        def read(response: pb.PlayResponse, seat: int = seat) -> list[tuple[int, Any, str]]:
            result = response.action_result
            return [(seat, response.events, result.message if result.code else "")]

        calls.append((call, read))

    def send(seat: int, action: pb.PlayAction) -> None:
        outboxes[seat].put(pb.PlayRequest(action=action))

    return send, calls


def _open_unary(stub: Any, table_id: str, tokens: list[str], inbox: Inbox) -> tuple[Any, Any]:
    calls = []
    for seat, token in enumerate(tokens):
        call = stub.WatchTable(pb.WatchTableRequest(table_id=table_id), metadata=_bearer(token))

        def read(response: pb.WatchTableResponse,
                 seat: int = seat) -> list[tuple[int, Any, str]]:
            return [(seat, response.events, "")]

        calls.append((call, read))

    def send(seat: int, action: pb.PlayAction) -> None:
        stub.Act(pb.ActRequest(table_id=table_id, seat=seat, hand_id=action.hand_id,
                               action_number=action.action_number, kind=action.kind,
                               amount=action.amount),
                 metadata=_bearer(tokens[seat]), timeout=600)

    return send, calls


def _bearer(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


_OPEN = {"farm": _open_farm, "play": _open_play, "unary": _open_unary}


def _answer(turn: pb.TurnStarted, n: int) -> pb.PlayAction:
    legal = turn.legal_actions
    action = pb.PlayAction(action_number=turn.action_number)
    if turn.decision == pb.DECISION_SHOW_OR_MUCK:
        action.kind = pb.ACTION_KIND_MUCK if legal.can_muck else pb.ACTION_KIND_SHOW
    elif legal.HasField("bet_kind") and n % 7 == 0:
        action.kind, action.amount = legal.bet_kind, legal.min_to
    elif legal.can_check:
        action.kind = pb.ACTION_KIND_CHECK
    else:
        action.kind = pb.ACTION_KIND_FOLD if n % 11 == 0 else pb.ACTION_KIND_CALL
    return action


def counted(checkout: Path, evaluator: str, hands: int, seats: int, style: str,
            folder: Path, name: str) -> tuple[int, int]:
    """(instructions, decisions) of a dealer of `checkout` that played `hands` hands."""
    out = folder / f"{name}.callgrind"
    env = {**os.environ, "PYTHONPATH": f"{folder / 'site'}{os.pathsep}{checkout}",
           "POKER_BENCH_URANDOM_SEED": "7", "GRPC_EXPERIMENTS": POLLING_ENGINE,
           "POKER_LOG_FORMAT": "json"}
    dealer = subprocess.Popen(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable,
         "-m", "poker.cli", "serve", "dealer", "--host", "127.0.0.1", "--port", "0",
         "--db", str(folder / f"{name}.sqlite"), "--service-token", "bench-service",
         "--auditor-token", "bench-auditor", "--stream-linger-ms", "0",
         "--evaluator", evaluator],
        cwd=checkout, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert dealer.stdout is not None
        lines = iter(dealer.stdout.readline, "")
        line = next((x for x in lines if x.startswith("listening on ")), "")
        if not line:
            raise RuntimeError("the dealer under valgrind did not start")
        threading.Thread(target=lambda: [None for _ in lines], daemon=True).start()
        decisions = drive(line.split()[-1], hands, seats, style)
    finally:
        dealer.terminate()
        dealer.wait(timeout=600)
    summary = [x for x in out.read_text().splitlines() if x.startswith("summary:")]
    return int(summary[0].split()[1]), decisions


def measure(checkout: Path, evaluator: str, hands: int, seats: int, style: str,
            folder: Path, label: str) -> dict[str, float]:
    """Instructions a hand and a decision: the runs of `hands` and 3 x `hands` hands."""
    (folder / "site").mkdir(exist_ok=True)
    (folder / "site" / "sitecustomize.py").write_text(DETERMINISTIC)
    few, few_decisions = counted(checkout, evaluator, hands, seats, style, folder,
                                   f"{label}-few")
    print(f"  {label}: {hands} hands counted", flush=True)
    many, many_decisions = counted(checkout, evaluator, 3 * hands, seats, style, folder,
                                   f"{label}-many")
    print(f"  {label}: {3 * hands} hands counted", flush=True)
    return {"instructions_per_hand": (many - few) / (2 * hands),
            "instructions_per_decision": (many - few) / (many_decisions - few_decisions),
            "decisions_per_hand": (many_decisions - few_decisions) / (2 * hands)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20,
                        help="hands of the shorter run (the longer plays three times as many)")
    parser.add_argument("--seats", type=int, default=2, help="players at the table (2..10)")
    parser.add_argument("--style", choices=STYLES, default="farm",
                        help="the clients' calls, as bench/dealer.py's styles (default farm)")
    parser.add_argument("--base", help="also count this revision's dealer, at the same time")
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args(argv)
    if not 5 <= args.hands <= 500 or not 2 <= args.seats <= 10:
        parser.error("--hands is 5 to 500, --seats 2 to 10")
    if shutil.which("valgrind") is None:
        parser.error("valgrind is not installed (Debian: apt-get install valgrind)")
    figures: dict[str, Any] = {"hands": args.hands, "seats": args.seats, "style": args.style}
    results: dict[str, dict[str, float]] = {}
    with contextlib.ExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory(prefix="poker-instructions-"))
        sides = {"head": ROOT}
        if args.base:
            sides["base"] = stack.enter_context(worktree(args.base, Path(tmp) / "checkout"))
        evaluator = start_service("evaluator", [], log_path=Path(tmp) / "evaluator.log")
        stack.callback(evaluator.stop)
        errors: list[BaseException] = []

        def run(label: str, checkout: Path) -> None:
            folder = Path(tmp) / label
            folder.mkdir()
            try:
                results[label] = measure(checkout, evaluator.address, args.hands,
                                         args.seats, args.style, folder, label)
            except BaseException as err:  # noqa: BLE001 - reported after the join
                errors.append(err)

        print(f"counting the dealer's instructions ({', '.join(sides)}; a few minutes)",
              flush=True)
        threads = [threading.Thread(target=run, args=item) for item in sides.items()]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if errors:
            raise errors[0]
    for label, result in results.items():
        figures[label] = result
        print(f"{label}: {result['instructions_per_hand'] / 1e6:.3f} M instructions a hand, "
              f"{result['instructions_per_decision'] / 1e6:.3f} M a decision "
              f"({result['decisions_per_hand']:.2f} decisions a hand)")
    if "base" in results:
        for key in ("instructions_per_hand", "instructions_per_decision"):
            figures[f"{key}_head_over_base"] = (results["head"][key] / results["base"][key])
        print(f"head/base: {figures['instructions_per_hand_head_over_base']:.3f} a hand, "
              f"{figures['instructions_per_decision_head_over_base']:.3f} a decision")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
