"""One error taxonomy (poker/errors.py), mapped to a gRPC status in one place
(poker/status.py): every refusal of every service has a category, a stable reason and a
status of that category, on sync and asyncio servicers alike."""

from __future__ import annotations

import asyncio
import doctest
import importlib
from typing import Any

import grpc
import pytest

from poker import errors, status
from poker.cards import CardError, parse_card
from poker.errors import Category, PokerError

#: Every module that defines refusals.
ERROR_MODULES = ["poker.errors", "poker.cards", "services.dealer.errors",
                 "poker.vocab.errors", "services.lobby.errors",
                 "services.lobby.storage", "services.evaluator.errors"]


def _all_refusals() -> list[type[PokerError]]:
    for name in ERROR_MODULES:
        importlib.import_module(name)
    found: list[type[PokerError]] = []
    todo: list[type[PokerError]] = [PokerError]
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo.extend(cls.__subclasses__())
    return [c for c in found if c.__module__ in ERROR_MODULES]


def test_the_modules_doctests_pass() -> None:
    for module in (errors, status):
        result = doctest.testmod(module)
        assert result.attempted and not result.failed, module.__name__


def test_every_category_is_a_grpc_status_code_of_its_name() -> None:
    for category in Category:
        assert status.CODES[category].name == category.name


def test_every_refusal_has_a_category_and_a_stable_upper_snake_reason() -> None:
    refusals = _all_refusals()
    assert len(refusals) > 30
    for cls in refusals:
        assert isinstance(cls.category, Category), cls
        assert errors.is_reason(cls.reason), (cls, cls.reason)


@pytest.mark.parametrize(("module", "name", "category", "reason"), [
    ("poker.vocab.errors", "NotYourTurn", "FAILED_PRECONDITION", "NOT_YOUR_TURN"),
    ("poker.vocab.errors", "IllegalAction", "FAILED_PRECONDITION", "ILLEGAL_ACTION"),
    ("poker.vocab.errors", "ConfigError", "INVALID_ARGUMENT", "INVALID_CONFIG"),
    ("services.dealer.errors", "TableNotFound", "NOT_FOUND", "TABLE_NOT_FOUND"),
    ("services.dealer.errors", "RequestReused", "INVALID_ARGUMENT", "REQUEST_ID_REUSED"),
    ("services.dealer.errors", "Stopping", "UNAVAILABLE", "DEALER_STOPPING"),
    ("services.dealer.errors", "TokenLost", "DATA_LOSS", "TOKEN_LOST"),
    ("services.lobby.errors", "InsufficientFunds", "FAILED_PRECONDITION",
     "INSUFFICIENT_BALANCE"),
    ("services.lobby.errors", "LimitReached", "FAILED_PRECONDITION", "LIMIT_EXCEEDED"),
    ("services.lobby.errors", "RequestReused", "INVALID_ARGUMENT", "REQUEST_ID_REUSED"),
    ("services.lobby.errors", "SeatUnavailable", "FAILED_PRECONDITION", "SEAT_UNAVAILABLE"),
    ("services.lobby.storage", "StorageConflict", "ABORTED", "STORAGE_CONFLICT"),
    ("services.evaluator.errors", "LimitExceeded", "INVALID_ARGUMENT", "LIMIT_EXCEEDED"),
    ("services.evaluator.errors", "Overloaded", "RESOURCE_EXHAUSTED", "OVERLOADED"),
    ("services.evaluator.errors", "TooMuchWork", "RESOURCE_EXHAUSTED", "TOO_MUCH_WORK"),
    ("services.evaluator.errors", "Abandoned", "CANCELLED", "CALL_ABANDONED"),
    ("services.evaluator.errors", "Unauthenticated", "UNAUTHENTICATED", "UNAUTHENTICATED"),
    ("poker.cards", "CardError", "INVALID_ARGUMENT", "INVALID_CARD"),
])
def test_a_refusal_keeps_its_class_name_and_says_its_category_and_reason(
        module: str, name: str, category: str, reason: str) -> None:
    cls = getattr(importlib.import_module(module), name)
    err = cls("x", None) if name == "NotYourTurn" else cls("x")
    assert (err.category.name, err.reason) == (category, reason)
    assert status.status_of(err)[0] is grpc.StatusCode[category]


def test_a_raise_site_may_give_a_precise_reason_and_metadata() -> None:
    err = errors.FailedPrecondition("a raise to 150 is below the minimum, 200",
                                    reason="BELOW_MIN_RAISE", metadata={"min_raise_to": "200"})
    assert (err.reason, err.metadata) == ("BELOW_MIN_RAISE", {"min_raise_to": "200"})
    assert type(err).reason == "FAILED_PRECONDITION"  # the class keeps its own
    with pytest.raises(ValueError, match="UPPER_SNAKE"):
        errors.FailedPrecondition("x", reason="below min raise")


def test_a_card_error_is_still_a_value_error_and_an_invalid_argument() -> None:
    with pytest.raises(CardError) as info:
        parse_card("Zz")
    assert isinstance(info.value, ValueError)
    assert status.status_of(info.value)[0] is grpc.StatusCode.INVALID_ARGUMENT


def test_the_dealers_remembered_refusal_keeps_the_code_it_was_given() -> None:
    from services.dealer.errors import Remembered

    again = Remembered(grpc.StatusCode.ALREADY_EXISTS, "seat 0 is taken")
    assert again.code.name == "ALREADY_EXISTS"  # the name its store keeps
    assert status.status_of(again) == (grpc.StatusCode.ALREADY_EXISTS, "seat 0 is taken")


class FakeContext:
    """What poker.status asks of a servicer context, sync or asyncio."""

    def __init__(self, remaining: float | None = None) -> None:
        self.remaining = remaining
        self.aborted: tuple[grpc.StatusCode, str] | None = None
        self.trailers: Any = ()

    def set_trailing_metadata(self, trailers: Any) -> None:
        self.trailers = trailers

    def time_remaining(self) -> float | None:
        return self.remaining

    def code(self) -> grpc.StatusCode | None:
        return self.aborted[0] if self.aborted else None

    def abort(self, code: grpc.StatusCode, message: str) -> Any:
        self.aborted = (code, message)
        raise RuntimeError("aborted")


class FakeAsyncContext(FakeContext):
    async def abort(self, code: grpc.StatusCode, message: str, trailers: Any = ()) -> Any:
        self.aborted, self.trailers = (code, message), trailers
        raise grpc.aio.AbortError()


def test_a_call_abandoned_past_its_deadline_is_deadline_exceeded() -> None:
    from services.evaluator.errors import Abandoned

    assert status.code_of(Abandoned("stopped"), FakeContext(-0.1)) \
        is grpc.StatusCode.DEADLINE_EXCEEDED
    assert status.code_of(Abandoned("stopped"), FakeContext(3.0)) is grpc.StatusCode.CANCELLED
    assert status.code_of(Abandoned("stopped"), FakeContext(None)) is grpc.StatusCode.CANCELLED


def test_sync_abort_refuses_with_the_category_and_a_bounded_message() -> None:
    context = FakeContext()
    with pytest.raises(RuntimeError, match="aborted"):
        status.abort(context, errors.NotFound("x" * 5000))
    assert context.aborted is not None
    code, message = context.aborted
    assert code is grpc.StatusCode.NOT_FOUND and len(message) <= status.MAX_STATUS_CHARS


def test_sync_abort_quotes_nothing_of_a_bug() -> None:
    context = FakeContext()
    with pytest.raises(RuntimeError):
        status.abort(context, KeyError("secret-token"), "Act")
    assert context.aborted is not None
    assert context.aborted[0] is grpc.StatusCode.INTERNAL
    assert "secret-token" not in context.aborted[1]


def test_sync_abort_keeps_a_status_set_already() -> None:
    context = FakeContext()
    context.aborted = (grpc.StatusCode.INVALID_ARGUMENT, "does not parse")
    err = RuntimeError("from context.abort")
    with pytest.raises(RuntimeError, match="from context.abort"):
        status.abort(context, err)
    assert context.aborted == (grpc.StatusCode.INVALID_ARGUMENT, "does not parse")


def test_asyncio_abort_is_the_same_mapping() -> None:
    from poker.vocab.errors import NotYourTurn

    context = FakeAsyncContext()
    with pytest.raises(grpc.aio.AbortError):
        asyncio.run(status.abort_async(context, NotYourTurn("it is seat 3's turn", 3)))
    assert context.aborted == (grpc.StatusCode.FAILED_PRECONDITION, "it is seat 3's turn")
    aborted_already = FakeAsyncContext()
    with pytest.raises(grpc.aio.AbortError):
        asyncio.run(status.abort_async(aborted_already, grpc.aio.AbortError()))
    assert aborted_already.aborted is None
