"""One replay of a record through the rules engine, collecting every fault.

``replay(record, rules)`` checks the deal (32 distinct cards, 8 a hand), the
seats (dealer, first speaker, trick leaders), every call of the taking or the
auction and every card of the play. After a fault it goes on with the call or
card as written (``push_unchecked``), so one record reports all its faults.

The fast path is one checked push per call and per card; messages, legal
alternatives and explanations are built only when a push fails.

Hidden cards: when hands are missing but the 32 plays are known, the hands are
rebuilt from the plays; otherwise the known hands and cards are checked, a seat
that showed out of a suit may not play it later, and the replay stops at the
first unknown card played (an info finding says what was not checked).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from notation.values import DECLARATIONS, SEATS, Card, Seat, canonical_hand_order
from notation.record import CardEntry, Claim, Pos, Record

from .engine.bidding import AuctionState, BiddingState, TakingState
from .engine.cardmasks import card_index, mask_of
from .engine.claims import claim_holds
from .engine.contract import Contract
from .engine.play import PlayError, PlayState, explain_illegal
from .engine.rules import Rules
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
    "taking.round1-take-or-pass": "illegal-call", "taking.round2-name-or-pass": "illegal-call",
    "taking.round2-turned-suit": "taking-turned-suit", "taking.round2-sa-ta": "denomination-not-played",
    "taking.jack-forces-dealer": "dealer-must-take",
}


@dataclass(slots=True)
class Replay:
    """What one replay found and built."""

    record: Record
    rules: Rules
    index: int = 0
    findings: list[Finding] = field(default_factory=list)
    dealer: Seat | None = None
    hands: dict[Seat, tuple[Card, ...]] | None = None  # as dealt, when fully known or rebuilt
    bidding: BiddingState | None = None
    contract: Contract | None = None
    state: PlayState | None = None
    complete: bool = False  # 8 tricks played, or a valid claim: the deal can be scored
    unchecked: list[str] = field(default_factory=list)  # what hidden cards kept from being checked
    # The hands as dealt, as masks in seat order N E S W, along with ``hands`` (a tuple: a
    # dict keyed by Seat would hash enums, which is done in Python).
    masks: tuple[int, int, int, int] | None = None

    def at(self, pos: Pos | None, trick: int | None = None, card: int | None = None) -> Location:
        if pos is None:
            return Location(self.index, None, None, trick, card)
        return Location(self.index, pos.line, pos.column, trick, card)

    def tag_at(self, name: str) -> Location:
        return tag_location(self.record, name, self.index)

    def add(self, rule: str, message: str, location: Location, **extra) -> None:
        self.findings.append(make_finding(rule, message, location, **extra))

    @property
    def is_void(self) -> bool:
        """Everybody passed (``BiddingState.is_void`` without building the contract again)."""
        return self.contract is None and self.bidding is not None and self.bidding.is_over

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity.rank == 0)


def tag_location(record: Record, name: str, index: int = 0) -> Location:
    """The location of tag ``name`` in the record's source text (scanned on demand)."""
    source = record.source
    return Location(index) if source is None else tag_location_in(source.text, source.first_line, name, index)


def tag_location_in(text: str, first_line: int, name: str, index: int = 0) -> Location:
    """The location of tag ``name`` in a record's ``text``, which starts at ``first_line``."""
    needle = "[" + name
    for offset, line in enumerate(text.splitlines()):
        column = line.find(needle)
        if column >= 0 and line[column + len(needle):column + len(needle) + 1] in (" ", "\t", '"'):
            return Location(index, first_line + offset, column + 1)
    return Location(index)


def replay(record: Record, rules: Rules, index: int = 0, dealer: Seat | None = None) -> Replay:
    """Replay ``record`` under ``rules`` (``dealer`` overrides the record's); never raises
    on a bad record."""
    run = Replay(record, rules, index)
    run.dealer = dealer or _dealer(run)
    _bidding(run)
    run.hands = _deal(run)
    if record.tricks or record.claim is not None:
        _play(run)
    return run


# --- seats --------------------------------------------------------------------

def previous(seat: Seat, rules: Rules) -> Seat:
    return seat.next(not rules.clockwise)


_DEALER_TAGS = {str(seat): seat for seat in SEATS}


def _dealer(run: Replay) -> Seat:
    record, rules = run.record, run.rules
    dealer = _DEALER_TAGS.get(record.tag("Dealer")) or record.dealer  # the usual tags without Seat.parse
    if dealer is not None:
        return dealer
    calls = record.auction or record.taking or ()
    plays = record.tricks[0].plays if record.tricks else ()
    guess, how = None, ""
    if calls and calls[0].seat is not None:
        first = calls[0].seat
        guess, how = (first if rules.first_speaker == "dealer" else previous(first, rules)), "the first call"
    elif plays and plays[0].seat is not None:
        first = plays[0].seat
        guess, how = (first if rules.first_leader == "dealer" else previous(first, rules)), "the first lead"
    if guess is None:  # no seat written anywhere: the dealer under which the record replays best
        guess = min(SEATS, key=lambda seat: replay(record, rules, run.index, seat).errors)
        how = "the seat under which the record replays with the fewest faults"
    written = record.tag("Dealer")
    what = f"Dealer tag {written!r} is not a seat" if written else "no Dealer tag"
    run.add("missing-dealer", f"{what}: dealer {guess.full_name}, from {how}", run.tag_at("Dealer"), seat=guess)
    return guess


# --- the deal -----------------------------------------------------------------

def _deal(run: Replay) -> dict[Seat, tuple[Card, ...]] | None:
    """Check the hands; return them when all four are fully known and sound."""
    record = run.record
    known = 0
    sound = True
    # A void classic deal stops after the first distribution: 5 cards a hand.
    size = 5 if run.contract is None and run.is_void and not run.rules.is_coinche else 8
    dealt = 0  # cards seen so far, as a mask: duplicates are looked for only when the count is off
    masks = []
    for hand in record.hands:
        cards = hand.cards
        if cards is None:
            continue
        if len(cards) != size:
            sound = False
            run.add("hand-size", f"{hand.seat.full_name}'s hand has {len(cards)} cards, not {size}",
                    run.at(hand.pos), seat=hand.seat)
        mask = mask_of(cards)  # unknown cards left out
        if (mask & ~dealt).bit_count() != len(cards):  # an unknown card, or a card dealt twice
            if any(card is None for card in cards):
                cards = tuple(card for card in cards if card is not None)
            else:
                known += 1
            if (mask & ~dealt).bit_count() != len(cards):
                sound = False
                _duplicates(run, hand, cards, dealt)
        else:
            known += 1
        dealt |= mask
        masks.append(mask)
    if known == 4 and sound and size == 8:
        hands = record.hands
        if len(hands) == 4 and (hands[0].seat, hands[1].seat, hands[2].seat, hands[3].seat) == SEATS:
            run.masks = (masks[0], masks[1], masks[2], masks[3])  # no seat twice: the masks are N E S W
        return {hand.seat: hand.cards for hand in record.hands}  # type: ignore[misc]
    return None


def _duplicates(run: Replay, hand, cards: tuple[Card, ...], dealt: int) -> None:
    earlier = run.record.hands[:run.record.hands.index(hand)]
    owners = {card: h.seat for h in earlier for card in h.cards or () if card is not None}
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            where = "twice"
        elif dealt & card.mask:
            where = f"and also to {owners[card].full_name}"
        else:
            seen.add(card)
            continue
        run.add("duplicate-card", f"{card.pretty()} is dealt to {hand.seat.full_name} {where}",
                run.at(hand.pos), seat=hand.seat, card=card)


# --- the taking or the auction ------------------------------------------------

def _bidding(run: Replay) -> None:
    record, rules = run.record, run.rules
    coinche = rules.is_coinche
    calls = record.auction if coinche else record.taking
    wrong = record.taking if coinche else record.auction
    if wrong is not None:
        have, want = ("a taking", "an auction") if coinche else ("an auction", "a taking")
        run.add("wrong-bidding-kind", f"the record has {have} but its rules ({rules}) play {want}: "
                f"the calls and the play are not replayed", run.at(wrong[0].pos if wrong else None))
        return
    if calls is None:
        return
    if coinche:
        state: BiddingState = AuctionState(rules, run.dealer)
    elif record.turned is None:
        run.add("missing-turned-card", "no turned card: the taking cannot be replayed",
                run.at(calls[0].pos if calls else None))
        return
    else:
        state = TakingState(rules, run.dealer, record.turned)
    run.bidding = state
    for number, entry in enumerate(calls, 1):
        seat = entry.seat
        if number == 1 and seat is not None and seat is not state.first_speaker:
            run.add("wrong-first-speaker", f"call 1: {seat.full_name} speaks first but the first speaker is "
                    f"{state.first_speaker.full_name} (dealer {run.dealer.full_name}, "
                    f"first_speaker={rules.first_speaker})", run.at(entry.pos, None, number), seat=seat)
        problem = state.explain(entry.call, seat)
        if problem is not None and not (number == 1 and problem.rule == "auction.out-of-turn"):
            alternatives = tuple(str(c) for c in state.legal_calls()) if state.turn else ()
            run.add(CALL_RULES.get(problem.rule, "illegal-call"), f"call {number}: {problem.message}",
                    run.at(entry.pos, None, number), seat=seat or state.turn, card=None,
                    alternatives=alternatives)
        state.push_unchecked(entry.call, seat)
    run.contract = state.contract
    if not state.is_over and record.tricks:
        run.add("auction-incomplete", f"the {_bidding_name(state)} is not over after {len(calls)} calls, "
                f"yet cards are played", run.at(calls[-1].pos if calls else None))
    elif record.tricks and run.contract is None and run.is_void:
        run.add("play-after-void-deal", "everybody passed, yet cards are played",
                run.at(record.tricks[0].pos, 1))


def _from_trick(number: int) -> str:
    tricks = "trick 8" if number == 8 else f"tricks {number}-8"
    return f"{tricks} (a card of trick {number} is unknown)"


def _bidding_name(state: BiddingState) -> str:
    return "taking" if isinstance(state, TakingState) else "auction"


# --- the play -----------------------------------------------------------------

def _play(run: Replay) -> None:
    record, rules = run.record, run.rules
    if run.contract is None:
        said = {"missing-turned-card", "wrong-bidding-kind", "auction-incomplete", "play-after-void-deal"}
        if not any(f.rule in said for f in run.findings):
            where = record.tricks[0].pos if record.tricks else record.claim.pos
            run.add("auction-incomplete", "no taking or auction: the play cannot be replayed without a contract",
                    run.at(where, 1 if record.tricks else None))
        return
    hands = run.hands
    if hands is None:
        hands = _rebuild(run)
    if hands is None:
        _play_hidden(run)
    else:
        run.state = PlayState(run.masks or hands, run.contract, rules, dealer=run.dealer)
        _check_turned(run, hands)
        run.complete = _play_known(run, run.state)


def _check_turned(run: Replay, hands: dict[Seat, tuple[Card, ...]]) -> None:
    """Classic: the turned card goes to the taker."""
    turned, taker = run.record.turned, run.contract.taker
    if turned is None or run.rules.is_coinche:
        return
    if run.masks is not None and run.masks[taker.index] >> card_index(turned) & 1:
        return
    if turned not in hands[taker]:
        run.add("turned-card-not-taken", f"the turned card {turned.pretty()} is not in the hand of "
                f"the taker, {taker.full_name}", run.at(run.record.turned_pos), seat=taker, card=turned)


def _check_seat(run: Replay, entry: CardEntry, turn: Seat, number: int, position: int) -> None:
    if entry.seat is None or entry.seat is turn:
        return
    card = entry.card.pretty() if entry.card else "??"
    if position == 1:
        why = "first_leader" if number == 1 else f"the winner of trick {number - 1}"
        run.add("wrong-leader", f"trick {number}: {entry.seat.full_name} leads {card} but {turn.full_name} "
                f"should lead ({why})", run.at(entry.pos, number, position), seat=entry.seat, card=entry.card)
    else:
        run.add("play-out-of-turn", f"trick {number}: {entry.seat.full_name} plays {card} but it is "
                f"{turn.full_name}'s turn", run.at(entry.pos, number, position), seat=entry.seat, card=entry.card)


def _trick_shape(run: Replay, number: int, trick, last: bool) -> bool:
    """Report a trick of the wrong size; ``False`` when the replay cannot go on."""
    size = len(trick.plays)
    if size > 4:
        run.add("too-many-cards", f"trick {number} has {size} cards", run.at(trick.plays[4].pos, number, 5))
    if number > 8:
        run.add("too-many-cards", f"trick {number}: a deal has 8 tricks", run.at(trick.pos, number))
        return False
    if size < 4 and not last:
        run.add("short-trick", f"trick {number} has {size} cards but is not the last trick",
                run.at(trick.pos, number))
        return False
    return True


def _play_known(run: Replay, state: PlayState) -> bool:
    """Checked replay with every hand known; returns whether the play is complete."""
    tricks = run.record.tricks
    push = state.push
    # The sound cards of the whole deal in one call; it stops at the first card to explain.
    whole: list[CardEntry] = []
    for trick in tricks[:8]:
        if len(trick.plays) != 4:
            break
        whole += trick.plays
    start, skip = divmod(_sound_plays(state, whole), 4)
    for number, trick in enumerate(tricks[start:], start + 1):
        plays = trick.plays
        if (len(plays) != 4 or number > 8) and not _trick_shape(run, number, trick, number == len(tricks)):
            return False
        entries = plays[:4]
        done = skip + _sound_plays(state, entries[skip:])  # the sound cards of the trick
        skip = 0
        if done == 4:
            continue
        for position, entry in enumerate(entries[done:], done + 1):
            card = entry.card
            if card is None:  # a ?? in a known deal: the card is not known, the replay stops
                run.unchecked.append(_from_trick(number))
                return False
            try:
                push(card, entry.declaration, seat=entry.seat)
            except PlayError:
                _fault(run, state, entry, number, position)
    return _end_of_play(run, state)


def _sound_plays(state: PlayState, entries: list[CardEntry] | tuple[CardEntry, ...]) -> int:
    """Play ``entries`` while each one is sound (a known card, by the seat in turn or no
    seat written, a known word, no fault); return how many were played. The first one
    that is not stops it, for the caller to deal with through ``push``."""
    done = 0
    for entry in entries:
        card, seat, word = entry.card, entry.seat, entry.declaration
        turn = state.turn  # None once the deal is over
        if card is None or turn is None or (seat is not None and seat is not turn) or (
                word is not None and word not in DECLARATIONS):
            break
        index = card_index(card)
        if state.fault(index) is not None:
            break
        state.apply(index, word)
        done += 1
    return done


def _fault(run: Replay, state: PlayState, entry: CardEntry, number: int, position: int) -> None:
    """A push that failed: say why, then play the card as written."""
    seat, turn = entry.seat, state.turn
    if seat is not None and seat is not turn:
        if _last_to_play(state, seat):
            state.give_turn(seat)  # after a card out of turn, the seat left plays last: no new fault
        else:
            _check_seat(run, entry, turn, number, position)
            bit = entry.card.mask
            if state.hand_mask(seat) & bit and not state.hand_mask(turn) & bit:
                state.give_turn(seat)  # the written seat holds the card: it did play out of turn
    try:
        state.push(entry.card, entry.declaration)
    except PlayError:
        _illegal_play(run, state, entry, number, position)
        state.push_unchecked(entry.card, entry.declaration)


def _last_to_play(state: PlayState, seat: Seat) -> bool:
    """``seat`` is the only seat that has not played in the current trick."""
    trick = state.current_trick
    return len(trick) == 3 and all(who is not seat for who, _ in trick)


def _illegal_play(run: Replay, state: PlayState, entry: CardEntry, number: int, position: int) -> None:
    card = entry.card
    why = explain_illegal(state, card)
    if why is None:
        return
    rule = PLAY_RULES.get(why.reason, why.reason)
    run.add(rule, f"trick {number}: {why.message()}", run.at(entry.pos, number, position),
            seat=why.seat, card=card, alternatives=tuple(str(c) for c in why.legal))


def _end_of_play(run: Replay, state: PlayState) -> bool:
    record = run.record
    if state.is_over:
        if record.claim is not None:
            run.add("claim-inconsistent", f"{record.claim.seat.full_name} claims after the last trick",
                    run.at(record.claim.pos), seat=record.claim.seat)
        return True
    if record.claim is not None:
        return check_claim(run, state, record.claim)
    if record.stopped:
        run.add("play-stopped", f"the play stops after {len(record.plays)} cards (*): the deal is not rescored",
                run.at(record.tricks[-1].pos if record.tricks else None))
        return False
    run.add("incomplete-play", f"the play stops after {len(record.plays)} cards with no claim and no *",
            run.at(record.tricks[-1].pos if record.tricks else None))
    return False


def check_claim(run: Replay, state: PlayState, claim: Claim) -> bool:
    """Report an unsound claim on ``run``, then apply the claim as the record says it was
    agreed. Returns ``True``: the deal can be scored."""
    team = claim.seat.team
    left = 8 - len(state.tricks)
    tricks = "the last trick" if left == 1 else f"the last {left} tricks"
    holds = claim_holds(state, team)
    where = run.at(claim.pos)
    who = claim.seat.full_name
    if holds is None:
        run.add("claim-unchecked", f"{who}'s claim of {tricks} is too large to check",
                where, seat=claim.seat)
    elif not holds:
        run.add("claim-inconsistent", f"{who} claims {tricks} for {team}, but {team.other} can "
                f"take a trick whatever {team} play", where, seat=claim.seat)
    state.claim(claim.seat)
    return True


# --- hidden cards -------------------------------------------------------------

def _rebuild(run: Replay) -> dict[Seat, tuple[Card, ...]] | None:
    """Hands from the 32 cards played, when every card played is known and distinct."""
    record = run.record
    plays = record.plays
    cards = [entry.card for entry in plays]
    if len(record.tricks) != 8 or len(cards) != 32 or None in cards or len(set(cards)) != 32:
        return None
    if any(len(trick.plays) != 4 for trick in record.tricks):
        return None
    state = PlayState({}, run.contract, run.rules, dealer=run.dealer)
    for card in cards:
        state.push_unchecked(card)
    rebuilt = {seat: tuple(card for who, card in state.plays if who is seat) for seat in SEATS}
    for hand in record.hands:  # the cards written in a partly known hand must agree
        for card in hand.cards or ():
            if card is not None and card not in rebuilt[hand.seat]:
                return None
    missing = [seat.full_name for seat in SEATS
               if (hand := record.hand(seat)) is None or None in hand or len(hand) < len(rebuilt[seat])]
    shown = ", ".join(f"{seat} {' '.join(map(str, canonical_hand_order(rebuilt[seat])))}" for seat in SEATS)
    written = next((hand.pos for hand in record.hands if hand.seat.full_name in missing), None)
    run.add("hands-rebuilt", f"hands of {', '.join(missing)} rebuilt from the 32 cards played: {shown}",
            run.at(written))
    run.hands = rebuilt
    return rebuilt


def _play_hidden(run: Replay) -> None:
    """Check what can be checked when some hands or cards are unknown."""
    record = run.record
    known = {hand.seat: hand.cards for hand in record.hands if hand.cards is not None and None not in hand.cards}
    partial = {hand.seat: {c for c in hand.cards if c is not None} for hand in record.hands if hand.cards}
    owner = {card: seat for seat, cards in partial.items() for card in cards}
    state = run.state = PlayState(known, run.contract, run.rules, dealer=run.dealer)
    void: dict[Seat, set] = {seat: set() for seat in SEATS}
    played: set[Card] = set()
    run.unchecked.append("the legality of cards played by " + (", ".join(
        s.full_name for s in SEATS if s not in known) or "nobody") + " (hands unknown)")
    tricks = record.tricks
    for number, trick in enumerate(tricks, 1):
        if not _trick_shape(run, number, trick, number == len(tricks)):
            return
        for position, entry in enumerate(trick.plays[:4], 1):
            turn = state.turn
            if entry.seat is not None and entry.seat is not turn:
                if not _last_to_play(state, entry.seat):
                    _check_seat(run, entry, turn, number, position)
                if state.give_turn(entry.seat):  # hands unknown: the written seat is believed
                    turn = entry.seat
            card = entry.card
            if card is None:
                run.unchecked.append(_from_trick(number))
                return
            where = run.at(entry.pos, number, position)
            if card in played:
                run.add("duplicate-card", f"trick {number}: {turn.full_name} plays {card.pretty()}, already played",
                        where, seat=turn, card=card)
            elif owner.get(card, turn) is not turn:
                run.add("card-not-held", f"trick {number}: {turn.full_name} played {card.pretty()} but it was "
                        f"dealt to {owner[card].full_name}", where, seat=turn, card=card)
            elif card.suit in void[turn]:
                run.add("shown-void", f"trick {number}: {turn.full_name} played {card.pretty()} but showed out "
                        f"of {card.suit.plural} earlier", where, seat=turn, card=card)
            elif turn in known:
                try:
                    state.push(card, entry.declaration)
                    played.add(card)
                    continue
                except PlayError:
                    _illegal_play(run, state, entry, number, position)
            played.add(card)
            void[turn] |= _shown_out(state, turn, card)
            state.push_unchecked(card, entry.declaration)
    if record.claim is not None:
        run.add("claim-unchecked", f"{record.claim.seat.full_name}'s claim cannot be checked: hands unknown",
                run.at(record.claim.pos), seat=record.claim.seat)
        return
    run.complete = _end_of_play(run, state)
    if run.complete:
        run.unchecked.append("belote held in the unknown hands (not counted)")


def _shown_out(state: PlayState, seat: Seat, card: Card) -> set:
    """The suits ``seat`` shows it does not hold by playing ``card`` now: the suit led
    when it does not follow, and the trump suit when it neither follows nor trumps
    although it had to (rules.md §3: no partner exemption, and a lower trump is a duty)."""
    trick = state.current_trick
    if not trick or card.suit is trick[0][1].suit:
        return set()
    led = trick[0][1].suit
    trump = state.contract.trump
    if trump is None or card.suit is trump or led is trump:
        return {led}
    winner, winning = state.current_winner
    if state.rules.partner_exemption and winner is seat.partner:
        return {led}
    if winning.suit is trump and state.rules.undertrump != "must":
        return {led}  # may discard when unable to overtrump: shows only no higher trump
    return {led, trump}


# --- seats filled in -------------------------------------------------------------

def filled_record(run: Replay) -> Record:
    """The record with the seat of every call and card as the replay credited them
    (missing seat prefixes filled in) and a Dealer tag when it had none."""
    record = run.record
    changes: dict = {}
    if run.bidding is not None:
        seats = [seated.seat for seated in run.bidding.history]
        name = "auction" if run.rules.is_coinche else "taking"
        calls = getattr(record, name)
        changes[name] = tuple(dataclasses.replace(entry, seat=seat) for entry, seat in zip(calls, seats)) + \
            calls[len(seats):]
    if run.state is not None:
        seats = iter(seat for seat, _ in run.state.plays)
        tricks = []
        for trick in record.tricks:
            plays = tuple(dataclasses.replace(entry, seat=next(seats, entry.seat)) if position < 4 else entry
                          for position, entry in enumerate(trick.plays))
            tricks.append(dataclasses.replace(trick, plays=plays))
        changes["tricks"] = tuple(tricks)
    if record.dealer is None and run.dealer is not None:
        changes["tags"] = tuple(t for t in record.tags if t[0] != "Dealer") + (("Dealer", str(run.dealer)),)
    return dataclasses.replace(record, **changes)
