"""The SDK's tournament answers as typed frozen values (clients/tournament.py): every field
each value declares reads its message field of the same name (enums as StrEnums, levels
and players as nested values, repeated fields as tuples), every proto enum value has
its member, and a typed structure goes back to the message CreateTournament takes."""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Any

import pytest

from clients import tournament as tn
from clients.convert import from_proto
from poker import enum_wire, timefields
from poker.v1 import tournament_pb2 as pb
from tests.sdk.test_units import _filled

#: Each typed value and the message it is read from.
PAIRS: list[tuple[type, Any]] = [
    (tn.Tournament, pb.Tournament), (tn.TournamentStructure, pb.TournamentStructure),
    (tn.TournamentLevel, pb.TournamentLevel), (tn.PayoutTier, pb.PayoutTier),
    (tn.TournamentPlayer, pb.TournamentPlayer), (tn.TournamentTable, pb.TournamentTable),
    (tn.TournamentEvent, pb.TournamentEvent), (tn.TournamentSeat, pb.TournamentSeat),
    (tn.TournamentResult, pb.TournamentResult), (tn.TournamentPage, pb.ListTournamentsResponse),
    (tn.TournamentSeating, pb.GetTournamentSeatResponse),
]


def _plain(value: Any) -> Any:
    """A typed value as the message's Python values: enums by their proto number."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, Enum):
        return value.value
    return value


@pytest.mark.parametrize(("cls", "message_cls"), PAIRS, ids=[c.__name__ for c, _ in PAIRS])
def test_each_value_reads_every_field_it_declares_from_its_message(
        cls: type, message_cls: Any) -> None:
    message = _filled(message_cls())
    timefields.from_typed(message)  # AIP-142: a time's two forms agree, as a server sends them
    value: Any = from_proto(cls, message)
    assert dataclasses.is_dataclass(value) and type(value) is cls
    declared = dataclasses.fields(value)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(value, declared[0].name, None)
    fields = message_cls.DESCRIPTOR.fields_by_name
    for f in declared:
        assert f.name in fields, f"{cls.__name__}.{f.name}: no such field in the message"
        got, fd = getattr(value, f.name), fields[f.name]
        if fd.enum_type is not None:
            number = getattr(message, f.name)
            assert isinstance(got, Enum) and got.name == fd.enum_type.values_by_number[
                number].name.removeprefix(enum_wire.prefix(type(got)))
        elif fd.message_type is None:
            raw = getattr(message, f.name)
            assert _plain(got) == (list(raw) if fd.is_repeated else raw), f.name
        elif fd.is_repeated:
            assert isinstance(got, tuple) and len(got) == 1 and dataclasses.is_dataclass(got[0])
        else:
            assert dataclasses.is_dataclass(got), f.name


@pytest.mark.parametrize("enum_cls, proto", [
    (tn.TournamentState, pb.TournamentState), (tn.EntryStatus, pb.EntryStatus),
    (tn.TournamentEventKind, pb.TournamentEventKind)])
def test_every_proto_enum_value_has_its_member(enum_cls: type[Enum], proto: Any) -> None:
    members = enum_wire.members(enum_cls, proto)
    assert all(member is not None for number, member in members.items() if number)
    assert members[0] is None  # UNSPECIFIED reads as None


def test_an_unset_level_is_none_and_a_zero_state_is_none() -> None:
    t = tn.tournament_of(pb.Tournament(tournament_id="t"))
    assert t.level is None and t.state is None and t.players == () and not tn.over(t.state)
    assert t.structure == tn.TournamentStructure()


def test_a_typed_structure_is_the_message_create_tournament_sends() -> None:
    structure = tn.TournamentStructure(
        buy_in=100, fee=10, starting_stack=1500, table_size=6, max_players=12,
        levels=(tn.TournamentLevel(10, 20, minutes=3), tn.TournamentLevel(minutes=1,
                                                                          is_break=True)),
        payouts=(tn.PayoutTier(2, (10000,)), tn.PayoutTier(9, (5000, 3000, 2000))),
        pay_jumps=(5, 3), max_rebuys=2, rebuy_until_level=3)
    call = tn.create("sng", structure, "t1", "req-1")
    sent = call.request.structure
    assert sent.levels[1].is_break and list(sent.payouts[1].shares_bp) == [5000, 3000, 2000]
    assert list(sent.pay_jumps) == [5, 3] and sent.max_rebuys == 2
    assert from_proto(tn.TournamentStructure, sent) == structure
    raw = pb.TournamentStructure(buy_in=5)
    assert tn.create("x", raw, "t2", None).request.structure == raw  # a message as it is


def test_the_calls_answer_typed_values() -> None:
    reply = pb.GetTournamentResponse(tournament=pb.Tournament(
        tournament_id="t1", state=pb.TOURNAMENT_STATE_FINISHED,
        players=[pb.TournamentPlayer(player_id="ann", place=1, shared=1, prize=600)]))
    t = tn.get_tournament("t1").read(reply)
    assert t.state is tn.TournamentState.FINISHED and tn.over(t.state)
    assert t.players[0] == tn.TournamentPlayer(player_id="ann", place=1, shared=1, prize=600)
    seat = tn.tournament_seat("t1", "ann").read(pb.GetTournamentSeatResponse(
        state=pb.TOURNAMENT_STATE_RUNNING, status=pb.ENTRY_STATUS_PLAYING, table_id="a",
        seat=4, seat_token="tok", dealer_address="d:1"))
    assert seat.status is tn.PLAYING and (seat.table_id, seat.seat, seat.seat_token) == (
        "a", 4, "tok")
    page = tn.list_tournaments(10, "").read(pb.ListTournamentsResponse(
        tournaments=[pb.Tournament(tournament_id="a"), pb.Tournament(tournament_id="b")],
        next_page_token="n"))
    assert [x.tournament_id for x in page.tournaments] == ["a", "b"]
    assert page.next_page_token == "n"
    over = tn.finish_of("ann", tn.TournamentSeating(state=tn.CANCELLED), ("a",))
    assert over == tn.TournamentFinish("ann", 0, 0, 0, ("a",), cancelled=True)


@pytest.mark.parametrize(("cls", "message_cls"), PAIRS, ids=[c.__name__ for c, _ in PAIRS])
def test_each_value_is_generated_from_its_message_field_for_field(
        cls: type, message_cls: Any) -> None:
    """No mirror kept by hand: the values are clients/tournament_values.py's, generated
    from the messages (tests/sdk/test_derive.py fails when it is stale), every field of
    the message (its AIP-142 twins apart) in the message's order."""
    from clients import derive, tournament_values

    assert getattr(tournament_values, cls.__name__) is cls
    assert derive.TOURNAMENT_VALUES[cls.__name__] == message_cls.DESCRIPTOR.name
    twins = derive.time_twins(message_cls.DESCRIPTOR)
    assert [f.name for f in dataclasses.fields(cls)] == [
        fd.name for fd in message_cls.DESCRIPTOR.fields if fd.name not in twins]
