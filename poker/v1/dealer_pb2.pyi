from poker.v1 import dealer_operator_api_pb2 as _dealer_operator_api_pb2
from poker.v1 import dealer_player_api_pb2 as _dealer_player_api_pb2
from poker.v1 import table_config_pb2 as _table_config_pb2
from poker.v1 import table_events_pb2 as _table_events_pb2
from poker.v1 import table_view_pb2 as _table_view_pb2
from google.protobuf import descriptor as _descriptor
from typing import ClassVar as _ClassVar
from poker.v1.dealer_operator_api_pb2 import CreateTableRequest as CreateTableRequest
from poker.v1.dealer_operator_api_pb2 import CreateTableResponse as CreateTableResponse
from poker.v1.dealer_operator_api_pb2 import SeatPlayerRequest as SeatPlayerRequest
from poker.v1.dealer_operator_api_pb2 import SeatPlayerResponse as SeatPlayerResponse
from poker.v1.dealer_operator_api_pb2 import AddChipsRequest as AddChipsRequest
from poker.v1.dealer_operator_api_pb2 import AddChipsResponse as AddChipsResponse
from poker.v1.dealer_operator_api_pb2 import UnseatPlayerRequest as UnseatPlayerRequest
from poker.v1.dealer_operator_api_pb2 import UnseatPlayerResponse as UnseatPlayerResponse
from poker.v1.dealer_operator_api_pb2 import SetButtonRequest as SetButtonRequest
from poker.v1.dealer_operator_api_pb2 import SetButtonResponse as SetButtonResponse
from poker.v1.dealer_operator_api_pb2 import SetLevelRequest as SetLevelRequest
from poker.v1.dealer_operator_api_pb2 import SetLevelResponse as SetLevelResponse
from poker.v1.dealer_operator_api_pb2 import CloseTableRequest as CloseTableRequest
from poker.v1.dealer_operator_api_pb2 import CloseTableResponse as CloseTableResponse
from poker.v1.dealer_operator_api_pb2 import SetDealLimitRequest as SetDealLimitRequest
from poker.v1.dealer_operator_api_pb2 import SetDealLimitResponse as SetDealLimitResponse
from poker.v1.dealer_operator_api_pb2 import FollowTablesRequest as FollowTablesRequest
from poker.v1.dealer_operator_api_pb2 import TableCursor as TableCursor
from poker.v1.dealer_operator_api_pb2 import FollowTablesResponse as FollowTablesResponse
from poker.v1.dealer_operator_api_pb2 import TableNote as TableNote
from poker.v1.dealer_operator_api_pb2 import TableNoteKind as TableNoteKind
from poker.v1.dealer_player_api_pb2 import CommitSeedsRequest as CommitSeedsRequest
from poker.v1.dealer_player_api_pb2 import CommitSeedsResponse as CommitSeedsResponse
from poker.v1.dealer_player_api_pb2 import RevealSeedRequest as RevealSeedRequest
from poker.v1.dealer_player_api_pb2 import RevealSeedResponse as RevealSeedResponse
from poker.v1.dealer_player_api_pb2 import GetTableRequest as GetTableRequest
from poker.v1.dealer_player_api_pb2 import GetTableResponse as GetTableResponse
from poker.v1.dealer_player_api_pb2 import ActRequest as ActRequest
from poker.v1.dealer_player_api_pb2 import ActResponse as ActResponse
from poker.v1.dealer_player_api_pb2 import SitOutRequest as SitOutRequest
from poker.v1.dealer_player_api_pb2 import SitOutResponse as SitOutResponse
from poker.v1.dealer_player_api_pb2 import SitInRequest as SitInRequest
from poker.v1.dealer_player_api_pb2 import SitInResponse as SitInResponse
from poker.v1.dealer_player_api_pb2 import SetStraddleRequest as SetStraddleRequest
from poker.v1.dealer_player_api_pb2 import SetStraddleResponse as SetStraddleResponse
from poker.v1.dealer_player_api_pb2 import WatchTableRequest as WatchTableRequest
from poker.v1.dealer_player_api_pb2 import WatchTableResponse as WatchTableResponse
from poker.v1.dealer_player_api_pb2 import PlayRequest as PlayRequest
from poker.v1.dealer_player_api_pb2 import PlayStart as PlayStart
from poker.v1.dealer_player_api_pb2 import PlayAction as PlayAction
from poker.v1.dealer_player_api_pb2 import PlayActionResult as PlayActionResult
from poker.v1.dealer_player_api_pb2 import PlayResponse as PlayResponse
from poker.v1.dealer_player_api_pb2 import PlayManyRequest as PlayManyRequest
from poker.v1.dealer_player_api_pb2 import PlaySeat as PlaySeat
from poker.v1.dealer_player_api_pb2 import PlaySeatAction as PlaySeatAction
from poker.v1.dealer_player_api_pb2 import PlayManyResponse as PlayManyResponse
from poker.v1.dealer_player_api_pb2 import SeatEvents as SeatEvents
from poker.v1.dealer_player_api_pb2 import SeatActionResult as SeatActionResult
from poker.v1.dealer_player_api_pb2 import GetHandHistoryRequest as GetHandHistoryRequest
from poker.v1.dealer_player_api_pb2 import GetHandHistoryResponse as GetHandHistoryResponse
from poker.v1.table_config_pb2 import Level as Level
from poker.v1.table_config_pb2 import RakeCap as RakeCap
from poker.v1.table_config_pb2 import Rake as Rake
from poker.v1.table_config_pb2 import TableConfig as TableConfig
from poker.v1.table_config_pb2 import Structure as Structure
from poker.v1.table_config_pb2 import Preset as Preset
from poker.v1.table_config_pb2 import MinRaiseRule as MinRaiseRule
from poker.v1.table_config_pb2 import AnteForm as AnteForm
from poker.v1.table_config_pb2 import ButtonRule as ButtonRule
from poker.v1.table_events_pb2 import TableEvent as TableEvent
from poker.v1.table_events_pb2 import HandPlayer as HandPlayer
from poker.v1.table_events_pb2 import HandStarted as HandStarted
from poker.v1.table_events_pb2 import DeckSet as DeckSet
from poker.v1.table_events_pb2 import AntePosted as AntePosted
from poker.v1.table_events_pb2 import BlindPosted as BlindPosted
from poker.v1.table_events_pb2 import HoleCardsDealt as HoleCardsDealt
from poker.v1.table_events_pb2 import ActionTaken as ActionTaken
from poker.v1.table_events_pb2 import BoardDealt as BoardDealt
from poker.v1.table_events_pb2 import BetReturned as BetReturned
from poker.v1.table_events_pb2 import CardsShown as CardsShown
from poker.v1.table_events_pb2 import CardsMucked as CardsMucked
from poker.v1.table_events_pb2 import RakeTaken as RakeTaken
from poker.v1.table_events_pb2 import PotAwarded as PotAwarded
from poker.v1.table_events_pb2 import HandEnded as HandEnded
from poker.v1.table_events_pb2 import DeckRevealed as DeckRevealed
from poker.v1.table_events_pb2 import DealtPositions as DealtPositions
from poker.v1.table_events_pb2 import HandSalt as HandSalt
from poker.v1.table_events_pb2 import SeedsCommitted as SeedsCommitted
from poker.v1.table_events_pb2 import DeckCommitted as DeckCommitted
from poker.v1.table_events_pb2 import SeatSeed as SeatSeed
from poker.v1.table_events_pb2 import DeckSeeded as DeckSeeded
from poker.v1.table_events_pb2 import TurnStarted as TurnStarted
from poker.v1.table_events_pb2 import TimeBankUsed as TimeBankUsed
from poker.v1.table_events_pb2 import RunItChosen as RunItChosen
from poker.v1.table_events_pb2 import SecondBoardDealt as SecondBoardDealt
from poker.v1.table_events_pb2 import TurnTimedOut as TurnTimedOut
from poker.v1.table_events_pb2 import HandVoided as HandVoided
from poker.v1.table_events_pb2 import PlayerSeated as PlayerSeated
from poker.v1.table_events_pb2 import PlayerUnseated as PlayerUnseated
from poker.v1.table_events_pb2 import ChipsAdded as ChipsAdded
from poker.v1.table_events_pb2 import PlayerSatOut as PlayerSatOut
from poker.v1.table_events_pb2 import SitOutScheduled as SitOutScheduled
from poker.v1.table_events_pb2 import PlayerSatIn as PlayerSatIn
from poker.v1.table_events_pb2 import StraddleSet as StraddleSet
from poker.v1.table_events_pb2 import BlindMissed as BlindMissed
from poker.v1.table_events_pb2 import ButtonSet as ButtonSet
from poker.v1.table_events_pb2 import SeatCard as SeatCard
from poker.v1.table_events_pb2 import LevelSet as LevelSet
from poker.v1.table_events_pb2 import DealLimitSet as DealLimitSet
from poker.v1.table_events_pb2 import TableClosed as TableClosed
from poker.v1.table_events_pb2 import BlindKind as BlindKind
from poker.v1.table_events_pb2 import ShowReason as ShowReason
from poker.v1.table_events_pb2 import UnseatReason as UnseatReason
from poker.v1.table_events_pb2 import SitOutReason as SitOutReason
from poker.v1.table_view_pb2 import SeatStack as SeatStack
from poker.v1.table_view_pb2 import LegalActions as LegalActions
from poker.v1.table_view_pb2 import Pot as Pot
from poker.v1.table_view_pb2 import SeatView as SeatView
from poker.v1.table_view_pb2 import OwedBlinds as OwedBlinds
from poker.v1.table_view_pb2 import HandView as HandView
from poker.v1.table_view_pb2 import TableView as TableView
from poker.v1.table_view_pb2 import Street as Street
from poker.v1.table_view_pb2 import Decision as Decision
from poker.v1.table_view_pb2 import ActionKind as ActionKind

DESCRIPTOR: _descriptor.FileDescriptor
TABLE_NOTE_KIND_UNSPECIFIED: _dealer_operator_api_pb2.TableNoteKind
TABLE_NOTE_KIND_SEATED: _dealer_operator_api_pb2.TableNoteKind
TABLE_NOTE_KIND_SEAT_FREED: _dealer_operator_api_pb2.TableNoteKind
TABLE_NOTE_KIND_HAND_ENDED: _dealer_operator_api_pb2.TableNoteKind
TABLE_NOTE_KIND_BUSTED: _dealer_operator_api_pb2.TableNoteKind
TABLE_NOTE_KIND_CHIPS_ADDED: _dealer_operator_api_pb2.TableNoteKind
TABLE_NOTE_KIND_SIT_OUT_ENDED: _dealer_operator_api_pb2.TableNoteKind
TABLE_NOTE_KIND_SAT_OUT: _dealer_operator_api_pb2.TableNoteKind
TABLE_NOTE_KIND_TABLE_CLOSED: _dealer_operator_api_pb2.TableNoteKind
STRUCTURE_UNSPECIFIED: _table_config_pb2.Structure
STRUCTURE_NO_LIMIT: _table_config_pb2.Structure
STRUCTURE_POT_LIMIT: _table_config_pb2.Structure
STRUCTURE_FIXED_LIMIT: _table_config_pb2.Structure
PRESET_UNSPECIFIED: _table_config_pb2.Preset
PRESET_SEED: _table_config_pb2.Preset
PRESET_STANDARD: _table_config_pb2.Preset
MIN_RAISE_RULE_UNSPECIFIED: _table_config_pb2.MinRaiseRule
MIN_RAISE_RULE_DOUBLE: _table_config_pb2.MinRaiseRule
MIN_RAISE_RULE_STANDARD: _table_config_pb2.MinRaiseRule
ANTE_FORM_UNSPECIFIED: _table_config_pb2.AnteForm
ANTE_FORM_EACH_PLAYER: _table_config_pb2.AnteForm
ANTE_FORM_BIG_BLIND: _table_config_pb2.AnteForm
BUTTON_RULE_UNSPECIFIED: _table_config_pb2.ButtonRule
BUTTON_RULE_DEAD: _table_config_pb2.ButtonRule
BUTTON_RULE_MOVING: _table_config_pb2.ButtonRule
BLIND_KIND_UNSPECIFIED: _table_events_pb2.BlindKind
BLIND_KIND_SMALL: _table_events_pb2.BlindKind
BLIND_KIND_BIG: _table_events_pb2.BlindKind
BLIND_KIND_LATE: _table_events_pb2.BlindKind
BLIND_KIND_STRADDLE: _table_events_pb2.BlindKind
BLIND_KIND_DEAD: _table_events_pb2.BlindKind
SHOW_REASON_UNSPECIFIED: _table_events_pb2.ShowReason
SHOW_REASON_SHOWDOWN: _table_events_pb2.ShowReason
SHOW_REASON_ALL_IN: _table_events_pb2.ShowReason
UNSEAT_REASON_UNSPECIFIED: _table_events_pb2.UnseatReason
UNSEAT_REASON_SIT_OUT_LIMIT: _table_events_pb2.UnseatReason
SIT_OUT_REASON_UNSPECIFIED: _table_events_pb2.SitOutReason
SIT_OUT_REASON_REQUESTED: _table_events_pb2.SitOutReason
SIT_OUT_REASON_TIMED_OUT: _table_events_pb2.SitOutReason
STREET_UNSPECIFIED: _table_view_pb2.Street
STREET_PREFLOP: _table_view_pb2.Street
STREET_FLOP: _table_view_pb2.Street
STREET_TURN: _table_view_pb2.Street
STREET_RIVER: _table_view_pb2.Street
STREET_SHOWDOWN: _table_view_pb2.Street
STREET_COMPLETE: _table_view_pb2.Street
DECISION_UNSPECIFIED: _table_view_pb2.Decision
DECISION_BET: _table_view_pb2.Decision
DECISION_SHOW_OR_MUCK: _table_view_pb2.Decision
DECISION_RUN_IT: _table_view_pb2.Decision
ACTION_KIND_UNSPECIFIED: _table_view_pb2.ActionKind
ACTION_KIND_FOLD: _table_view_pb2.ActionKind
ACTION_KIND_CHECK: _table_view_pb2.ActionKind
ACTION_KIND_CALL: _table_view_pb2.ActionKind
ACTION_KIND_BET: _table_view_pb2.ActionKind
ACTION_KIND_RAISE: _table_view_pb2.ActionKind
ACTION_KIND_ALL_IN: _table_view_pb2.ActionKind
ACTION_KIND_SHOW: _table_view_pb2.ActionKind
ACTION_KIND_MUCK: _table_view_pb2.ActionKind
ACTION_KIND_RUN_IT: _table_view_pb2.ActionKind
