"""The faults of a record: its deal, calls and play replayed through the rules engine.

``find_faults(data, rules)`` checks the deal (32 distinct cards, 8 a hand), the seats
(dealer, first speaker, trick leaders), every call of the taking or the auction and
every card of the play, on the record as read (``notation.RecordData``). After a fault
it goes on with the call or card as written (``push_unchecked``/``apply``), so one
record reports all its faults. Each call and each card is one ``explain`` or ``fault``
of the engine and one move; messages and alternatives are made only for a fault.

Hidden cards: when hands are missing but the 32 plays are known, the hands are rebuilt
from the plays; otherwise the known hands and cards are checked, a seat that showed out
of a suit may not play it later, and the replay stops at the first unknown card played
(an info finding says what was not checked).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from notation import RecordData
from notation.lexer import UNKNOWN
from notation.values import ALL_CARDS, SEATS, CallKind, Card, Seat, Suit, canonical_hand_order

from ..engine.bidding import AuctionState, BiddingState, TakingState, dealer_of_first_speaker
from ..engine.claims import claim_holds
from ..engine.contract import Contract
from ..engine.play import PlayState, explain_illegal
from ..engine.rules import Rules
from .findings import Finding, Location, make_finding

PLAY_RULES = {"not-in-hand": "card-not-held", "must-overtrump-in-trump-lead": "trump-lead-must-go-over"}
CALL_RULES = {
    "auction.closed": "call-after-auction-closed", "auction.out-of-turn": "call-out-of-turn",
    "auction.not-an-auction-call": "illegal-call", "auction.denomination": "denomination-not-played",
    "auction.generale-off": "generale-not-played", "auction.bid-value": "bid-value",
    "auction.bid-not-higher": "bid-not-higher", "auction.bid-after-coinche": "bid-after-coinche",
    "auction.coincher-partner-must-pass": "coincher-partner-must-pass",
    "auction.coinche-no-bid": "coinche-without-bid", "auction.coinche-own-side": "coinche-by-bidding-side",
    "auction.coinche-twice": "coinche-twice", "auction.surcoinche-off": "surcoinche-not-played",
    "auction.surcoinche-no-coinche": "surcoinche-without-coinche",
    "auction.surcoinche-by-defence": "surcoinche-by-defence",
    "auction.capot-belote-off": "capot-belote-not-played", "auction.generale-belote-off": "generale-belote-not-played",
    "auction.belote-bid-no-trump": "belote-bid-without-trump", "auction.coinche-late": "coinche-not-right-after-bid",
    "auction.surcoinche-late": "surcoinche-not-right-after-coinche",
    "taking.round1-take-or-pass": "illegal-call", "taking.round2-name-or-pass": "illegal-call",
    "taking.round2-turned-suit": "taking-turned-suit", "taking.round2-sa-ta": "denomination-not-played",
    "taking.jack-forces-dealer": "dealer-must-take",
}
_DEALER_TAGS = {str(seat): seat for seat in SEATS}
_BITS = tuple(1 << index for index in range(32))


@dataclass(slots=True)
class Faults:
    """What one replay found and built."""

    data: RecordData
    rules: Rules
    index: int = 0
    findings: list[Finding] = field(default_factory=list)
    dealer: Seat | None = None
    masks: tuple[int, int, int, int] | None = None  # the hands as dealt (N E S W), when known or rebuilt
    bidding: BiddingState | None = None
    contract: Contract | None = None
    state: PlayState | None = None
    void: bool = False  # everybody passed: no contract, no play
    complete: bool = False  # 8 tricks played, or a claim: the deal can be scored
    unchecked: list[str] = field(default_factory=list)  # what hidden cards kept from being checked

    def at(self, place: int, trick: int | None = None, card: int | None = None, shift: int = 0) -> Location:
        """The location of the item at ``place`` (nowhere for place 0)."""
        position = self.data.position(place, shift)
        if position is None:
            return Location(self.index, None, None, trick, card)
        return Location(self.index, position[0], position[1], trick, card)

    def tag_at(self, name: str) -> Location:
        position = self.data.tag_position(name)
        return Location(self.index) if position is None else Location(self.index, *position)

    def add(self, rule: str, message: str, location: Location, *, seat: object = None, card: object = None,
            alternatives: tuple[str, ...] = ()) -> None:
        # make_finding's keywords spelled out: a compiled call through **kwargs lost an exception (mypyc 2.4)
        self.findings.append(make_finding(rule, message, location, seat=seat, card=card, alternatives=alternatives))

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity.rank == 0)

    def play_at(self, number: int, trick: int, position: int) -> Location:
        """The location of play ``number`` (from 0), card ``position`` of trick ``trick`` (from 1)."""
        _, seat, _, place = self.data.plays[number]
        return self.at(place, trick, position, 2 if seat is not None else 0)

    def call_at(self, number: int, numbered: bool = True) -> Location:
        """The location of call ``number`` (from 0), with its number (as the card of the location) or not."""
        _, seat, _, place = self.data.calls[number]
        return self.at(place, None, number + 1 if numbered else None, 2 if seat is not None else 0)

    def trick_at(self, number: int, trick: int | None = None) -> Location:
        """The location of trick ``number`` (from 0), with ``trick`` as its trick number (or none)."""
        position = self.data.trick_position(number)
        return Location(self.index, None, None, trick) if position is None else Location(self.index, *position, trick)

    def hands(self) -> list[tuple[Seat, list[int] | None, int, list[str]]]:
        """The hands written, in seat order, each seat's first one only (a ``Record`` built in code
        may give a seat two hands, which the reader refuses: ``_deal`` reports the others)."""
        hands = self.data.hands
        if len(hands) <= 4 and all(hands[i][0] is SEATS[i] for i in range(len(hands))):  # as written: N E S W
            return hands
        ordered = sorted(hands, key=lambda hand: hand[0].index)
        return [hand for i, hand in enumerate(ordered) if i == 0 or hand[0] is not ordered[i - 1][0]]


def find_faults(data: RecordData, rules: Rules, index: int = 0, dealer: Seat | None = None) -> Faults:
    """Replay ``data`` under ``rules`` (``dealer`` overrides the record's); never raises on a bad record."""
    run = Faults(data, rules, index)
    run.dealer = dealer or _dealer(run)
    _bidding(run)
    run.masks = _deal(run)
    if data.tricks or data.claim is not None:
        _play(run)
    return run


def previous(seat: Seat, rules: Rules) -> Seat:
    return seat.next(not rules.clockwise)


def _card(index: int) -> Card:
    return ALL_CARDS[index]


# --- seats --------------------------------------------------------------------

def _dealer(run: Faults) -> Seat:
    data, rules = run.data, run.rules
    written = data.tag("Dealer")
    dealer = _DEALER_TAGS.get(written) if written is not None else None  # type: ignore[arg-type]
    if dealer is None and written:
        try:
            dealer = Seat.parse(written)
        except ValueError:
            dealer = None
    if dealer is not None:
        return dealer
    guess, how = None, ""
    if data.calls and data.calls[0][1] is not None:
        first = data.calls[0][1]
        guess, how = dealer_of_first_speaker(rules, first), "the first call"
    elif data.plays and data.tricks and data.plays[0][1] is not None:
        first = data.plays[0][1]
        guess, how = (first if rules.first_leader == "dealer" else previous(first, rules)), "the first lead"
    if guess is None:  # no seat written anywhere: the dealer under which the record replays best
        guess = min(SEATS, key=lambda seat: find_faults(data, rules, run.index, seat).errors)
        how = "the seat under which the record replays with the fewest faults"
    what = f"Dealer tag {written!r} is not a seat" if written else "no Dealer tag"
    run.add("missing-dealer", f"{what}: dealer {guess.full_name}, from {how}", run.tag_at("Dealer"), seat=guess)
    return guess


# --- the deal -----------------------------------------------------------------

def _deal(run: Faults) -> tuple[int, int, int, int] | None:
    """Check the hands; return their masks (N E S W) when all four are known and sound."""
    hands = run.hands()
    known = 0
    sound = True
    # A void classic deal stops after the first distribution: 5 cards a hand.
    size = 5 if run.void and not run.rules.is_coinche else 8
    dealt = 0  # cards seen so far, as a mask: duplicates are looked for only when the count is off
    masks = [0, 0, 0, 0]
    if len(hands) < len(run.data.hands):  # a seat given two hands: the first is the deal, the others reported
        _second_hands(run, size)
    for seat, cards, place, _ in hands:
        if cards is None:
            continue
        if len(cards) != size:
            sound = False
            run.add("hand-size", f"{seat.full_name}'s hand has {len(cards)} cards, not {size}", run.at(place),
                    seat=seat)
        written = [index for index in cards if index != UNKNOWN] if UNKNOWN in cards else cards
        mask = sum(map(_BITS.__getitem__, set(written)))
        known += written is cards
        if (mask & ~dealt).bit_count() != len(written):  # a card twice
            sound = False
            _duplicates(run, seat, place, cards, dealt)
        dealt |= mask
        masks[seat.index] = mask
    if known == 4 and sound and size == 8 and len(hands) == 4:
        return masks[0], masks[1], masks[2], masks[3]
    return None


def _second_hands(run: Faults, size: int) -> None:
    """Report each hand of a seat after its first (``Faults.hands`` leaves them out)."""
    given: set[Seat] = set()
    for seat, _, place, _ in run.data.hands:
        if seat in given:
            run.add("hand-size", f"{seat.full_name} is given a second hand: a seat has one hand of {size} cards",
                    run.at(place), seat=seat)
        given.add(seat)


def _duplicates(run: Faults, seat: Seat, place: int, cards: list[int], dealt: int) -> None:
    owners: dict[int, Seat] = {}
    for other, others, _, _ in run.hands():
        if other is seat:
            break
        owners.update((index, other) for index in others or ())
    seen: set[int] = set()
    for index in cards:
        if index == UNKNOWN:
            continue
        if index in seen:
            where = "twice"
        elif dealt >> index & 1:
            where = f"and also to {owners[index].full_name}"
        else:
            seen.add(index)
            continue
        card = _card(index)
        run.add("duplicate-card", f"{card.pretty()} is dealt to {seat.full_name} {where}", run.at(place), seat=seat,
                card=card)


# --- the taking or the auction ------------------------------------------------

def _bidding(run: Faults) -> None:
    data, rules = run.data, run.rules
    calls = data.calls
    if data.bidding is None:
        return
    if (data.bidding == "auction") != rules.is_coinche:
        have, want = ("a taking", "an auction") if rules.is_coinche else ("an auction", "a taking")
        run.add("wrong-bidding-kind", f"the record has {have} but its rules ({rules}) play {want}: "
                f"the calls and the play are not replayed", run.call_at(0, False) if calls else run.at(0))
        return
    if rules.is_coinche:
        state: BiddingState = AuctionState(rules, run.dealer)  # type: ignore[arg-type]
    elif data.turned is None or data.turned == UNKNOWN:
        if len(calls) == 8 and all(call.kind is CallKind.PASS for call, _, _, _ in calls):
            run.void = True  # eight passes: a void deal, whatever the turned card was
        elif data.turned is None:
            run.add("missing-turned-card", "no turned card: the taking cannot be replayed",
                    run.call_at(0, False) if calls else run.at(0))
        else:
            run.add("missing-turned-card", "the turned card is not known (??): the taking cannot be replayed",
                    run.at(data.turned_place))
        return
    else:
        state = TakingState(rules, run.dealer, _card(data.turned))  # type: ignore[arg-type]
    run.bidding = state
    explain, push = state.explain, state.push_unchecked
    for number, (call, seat, _, _) in enumerate(calls):
        problem = explain(call, seat)
        if problem is not None or (number == 0 and seat is not None and seat is not state.first_speaker):
            _call_fault(run, state, number, problem)
        push(call, seat)
    run.contract = state.contract
    run.void = state.is_void
    if not state.is_over and data.tricks:
        name = "taking" if isinstance(state, TakingState) else "auction"
        run.add("auction-incomplete", f"the {name} is not over after {len(calls)} calls, yet cards are played",
                run.call_at(len(calls) - 1, False) if calls else run.at(0))
    if data.tricks and run.void:
        run.add("play-after-void-deal", "everybody passed, yet cards are played", run.trick_at(0, 1))


def _call_fault(run: Faults, state: BiddingState, number: int, problem) -> None:
    """Report call ``number``: a first call by another seat than the first speaker, a call not allowed."""
    call, seat, _, _ = run.data.calls[number]
    if number == 0 and seat is not None and seat is not state.first_speaker:
        run.add("wrong-first-speaker", f"call 1: {seat.full_name} speaks first but the first speaker is "
                f"{state.first_speaker.full_name} (dealer {run.dealer.full_name}, "  # type: ignore[union-attr]
                f"first_speaker={run.rules.first_speaker})", run.call_at(number), seat=seat)
    if problem is not None and not (number == 0 and problem.rule == "auction.out-of-turn"):
        alternatives = tuple(str(c) for c in state.legal_calls()) if state.turn else ()
        run.add(CALL_RULES.get(problem.rule, "illegal-call"), f"call {number + 1}: {problem.message}",
                run.call_at(number), seat=seat or state.turn, card=None, alternatives=alternatives)


def _from_trick(number: int) -> str:
    tricks = "trick 8" if number == 8 else f"tricks {number}-8"
    return f"{tricks} (a card of trick {number} is unknown)"


# --- the play -----------------------------------------------------------------

def _play(run: Faults) -> None:
    data = run.data
    if run.contract is None:
        said = {"missing-turned-card", "wrong-bidding-kind", "auction-incomplete", "play-after-void-deal"}
        if not any(f.rule in said for f in run.findings):
            where = run.trick_at(0, 1) if data.tricks else run.at(data.claim[1])  # type: ignore[index]
            run.add("auction-incomplete", "no taking or auction: the play cannot be replayed without a contract",
                    where)
        return
    if run.masks is None:
        run.masks = _rebuild(run)
    playable = _play_shape(run)
    if run.masks is None:
        _play_hidden(run, playable)
        return
    run.state = PlayState(run.masks, run.contract, run.rules, dealer=run.dealer)
    _check_turned(run)
    run.complete = _play_known(run, run.state, playable)


def _check_turned(run: Faults) -> None:
    """Classic: the turned card goes to the taker."""
    turned, taker = run.data.turned, run.contract.taker  # type: ignore[union-attr]
    if turned is None or turned == UNKNOWN or run.rules.is_coinche or run.masks[taker.index] >> turned & 1:  # type: ignore[index]
        return
    card = _card(turned)
    run.add("turned-card-not-taken", f"the turned card {card.pretty()} is not in the hand of the taker, "
            f"{taker.full_name}", run.at(run.data.turned_place), seat=taker, card=card)


def _check_seat(run: Faults, number: int, seat: Seat, turn: Seat, trick: int, position: int) -> None:
    index = run.data.plays[number][0]
    card = _card(index) if index != UNKNOWN else None
    shown = card.pretty() if card else "??"
    where = run.play_at(number, trick, position)
    if position == 1:
        why = "first_leader" if trick == 1 else f"the winner of trick {trick - 1}"
        run.add("wrong-leader", f"trick {trick}: {seat.full_name} leads {shown} but {turn.full_name} should lead "
                f"({why})", where, seat=seat, card=card)
    else:
        run.add("play-out-of-turn", f"trick {trick}: {seat.full_name} plays {shown} but it is {turn.full_name}'s "
                f"turn", where, seat=seat, card=card)


def _play_shape(run: Faults) -> int:
    """Report every trick of the wrong size and a ninth trick, whether the cards are known or
    not (a ``??`` hides a card, not a trick); the number of tricks the replay can go through."""
    data = run.data
    count = len(data.tricks)
    if len(data.plays) == 4 * count <= 32:
        return count  # the usual play: four cards a trick, at most eight tricks
    playable = count
    for trick in range(1, count + 1):
        plays = data.trick_plays(trick - 1)
        size = len(plays)
        if size > 4:
            run.add("too-many-cards", f"trick {trick} has {size} cards", run.play_at(plays[4], trick, 5))
        if trick > 8:
            run.add("too-many-cards", f"trick {trick}: a deal has 8 tricks (this one has {count})",
                    run.trick_at(trick - 1, trick))
            return min(playable, 8)
        if size < 4 and trick < count:
            run.add("short-trick", f"trick {trick} has {size} cards but is not the last trick",
                    run.trick_at(trick - 1, trick))
            playable = min(playable, trick - 1)
    return playable


def _play_known(run: Faults, state: PlayState, playable: int) -> bool:
    """The play, every hand known, through trick ``playable``: each card checked (``fault``)
    and played (``apply``); returns whether the play is complete."""
    data = run.data
    plays, words, tricks = data.plays, data.declarations, data.tricks
    if len(plays) == 4 * len(tricks) <= 32:  # the usual play, four cards a trick: all in one row
        return _play_row(run, state)
    play = state.play
    for trick in range(1, playable + 1):
        numbers = data.trick_plays(trick - 1)
        for position, number in enumerate(numbers[:4], 1):
            index, seat, _, _ = plays[number]
            if index == UNKNOWN:  # a ?? in a known deal: the card is not known, the replay stops
                run.unchecked.append(_from_trick(trick))
                return False
            word = words.get(number)
            if play(index, word, seat) is not None:
                _card_fault(run, state, number, trick, position)
                state.apply(index, word)  # played as written
    return playable == len(tricks) and _end_of_play(run, state)


def _play_row(run: Faults, state: PlayState) -> bool:
    """The play of tricks of four cards each, checked and played in one row (``play_cards``),
    the row taken up again after each card that has a fault."""
    data = run.data
    cards = [index for index, _, _, _ in data.plays]
    seats = [seat for _, seat, _, _ in data.plays]
    words = [data.declarations.get(number) for number in range(len(cards))] if data.declarations else \
        [None] * len(cards)
    stop = cards.index(UNKNOWN) if UNKNOWN in cards else len(cards)
    start = 0
    while start < stop:
        done, _ = state.play_cards(cards[start:stop], words[start:stop], seats[start:stop])
        number = start + done
        if number == stop:
            break
        _card_fault(run, state, number, number // 4 + 1, number % 4 + 1)
        state.apply(cards[number], words[number])  # played as written
        start = number + 1
    if stop < len(cards):  # a ?? in a known deal: the card is not known, the replay stops
        run.unchecked.append(_from_trick(stop // 4 + 1))
        return False
    return _end_of_play(run, state)


def _card_fault(run: Faults, state: PlayState, number: int, trick: int, position: int) -> None:
    """A card that may not be played as written: say why (the seat, then the rules); the
    caller then plays it as written."""
    index, seat, _, _ = run.data.plays[number]
    turn = state.turn
    if seat is not None and seat is not turn:
        if _last_to_play(state, seat):
            state.give_turn(seat)  # after a card out of turn, the seat left plays last: no new fault
        else:
            _check_seat(run, number, seat, turn, trick, position)  # type: ignore[arg-type]
            if state.hand_mask(seat) >> index & 1 and not state.hand_mask(turn) >> index & 1:  # type: ignore[arg-type]
                state.give_turn(seat)  # the written seat holds the card: it did play out of turn
    if state.fault(index) is not None:
        _illegal_play(run, state, number, trick, position)


def _last_to_play(state: PlayState, seat: Seat) -> bool:
    """``seat`` is the only seat that has not played in the current trick."""
    trick = state.current_trick
    return len(trick) == 3 and all(who is not seat for who, _ in trick)


def _illegal_play(run: Faults, state: PlayState, number: int, trick: int, position: int) -> None:
    card = _card(run.data.plays[number][0])
    why = explain_illegal(state, card)
    if why is None:
        return
    run.add(PLAY_RULES.get(why.reason, why.reason), f"trick {trick}: {why.message()}",
            run.play_at(number, trick, position), seat=why.seat, card=card,
            alternatives=tuple(str(c) for c in why.legal))


def _end_of_play(run: Faults, state: PlayState) -> bool:
    data = run.data
    if state.is_over:
        if data.claim is not None:
            run.add("claim-inconsistent", f"{data.claim[0].full_name} claims after the last trick",
                    run.at(data.claim[1]), seat=data.claim[0])
        return True
    if data.claim is not None:
        _check_claim(run, state)
        return True
    if data.stopped:
        run.add("play-stopped", f"the play stops after {len(data.plays)} cards (*): the deal is not rescored",
                _last_trick(run))
        return False
    run.add("incomplete-play", f"the play stops after {len(data.plays)} cards with no claim and no *", _last_trick(run))
    return False


def _last_trick(run: Faults) -> Location:
    return run.trick_at(len(run.data.tricks) - 1) if run.data.tricks else run.at(0)


def _check_claim(run: Faults, state: PlayState) -> None:
    """Report an unsound claim, then apply it as the record says it was agreed."""
    seat, place, _ = run.data.claim  # type: ignore[misc]
    team = seat.team
    left = 8 - state.trick_count
    tricks = "the last trick" if left == 1 else f"the last {left} tricks"
    holds = claim_holds(state, team)
    if holds is None:
        run.add("claim-unchecked", f"{seat.full_name}'s claim of {tricks} is too large to check", run.at(place),
                seat=seat)
    elif not holds:
        run.add("claim-inconsistent", f"{seat.full_name} claims {tricks} for {team}, but {team.other} can take a "
                f"trick whatever {team} play", run.at(place), seat=seat)
    state.claim(seat)


# --- hidden cards -------------------------------------------------------------

def _rebuild(run: Faults) -> tuple[int, int, int, int] | None:
    """Hands from the 32 cards played, when every card played is known and distinct."""
    data = run.data
    cards = [index for index, _, _, _ in data.plays]
    if len(data.tricks) != 8 or len(cards) != 32 or UNKNOWN in cards or len(set(cards)) != 32:
        return None
    if any(len(data.trick_plays(trick)) != 4 for trick in range(8)):
        return None
    state = PlayState((0, 0, 0, 0), run.contract, run.rules, dealer=run.dealer)  # type: ignore[arg-type]
    masks = [0, 0, 0, 0]
    for index in cards:
        masks[state.turn.index] |= 1 << index  # type: ignore[union-attr]
        state.apply(index)
    for seat, written, _, _ in run.hands():  # the cards written in a partly known hand must agree
        if any(index != UNKNOWN and not masks[seat.index] >> index & 1 for index in written or ()):
            return None
    rebuilt = {seat: _cards_of(masks[seat.index]) for seat in SEATS}
    written_hands = {seat: cards for seat, cards, _, _ in run.hands()}
    missing = [seat.full_name for seat in SEATS if (hand := written_hands.get(seat)) is None or UNKNOWN in hand
               or len(hand) < 8]
    shown = ", ".join(f"{seat} {' '.join(map(str, rebuilt[seat]))}" for seat in SEATS)
    place = next((at for seat, _, at, _ in run.hands() if seat.full_name in missing), 0)
    run.add("hands-rebuilt", f"hands of {', '.join(missing)} rebuilt from the 32 cards played: {shown}",
            run.at(place))
    return masks[0], masks[1], masks[2], masks[3]


def _cards_of(mask: int) -> tuple[Card, ...]:
    return canonical_hand_order(ALL_CARDS[i] for i in range(32) if mask >> i & 1)  # type: ignore[return-value]


def _play_hidden(run: Faults, playable: int) -> None:
    """Check what can be checked when some hands or cards are unknown, through trick ``playable``."""
    data = run.data
    hands = run.hands()
    known = {seat: sum(1 << i for i in cards) for seat, cards, _, _ in hands
             if cards is not None and UNKNOWN not in cards}
    owner = {index: seat for seat, cards, _, _ in hands for index in cards or () if index != UNKNOWN}
    state = run.state = PlayState(known, run.contract, run.rules, dealer=run.dealer)  # type: ignore[arg-type]
    void: dict[Seat, set[Suit]] = {seat: set() for seat in SEATS}
    played: set[int] = set()
    run.unchecked.append("the legality of cards played by " + (", ".join(
        s.full_name for s in SEATS if s not in known) or "nobody") + " (hands unknown)")
    for trick in range(1, playable + 1):
        for position, number in enumerate(data.trick_plays(trick - 1)[:4], 1):
            index, seat, _, _ = data.plays[number]
            word = data.declarations.get(number)
            turn = state.turn
            if seat is not None and seat is not turn:
                if not _last_to_play(state, seat):
                    _check_seat(run, number, seat, turn, trick, position)  # type: ignore[arg-type]
                if state.give_turn(seat):  # hands unknown: the written seat is believed
                    turn = seat
            if index == UNKNOWN:
                run.unchecked.append(_from_trick(trick))
                return
            assert turn is not None  # the deal is not over before its playable tricks
            card = _card(index)
            where = run.play_at(number, trick, position)
            if index in played:
                run.add("duplicate-card", f"trick {trick}: {turn.full_name} plays {card.pretty()}, already played",
                        where, seat=turn, card=card)
            elif owner.get(index, turn) is not turn:
                run.add("card-not-held", f"trick {trick}: {turn.full_name} played {card.pretty()} but it was "
                        f"dealt to {owner[index].full_name}", where, seat=turn, card=card)
            elif card.suit in void[turn]:  # type: ignore[index]
                run.add("shown-void", f"trick {trick}: {turn.full_name} played {card.pretty()} but showed out "
                        f"of {card.suit.plural} earlier", where, seat=turn, card=card)
            elif turn in known and state.fault(index) is not None:
                _illegal_play(run, state, number, trick, position)
            elif turn in known:
                played.add(index)
                state.apply(index, word)
                continue
            played.add(index)
            void[turn] |= _shown_out(state, turn, card)  # type: ignore[index, arg-type]
            state.apply(index, word)
    if playable < len(data.tricks):
        return
    if data.claim is not None:
        run.add("claim-unchecked", f"{data.claim[0].full_name}'s claim cannot be checked: hands unknown",
                run.at(data.claim[1]), seat=data.claim[0])
        return
    run.complete = _end_of_play(run, state)
    if run.complete:
        run.unchecked.append("belote held in the unknown hands (not counted)")


def _shown_out(state: PlayState, seat: Seat, card: Card) -> set[Suit]:
    """The suits ``seat`` shows it does not hold by playing ``card`` now: the suit led when it
    does not follow, and the trump suit when it neither follows nor trumps although it had to
    (rules.md §3: no partner exemption, and a lower trump is a duty)."""
    trick = state.current_trick
    if not trick or card.suit is trick[0][1].suit:
        return set()
    led = trick[0][1].suit
    trump = state.contract.trump
    if card.suit is trump and led is not trump and state.rules.follow_or_trump:
        return set()  # a trump may replace a card of the suit led: it shows nothing
    if trump is None or card.suit is trump or led is trump:
        return {led}
    winner, winning = state.current_winner  # type: ignore[misc]
    if state.rules.partner_exemption and winner is seat.partner:
        return {led}
    if winning.suit is trump and state.rules.undertrump != "must" and state.rules.must_overtrump:
        return {led}  # may discard when unable to overtrump: shows only no higher trump
    return {led, trump}
