"""R5, R33 in the SDK: the button rule in TableConfig, the blinds' seats of HandStarted,
a dead small blind's post and a returning player's choice to wait, typed."""

from __future__ import annotations

from clients.convert import event_from_proto, from_proto
from clients.models import BlindKind, ButtonRule, TableConfig
from poker.v1 import dealer_pb2 as pb


def test_R5_sdk_table_config_carries_the_button_rule() -> None:
    config = TableConfig(button_rule=ButtonRule.MOVING, min_players_to_start=3)
    message = config.to_proto()
    assert message.button_rule == pb.BUTTON_RULE_MOVING and message.min_players_to_start == 3
    assert from_proto(TableConfig, message) == config
    assert from_proto(TableConfig, pb.TableConfig()).button_rule is None  # server default


def test_R5_R33_sdk_events_name_the_blinds_seats_and_dead_posts() -> None:
    started = event_from_proto(pb.TableEvent(sequence=1, hand_id="t-2", hand_started=pb.HandStarted(
        hand_number=2, button=1, big_blind_seat=3, button_dead=True,
        players=[pb.HandPlayer(seat=3, player_id="a", stack=10),
                 pb.HandPlayer(seat=4, player_id="b", stack=10, posts_late=True,
                               posts_dead_small_blind=True)])))
    assert (started.button, started.small_blind_seat, started.big_blind_seat) == (1, None, 3)
    assert started.button_dead and started.players[1].posts_dead_small_blind
    posted = event_from_proto(pb.TableEvent(sequence=2, hand_id="t-2", blind_posted=pb.BlindPosted(
        seat=4, blind=pb.BLIND_KIND_DEAD, amount=50)))
    assert posted.blind is BlindKind.DEAD
    back = event_from_proto(pb.TableEvent(sequence=3, player_sat_in=pb.PlayerSatIn(
        seat=4, wait_for_big_blind=True)))
    assert back.wait_for_big_blind is True
