"""Admission control in process: fair turns, stopping unwanted work, the bound on big calls."""

from __future__ import annotations

import inspect
import threading
import time
from collections.abc import Generator

import pytest

from poker.cards import parse_cards as p
from services.evaluator import equity
from services.evaluator.admission import Scheduler, Turns
from services.evaluator.errors import (
    Abandoned,
    InvalidRequest,
    LimitExceeded,
    Overloaded,
    TooMuchWork,
)


def slices(count: int, log: list[str], name: str, seconds: float = 0.0
           ) -> Generator[None, None, str]:
    for _ in range(count):
        log.append(name)
        if seconds:
            time.sleep(seconds)
        yield
    return name


def test_turns_are_first_come_first_served() -> None:
    turns = Turns(1)
    assert turns.acquire()
    order: list[int] = []
    threads = []

    def take(i: int) -> None:
        turns.acquire()
        order.append(i)
        turns.release()

    for i in range(4):
        thread = threading.Thread(target=take, args=(i,))
        thread.start()
        threads.append(thread)
        deadline = time.monotonic() + 5
        while turns.waiting < i + 1 and time.monotonic() < deadline:
            time.sleep(0.001)
    turns.release()
    for thread in threads:
        thread.join(5)
    assert order == [0, 1, 2, 3]


def test_a_waiter_that_is_no_longer_wanted_leaves_the_queue_without_a_turn() -> None:
    turns = Turns(1)
    assert turns.acquire()
    wanted = threading.Event()
    wanted.set()
    result: list[bool] = []
    thread = threading.Thread(target=lambda: result.append(turns.acquire(wanted.is_set)))
    thread.start()
    time.sleep(0.1)
    wanted.clear()
    thread.join(5)
    assert result == [False] and turns.waiting == 0
    turns.release()
    assert turns.acquire(lambda: False)  # the turn is free again: taken at once


def test_calls_in_flight_take_turns_slice_by_slice() -> None:
    scheduler = Scheduler(slots=1, max_heavy=4)
    log: list[str] = []
    results: list[str] = []

    def run(name: str) -> None:
        with scheduler.call(lambda: True, name) as call:
            results.append(call.run(slices(20, log, name, 0.002)))

    threads = [threading.Thread(target=run, args=(name,)) for name in "ab"]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert sorted(results) == ["a", "b"]
    # Round robin: neither ran all its slices before the other began.
    first_b, last_a = log.index("b"), len(log) - 1 - log[::-1].index("a")
    assert first_b < last_a and log.index("a") < len(log) - 1 - log[::-1].index("b")


def test_work_stops_at_the_next_slice_once_the_call_is_not_wanted() -> None:
    scheduler = Scheduler(slots=1)
    log: list[str] = []
    wanted = threading.Event()
    wanted.set()
    work = slices(1000, log, "big", 0.001)
    threading.Timer(0.05, wanted.clear).start()
    with (pytest.raises(Abandoned, match="cancelled or its deadline passed"),
          scheduler.call(wanted.is_set, "Equity") as call):
        call.run(work)
    assert 0 < len(log) < 1000
    assert inspect.getgeneratorstate(work) == inspect.GEN_CLOSED  # nothing left to resume


def test_a_big_call_past_the_bound_is_overloaded_and_small_ones_still_pass() -> None:
    scheduler = Scheduler(slots=1, max_heavy=1, light=100)
    with scheduler.call(lambda: True) as big:
        big.admit(1000)
        with scheduler.call(lambda: True) as second, pytest.raises(Overloaded, match="retry"):
            second.admit(1000)
        with scheduler.call(lambda: True) as small:
            small.admit(100)
            assert small.run(slices(2, [], "small")) == "small"
    assert scheduler.heavy == 0
    with scheduler.call(lambda: True) as again:
        again.admit(1000)  # the place was given back


def test_a_call_past_its_cpu_allowance_is_stopped() -> None:
    scheduler = Scheduler(slots=1, max_cpu_seconds=0.05)

    def spin() -> Generator[None, None, None]:
        while True:
            end = time.thread_time() + 0.01
            while time.thread_time() < end:
                pass
            yield

    with (pytest.raises(TooMuchWork, match="more than the 0.05 s one call may take"),
          scheduler.call(lambda: True, "Equity") as call):
        call.run(spin())


def test_equity_slices_are_small_and_answer_as_the_whole() -> None:
    question = [p("AhKh"), p("QsQd"), p("JcTc")]
    work = equity.plan(question, method=equity.Method.EXACT).steps()
    count = 0
    while True:
        try:
            next(work)
        except StopIteration as done:
            result = done.value
            break
        count += 1
    assert count > 4  # the 1,370,754 deals are not one piece
    assert result == equity.equity(question, method=equity.Method.EXACT)
    sampled = equity.plan(["22+, A2s+, K9o+"] * 10, method=equity.Method.MONTE_CARLO,
                          trials=100_000, seed=4)
    assert sum(1 for _ in sampled.steps()) > 10


def test_method_out_of_range_is_invalid_request() -> None:
    with pytest.raises(InvalidRequest, match="method 99 is not an EquityMethod"):
        equity.plan([p("AhKh"), p("QsQd")], method=99)


def test_monte_carlo_evaluations_are_capped_by_players() -> None:
    limits = equity.Limits(max_monte_carlo_evaluations=100_000)
    with pytest.raises(LimitExceeded, match="20,000 trials x 10 players is 200,000 hand "
                                            "evaluations; the limit is 100,000"):
        equity.plan(["22+"] * 10, method=equity.Method.MONTE_CARLO, trials=20_000,
                    limits=limits)
    default = equity.plan(["22+"] * 10, method=equity.Method.MONTE_CARLO, limits=limits)
    assert default.trials == 10_000  # the default shrinks to fit: asking for none never fails
