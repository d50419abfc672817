"""The taking (classic belote) and the auction (coinche, contrée), written once.

Both states have one shape: ``turn`` (the seat to call, ``None`` once over),
``legal_calls()`` (exact and ordered: pass first, then the other calls in
ascending order), ``explain(call, seat=None)`` (``None`` if the call is allowed,
else an ``Illegality`` with a stable rule id and a message), ``push(call,
seat=None)`` checked, ``push_unchecked(call, seat)`` that records a call as made
(docs/rules.md §10), ``pop()``, ``is_over``, ``is_void``, ``contract`` and
``history`` (the calls with their seats).

Each state says what the seat in turn may call in one method, ``_allows``:
``explain`` asks it first and builds an explanation only for a call it refuses,
``legal_calls`` keeps the candidate calls it allows, and ``push`` raises what
``explain`` says. The move is written once too, in ``push_unchecked``: ``push``
ends with it and ``pop`` replays the calls left through it (calls are few and
take-backs rare, so a state keeps no undo copies).

A validator checks each call of a record with ``explain(call, seat_written)``
and then makes it, allowed or not, with ``push_unchecked(call, seat_written)``.
Both are cheap for the usual allowed call: the state is a handful of plain
attributes of a ``__slots__`` class, the history a list of (seat, call) tuples,
seats are compared by identity, and the bid ladder above the standing bid is
worked out once per bid, not once per call.

``explain_illegal_call(state, call, seat)`` is ``state.explain(call, seat)``.

Rules: ``docs/rules.md`` §2 (taking) and §6 (auction); the choices made where the
rule books are open are listed in its §10.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from functools import lru_cache
from typing import NamedTuple

from notation.values import (COINCHE, PASS, SEATS, SURCOINCHE, TAKE, Call, CallKind, Card, Denomination, Rank,
                            Seat, Suit)
from notation.record import CallEntry

from .contract import Contract, contract_of
from .rules import Rules

SUIT_DENOMINATIONS: tuple[Denomination, ...] = tuple(Denomination.of_suit(s) for s in Suit)
ALL_DENOMINATIONS: tuple[Denomination, ...] = tuple(Denomination)

_PASS, _TAKE, _NAME, _BID = CallKind.PASS, CallKind.TAKE, CallKind.NAME, CallKind.BID
_CAPOT, _GENERALE, _COINCHE, _SURCOINCHE = CallKind.CAPOT, CallKind.GENERALE, CallKind.COINCHE, CallKind.SURCOINCHE
_CAPOT_BELOTE, _GENERALE_BELOTE = CallKind.CAPOT_BELOTE, CallKind.GENERALE_BELOTE
_NORTH_SOUTH = (Seat.NORTH, Seat.SOUTH)  # a side by membership: Seat.team is a Python-level property
# The next seat each way round (Seat.next is a Python-level call).
_NEXT: dict[bool, dict[Seat, Seat]] = {clockwise: {seat: seat.next(clockwise) for seat in SEATS}
                                       for clockwise in (False, True)}


class SeatedCall(NamedTuple):
    seat: Seat
    call: Call

    def __str__(self) -> str:
        return f"{self.seat} {self.call}"


class Illegality(NamedTuple):
    """Why a call is not allowed: a stable ``rule`` id and a message naming seat and call."""

    rule: str
    message: str


class AuctionError(ValueError):
    """A call that may not be made; ``seat``, ``call`` and the ``rule`` id say which and why."""

    def __init__(self, message: str, seat: Seat | None, call: Call, rule: str) -> None:
        super().__init__(message)
        self.seat = seat
        self.call = call
        self.rule = rule


class IllegalCallError(AuctionError):
    """The call breaks a rule of the taking or the auction."""


class OutOfTurnError(AuctionError):
    """The call was made by a seat that is not in turn (and may not interject)."""


class AuctionClosedError(AuctionError):
    """A call after the taking or the auction has closed."""


# Stable rule ids; the validator maps them to its catalogue (replay.CALL_RULES).
RULE_CLOSED = "auction.closed"
RULE_OUT_OF_TURN = "auction.out-of-turn"
_ERRORS: dict[str, type[AuctionError]] = {RULE_CLOSED: AuctionClosedError, RULE_OUT_OF_TURN: OutOfTurnError}


def explain_illegal_call(state: BiddingState, call: Call, seat: Seat | None = None) -> Illegality | None:
    """``None`` if ``seat`` (default: the seat in turn) may make ``call`` now, else why not."""
    return state.explain(call, seat)


def first_speaker_of(rules: Rules, dealer: Seat) -> Seat:
    """Who speaks first (``first_speaker``): the dealer's next player in play order, the
    dealer, or the player sitting on the dealer's left or right. Seats sit as on a map,
    so North's left is East (the next seat clockwise) and his right is West (002 "딜러
    왼쪽의 플레이어", 004 "딜러의 오른쪽 사람부터")."""
    how = rules.first_speaker
    if how == "dealer":
        return dealer
    clockwise = rules.clockwise if how == "dealer_next" else how == "dealer_left"
    return _NEXT[clockwise][dealer]


def dealer_of_first_speaker(rules: Rules, first: Seat) -> Seat:
    """The dealer under whom ``first`` speaks first (the inverse of ``first_speaker_of``)."""
    return next(seat for seat in SEATS if first_speaker_of(rules, seat) is first)


class BiddingState(ABC):
    """What the taking and the auction share: seats, history, take-backs, checked pushes.

    A state defines ``_allows(call, seat)`` (the rule: may the seat in turn make the
    call), ``push_unchecked`` (the move), ``_reset`` (the state before any call),
    ``_candidates`` (every call ``legal_calls`` may list, in its order) and the
    explanations of a refused call.
    """

    __slots__ = ("rules", "dealer", "clockwise", "first_speaker", "_next", "_history", "_turn")
    _name = "auction"

    def __init__(self, rules: Rules, dealer: Seat) -> None:
        self.rules = rules
        self.dealer = dealer
        self.clockwise = rules.clockwise
        self._next = _NEXT[self.clockwise]
        self.first_speaker = first_speaker_of(rules, dealer)
        self._history: list[tuple[Seat, Call]] = []  # (seat, call): SeatedCall is built on demand
        self._turn: Seat | None = self.first_speaker

    # --- queries ----------------------------------------------------------------------

    @property
    def turn(self) -> Seat | None:
        """The seat to call; ``None`` once the taking or auction is over."""
        return self._turn

    @property
    def history(self) -> tuple[SeatedCall, ...]:
        return tuple(SeatedCall(seat, call) for seat, call in self._history)

    def entries(self) -> tuple[CallEntry, ...]:
        """The history as record entries."""
        return tuple(CallEntry(call, seat) for seat, call in self._history)

    @property
    def is_over(self) -> bool:
        return self._turn is None

    @property
    def is_void(self) -> bool:
        """Over with no contract: everybody passed."""
        return self._turn is None and self.contract is None

    @property
    @abstractmethod
    def contract(self) -> Contract | None:
        """The contract so far (the standing bid), ``None`` when nobody has taken or bid."""

    def __len__(self) -> int:
        return len(self._history)

    # --- the rule ----------------------------------------------------------------------

    def legal_calls(self) -> list[Call]:
        """The calls the seat in turn may make, pass first; empty once over."""
        turn = self._turn
        if turn is None:
            return []
        allows = self._allows
        return [call for call in self._candidates() if allows(call, turn)]

    def is_legal(self, call: Call, seat: Seat | None = None) -> bool:
        return self.explain(call, seat) is None

    def explain(self, call: Call, seat: Seat | None = None) -> Illegality | None:
        """``None`` if ``seat`` (default: the seat in turn) may make ``call`` now, else the
        rule it breaks. Cheap when the call is allowed: the explanation is built only
        for a call that is not."""
        turn = self._turn
        if turn is not None and (seat is None or seat is turn) and self._allows(call, turn):
            return None
        if turn is None:
            return self._explain_closed(call, seat)
        if seat is not None and seat is not turn:
            return self._explain_out_of_turn(call, seat, turn)
        return self._explain_in_turn(call, turn)

    @abstractmethod
    def _allows(self, call: Call, seat: Seat) -> bool:
        """Whether the seat in turn may make ``call``."""

    @abstractmethod
    def _candidates(self) -> tuple[Call, ...]:
        """Every call ``legal_calls`` may list, in the order it lists them."""

    # --- moves -------------------------------------------------------------------------

    def push(self, call: Call, seat: Seat | None = None) -> None:
        """Make a call, checked; ``seat`` defaults to the seat in turn."""
        problem = self.explain(call, seat)
        if problem is not None:
            error = _ERRORS.get(problem.rule, IllegalCallError)
            raise error(problem.message, self._caller(seat), call, problem.rule)
        self.push_unchecked(call, seat)

    @abstractmethod
    def push_unchecked(self, call: Call, seat: Seat | None = None) -> None:
        """Record ``call`` as made by ``seat`` (default: the seat in turn) without checking
        it, keeping a sensible state (docs/rules.md §10): an illegal call has the effect it
        would have had were it legal, a call that can have no effect counts as a pass, a
        call after the close is recorded and changes nothing."""

    def pop(self) -> SeatedCall:
        """Take back the last call (the calls left are replayed from the start)."""
        if not self._history:
            raise IndexError(f"no call to take back in the {self._name}")
        kept = self._history
        last = kept.pop()
        self._history = []
        self._reset()
        for seat, call in kept:
            self.push_unchecked(call, seat)
        return SeatedCall(*last)

    @abstractmethod
    def _reset(self) -> None:
        """Put the state back as it is before the first call (the history aside)."""

    # --- explanations ------------------------------------------------------------------

    def _explain_closed(self, call: Call, seat: Seat | None) -> Illegality | None:
        """Why nobody may call once the taking or the auction is over."""
        return Illegality(RULE_CLOSED, f"{self._caller(seat)} cannot call {call}: the {self._name} is over")

    @abstractmethod
    def _explain_in_turn(self, call: Call, seat: Seat) -> Illegality:
        """Why the seat in turn may not make ``call`` (which it may not)."""

    def _explain_out_of_turn(self, call: Call, seat: Seat, turn: Seat) -> Illegality | None:
        return Illegality(RULE_OUT_OF_TURN, f"{seat} cannot call {call}: it is {turn}'s turn to call")

    def _caller(self, seat: Seat | None) -> Seat:
        """The seat a call is made by: the one given, else the seat in turn, else (once
        over) the seat after the last caller."""
        if seat is not None:
            return seat
        if self._turn is not None:
            return self._turn
        return self._next[self._history[-1][0]] if self._history else self.first_speaker


# --- classic belote: the turned card and two rounds -------------------------------------

RULE_ROUND1 = "taking.round1-take-or-pass"
RULE_ROUND2 = "taking.round2-name-or-pass"
RULE_TURNED_SUIT = "taking.round2-turned-suit"
RULE_ROUND2_SA_TA = "taking.round2-sa-ta"
RULE_DEALER_MUST_TAKE = "taking.jack-forces-dealer"

# What legal_calls may list in the taking, in its order: pass, take, then the names S H D C SA TA.
_TAKING_CALLS: tuple[Call, ...] = (PASS, TAKE) + tuple(Call(CallKind.NAME, d) for d in ALL_DENOMINATIONS)
_ROUND2: dict[tuple[bool, bool, Suit], tuple[Denomination, ...]] = {}


def _round2_names(same_suit: bool, sa_ta: bool, turned: Suit) -> tuple[Denomination, ...]:
    """The denominations that may be named in round 2: the suits S H D C (the turned one
    only with ``round2_same_suit``), then SA and TA with ``round2_sa_ta``."""
    key = (same_suit, sa_ta, turned)
    names = _ROUND2.get(key)
    if names is None:
        named = [d for d in SUIT_DENOMINATIONS if same_suit or d.suit is not turned]
        if sa_ta:
            named += [Denomination.NO_TRUMPS, Denomination.ALL_TRUMPS]
        names = _ROUND2[key] = tuple(named)
    return names


class TakingState(BiddingState):
    """Classic belote (docs/rules.md §2): round 1 take or pass, round 2 name a denomination or pass.

    The first take or name closes the taking; eight passes make the deal void. The
    turn follows the number of calls made, so a call recorded against the wrong seat
    does not shift the seats of the calls after it.
    """

    __slots__ = ("turned", "order", "_contract", "_taken", "_names", "_must_take")
    _name = "taking"

    def __init__(self, rules: Rules, dealer: Seat, turned: Card) -> None:
        super().__init__(rules, dealer)
        self.turned = turned
        following = self._next
        second = following[self.first_speaker]
        third = following[second]
        self.order: tuple[Seat, ...] = (self.first_speaker, second, third, following[third])
        self._contract: Contract | None = None
        self._taken = Denomination.of_suit(turned.suit)  # what a take makes trump
        self._names = _round2_names(rules.round2_same_suit, rules.round2_sa_ta, turned.suit)
        # jack_forces_dealer: the dealer may not pass in round 1 over a turned jack
        self._must_take = dealer if rules.jack_forces_dealer and turned.rank is Rank.JACK else None

    @property
    def round(self) -> int:
        """1 or 2 while calls are made; 3 once eight passes have closed the taking."""
        return len(self._history) // 4 + 1

    @property
    def contract(self) -> Contract | None:
        return self._contract

    @property
    def dealer_must_take(self) -> bool:
        """``jack_forces_dealer``: the dealer, in turn in round 1, may not pass over a turned jack."""
        return self._turn is not None and len(self._history) < 4 and self._turn is self._must_take

    def _allows(self, call: Call, seat: Seat) -> bool:
        """Round 1: take, or pass (not for a dealer forced by a jack); round 2: pass or a
        name the rules allow."""
        kind = call.kind
        if len(self._history) < 4:
            return kind is _TAKE or (kind is _PASS and seat is not self._must_take)
        return kind is _PASS or (kind is _NAME and call.denomination in self._names)

    def _candidates(self) -> tuple[Call, ...]:
        return _TAKING_CALLS

    def push_unchecked(self, call: Call, seat: Seat | None = None) -> None:
        turn = self._turn
        who = seat if seat is not None else turn if turn is not None else self._caller(None)
        history = self._history
        history.append((who, call))
        if turn is None:
            return  # a call after the close has no effect
        if call.kind is _TAKE:
            self._contract = contract_of(who, self._taken)
        elif call.denomination is not None:  # a name (or a bid) makes the contract, in any round
            self._contract = contract_of(who, call.denomination)
        made = len(history)
        self._turn = None if self._contract is not None or made >= 8 else self.order[made & 3]

    def _reset(self) -> None:
        self._contract = None
        self._turn = self.first_speaker

    def _explain_in_turn(self, call: Call, seat: Seat) -> Illegality:
        said = f"{seat} cannot call {call}"
        if self.round == 1:
            if call.kind is _PASS:  # refused in round 1: the dealer forced by a jack
                return Illegality(RULE_DEALER_MUST_TAKE,
                                  f"{said}: the dealer must take when the turned card is a jack ({self.turned})")
            return Illegality(RULE_ROUND1, f"{said}: in round 1 the only calls are take and pass")
        if call.kind is _NAME and call.denomination is not None:
            if call.denomination.suit is self.turned.suit:
                return Illegality(RULE_TURNED_SUIT,
                                  f"{said}: the turned suit ({self.turned.suit.plural}) may not be named in round 2")
            return Illegality(RULE_ROUND2_SA_TA, f"{said}: SA and TA may not be named (round2_sa_ta is off)")
        return Illegality(RULE_ROUND2, f"{said}: in round 2 the only calls are a suit name and pass")


# --- coinche / contrée: the auction ------------------------------------------------------

RULE_NOT_AUCTION_CALL = "auction.not-an-auction-call"
RULE_DENOMINATION = "auction.denomination"
RULE_GENERALE_OFF = "auction.generale-off"
RULE_CAPOT_BELOTE_OFF = "auction.capot-belote-off"
RULE_GENERALE_BELOTE_OFF = "auction.generale-belote-off"
RULE_BELOTE_BID_NO_TRUMP = "auction.belote-bid-no-trump"
RULE_BID_VALUE = "auction.bid-value"
RULE_BID_NOT_HIGHER = "auction.bid-not-higher"
RULE_BID_AFTER_COINCHE = "auction.bid-after-coinche"
RULE_COINCHER_PARTNER = "auction.coincher-partner-must-pass"
RULE_COINCHE_NO_BID = "auction.coinche-no-bid"
RULE_COINCHE_OWN_SIDE = "auction.coinche-own-side"
RULE_COINCHE_TWICE = "auction.coinche-twice"
RULE_COINCHE_LATE = "auction.coinche-late"
RULE_SURCOINCHE_OFF = "auction.surcoinche-off"
RULE_SURCOINCHE_NO_COINCHE = "auction.surcoinche-no-coinche"
RULE_SURCOINCHE_BY_DEFENCE = "auction.surcoinche-by-defence"
RULE_SURCOINCHE_LATE = "auction.surcoinche-late"

# The levels above every value, in ladder order: capot, capot belote (003: "Capot보다 높으며"),
# générale, générale belote (ordered as their values 500 < 750 < 1000 < 1500 in 003).
_SLAM_LEVELS: dict[CallKind, int] = {_CAPOT: 1_000_000, _CAPOT_BELOTE: 1_500_000, _GENERALE: 2_000_000,
                                     _GENERALE_BELOTE: 3_000_000}
_SLAM_KINDS = tuple(_SLAM_LEVELS)


def bid_level(call: Call) -> int:
    """A number that orders bids: the value, then capot, capot belote, générale, générale belote."""
    kind = call.kind
    return (call.value or 0) if kind is _BID else _SLAM_LEVELS.get(kind, 0)


def bid_denominations(rules: Rules) -> tuple[Denomination, ...]:
    return ALL_DENOMINATIONS if rules.sa_ta else SUIT_DENOMINATIONS


def belote_bid_denominations(rules: Rules) -> tuple[Denomination, ...]:
    """Where a capot belote or générale belote may be bid: where a belote can be held (never at
    SA; at TA only where bid and ``belote_at_ta``)."""
    return tuple(d for d in bid_denominations(rules)
                 if d.is_suit or (d is Denomination.ALL_TRUMPS and rules.belote_at_ta))


@lru_cache(maxsize=64)
def slam_bids(rules: Rules) -> dict[CallKind, tuple[int, tuple[Denomination, ...]]]:
    """The bids above the values that ``rules`` play, each with its level and denominations:
    capot always; générale, capot belote, générale belote where their value is not 0."""
    plain, belote = bid_denominations(rules), belote_bid_denominations(rules)
    played = {_CAPOT: plain, _CAPOT_BELOTE: belote if rules.capot_belote else None,
              _GENERALE: plain if rules.generale else None,
              _GENERALE_BELOTE: belote if rules.generale_belote else None}
    return {kind: (_SLAM_LEVELS[kind], where) for kind, where in played.items() if where is not None}


def bid_values_above(rules: Rules, level: int) -> range:
    """The bid values allowed over a standing bid of ``level`` (0: no bid yet): the ladder
    of ``bid_min``..``bid_max`` by ``bid_step``, or with ``bid_values=any_step`` any whole
    value a step above the last bid (the first bid: any value from ``bid_min``)."""
    if rules.bid_values == "multiples":
        above = max(0, (level - rules.bid_min) // rules.bid_step + 1) if level else 0
        return range(rules.bid_min + above * rules.bid_step, rules.bid_max + 1, rules.bid_step)
    lowest = level + rules.bid_step if level else rules.bid_min
    return range(max(lowest, rules.bid_min), rules.bid_max + 1)


def _is_bid_above(denominations: tuple[Denomination, ...], slams: dict[CallKind, tuple[int, tuple[Denomination, ...]]],
                  level: int, values: range, call: Call) -> bool:
    """Whether ``call`` is a bid higher than a standing bid of ``level``: a value in
    ``values`` (``bid_values_above(rules, level)``) in a denomination played, or a bid of
    ``slams`` (``slam_bids(rules)``) above ``level`` in one of its denominations."""
    kind = call.kind
    if kind is _BID:
        return call.denomination in denominations and call.value in values
    slam = slams.get(kind)
    return slam is not None and level < slam[0] and call.denomination in slam[1]


@lru_cache(maxsize=None)
def _ladder(rules: Rules) -> tuple[Call, ...]:
    """Every bid that may ever be made under ``rules``, ascending: the values of the
    ladder, then capot, capot belote, générale, générale belote, each in S H D C SA TA."""
    values = bid_values_above(rules, 0)
    return tuple([Call(_BID, d, v) for v in values for d in ALL_DENOMINATIONS]
                 + [Call(kind, d) for kind in _SLAM_KINDS for d in ALL_DENOMINATIONS])


@lru_cache(maxsize=1024)
def bids_above(rules: Rules, level: int) -> tuple[Call, ...]:
    """Every bid higher than ``level``, ascending: values, then capot, capot belote,
    générale, générale belote; denominations S H D C (SA TA) within a level."""
    denominations, slams, values = bid_denominations(rules), slam_bids(rules), bid_values_above(rules, level)
    return tuple(call for call in _ladder(rules) if _is_bid_above(denominations, slams, level, values, call))


class AuctionState(BiddingState):
    """The coinche auction (docs/rules.md §6).

    A pass does not stop a later bid. The auction ends after three passes following
    a bid or a coinche, at once after a surcoinche (unless ``surcoinche_closes`` is
    false: then three passes follow it too), at once after a coinche with
    ``coinche_closes`` (the bidding side may still answer it with a surcoinche, as the
    next call), and is void after four passes with no bid. After a call the turn passes
    to the player after the caller (so an interjected coinche moves the turn to the
    player after the coincher).
    """

    __slots__ = ("_bid", "_doubling", "_coincher", "_passes", "_level", "_values", "_denominations", "_slams",
                 "_surcoinche", "_decoincher", "_interjections", "_coinche_at_once", "_surcoinche_at_once",
                 "_coinche_closes", "_surcoinche_closes", "_answer")

    def __init__(self, rules: Rules, dealer: Seat) -> None:
        super().__init__(rules, dealer)
        self._denominations = bid_denominations(rules)
        self._slams = slam_bids(rules)
        self._surcoinche = rules.surcoinche
        self._decoincher = rules.decoincher
        self._interjections = rules.coinche_out_of_turn
        self._coinche_at_once = rules.coinche_right_after_bid
        self._surcoinche_at_once = rules.surcoinche_right_after_coinche
        self._coinche_closes = rules.coinche_closes
        self._surcoinche_closes = rules.surcoinche_closes
        self._reset()

    def _reset(self) -> None:
        self._turn = self.first_speaker
        self._bid: tuple[Seat, Call] | None = None  # the standing bid and its bidder
        self._doubling = 0
        self._coincher: Seat | None = None
        self._passes = 0  # calls since the standing bid, coinche or surcoinche (each counts as a pass)
        self._level = 0  # bid_level of the standing bid
        self._values = bid_values_above(self.rules, 0)  # the values a bid may have now
        self._answer = False  # coinche_closes: a surcoinche may still answer the coinche that closed

    @property
    def standing_bid(self) -> SeatedCall | None:
        """The last bid and its bidder."""
        return None if self._bid is None else SeatedCall(*self._bid)

    @property
    def doubling(self) -> int:
        return self._doubling

    @property
    def coincher(self) -> Seat | None:
        return self._coincher

    @property
    def level(self) -> int:
        """The level of the standing bid, 0 before any bid."""
        return self._level

    @property
    def contract(self) -> Contract | None:
        if self._bid is None:
            return None
        seat, call = self._bid
        kind = call.kind
        assert call.denomination is not None
        return contract_of(seat, call.denomination, call.value, kind is _CAPOT or kind is _CAPOT_BELOTE,
                           kind is _GENERALE or kind is _GENERALE_BELOTE, self._doubling,
                           kind is _CAPOT_BELOTE or kind is _GENERALE_BELOTE)

    def interjectors(self) -> list[Seat]:
        """Seats not in turn that may coinche now (``coinche_out_of_turn``, §9.9)."""
        if not self._interjections or self._turn is None:
            return []
        return [seat for seat in SEATS if seat is not self._turn and self.may_coinche(seat)]

    def legal_calls(self) -> list[Call]:
        """As ``BiddingState.legal_calls``; once a closing coinche (``coinche_closes``) has ended
        the auction, ``[surcoinche]`` while that answer is still open (the seat after the
        coincher, of the bidding side, is the one a call without a seat is credited to)."""
        if self._answer:
            return [SURCOINCHE] if self.may_surcoinche(self._caller(None)) else []
        return super().legal_calls()

    def answerers(self) -> list[Seat]:
        """Seats that may answer with a surcoinche the coinche that closed the auction
        (``coinche_closes``); empty otherwise."""
        if not self._answer:
            return []
        return [seat for seat in SEATS if self.may_surcoinche(seat)]

    # --- the rule ----------------------------------------------------------------------

    def may_coinche(self, seat: Seat) -> bool:
        """Whether ``seat`` may coinche the standing bid now (in turn or, where allowed, not):
        an opponent of the bidder, on a bid not yet coinched; with ``coinche_right_after_bid``
        only as the call right after the bid (000: "바로 이전 플레이어(상대 팀)가 내건 공약")."""
        bid = self._bid
        return (bid is not None and not self._doubling and (seat in _NORTH_SOUTH) is not (bid[0] in _NORTH_SOUTH)
                and not (self._coinche_at_once and self._passes))

    def may_surcoinche(self, seat: Seat) -> bool:
        """Whether ``seat`` may surcoinche: the bidding side, on a coinched bid, with ``surcoinche``;
        with ``surcoinche_right_after_coinche`` only as the call right after the coinche (000:
        "쿠앙슈를 선언하고 바로 다음에")."""
        bid = self._bid
        return (self._surcoinche and self._doubling == 1 and bid is not None
                and (seat in _NORTH_SOUTH) is (bid[0] in _NORTH_SOUTH)
                and not (self._surcoinche_at_once and self._passes))

    def _allows(self, call: Call, seat: Seat) -> bool:
        """A pass always; a coinche or surcoinche as ``may_coinche`` and ``may_surcoinche``
        say; a bid above the standing one while no coinche stands (any time with
        ``decoincher``)."""
        kind = call.kind
        if kind is _PASS:
            return True
        if call.denomination is not None and kind is not _NAME:  # a bid (no enum hashing on the hot path)
            return (not self._doubling or self._decoincher) and _is_bid_above(
                self._denominations, self._slams, self._level, self._values, call)
        if kind is _COINCHE:
            return self.may_coinche(seat)
        return kind is _SURCOINCHE and self.may_surcoinche(seat)

    def _candidates(self) -> tuple[Call, ...]:
        return (PASS, COINCHE, SURCOINCHE) + bids_above(self.rules, self._level)

    # --- the move ----------------------------------------------------------------------

    def push_unchecked(self, call: Call, seat: Seat | None = None) -> None:
        """Unchecked: a bid of any level stands, a coinche or surcoinche that cannot
        apply (no bid, no coinche) and a classic call count as passes; after a closing
        coinche (``coinche_closes``) the next call, if a surcoinche, doubles again."""
        turn = self._turn
        who = seat if seat is not None else turn if turn is not None else self._caller(None)
        self._history.append((who, call))
        kind = call.kind
        if turn is None:  # a call after the close has no effect, but the answer to a closing coinche
            if self._answer and kind is _SURCOINCHE:
                self._doubling = 2
            self._answer = False
            return
        if call.denomination is not None and kind is not _NAME:  # a bid of any kind
            self._bid = (who, call)
            self._level = level = bid_level(call)
            self._values = bid_values_above(self.rules, level)
            self._doubling, self._coincher, self._passes = 0, None, 0
            self._turn = self._next[who]
        elif kind is _COINCHE and self._bid is not None and not self._doubling:
            self._doubling, self._coincher, self._passes = 1, who, 0
            if self._coinche_closes:  # 003 "그 시점에서 바로 끝난다", 004 "경매는 즉시 종료되고"
                self._turn, self._answer = None, self._surcoinche
            else:
                self._turn = self._next[who]
        elif kind is _SURCOINCHE and self._doubling == 1:
            self._doubling, self._passes = 2, 0
            # surcoinche_closes=false (000): three passes close the auction, a higher bid (decoincher) cancels it
            self._turn = None if self._surcoinche_closes else self._next[who]
        else:
            self._passes = passes = self._passes + 1
            self._turn = None if passes >= (3 if self._bid is not None else 4) else self._next[who]

    # --- explanations ------------------------------------------------------------------

    def _explain_closed(self, call: Call, seat: Seat | None) -> Illegality | None:
        if call.kind is _SURCOINCHE and self._answer:
            who = self._caller(seat)
            return None if self.may_surcoinche(who) else self._explain_surcoinche(who, call)
        return super()._explain_closed(call, seat)

    def _explain_out_of_turn(self, call: Call, seat: Seat, turn: Seat) -> Illegality | None:
        if call.kind is _COINCHE and self._interjections:
            return None if self.may_coinche(seat) else self._explain_coinche(seat, call)
        return super()._explain_out_of_turn(call, seat, turn)

    def _explain_in_turn(self, call: Call, seat: Seat) -> Illegality:
        said = f"{seat} cannot call {call}"
        kind = call.kind
        if kind is _TAKE or kind is _NAME:
            return Illegality(RULE_NOT_AUCTION_CALL,
                              f"{said}: the auction has bids, pass, coinche and surcoinche, not take or a bare suit")
        if kind is _COINCHE:
            return self._explain_coinche(seat, call)
        if kind is _SURCOINCHE:
            return self._explain_surcoinche(seat, call)
        return self._explain_bid(call, seat, said)

    def _explain_bid(self, call: Call, seat: Seat, said: str) -> Illegality:
        assert call.denomination is not None
        rules = self.rules
        if self._doubling and not self._decoincher:
            if self._coincher is not None and seat is self._coincher.partner:
                return Illegality(RULE_COINCHER_PARTNER, f"{said}: after {self._coincher}'s coinche "
                                  f"the coincher's partner may only pass")
            return Illegality(RULE_BID_AFTER_COINCHE, f"{said}: nobody may bid after a coinche "
                              f"(decoincher=false); pass or surcoinche")
        if call.denomination not in self._denominations:
            return Illegality(RULE_DENOMINATION, f"{said}: SA and TA are not played (sa_ta=false)")
        kind = call.kind
        if kind in _OFF_RULES and kind not in self._slams:
            rule, option, name = _OFF_RULES[kind]
            return Illegality(rule, f"{said}: {name} is not played ({option}=0)")
        if kind in _SLAM_LEVELS and call.denomination not in self._slams[kind][1]:
            return Illegality(RULE_BELOTE_BID_NO_TRUMP, f"{said}: there is no belote to say at "
                              f"{call.denomination} (a belote is the K and Q of trump)")
        if kind is _BID and call.value not in bid_values_above(rules, 0):
            ladder = (f"a multiple of {rules.bid_step} from {rules.bid_min}" if rules.bid_values == "multiples"
                      else f"a whole number from {rules.bid_min}")
            return Illegality(RULE_BID_VALUE, f"{said}: a bid is {ladder} to {rules.bid_max}")
        needed = "" if rules.bid_values == "multiples" or kind is not _BID else \
            f" by at least {rules.bid_step}"
        return Illegality(RULE_BID_NOT_HIGHER, f"{said}: a bid must be higher{needed} than {self._bid_text()}")

    def _explain_coinche(self, seat: Seat, call: Call) -> Illegality:
        said = f"{seat} cannot call {call}"
        if self._bid is None:
            return Illegality(RULE_COINCHE_NO_BID, f"{said}: there is no bid to coinche")
        if self._doubling:
            return Illegality(RULE_COINCHE_TWICE, f"{said}: {self._bid_text()} is already coinched")
        if (seat in _NORTH_SOUTH) is (self._bid[0] in _NORTH_SOUTH):
            return Illegality(RULE_COINCHE_OWN_SIDE,
                              f"{said}: only an opponent of the bidder may coinche {self._bid_text()}")
        return Illegality(RULE_COINCHE_LATE, f"{said}: a coinche is made on the bid just made, right after it "
                          f"(coinche_right_after_bid), and {self._passes} call(s) followed {self._bid_text()}")

    def _explain_surcoinche(self, seat: Seat, call: Call) -> Illegality:
        said = f"{seat} cannot call {call}"
        if not self._surcoinche:
            return Illegality(RULE_SURCOINCHE_OFF, f"{said}: surcoinche is not played (surcoinche=false)")
        if self._doubling != 1:
            return Illegality(RULE_SURCOINCHE_NO_COINCHE, f"{said}: there is no coinche to answer")
        if (seat in _NORTH_SOUTH) is not (self._bid[0] in _NORTH_SOUTH):  # type: ignore[index]
            return Illegality(RULE_SURCOINCHE_BY_DEFENCE,
                              f"{said}: only the bidding side ({self._bid_text()}) may surcoinche")
        return Illegality(RULE_SURCOINCHE_LATE, f"{said}: a surcoinche is made right after the coinche "
                          f"(surcoinche_right_after_coinche), and {self._passes} call(s) followed "
                          f"{self._coincher}'s coinche")

    def _bid_text(self) -> str:
        return f"{self._bid[1]} by {self._bid[0]}" if self._bid else "no bid"


# A bid of a kind its rules do not play: (rule id, option, name).
_OFF_RULES: dict[CallKind, tuple[str, str, str]] = {
    _GENERALE: (RULE_GENERALE_OFF, "generale", "générale"),
    _CAPOT_BELOTE: (RULE_CAPOT_BELOTE_OFF, "capot_belote", "capot belote"),
    _GENERALE_BELOTE: (RULE_GENERALE_BELOTE_OFF, "generale_belote", "générale belote"),
}


def new_bidding(rules: Rules, dealer: Seat, turned: Card | None = None) -> BiddingState:
    """The taking (classic, needs the turned card) or the auction (coinche) of ``rules``."""
    if rules.is_coinche:
        return AuctionState(rules, dealer)
    if turned is None:
        raise ValueError("the classic taking needs the turned card")
    return TakingState(rules, dealer, turned)
