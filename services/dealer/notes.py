"""FollowTables: the table-level events of every table a dealer serves, on one stream.

The lobby needs to know when seats are taken and freed, when a player busts, when a
hand ends, when a sit-out ends, and when a table closes; not the play of the hands.
Instead of asking every table (GetTable) every few seconds, it follows one stream
per dealer: each committed event of those kinds becomes a `TableNote`, sent to
every follower at once. An idle table sends nothing, so the lobby's work grows
with what happens, not with the number of tables.

A follower names the last sequence it has of each table (`TableCursor`): the notes
after it are read back from the table's log first (memory, else the store), then
it is live. Notes of a table follow its sequence order; tables interleave.

`notes_of` maps an event to its notes (one place, for the dealer and the tests).
Other followers of table-level events (the R34 sit-out limit) subscribe on the
lobby's side (services.lobby.follower.TableFollower.subscribe), not here.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable, Sequence
from typing import Any

from poker.errors import Category
from poker.v1 import dealer_pb2 as pb
from poker.vocab import events as hand_events
from poker.vocab import table_events as ev
from services.dealer.errors import DealerError
from services.dealer.table.state import kinds

#: Notes a follower may have waiting before it is cut off (it reconnects and catches up
#: from its cursors: nothing is lost, the dealer's memory stays bounded).
MAX_BACKLOG = 100_000
#: How long a follower's stream waits after a note for more before it sends: notes are
#: not urgent (the lobby acts on them in its passes), and under load one message then
#: carries many tables' hands instead of one message a hand.
NOTE_LINGER_S = 0.05


class FollowerBehind(DealerError):
    """A follower too far behind: its stream ends, it reconnects from its cursors."""

    category = Category.RESOURCE_EXHAUSTED


def notes_of(table_id: str, sequence: int, event: Any, seats: dict[int, Any],
             hands_played: int) -> list[pb.TableNote]:
    """The notes one stored event makes (none for the play of a hand). `seats`: the
    table's seats once the event is folded (who sits where), for HandEnded's busts."""
    kind = type(event)
    simple = _SIMPLE.get(kind)
    if simple is not None:
        note, fields = simple
        return [pb.TableNote(table_id=table_id, sequence=sequence, kind=note,
                             **{name: getattr(event, name) for name in fields})]
    if kind is hand_events.HandEnded:
        notes = [pb.TableNote(table_id=table_id, sequence=sequence,
                              kind=pb.TABLE_NOTE_KIND_HAND_ENDED, hands_played=hands_played)]
        for seat, stack in event.stacks:
            if stack == 0:
                here = seats.get(seat)
                notes.append(pb.TableNote(
                    table_id=table_id, sequence=sequence, kind=pb.TABLE_NOTE_KIND_BUSTED,
                    seat=seat, player_id=getattr(here, "player_id", ""),
                    hands_played=hands_played))
        return notes
    return []


#: The events that make one note each: its kind, and the event's fields it carries.
_SIMPLE: dict[type, tuple[pb.TableNoteKind, tuple[str, ...]]] = {
    ev.PlayerSeated: (pb.TABLE_NOTE_KIND_SEATED, ("seat", "player_id", "stack")),
    ev.PlayerUnseated: (pb.TABLE_NOTE_KIND_SEAT_FREED, ("seat", "player_id", "stack")),
    ev.ChipsAdded: (pb.TABLE_NOTE_KIND_CHIPS_ADDED, ("seat", "stack")),
    ev.PlayerSatIn: (pb.TABLE_NOTE_KIND_SIT_OUT_ENDED, ("seat",)),
    ev.PlayerSatOut: (pb.TABLE_NOTE_KIND_SAT_OUT, ("seat",)),
    ev.TableClosed: (pb.TABLE_NOTE_KIND_TABLE_CLOSED, ()),
}
#: Every event kind that makes notes: a write with none of them makes none (looked at
#: once a write, in C, by the table's listener).
NOTED = frozenset({*_SIMPLE, hand_events.HandEnded})


class Follower:
    """One FollowTables stream's queue of notes."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[list[pb.TableNote]] = asyncio.Queue()
        self.waiting = 0
        self.overflowed = False
        #: Where the follower stood at each table it named (a table adopted later is
        #: read back from there: the follower drops what it has already).
        self.cursors: dict[str, int] = {}

    def put(self, notes: list[pb.TableNote]) -> None:
        if self.overflowed:
            return
        self.waiting += len(notes)
        if self.waiting > MAX_BACKLOG:
            self.overflowed = True
        self.queue.put_nowait(notes)


class Notes:
    """Every table's notes, to every follower (call on the loop)."""

    def __init__(self) -> None:
        self.followers: set[Follower] = set()
        self.sent = 0

    def watch(self, table: Any) -> None:
        """Follows a table of this dealer (Dealer.on_table: created, restored, adopted)."""
        def on_commit(new: Sequence[Any], _called: object) -> None:
            if not self.followers or NOTED.isdisjoint(kinds(new)):
                return  # most writes: the play of a hand, looked at in C
            notes = [n for s in new for n in notes_of(
                table.table_id, s.sequence, s.event, table.seats, table.hands_played)]
            if notes:
                for follower in self.followers:
                    follower.put(notes)

        table.subscribe(on_commit)
        if any(table.table_id in f.cursors for f in self.followers):
            # Adopted from another dealer while followed: once its log is folded, what
            # happened there after the follower's cursor (the old dealer may have died
            # before sending it).
            asyncio.get_running_loop().call_soon(self._replay, table)

    def _replay(self, table: Any) -> None:
        for follower in self.followers:
            after = follower.cursors.get(table.table_id)
            if after is not None:
                notes = self.table_backlog(table, after)
                if notes:
                    follower.put(notes)

    @staticmethod
    def table_backlog(table: Any, after: int) -> list[pb.TableNote]:
        """A table's notes after `after`, from its log (memory, else the store)."""
        if after >= table.last_sequence:
            return []
        recent = table.recent_after(after, 1 << 30)
        if recent is None:
            from services.dealer import codec

            stored = [(r.sequence, codec.loads(r.payload))
                      for r in table.store.events(table.table_id, after)]
        else:
            stored = [(s.sequence, s.event) for s in recent]
        return [n for sequence, event in stored for n in notes_of(
            table.table_id, sequence, event, table.seats, table.hands_played)]

    def backlog(self, dealer: Any, cursors: Iterable[pb.TableCursor]) -> list[pb.TableNote]:
        """The notes after each cursor of a table this dealer serves."""
        notes: list[pb.TableNote] = []
        for cursor in cursors:
            table = dealer.tables.get(cursor.table_id)
            if table is not None:
                notes.extend(self.table_backlog(table, cursor.sequence))
        return notes

    async def follow(self, dealer: Any,
                     cursors: Sequence[pb.TableCursor]) -> AsyncIterator[pb.FollowTablesResponse]:
        """The stream: the backlog after `cursors` with the tables served, then live."""
        follower = Follower()
        follower.cursors = {c.table_id: c.sequence for c in cursors}
        self.followers.add(follower)  # before the backlog: nothing falls in between
        try:
            first = pb.FollowTablesResponse(notes=self.backlog(dealer, cursors),
                                            tables=sorted(dealer.tables))
            self.sent += len(first.notes)
            yield first
            while True:
                notes = await follower.queue.get()
                await asyncio.sleep(NOTE_LINGER_S)
                while not follower.queue.empty():  # what is ready goes in one message
                    notes = notes + follower.queue.get_nowait()
                if follower.overflowed:
                    raise FollowerBehind(f"the follower fell behind by more than {MAX_BACKLOG}"
                                         " notes: reconnect from your cursors")
                follower.waiting = 0
                self.sent += len(notes)
                yield pb.FollowTablesResponse(notes=notes)
        finally:
            self.followers.discard(follower)
