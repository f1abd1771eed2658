from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from typing import ClassVar as _ClassVar

DESCRIPTOR: _descriptor.FileDescriptor

class HandCategory(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    HAND_CATEGORY_UNSPECIFIED: _ClassVar[HandCategory]
    HAND_CATEGORY_HIGH_CARD: _ClassVar[HandCategory]
    HAND_CATEGORY_PAIR: _ClassVar[HandCategory]
    HAND_CATEGORY_TWO_PAIR: _ClassVar[HandCategory]
    HAND_CATEGORY_THREE_OF_A_KIND: _ClassVar[HandCategory]
    HAND_CATEGORY_STRAIGHT: _ClassVar[HandCategory]
    HAND_CATEGORY_FLUSH: _ClassVar[HandCategory]
    HAND_CATEGORY_FULL_HOUSE: _ClassVar[HandCategory]
    HAND_CATEGORY_FOUR_OF_A_KIND: _ClassVar[HandCategory]
    HAND_CATEGORY_STRAIGHT_FLUSH: _ClassVar[HandCategory]
    HAND_CATEGORY_ROYAL_FLUSH: _ClassVar[HandCategory]
HAND_CATEGORY_UNSPECIFIED: HandCategory
HAND_CATEGORY_HIGH_CARD: HandCategory
HAND_CATEGORY_PAIR: HandCategory
HAND_CATEGORY_TWO_PAIR: HandCategory
HAND_CATEGORY_THREE_OF_A_KIND: HandCategory
HAND_CATEGORY_STRAIGHT: HandCategory
HAND_CATEGORY_FLUSH: HandCategory
HAND_CATEGORY_FULL_HOUSE: HandCategory
HAND_CATEGORY_FOUR_OF_A_KIND: HandCategory
HAND_CATEGORY_STRAIGHT_FLUSH: HandCategory
HAND_CATEGORY_ROYAL_FLUSH: HandCategory
