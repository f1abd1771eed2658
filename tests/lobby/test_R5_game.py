"""R5 at the lobby: the game's button rule and min_players_to_start (dealer TableConfig
options the lobby stores as JSON) go to the dealer as given; a tournament sets `dead` (T3)."""

from __future__ import annotations

from poker.v1 import dealer_pb2 as pb
from services.lobby.dealer_client import game_config, game_json


def test_R5_T3_the_lobby_passes_the_button_rule_to_the_dealer() -> None:
    config = pb.TableConfig(button_rule=pb.BUTTON_RULE_DEAD, min_players_to_start=4)
    stored = game_json(config)
    assert stored["button_rule"] == "BUTTON_RULE_DEAD" and stored["min_players_to_start"] == 4
    assert game_config(stored) == config
    assert game_config({}).button_rule == pb.BUTTON_RULE_UNSPECIFIED  # the dealer's: dead
    assert game_config({"button_rule": "BUTTON_RULE_MOVING"}).button_rule == \
        pb.BUTTON_RULE_MOVING
