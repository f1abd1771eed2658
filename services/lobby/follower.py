"""The lobby follows its dealers' table-level events (FollowTables) instead of polling.

R30 once asked every open table with players how its seats stood (GetTable), every
BUSTED_PASS_S seconds: a lobby of 1,000 idle tables made 500 calls a second to learn
nothing. A `TableFollower` holds one FollowTables stream per dealer (a thread each),
resumes it after its last sequence at each table (`cursors`, in memory: after a
lobby restart the first pass asks every table once), and hands every note to its
subscribers. `BustWatch` is R30's: it remembers the seats whose player busted and
the R30 pass looks at those tables only (one GetTable each, to see the stack, the
hand and the player now), so an idle room costs the lobby nothing.

Other followers plug in the same way: `follower.subscribe(handler)`, where
`handler(note)` gets every `DealerNote` in each table's order (e.g. the R34
sit-out limit, on SAT_OUT / SIT_OUT_ENDED notes). A handler runs on the stream's
thread and must be quick: it records what the lobby's loops then act on.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import grpc

from poker.log import get_logger
from poker.tls import upstream_channel
from poker.v1 import dealer_pb2 as pb
from poker.v1 import dealer_pb2_grpc

log = get_logger(__name__)

#: Pauses between reconnections to a dealer's stream (seconds, doubling up to the last).
RETRY_S = (0.2, 0.5, 1.0, 2.0)


@dataclass(frozen=True, slots=True)
class DealerNote:
    """One table-level event (pb.TableNote), as plain values: `kind` is the enum's name
    without its prefix ("BUSTED", "SEAT_FREED", "HAND_ENDED", ...)."""

    table_id: str
    sequence: int
    kind: str
    seat: int
    player_id: str
    stack: int
    hands_played: int


Handler = Callable[[DealerNote], None]


def _note(n: pb.TableNote) -> DealerNote:
    name = pb.TableNoteKind.Name(n.kind).removeprefix("TABLE_NOTE_KIND_")
    return DealerNote(n.table_id, n.sequence, name, n.seat, n.player_id, n.stack,
                      n.hands_played)


class TableFollower:
    """One FollowTables stream per dealer address, on threads of their own."""

    def __init__(self, addresses: Sequence[str], service_token: str,
                 credentials: grpc.ChannelCredentials | None = None) -> None:
        self.addresses = list(addresses)
        self._metadata = (("authorization", f"Bearer {service_token}"),)
        self._credentials = credentials
        self._handlers: list[Handler] = []
        self._lock = threading.Lock()
        #: Each table's last sequence seen (any dealer: a moved table goes on where it was).
        self.cursors: dict[str, int] = {}
        self.notes = 0
        self.connected: set[str] = set()
        #: Streams (re)connected so far. A table that has no cursor yet is followed "from
        #: now on" by a new stream: what it did while its stream was down is not sent, so
        #: a pass limited to the noted tables needs a full pass after each connection.
        self.connections = 0
        self._stop = threading.Event()
        self._calls: dict[str, grpc.Future] = {}
        self._threads: list[threading.Thread] = []

    def subscribe(self, handler: Handler) -> None:
        self._handlers.append(handler)

    def start(self) -> None:
        for address in self.addresses:
            thread = threading.Thread(target=self._run, args=(address,),
                                      name=f"lobby-follow-{address}", daemon=True)
            thread.start()
            self._threads.append(thread)

    def stop(self) -> None:
        self._stop.set()
        for call in list(self._calls.values()):
            call.cancel()
        for thread in self._threads:
            thread.join(timeout=5)

    def _run(self, address: str) -> None:
        failures = 0
        channel = upstream_channel(address, self._credentials)
        stub = dealer_pb2_grpc.DealerServiceStub(channel)  # type: ignore[no-untyped-call]
        try:
            while not self._stop.is_set():
                with self._lock:
                    after = [pb.TableCursor(table_id=t, sequence=s)
                             for t, s in self.cursors.items()]
                call = stub.FollowTables(pb.FollowTablesRequest(after=after),
                                         metadata=self._metadata)
                self._calls[address] = call
                try:
                    for response in call:
                        failures = 0
                        if address not in self.connected:  # this call's first response
                            with self._lock:
                                self.connections += 1
                            self.connected.add(address)
                        for note in response.notes:
                            self._deliver(_note(note))
                except grpc.RpcError as err:
                    if self._stop.is_set():
                        return
                    log.info("follow_tables_broken", dealer=address, code=err.code().name)
                finally:
                    self.connected.discard(address)
                self._stop.wait(RETRY_S[min(failures, len(RETRY_S) - 1)])
                failures += 1
        finally:
            channel.close()

    def live_since(self, mark: int) -> bool:
        """Every stream is up and none (re)connected since `mark` (`connections` read
        before a pass that looked at every table): a pass limited to the tables the notes
        name misses nothing."""
        return self.connections == mark and self.connected.issuperset(self.addresses)

    def _deliver(self, note: DealerNote) -> None:
        with self._lock:
            if note.sequence < self.cursors.get(note.table_id, 0):
                return  # seen already (a resumed stream's first notes)
            self.cursors[note.table_id] = max(note.sequence, self.cursors.get(note.table_id, 0))
        self.notes += 1
        for handler in self._handlers:
            try:
                handler(note)
            except Exception:  # noqa: BLE001 - one handler must not stop the stream
                log.exception("table_note_handler_failed", kind=note.kind)


class BustWatch:
    """R30's follower: the tables where a seat's player busted and has not rebought,
    left or closed since (what the R30 pass looks at)."""

    def __init__(self) -> None:
        self._seats: set[tuple[str, int]] = set()
        self._lock = threading.Lock()

    def __call__(self, note: DealerNote) -> None:
        key = (note.table_id, note.seat)
        with self._lock:
            if note.kind == "BUSTED":
                self._seats.add(key)
            elif note.kind in ("CHIPS_ADDED", "SEAT_FREED"):
                self._seats.discard(key)
            elif note.kind == "TABLE_CLOSED":
                self._seats = {s for s in self._seats if s[0] != note.table_id}

    def tables(self) -> set[str]:
        with self._lock:
            return {t for t, _ in self._seats}


class FreedWatch:
    """R34's follower: the tables where a seat was freed since the last R34 pass (the
    dealer may have taken a seat sat out past the limit off), each with the sequence of
    its earliest such note: that pass reads the table from there, not from its mark."""

    def __init__(self) -> None:
        self._tables: dict[str, int] = {}
        self._lock = threading.Lock()

    def __call__(self, note: DealerNote) -> None:
        if note.kind == "SEAT_FREED":
            self.again({note.table_id: note.sequence})

    def take(self) -> dict[str, int]:
        """The tables noted since the last call, with their earliest note (and forgets them)."""
        with self._lock:
            taken, self._tables = self._tables, {}
            return taken

    def again(self, tables: Mapping[str, int]) -> None:
        """Tables a pass must read (again), each from the event at the sequence given or
        earlier (0: from the table's mark)."""
        with self._lock:
            for table_id, sequence in tables.items():
                known = self._tables.get(table_id)
                if known is None or sequence < known:
                    self._tables[table_id] = sequence
