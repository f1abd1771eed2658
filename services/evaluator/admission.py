"""Admission control and fair turns for the evaluator's work.

Heavy work (equity, batches) is a generator that yields between slices of a few
milliseconds. Each slice runs in a *turn*: at most `slots` slices compute at once,
and calls waiting for a turn get one in the order they asked (a FIFO semaphore), so
calls in flight take turns slice by slice (round robin) and a small call waits for
a slice, not for a big call to end. Between slices the call is asked whether it is
still wanted (not cancelled, within its deadline): if not, its work stops there.

Calls above `light` evaluations are *heavy*: at most `max_heavy` are in flight
(computing or waiting for a turn); past it a new heavy call is refused at once
(`Overloaded`, RESOURCE_EXHAUSTED) rather than queued for minutes. A call's slices
may take at most `max_cpu_seconds` of CPU together (`TooMuchWork`).

>>> scheduler = Scheduler(slots=1, max_heavy=1)
>>> def work():
...     total = 0
...     for i in range(3):
...         total += i
...         yield
...     return total
>>> with scheduler.call(lambda: True) as call:
...     call.run(work())
3
"""

from __future__ import annotations

import collections
import threading
import time
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from typing import TypeVar

from services.evaluator.errors import Abandoned, Overloaded, TooMuchWork

T = TypeVar("T")

#: How often a call waiting for a turn checks that it is still wanted.
POLL_S = 0.05


class Turns:
    """A FIFO semaphore: `slots` holders at once; waiters are served in arrival order."""

    def __init__(self, slots: int) -> None:
        if slots < 1:
            raise ValueError("Turns needs at least one slot")
        self._lock = threading.Lock()
        self._free = slots
        self._waiting: collections.deque[threading.Event] = collections.deque()

    def acquire(self, wanted: Callable[[], bool] = lambda: True) -> bool:
        """Waits for a turn; False (and no turn) once `wanted()` is False while waiting."""
        with self._lock:
            if self._free and not self._waiting:
                self._free -= 1
                return True
            mine = threading.Event()
            self._waiting.append(mine)
        while not mine.wait(POLL_S):
            if wanted():
                continue
            with self._lock:
                if not mine.is_set():
                    self._waiting.remove(mine)
                    return False
            self.release()  # handed a turn just as we gave up: pass it on
            return False
        return True

    def release(self) -> None:
        """Ends a turn: the longest waiter gets it, else it is free."""
        with self._lock:
            if self._waiting:
                self._waiting.popleft().set()  # handed over directly: no one jumps the queue
            else:
                self._free += 1

    @property
    def waiting(self) -> int:
        return len(self._waiting)


class Scheduler:
    """Turns shared by every call of a server, and the count of heavy calls in flight."""

    def __init__(self, slots: int = 2, max_heavy: int = 4, light: int = 1_000_000,
                 max_cpu_seconds: float = 10.0) -> None:
        self.turns = Turns(slots)
        self.max_heavy = max_heavy
        self.light = light
        self.max_cpu_seconds = max_cpu_seconds
        self._lock = threading.Lock()
        self.heavy = 0

    @contextmanager
    def call(self, wanted: Callable[[], bool], rpc: str = "call") -> Iterator[Call]:
        """One call's share of the scheduler; its heavy place is given back at the end."""
        call = Call(self, wanted, rpc)
        try:
            yield call
        finally:
            if call.is_heavy:
                with self._lock:
                    self.heavy -= 1

    def _admit(self) -> None:
        with self._lock:
            if self.heavy >= self.max_heavy:
                raise Overloaded(
                    f"the evaluator is busy: {self.heavy} big requests in flight, the most it "
                    f"takes at once; retry in a few seconds (with backoff), ask another "
                    f"replica, or ask for less work (at most {self.light:,} evaluations "
                    "is never refused for this)")
            self.heavy += 1


class Call:
    """Runs one call's work in turns, stopping it when the call is no longer wanted."""

    def __init__(self, scheduler: Scheduler, wanted: Callable[[], bool], rpc: str) -> None:
        self._scheduler = scheduler
        self._wanted = wanted
        self.rpc = rpc
        self.is_heavy = False
        self.cpu_seconds = 0.0
        self.slices = 0

    def admit(self, evaluations: int) -> None:
        """Counts this call as heavy when its work is above light; Overloaded when full."""
        if self.is_heavy or evaluations <= self._scheduler.light:
            return
        self._scheduler._admit()
        self.is_heavy = True

    def check(self) -> None:
        """Abandoned if the call was cancelled or its deadline passed."""
        if not self._wanted():
            raise self._abandoned()

    def _abandoned(self) -> Abandoned:
        return Abandoned(f"{self.rpc}: the call was cancelled or its deadline passed; "
                         f"work stopped after {self.slices} slices")

    def turn(self, step: Callable[[], T]) -> T:
        """Runs `step` in one turn (after checking the call is still wanted)."""
        self.check()
        if not self._scheduler.turns.acquire(self._wanted):
            raise self._abandoned()
        started = time.thread_time()
        try:
            return step()
        finally:
            self.slices += 1
            self.cpu_seconds += time.thread_time() - started
            self._scheduler.turns.release()

    def run(self, work: Generator[object, None, T]) -> T:
        """Drives `work` one slice a turn to its return value; closes it when stopped."""
        done: list[T] = []

        def step() -> bool:
            try:
                next(work)
            except StopIteration as stop:
                done.append(stop.value)
                return False
            return True

        try:
            while self.turn(step):
                if self.cpu_seconds > self._scheduler.max_cpu_seconds:
                    raise TooMuchWork(
                        f"{self.rpc}: stopped after {self.cpu_seconds:.1f} s of computing, "
                        f"more than the {self._scheduler.max_cpu_seconds:g} s one call may "
                        "take; ask for fewer trials, narrower ranges or fewer players")
        finally:
            work.close()
        return done[0]
