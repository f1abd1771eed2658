"""The store's group commit (Store.group): a group's first write takes no savepoint (most
groups hold one decision: two statements fewer each), and a failed write still undoes
itself only, whether it came first in its group or after others."""

from __future__ import annotations

from pathlib import Path

import pytest

from services.dealer.store import Store


def _rows(first: int, count: int = 2) -> list[tuple[int, str, int, bytes]]:
    return [(first + i, "t-1", 1_000, b"event") for i in range(count)]


def _sequences(store: Store) -> list[int]:
    return [r.sequence for r in store.events("t")]


def _failing() -> None:
    raise RuntimeError("the write's metadata fails")


def test_a_groups_first_write_takes_no_savepoint_and_the_next_ones_do(tmp_path: Path) -> None:
    store = Store(tmp_path / "d.sqlite")
    said: list[str] = []
    store._db.set_trace_callback(said.append)
    with store.group():
        store.write("t", _rows(1))
        first = list(said)
        store.write("t", _rows(3))
    store._db.set_trace_callback(None)
    assert not any("SAVEPOINT" in s for s in first)
    assert [s for s in said[len(first):] if "SAVEPOINT" in s or "RELEASE" in s] == [
        "SAVEPOINT write", "RELEASE write"]
    assert _sequences(store) == [1, 2, 3, 4]
    store.close()


def test_a_failed_first_write_undoes_itself_only_and_the_group_goes_on(tmp_path: Path) -> None:
    store = Store(tmp_path / "d.sqlite")
    commits = store._commits
    with store.group():
        with pytest.raises(RuntimeError):
            store.write("t", _rows(1), also=_failing)
        store.write("t", _rows(1))  # the same sequences: nothing of the failed one stands
        store.write("t", _rows(3))
    assert _sequences(store) == [1, 2, 3, 4]
    assert store._commits == commits + 1  # still one commit for the group
    store.close()


def test_a_failed_later_write_leaves_the_groups_earlier_writes(tmp_path: Path) -> None:
    store = Store(tmp_path / "d.sqlite")
    with store.group():
        store.write("t", _rows(1))
        with pytest.raises(RuntimeError):
            store.write("t", _rows(3), also=_failing)
        store.write("t", _rows(3, 1))
    assert _sequences(store) == [1, 2, 3]
    store.close()


def test_a_write_after_other_statements_of_a_group_takes_a_savepoint(tmp_path: Path) -> None:
    """Whatever else the group wrote (a batch inside it) is kept when a write fails."""
    store = Store(tmp_path / "d.sqlite")
    with store.group():
        store.create_table("t", "{}", 1)
        with pytest.raises(RuntimeError):
            store.write("t", _rows(1), also=_failing)
    assert store.table_exists("t") and _sequences(store) == []
    store.close()
