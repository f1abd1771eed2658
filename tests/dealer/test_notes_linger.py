"""FollowTables (services.dealer.notes): the notes of several tables' hands that end
within NOTE_LINGER_S of each other go to a follower in one message, not one each."""

from __future__ import annotations

import asyncio
from typing import Any

from poker.v1 import dealer_pb2 as pb
from services.dealer import notes as follow


class _NoTables:
    tables: dict[str, Any] = {}


def _ended(table_id: str, sequence: int) -> list[pb.TableNote]:
    return [pb.TableNote(table_id=table_id, sequence=sequence,
                         kind=pb.TABLE_NOTE_KIND_HAND_ENDED, hands_played=1)]


def test_notes_within_the_linger_are_one_message_and_later_ones_the_next() -> None:
    async def run() -> None:
        notes = follow.Notes()
        stream = notes.follow(_NoTables(), [])
        first = await anext(stream)  # the backlog: nothing yet
        assert list(first.notes) == []
        (follower,) = notes.followers
        loop = asyncio.get_running_loop()
        follower.put(_ended("a", 5))
        loop.call_later(follow.NOTE_LINGER_S / 5, follower.put, _ended("b", 9))
        started = loop.time()
        message = await anext(stream)
        assert [(n.table_id, n.sequence) for n in message.notes] == [("a", 5), ("b", 9)]
        assert loop.time() - started >= follow.NOTE_LINGER_S * 0.9
        follower.put(_ended("c", 3))
        message = await anext(stream)
        assert [(n.table_id, n.sequence) for n in message.notes] == [("c", 3)]
        assert notes.sent == 3
        await stream.aclose()  # type: ignore[attr-defined]
        assert not notes.followers

    asyncio.run(run())
