"""poker/journal.py on its own: the fingerprint, the decorator (a repeat, a refusal, other fields,
a copy that raced, an older version's entry), pruning on the loop, and the flags."""

from __future__ import annotations

import argparse
import asyncio
import json

import pytest

from poker import journal
from poker.journal import (
    Entry,
    Key,
    MemoryJournal,
    Pending,
    Raced,
    Refused,
    Retention,
    Reused,
    Rules,
    journaled,
    legacy_fingerprint,
)
from poker.v1 import dealer_pb2 as pb


class Refusal(Exception):
    pass


RULES = Rules(errors=(Refusal,), code_of=lambda err: "NOT_FOUND")


class Counter:
    def __init__(self, store: MemoryJournal) -> None:
        self.journal, self.calls = store, 0

    @journaled("add", RULES, key=lambda a: Key("add", a["who"], a["request_id"]) if a[
        "request_id"] else None, fields=lambda a: {"n": a["n"]}, caller=lambda a: a["who"],
        legacy=lambda a: (Key("add", "old", a["request_id"]), {"n": a["n"]}))
    def add(self, n: int, who: str, request_id: str, entry: Pending | None = None) -> int:
        self.calls += 1
        if n < 0:
            raise Refusal(f"no {n}")
        if entry is not None:
            entry.record(self.calls)
        return self.calls


def test_a_fingerprint_covers_the_call_the_caller_and_every_field() -> None:
    request = pb.AddChipsRequest(table_id="t", seat=1, amount=5, idempotency_key="k")
    same = journal.fingerprint("AddChips", "", request)
    assert same == journal.fingerprint("AddChips", "", pb.AddChipsRequest(
        idempotency_key="k", amount=5, seat=1, table_id="t"))
    assert same != journal.fingerprint("AddChips", "lobby-2", request)
    assert same != journal.fingerprint("SetLevel", "", request)
    request.amount = 6
    assert same != journal.fingerprint("AddChips", "", request)
    assert journal.fingerprint("c", "", {"a": 1, "b": 2}) == journal.fingerprint(
        "c", "", {"b": 2, "a": 1})


def test_the_decorator_answers_once_refusals_too_and_refuses_other_fields() -> None:
    counter = Counter(MemoryJournal())
    assert counter.add(1, "ann", "r1") == counter.add(1, "ann", "r1") == 1
    assert counter.add(1, "bob", "r1") == 2  # another caller's id
    assert counter.add(1, "ann", "") == 3 and counter.add(1, "ann", "") == 4  # no id: each time
    with pytest.raises(Refusal):
        counter.add(-1, "ann", "r2")
    with pytest.raises(Refused, match="no -1") as again:
        counter.add(-1, "ann", "r2")
    assert again.value.code == "NOT_FOUND" and counter.calls == 5
    with pytest.raises(Reused, match="'r1'.*n 1"):
        counter.add(2, "ann", "r1")


def test_a_copy_that_raced_gets_the_answer_of_the_one_that_won() -> None:
    store = MemoryJournal()
    won = Entry(journal.fingerprint("add", "ann", {"n": 1}), "n 1", json.dumps(7), 0)

    def racing(self: Counter, n: int, who: str, request_id: str,
               entry: Pending | None = None) -> int:
        store.put(Key("add", "ann", "r1"), won)  # the other copy commits first
        assert entry is not None
        entry.claim()
        raise AssertionError("claim raises Raced")

    other = MemoryJournal()
    other.put(Key("x", "", "y"), won)
    with pytest.raises(Raced):
        Pending(other, Key("x", "", "y"), "", "", lambda a: a).claim()
    counter_type = type("Racing", (Counter,), {"add": journaled(
        "add", RULES, key=lambda a: Key("add", a["who"], a["request_id"]),
        fields=lambda a: {"n": a["n"]}, caller=lambda a: a["who"])(racing)})
    assert counter_type(store).add(1, "ann", "r1") == 7


def test_an_older_versions_entry_is_compared_by_the_fields_it_kept() -> None:
    store = MemoryJournal()
    store.put(Key("add", "old", "r1"), Entry(legacy_fingerprint({"n": 1}), "n 1", "41", 0))
    counter = Counter(store)
    assert counter.add(1, "ann", "r1") == 41
    with pytest.raises(Reused):
        counter.add(2, "ann", "r1")


def test_pruning_by_age_and_count_and_on_the_loop() -> None:
    now = [0.0]
    store = MemoryJournal(Retention(1, 2, lambda: now[0]))
    for n in range(3):
        now[0] += 1
        store.put(Key("c", "", str(n)), Entry("", "", "1", store.retention.now_ms()))
    assert store.prune(limit=10) == 1 and sorted(k.request_id for k in store.entries) == ["1", "2"]
    now[0] += 3601
    store.put(Key("c", "", "3"), Entry("", "", "1", store.retention.now_ms()))

    async def one_round() -> None:
        task = asyncio.create_task(journal.prune_on_loop(store, every_s=60))
        await asyncio.sleep(0.05)
        task.cancel()

    asyncio.run(one_round())
    assert [k.request_id for k in store.entries] == ["3"]


def test_the_retention_flags() -> None:
    parser = argparse.ArgumentParser()
    journal.add_arguments(parser, "POKER_TEST")
    default = journal.retention_from_args(parser.parse_args([]))
    assert (default.hours, default.max_entries) == (24.0, 1_000_000)
    set_ = journal.retention_from_args(parser.parse_args(
        ["--journal-retention-hours", "72", "--journal-max-entries", "10"]))
    assert (set_.hours, set_.max_entries) == (72.0, 10)
    with pytest.raises(ValueError, match="above 0"):
        journal.retention_from_args(parser.parse_args(["--journal-retention-hours", "0"]))
