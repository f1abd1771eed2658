"""What a table client does with what it receives, free of I/O (shared by sync and asyncio).

`Follower` takes a stream's raw events: drops the ones already seen (a resumed
stream may repeat), refuses holes (`StreamGap`), converts them, folds them into the
`TableTracker` and feeds the `FairDeckChecker`. `BotSession` decides, after each
batch, what a bot's seat must do: answer its turn (the same answer again after a
reconnect, so a retry is exact), sit in after a time-out, sit out before its last
hand, stop.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import grpc

from clients.accounts import LeaveResult
from clients.convert import event_from_proto
from clients.errors import ActionRefused, StreamGap
from clients.events import (
    DeckCommitted,
    DeckRevealed,
    Event,
    HandEnded,
    HandStarted,
    HandVoided,
    PlayerSatIn,
    PlayerSatOut,
    PlayerUnseated,
    TableClosed,
)
from clients.fairdeck import FairDeckChecker
from clients.models import Action, SitOutReason, TableView
from clients.seeds import SeedChain
from clients.tracker import TableTracker

__all__ = ["Bot", "BotSession", "Follower", "PlayResult", "Step", "Stop"]


#: What a session reads the table from: a TableView, or the TableTracker that builds one.
#: Given the tracker, the session builds the view only when it needs one (its seat must
#: decide, it winds down, a refusal, an `until`), so a driver of many seats does not build a
#: view for every seat after every response.
Table = TableView | TableTracker


def _view(table: Table) -> TableView:
    return table.view() if isinstance(table, TableTracker) else table


class Bot(Protocol):
    """A bot: one method, called with the table as the bot's seat sees it when it must act."""

    def act(self, view: TableView) -> Action: ...


class Follower:
    """Dedupes, checks and folds the events of one table stream."""

    def __init__(self, tracker: TableTracker, checker: FairDeckChecker | None,
                 after: int) -> None:
        self.tracker, self.checker, self.last = tracker, checker, after
        self.seeds: SeedChain | None = None  # R39: the seat's chain, fed what it reads
        if checker is not None and tracker.hand is not None:
            checker.expect(tracker.hand.hand_id, tracker.hand.commitment, tracker.snapshot)

    def accept(self, messages: Iterable[Any],
               convert: Callable[[Any], Event] = event_from_proto) -> list[Event]:
        """The new events among `messages` (poker.v1.TableEvent), in order; `convert` turns
        one message into its Event (a bot farm passes one that shares a table's events
        among its seats there)."""
        out: list[Event] = []
        apply, checker = self.tracker.apply, self.checker
        proves = checker.reads if checker is not None else frozenset()
        for message in messages:
            sequence = message.sequence
            if sequence <= self.last:
                continue  # already delivered before a reconnect
            if sequence != self.last + 1:
                raise StreamGap(f"event {sequence} follows {self.last}: "
                                f"events {self.last + 1}..{sequence - 1} are missing")
            event = convert(message)
            self.last = sequence
            apply(event)
            if checker is not None and type(event) in proves:  # most events prove nothing
                checker.feed(event)
            if self.seeds is not None and type(event) in SeedChain.reads:
                self.seeds.feed(event)
            out.append(event)
        return out


@dataclass
class PlayResult:
    """How a bot's session went."""

    hands: int = 0
    actions: int = 0
    refused: list[ActionRefused] = field(default_factory=list)
    reconnects: int = 0
    last_sequence: int = 0
    view: TableView | None = None
    stopped_because: str = ""
    #: Seconds from sending each decision to seeing its result.
    latencies: list[float] = field(default_factory=list)
    #: The lobby's answer to the leave of `play(leave=True)` (the stack cashed out).
    left: LeaveResult | None = None


@dataclass(frozen=True, slots=True)
class Stop:
    """When a bot stops: after `hands` of its own hands, after the table's hand number
    `until_hand`, after `seconds`, or when `until(view)` says so (checked after each batch).
    Before its last hand the seat sits out, so the table deals on without it.

    Whatever the stop, a bot that has played also stops when the table will not deal it
    again: no hand is on and every other seat sat out by choice (or is empty)."""

    hands: int | None = None
    until_hand: int | None = None
    seconds: float | None = None
    until: Callable[[TableView], bool] | None = None


@dataclass(frozen=True, slots=True)
class Step:
    """What a driver does after one response: unary `calls`, each (the client method's
    name, its arguments) such as ("sit_out_if_seated",), ("sit_out_if_seated", 60) or
    ("sit_in",), then stop (`stop` says why) or send `send` = (hand_id, action_number,
    action)."""

    calls: tuple[tuple[Any, ...], ...] = ()
    stop: str | None = None
    send: tuple[str, int, Action] | None = None


class BotSession:
    """The decisions of one bot at one seat, batch after batch.

    Stopping after some hands (or seconds) winds down: the seat sits out, keeps answering
    for any hand it is still dealt into (a SitOut can cross the deal of the next hand), and
    stops once it sits out, is in no hand, and every hand it played has its deck revealed.
    """

    def __init__(self, bot: Bot, seat: int, stop: Stop,
                 rebuy: Callable[[], bool] | None = None, method: str = "Play") -> None:
        self.bot, self.seat, self.stop = bot, seat, stop
        self.method = method  # the RPC whose results it reads, named in refusals
        self.rebuy = rebuy
        self.result = PlayResult()
        self.started = time.monotonic()
        self.answers: dict[tuple[str, int], Action] = {}
        self.sent_keys: set[tuple[str, int]] = set()
        self.sent_at: dict[int, float] = {}
        self.winding_down: str | None = None  # why the bot stops once it can
        self.unproven: set[str] = set()  # hands this seat played, deck not yet revealed
        # Other seats that sat out by choice (a seat R32 sat out after a time-out is
        # expected back): when every other seat is among them and no hand is on, the
        # table will not deal this seat another hand (None: not looked at the table yet).
        self.away: set[int] | None = None
        # For a `hands=` stop, the hand the dealer was asked to sit the seat out after
        # (SitOut after_hand), and whether that failed (the seat was not dealt that hand):
        # it then sits out as its last hand starts, as without asking.
        self.asked_after: int | None = None
        self.ahead_failed = False

    def step(self, events: list[Event], table: Table, result: Any = None) -> Step:
        """The driver's next moves after a response: its new `events`, the table after them
        (its view or its tracker), and its PlayActionResult (None when it has none)."""
        if result is not None:
            self.on_result(result.action_number, result.code, result.message, table,
                           getattr(result, "reason", ""), getattr(result, "metadata", None))
        calls: list[tuple[Any, ...]] = []
        for command, why in self.on_events(events, table):
            if command == "stop":
                return Step(tuple(calls), stop=str(why))
            calls.append((command,) if why is None else (command, why))
        if self.stop.until is not None and self.stop.until(_view(table)):
            return Step(tuple(calls), stop="until")
        send = self.decision(table)
        if send is None and not calls:
            return _IDLE  # the common case, once per seat and response: no new object
        return Step(tuple(calls), send=send)

    # ------------------------------------------------------------------ events

    def on_events(self, events: list[Event], table: Table) -> list[tuple[str, Any]]:
        """Commands after a batch: ("sit_out_if_seated", None or the hand to sit out
        after), ("sit_in", None), ("send_seed", None), ("stop", why)."""
        commands: list[tuple[str, Any]] = []
        if self.away is None:  # those sitting out already when the bot began
            self.away = {s.seat for s in _view(table).seats
                         if s.sitting_out and s.seat != self.seat}
            commands += self._sit_out_ahead()
        seats_changed = hand_ended = False
        for e in events:
            if type(e) not in _SESSION_EVENTS:
                continue  # most events (turns, actions, cards) change nothing here
            if type(e) in _SEAT_EVENTS and _seat_of(e) != self.seat:
                seats_changed = True
                self._note_away(e)
                continue
            if isinstance(e, HandStarted):
                if any(p.seat == self.seat for p in e.players):
                    self.result.hands += 1
                    self.unproven.add(e.hand_id)
                    if self._last_hand_starts(e):
                        commands += self._wind_down("played its last hand")
                    elif self._next_is_last(e):
                        self.asked_after = e.hand_number + 1
                        commands.append(("sit_out_if_seated", self.asked_after))
                elif self.stop.until_hand is not None and e.hand_number >= self.stop.until_hand:
                    commands += self._wind_down(f"the table reached hand {e.hand_number}")
            elif isinstance(e, DeckRevealed | HandVoided):
                self.unproven.discard(e.hand_id)
            elif isinstance(e, DeckCommitted):
                if self.seat in e.seats:
                    commands.append(("send_seed", None))  # R39: the client's seed for it
                continue
            if isinstance(e, HandEnded | HandVoided):
                hand_ended = True
                mine = next((s for s in e.stacks if s.seat == self.seat), None)
                if (mine is not None and mine.stack == 0 and self.winding_down is None
                        and not (self.rebuy and self.rebuy())):
                    # Sitting out says "gone" to the others: a seat with no chips may
                    # still be waiting for its rebuy, and they would wait for it.
                    return [*commands, ("sit_out_if_seated", None), ("stop", "busted")]
            elif isinstance(e, PlayerSatOut) and e.seat == self.seat and (
                    e.reason is SitOutReason.TIMED_OUT and self.winding_down is None):
                commands.append(("sit_in", None))  # R32 sat us out after a slow answer
                commands += self._sit_out_ahead()  # the sit-out ended what was asked
            elif isinstance(e, PlayerSatOut) and e.seat == self.seat and (
                    self.asked_after is not None and self.winding_down is None):
                # Sat out after the hand asked for, which was not this seat's last (it was
                # not dealt it): back in, and it sits out as its last hand starts.
                self.asked_after, self.ahead_failed = None, True
                commands.append(("sit_in", None))
            elif isinstance(e, PlayerUnseated) and e.stack.seat == self.seat:
                return [*commands, ("stop", "unseated")]
            elif isinstance(e, TableClosed):
                return [*commands, ("stop", "table closed")]
        if self.winding_down is None and self._out_of_time():
            commands += self._wind_down("time is up")
        if (self.winding_down is None and self.result.hands
                and (seats_changed or (hand_ended and self.away))
                and self._no_one_left(_view(table))):
            commands += self._wind_down("no one else at the table plays")
        if self.winding_down is not None and self._can_stop(_view(table)):
            commands.append(("stop", self.winding_down))
        return commands

    def _sit_out_ahead(self) -> list[tuple[str, Any]]:
        """An `until_hand` stop asks the dealer ahead to sit the seat out once that hand
        has ended (SitOut after_hand): asked only when the hand starts, a hand that ends
        before the request lands would let the table deal the seat one more."""
        until = self.stop.until_hand
        return [] if until is None or until < 1 else [("sit_out_if_seated", until)]

    def _next_is_last(self, e: HandStarted) -> bool:
        """A `hands=` stop whose next hand is its last: the seat is asked ahead to sit out
        after the table's next hand, which deals it that hand as a rule (when it does not,
        the PlayerSatOut comes early and the bot sits in again: `ahead_failed`)."""
        s = self.stop
        return (s.hands is not None and self.result.hands == s.hands - 1
                and not self.ahead_failed
                and (s.until_hand is None or e.hand_number + 1 < s.until_hand))

    def _note_away(self, e: Event) -> None:
        assert self.away is not None
        if isinstance(e, PlayerSatOut) and e.reason is not SitOutReason.TIMED_OUT:
            self.away.add(e.seat)
        else:  # back in, timed out (and expected back), or gone from the table
            self.away.discard(_seat_of(e))

    def _no_one_left(self, view: TableView) -> bool:
        """No hand is on and every other seat sat out by choice (or is empty): the table
        will not deal this seat another hand, and a `hands=` count would wait forever."""
        away = self.away or set()
        return view.hand is None and all(s.seat in away for s in view.seats
                                         if s.seat != self.seat)

    def _wind_down(self, why: str) -> list[tuple[str, Any]]:
        if self.winding_down is not None:
            return []
        self.winding_down = why
        return [("sit_out_if_seated", None)]

    def _can_stop(self, view: TableView) -> bool:
        me = view.me
        if me is None:
            return True
        in_a_hand = view.hand is not None and me.in_hand and not me.folded
        return me.sitting_out and not in_a_hand and not self.unproven

    def _last_hand_starts(self, e: HandStarted) -> bool:
        s = self.stop
        return ((s.hands is not None and self.result.hands >= s.hands)
                or (s.until_hand is not None and e.hand_number >= s.until_hand)
                or self._out_of_time())

    def time_left(self) -> float | None:
        """Seconds until a `seconds` stop begins to wind down (None: no time limit pending)."""
        if self.stop.seconds is None or self.winding_down is not None:
            return None
        return max(0.0, self.started + self.stop.seconds - time.monotonic())

    def _out_of_time(self) -> bool:
        s = self.stop
        return s.seconds is not None and time.monotonic() - self.started >= s.seconds

    # ------------------------------------------------------------------ turns

    def decision(self, table: Table) -> tuple[str, int, Action] | None:
        """(hand_id, action_number, action) when the seat must answer now, else None.

        Each decision is sent once per stream. After a reconnect it is sent again with
        the same answer (the server applies an exact retry once), never recomputed.
        """
        key = self.decision_due(table)
        if key is None or key in self.sent_keys:
            return None
        action = self.answers.get(key)
        if action is None:
            action = self.bot.act(_view(table))
            if not isinstance(action, Action):
                raise TypeError(f"{type(self.bot).__name__}.act returned {action!r}, "
                                "not an Action")
            self.answers = {key: action}  # only the current decision needs remembering
            self.result.actions += 1
        self.sent_keys.add(key)
        self.sent_at[key[1]] = time.monotonic()
        return key[0], key[1], action

    def decision_due(self, table: Table) -> tuple[str, int] | None:
        """(hand_id, action_number) when the dealer awaits this seat's decision, else None."""
        # view.legal for this seat, read from the view or the tracker alike (no view built)
        hand = table.hand
        if (hand is None or hand.legal is None or hand.legal.seat != self.seat
                or table.your_seat != self.seat):
            return None
        return hand.hand_id, hand.action_number

    def reconnected(self) -> None:
        """A new stream: unanswered decisions are sent again."""
        self.sent_keys.clear()
        self.result.reconnects += 1

    def on_result(self, action_number: int, code: int, message: str, table: Table,
                  reason: str = "", metadata: Mapping[str, str] | None = None) -> None:
        """A PlayActionResult: records latency; raises ActionRefused for a live refusal
        (a stale one, overtaken by a time-out, is only recorded). `metadata` may be the
        message's own map: it is copied only for a refusal (not on every decision)."""
        sent = self.sent_at.pop(action_number, None)
        if sent is not None:
            self.result.latencies.append(time.monotonic() - sent)
        if code == 0:
            return
        refused = ActionRefused(message, _STATUS.get(code, grpc.StatusCode.UNKNOWN), self.method,
                                reason=reason, metadata=metadata)
        self.result.refused.append(refused)
        view = _view(table)
        hand = view.hand
        if hand is not None and hand.action_number == action_number and view.legal is not None:
            raise refused  # the bot chose an illegal action: its author must know


_STATUS = {c.value[0]: c for c in grpc.StatusCode}
_IDLE = Step()
#: The events `on_events` acts on.
_SESSION_EVENTS = frozenset({HandStarted, DeckRevealed, HandVoided, HandEnded, PlayerSatOut,
                             PlayerSatIn, PlayerUnseated, TableClosed, DeckCommitted})
#: Events that change who is at the table and in.
_SEAT_EVENTS = frozenset({PlayerSatOut, PlayerSatIn, PlayerUnseated})


def _seat_of(e: Any) -> int:
    """The seat a PlayerSatOut, PlayerSatIn or PlayerUnseated is about."""
    return int(e.stack.seat) if isinstance(e, PlayerUnseated) else int(e.seat)
