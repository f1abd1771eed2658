"""The whole suite as local processes: evaluator(s), a dealer and a lobby on SQLite in a folder.

Used by `poker demo`, `poker play`, the SDK's end-to-end tests and bench/table.py.
Every process is stopped on exit, also on errors and Ctrl-C.

>>> with LocalSuite() as suite:                                       # doctest: +SKIP
...     operator = LobbyClient(suite.lobby, suite.operator_token)
"""

from __future__ import annotations

import secrets
import shutil
import signal
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from types import FrameType, TracebackType
from typing import Any

from poker.procs import ServiceProcess, start_service

__all__ = ["LocalSuite"]


def _exit_on_sigterm(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


class LocalSuite:
    """Starts `evaluators` evaluator processes, `dealers` dealers balancing over them, and a
    lobby placing tables on the dealers; `dealer_args`, `lobby_args` and `evaluator_args`
    (one list for all, or one per evaluator) are more options of theirs.

    Addresses: `evaluator_addresses`, `dealers` (`dealer` the first), `lobby`; credentials:
    `operator_token`, `service_token`, `auditor_token` (fresh random ones). `folder` holds
    the databases and one log file per process (a temporary folder, removed at exit unless
    `keep`).
    """

    def __init__(self, evaluators: int = 1, folder: str | Path | None = None,
                 keep: bool = False, dealer_args: Sequence[str] = (),
                 lobby_args: Sequence[str] = (), dealers: int = 1,
                 evaluator_args: Sequence[str] | Sequence[Sequence[str]] = ()) -> None:
        self.evaluators, self.keep = evaluators, keep or folder is not None
        self.dealer_count = dealers
        self.folder = Path(folder) if folder else Path(tempfile.mkdtemp(prefix="poker-suite-"))
        self.dealer_args, self.lobby_args = list(dealer_args), list(lobby_args)
        self.evaluator_args = list(evaluator_args)
        self.operator_token = secrets.token_hex(16)
        self.service_token = secrets.token_hex(16)
        self.auditor_token = secrets.token_hex(16)
        self.processes: list[ServiceProcess] = []
        self.evaluator_addresses: list[str] = []
        self.dealer = self.lobby = ""
        self.dealers: list[str] = []
        self._previous: Any = None

    def start(self) -> LocalSuite:
        self.folder.mkdir(parents=True, exist_ok=True)
        if threading.current_thread() is threading.main_thread():
            # SIGTERM would end Python without unwinding: make it unwind, so `stop` runs
            self._previous = signal.signal(signal.SIGTERM, _exit_on_sigterm)
        try:
            for i in range(self.evaluators):
                proc = self._start("evaluator", self._evaluator_args(i), f"evaluator-{i}")
                self.evaluator_addresses.append(proc.address)
            evaluators = [a for address in self.evaluator_addresses
                          for a in ("--evaluator", address)]
            for i in range(self.dealer_count):
                db = "dealer.sqlite" if i == 0 else f"dealer-{i}.sqlite"
                self.dealers.append(self.start_dealer(evaluators + self.dealer_args, db).address)
            self.dealer = self.dealers[0]
            self.lobby = self._start("lobby", [
                "--db", str(self.folder / "lobby.sqlite"), "--operator-token",
                self.operator_token, "--service-token", self.service_token,
                *(a for d in self.dealers for a in ("--dealer", d)), *self.lobby_args],
                "lobby").address
        except BaseException:
            self.stop()
            raise
        return self

    def _evaluator_args(self, index: int) -> list[str]:
        """`evaluator_args`: one list for every evaluator, or one list per evaluator."""
        given = self.evaluator_args
        if given and not isinstance(given[0], str):
            return list(given[index])
        return [str(a) for a in given]

    def start_dealer(self, args: Sequence[str], db: str = "dealer.sqlite") -> ServiceProcess:
        """(Re)starts a dealer on its database; `args` may pin `--port`."""
        return self._start("dealer", [
            "--db", str(self.folder / db), "--service-token", self.service_token,
            "--auditor-token", self.auditor_token, *args], db.removesuffix(".sqlite"))

    def _start(self, name: str, args: list[str], label: str) -> ServiceProcess:
        proc = start_service(name, args, log_path=self.folder / f"{label}.log")
        self.processes.append(proc)
        return proc

    def process(self, name: str) -> ServiceProcess:
        """The last started process of a service ("evaluator", "dealer", "lobby")."""
        return [p for p in self.processes if p.name == name][-1]

    def stop(self) -> None:
        """Stops every process this suite started, the last started first."""
        for proc in reversed(self.processes):
            proc.stop(timeout=5)
        self.processes.clear()
        if self._previous is not None:
            signal.signal(signal.SIGTERM, self._previous)
            self._previous = None
        if not self.keep:
            shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> LocalSuite:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
