from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class DecisionKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DECISION_KIND_UNSPECIFIED: _ClassVar[DecisionKind]
    DECISION_KIND_BID: _ClassVar[DecisionKind]
    DECISION_KIND_TRUMP: _ClassVar[DecisionKind]
    DECISION_KIND_GIVE: _ClassVar[DecisionKind]
    DECISION_KIND_DISCARD: _ClassVar[DecisionKind]
    DECISION_KIND_PLAY: _ClassVar[DecisionKind]

class ErrorCode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ERROR_CODE_UNSPECIFIED: _ClassVar[ErrorCode]
    ERROR_CODE_BAD_TOKEN: _ClassVar[ErrorCode]
    ERROR_CODE_SEAT_TAKEN: _ClassVar[ErrorCode]
    ERROR_CODE_BAD_HELLO: _ClassVar[ErrorCode]
    ERROR_CODE_UNSUPPORTED_VERSION: _ClassVar[ErrorCode]
    ERROR_CODE_OUT_OF_TURN: _ClassVar[ErrorCode]
    ERROR_CODE_STALE_REQUEST: _ClassVar[ErrorCode]
    ERROR_CODE_MALFORMED: _ClassVar[ErrorCode]
    ERROR_CODE_ILLEGAL: _ClassVar[ErrorCode]
    ERROR_CODE_TIMEOUT: _ClassVar[ErrorCode]
    ERROR_CODE_TOO_LARGE: _ClassVar[ErrorCode]

class Trump(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TRUMP_UNSPECIFIED: _ClassVar[Trump]
    TRUMP_SPADES: _ClassVar[Trump]
    TRUMP_HEARTS: _ClassVar[Trump]
    TRUMP_DIAMONDS: _ClassVar[Trump]
    TRUMP_CLUBS: _ClassVar[Trump]
    TRUMP_HIGH: _ClassVar[Trump]
    TRUMP_LOW: _ClassVar[Trump]

class BidKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    BID_KIND_UNSPECIFIED: _ClassVar[BidKind]
    BID_KIND_PASS: _ClassVar[BidKind]
    BID_KIND_LEVEL: _ClassVar[BidKind]
    BID_KIND_CALL3: _ClassVar[BidKind]
    BID_KIND_CALL2: _ClassVar[BidKind]
    BID_KIND_CALL1: _ClassVar[BidKind]
    BID_KIND_BEST: _ClassVar[BidKind]
    BID_KIND_MOON: _ClassVar[BidKind]
    BID_KIND_ALONE: _ClassVar[BidKind]
    BID_KIND_LITTLE_PEPPER: _ClassVar[BidKind]
    BID_KIND_BIG_PEPPER: _ClassVar[BidKind]
DECISION_KIND_UNSPECIFIED: DecisionKind
DECISION_KIND_BID: DecisionKind
DECISION_KIND_TRUMP: DecisionKind
DECISION_KIND_GIVE: DecisionKind
DECISION_KIND_DISCARD: DecisionKind
DECISION_KIND_PLAY: DecisionKind
ERROR_CODE_UNSPECIFIED: ErrorCode
ERROR_CODE_BAD_TOKEN: ErrorCode
ERROR_CODE_SEAT_TAKEN: ErrorCode
ERROR_CODE_BAD_HELLO: ErrorCode
ERROR_CODE_UNSUPPORTED_VERSION: ErrorCode
ERROR_CODE_OUT_OF_TURN: ErrorCode
ERROR_CODE_STALE_REQUEST: ErrorCode
ERROR_CODE_MALFORMED: ErrorCode
ERROR_CODE_ILLEGAL: ErrorCode
ERROR_CODE_TIMEOUT: ErrorCode
ERROR_CODE_TOO_LARGE: ErrorCode
TRUMP_UNSPECIFIED: Trump
TRUMP_SPADES: Trump
TRUMP_HEARTS: Trump
TRUMP_DIAMONDS: Trump
TRUMP_CLUBS: Trump
TRUMP_HIGH: Trump
TRUMP_LOW: Trump
BID_KIND_UNSPECIFIED: BidKind
BID_KIND_PASS: BidKind
BID_KIND_LEVEL: BidKind
BID_KIND_CALL3: BidKind
BID_KIND_CALL2: BidKind
BID_KIND_CALL1: BidKind
BID_KIND_BEST: BidKind
BID_KIND_MOON: BidKind
BID_KIND_ALONE: BidKind
BID_KIND_LITTLE_PEPPER: BidKind
BID_KIND_BIG_PEPPER: BidKind

class BotMessage(_message.Message):
    __slots__ = ("hello", "action")
    HELLO_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    hello: Hello
    action: Action
    def __init__(self, hello: _Optional[_Union[Hello, _Mapping]] = ..., action: _Optional[_Union[Action, _Mapping]] = ...) -> None: ...

class Hello(_message.Message):
    __slots__ = ("token", "bot_name", "bot_version", "protocol_version")
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_VERSION_FIELD_NUMBER: _ClassVar[int]
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    token: str
    bot_name: str
    bot_version: str
    protocol_version: int
    def __init__(self, token: _Optional[str] = ..., bot_name: _Optional[str] = ..., bot_version: _Optional[str] = ..., protocol_version: _Optional[int] = ...) -> None: ...

class Action(_message.Message):
    __slots__ = ("request_id", "bid", "trump", "cards", "card", "claim")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    BID_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    CLAIM_FIELD_NUMBER: _ClassVar[int]
    request_id: int
    bid: Bid
    trump: Trump
    cards: CardList
    card: str
    claim: Claim
    def __init__(self, request_id: _Optional[int] = ..., bid: _Optional[_Union[Bid, _Mapping]] = ..., trump: _Optional[_Union[Trump, str]] = ..., cards: _Optional[_Union[CardList, _Mapping]] = ..., card: _Optional[str] = ..., claim: _Optional[_Union[Claim, _Mapping]] = ...) -> None: ...

class Claim(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class CardList(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, cards: _Optional[_Iterable[str]] = ...) -> None: ...

class RefereeMessage(_message.Message):
    __slots__ = ("welcome", "game_start", "decision", "game_over", "error", "shutdown")
    WELCOME_FIELD_NUMBER: _ClassVar[int]
    GAME_START_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    SHUTDOWN_FIELD_NUMBER: _ClassVar[int]
    welcome: Welcome
    game_start: GameStart
    decision: DecisionRequest
    game_over: GameOver
    error: Error
    shutdown: Shutdown
    def __init__(self, welcome: _Optional[_Union[Welcome, _Mapping]] = ..., game_start: _Optional[_Union[GameStart, _Mapping]] = ..., decision: _Optional[_Union[DecisionRequest, _Mapping]] = ..., game_over: _Optional[_Union[GameOver, _Mapping]] = ..., error: _Optional[_Union[Error, _Mapping]] = ..., shutdown: _Optional[_Union[Shutdown, _Mapping]] = ...) -> None: ...

class Welcome(_message.Message):
    __slots__ = ("protocol_version", "player", "referee_version")
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    REFEREE_VERSION_FIELD_NUMBER: _ClassVar[int]
    protocol_version: int
    player: str
    referee_version: str
    def __init__(self, protocol_version: _Optional[int] = ..., player: _Optional[str] = ..., referee_version: _Optional[str] = ...) -> None: ...

class GameStart(_message.Message):
    __slots__ = ("game_id", "preset", "rules", "seat", "players", "teams", "cards_each", "seat_names", "move_time_ms", "first_dealer")
    class RulesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    PRESET_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    TEAMS_FIELD_NUMBER: _ClassVar[int]
    CARDS_EACH_FIELD_NUMBER: _ClassVar[int]
    SEAT_NAMES_FIELD_NUMBER: _ClassVar[int]
    MOVE_TIME_MS_FIELD_NUMBER: _ClassVar[int]
    FIRST_DEALER_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    preset: str
    rules: _containers.ScalarMap[str, str]
    seat: int
    players: int
    teams: int
    cards_each: int
    seat_names: _containers.RepeatedScalarFieldContainer[str]
    move_time_ms: int
    first_dealer: int
    def __init__(self, game_id: _Optional[str] = ..., preset: _Optional[str] = ..., rules: _Optional[_Mapping[str, str]] = ..., seat: _Optional[int] = ..., players: _Optional[int] = ..., teams: _Optional[int] = ..., cards_each: _Optional[int] = ..., seat_names: _Optional[_Iterable[str]] = ..., move_time_ms: _Optional[int] = ..., first_dealer: _Optional[int] = ...) -> None: ...

class DecisionRequest(_message.Message):
    __slots__ = ("request_id", "game_id", "kind", "seat", "events", "hand_number", "dealer", "scores", "hand", "contract", "current_trick", "tricks_won", "legal_bids", "legal_trumps", "legal_cards", "count", "to_seat", "time_limit_ms", "time_bank_ms", "may_claim", "startup_allowance_ms")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    HAND_NUMBER_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    CURRENT_TRICK_FIELD_NUMBER: _ClassVar[int]
    TRICKS_WON_FIELD_NUMBER: _ClassVar[int]
    LEGAL_BIDS_FIELD_NUMBER: _ClassVar[int]
    LEGAL_TRUMPS_FIELD_NUMBER: _ClassVar[int]
    LEGAL_CARDS_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    TO_SEAT_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMIT_MS_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_MS_FIELD_NUMBER: _ClassVar[int]
    MAY_CLAIM_FIELD_NUMBER: _ClassVar[int]
    STARTUP_ALLOWANCE_MS_FIELD_NUMBER: _ClassVar[int]
    request_id: int
    game_id: str
    kind: DecisionKind
    seat: int
    events: _containers.RepeatedCompositeFieldContainer[Event]
    hand_number: int
    dealer: int
    scores: _containers.RepeatedScalarFieldContainer[int]
    hand: _containers.RepeatedScalarFieldContainer[str]
    contract: Contract
    current_trick: _containers.RepeatedCompositeFieldContainer[Play]
    tricks_won: _containers.RepeatedScalarFieldContainer[int]
    legal_bids: _containers.RepeatedCompositeFieldContainer[Bid]
    legal_trumps: _containers.RepeatedScalarFieldContainer[Trump]
    legal_cards: _containers.RepeatedScalarFieldContainer[str]
    count: int
    to_seat: int
    time_limit_ms: int
    time_bank_ms: int
    may_claim: bool
    startup_allowance_ms: int
    def __init__(self, request_id: _Optional[int] = ..., game_id: _Optional[str] = ..., kind: _Optional[_Union[DecisionKind, str]] = ..., seat: _Optional[int] = ..., events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., hand_number: _Optional[int] = ..., dealer: _Optional[int] = ..., scores: _Optional[_Iterable[int]] = ..., hand: _Optional[_Iterable[str]] = ..., contract: _Optional[_Union[Contract, _Mapping]] = ..., current_trick: _Optional[_Iterable[_Union[Play, _Mapping]]] = ..., tricks_won: _Optional[_Iterable[int]] = ..., legal_bids: _Optional[_Iterable[_Union[Bid, _Mapping]]] = ..., legal_trumps: _Optional[_Iterable[_Union[Trump, str]]] = ..., legal_cards: _Optional[_Iterable[str]] = ..., count: _Optional[int] = ..., to_seat: _Optional[int] = ..., time_limit_ms: _Optional[int] = ..., time_bank_ms: _Optional[int] = ..., may_claim: _Optional[bool] = ..., startup_allowance_ms: _Optional[int] = ...) -> None: ...

class GameOver(_message.Message):
    __slots__ = ("game_id", "events", "scores", "has_winner", "winner_team", "reason")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    HAS_WINNER_FIELD_NUMBER: _ClassVar[int]
    WINNER_TEAM_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    events: _containers.RepeatedCompositeFieldContainer[Event]
    scores: _containers.RepeatedScalarFieldContainer[int]
    has_winner: bool
    winner_team: int
    reason: str
    def __init__(self, game_id: _Optional[str] = ..., events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., scores: _Optional[_Iterable[int]] = ..., has_winner: _Optional[bool] = ..., winner_team: _Optional[int] = ..., reason: _Optional[str] = ...) -> None: ...

class Error(_message.Message):
    __slots__ = ("code", "message", "request_id", "fatal")
    CODE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    FATAL_FIELD_NUMBER: _ClassVar[int]
    code: ErrorCode
    message: str
    request_id: int
    fatal: bool
    def __init__(self, code: _Optional[_Union[ErrorCode, str]] = ..., message: _Optional[str] = ..., request_id: _Optional[int] = ..., fatal: _Optional[bool] = ...) -> None: ...

class Shutdown(_message.Message):
    __slots__ = ("reason",)
    REASON_FIELD_NUMBER: _ClassVar[int]
    reason: str
    def __init__(self, reason: _Optional[str] = ...) -> None: ...

class Bid(_message.Message):
    __slots__ = ("kind", "level", "trump", "text")
    KIND_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    kind: BidKind
    level: int
    trump: Trump
    text: str
    def __init__(self, kind: _Optional[_Union[BidKind, str]] = ..., level: _Optional[int] = ..., trump: _Optional[_Union[Trump, str]] = ..., text: _Optional[str] = ...) -> None: ...

class Contract(_message.Message):
    __slots__ = ("declarer", "bid", "trump", "alone", "active_seats")
    DECLARER_FIELD_NUMBER: _ClassVar[int]
    BID_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    ALONE_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_SEATS_FIELD_NUMBER: _ClassVar[int]
    declarer: int
    bid: Bid
    trump: Trump
    alone: bool
    active_seats: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, declarer: _Optional[int] = ..., bid: _Optional[_Union[Bid, _Mapping]] = ..., trump: _Optional[_Union[Trump, str]] = ..., alone: _Optional[bool] = ..., active_seats: _Optional[_Iterable[int]] = ...) -> None: ...

class Play(_message.Message):
    __slots__ = ("trick", "seat", "card")
    TRICK_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    trick: int
    seat: int
    card: str
    def __init__(self, trick: _Optional[int] = ..., seat: _Optional[int] = ..., card: _Optional[str] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("hand", "deal", "bid", "contract", "exchange", "play", "trick", "hand_end", "game_end", "claim")
    HAND_FIELD_NUMBER: _ClassVar[int]
    DEAL_FIELD_NUMBER: _ClassVar[int]
    BID_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    EXCHANGE_FIELD_NUMBER: _ClassVar[int]
    PLAY_FIELD_NUMBER: _ClassVar[int]
    TRICK_FIELD_NUMBER: _ClassVar[int]
    HAND_END_FIELD_NUMBER: _ClassVar[int]
    GAME_END_FIELD_NUMBER: _ClassVar[int]
    CLAIM_FIELD_NUMBER: _ClassVar[int]
    hand: int
    deal: Deal
    bid: BidMade
    contract: Contract
    exchange: Exchange
    play: Play
    trick: TrickWon
    hand_end: HandEnd
    game_end: GameEnd
    claim: ClaimMade
    def __init__(self, hand: _Optional[int] = ..., deal: _Optional[_Union[Deal, _Mapping]] = ..., bid: _Optional[_Union[BidMade, _Mapping]] = ..., contract: _Optional[_Union[Contract, _Mapping]] = ..., exchange: _Optional[_Union[Exchange, _Mapping]] = ..., play: _Optional[_Union[Play, _Mapping]] = ..., trick: _Optional[_Union[TrickWon, _Mapping]] = ..., hand_end: _Optional[_Union[HandEnd, _Mapping]] = ..., game_end: _Optional[_Union[GameEnd, _Mapping]] = ..., claim: _Optional[_Union[ClaimMade, _Mapping]] = ...) -> None: ...

class Deal(_message.Message):
    __slots__ = ("dealer", "cards")
    DEALER_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    dealer: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, dealer: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ...) -> None: ...

class BidMade(_message.Message):
    __slots__ = ("seat", "bid")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BID_FIELD_NUMBER: _ClassVar[int]
    seat: int
    bid: Bid
    def __init__(self, seat: _Optional[int] = ..., bid: _Optional[_Union[Bid, _Mapping]] = ...) -> None: ...

class Exchange(_message.Message):
    __slots__ = ("from_seat", "discard", "to_seat", "cards", "count")
    FROM_SEAT_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    TO_SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    from_seat: int
    discard: bool
    to_seat: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    count: int
    def __init__(self, from_seat: _Optional[int] = ..., discard: _Optional[bool] = ..., to_seat: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ..., count: _Optional[int] = ...) -> None: ...

class TrickWon(_message.Message):
    __slots__ = ("trick", "winner")
    TRICK_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    trick: int
    winner: int
    def __init__(self, trick: _Optional[int] = ..., winner: _Optional[int] = ...) -> None: ...

class HandEnd(_message.Message):
    __slots__ = ("tricks", "points", "scores", "passed_out", "declarer", "made")
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    PASSED_OUT_FIELD_NUMBER: _ClassVar[int]
    DECLARER_FIELD_NUMBER: _ClassVar[int]
    MADE_FIELD_NUMBER: _ClassVar[int]
    tricks: _containers.RepeatedScalarFieldContainer[int]
    points: _containers.RepeatedScalarFieldContainer[int]
    scores: _containers.RepeatedScalarFieldContainer[int]
    passed_out: bool
    declarer: int
    made: bool
    def __init__(self, tricks: _Optional[_Iterable[int]] = ..., points: _Optional[_Iterable[int]] = ..., scores: _Optional[_Iterable[int]] = ..., passed_out: _Optional[bool] = ..., declarer: _Optional[int] = ..., made: _Optional[bool] = ...) -> None: ...

class ClaimMade(_message.Message):
    __slots__ = ("seat", "team", "trick", "tricks", "accepted")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TEAM_FIELD_NUMBER: _ClassVar[int]
    TRICK_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    ACCEPTED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    team: int
    trick: int
    tricks: int
    accepted: bool
    def __init__(self, seat: _Optional[int] = ..., team: _Optional[int] = ..., trick: _Optional[int] = ..., tricks: _Optional[int] = ..., accepted: _Optional[bool] = ...) -> None: ...

class GameEnd(_message.Message):
    __slots__ = ("scores", "has_winner", "winner_team", "reason", "detail")
    SCORES_FIELD_NUMBER: _ClassVar[int]
    HAS_WINNER_FIELD_NUMBER: _ClassVar[int]
    WINNER_TEAM_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    scores: _containers.RepeatedScalarFieldContainer[int]
    has_winner: bool
    winner_team: int
    reason: str
    detail: str
    def __init__(self, scores: _Optional[_Iterable[int]] = ..., has_winner: _Optional[bool] = ..., winner_team: _Optional[int] = ..., reason: _Optional[str] = ..., detail: _Optional[str] = ...) -> None: ...
