"""The invalid samples (``samples/invalid/``): valid deals with designed faults.

Each maker returns the text of a file and the findings its faults must produce,
each placed on the faulty item; ``make_samples.py`` writes the ``.belote`` and
the ``.expected`` files and refuses to when the validator finds anything else.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from typing import Callable, Iterator

from sample_kit import (CAFE, CLUB, CLUB_002, CLUB_004, COINCHE_CLUB, LEAGUE, NAMU, NAMU_MATCH, SATA, SEOUL, E, N, S,
                        W, Table, calls_of, card_index, declared_belote, deals, dress, exact_target, file_text,
                        find, head_comment, kinds, league_match, namu_match, replace_play, set_tag, state_after,
                        with_result)

from notation.values import PASS, Call, CallKind, Card, Denomination, Seat
from notation.parser import parse
from notation.record import Announcement, CallEntry, Claim, MeldKind, Record
from replayer.engine.bidding import AuctionState
from replayer.engine.claims import claim_holds
from replayer.engine.melds import find_melds
from replayer.engine.play import PlayState
from replayer.check.findings import CATALOGUE, Finding
from replayer.engine.generator import GeneratedDeal, generate_deal
from replayer.check.matches import check_matches
from replayer.engine.rules import Rules
from replayer.engine.scoring import MatchState, Outcome
from replayer.check.validator import validate


# --- the invalid samples ---------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Expect:
    """A designed finding: ``rule`` at the item ``where`` points to.

    ``where`` is ("card", record, trick, position), ("call", record, index),
    ("announce", record, index), ("claim", record), ("tag", record, name),
    ("record", record) (its first line), ("text", needle[, shift]) (the first
    occurrence of ``needle`` in the file, ``shift`` characters on) or ("none",)
    (a finding with no position)."""

    rule: str
    where: tuple


@dataclasses.dataclass(frozen=True)
class Invalid:
    text: str
    expected: tuple[Expect, ...]
    about: str  # one line for the README and the .expected header


def findings_of(text: str) -> list[tuple[int | None, int | None, str, str]]:
    """(line, column, rule, severity) of every finding of a file: each record, then each match."""
    reports = [validate(result, repair=False) for result in parse(text)]
    found = [f for report in reports for f in report.findings]
    found += [f for match in check_matches(reports) for f in match.findings]
    return sorted(((f.location.line, f.location.column, f.rule, str(f.severity)) for f in found), key=_order)


def _order(item: tuple) -> tuple:
    line, column, rule, _ = item
    return (line if line is not None else 1 << 30, column or 0, rule)


def locate(text: str, where: tuple) -> tuple[int | None, int | None]:
    kind = where[0]
    if kind == "none":
        return None, None
    if kind == "text":
        return _where_in(text, where[1], *where[2:])
    record = list(parse(text))[where[1]].record
    if kind == "record":
        return record.source.first_line, 1
    if kind == "tag":
        lines = record.source.text.split("\n")
        number = next(i for i, line in enumerate(lines) if line.startswith(f"[{where[2]} "))
        return record.source.first_line + number, 1
    pos = {"card": lambda: record.tricks[where[2] - 1].plays[where[3] - 1].pos,
           "call": lambda: (record.taking or record.auction)[where[2]].pos,
           "announce": lambda: record.announcements[where[2]].pos,
           "claim": lambda: record.claim.pos}[kind]()
    return pos.line, pos.column


def expected_lines(invalid: Invalid) -> list[tuple[int | None, int | None, str, str]]:
    rows = [(*locate(invalid.text, e.where), e.rule, str(CATALOGUE[e.rule][0])) for e in invalid.expected]
    return sorted(rows, key=_order)


def render_expected(rows: list[tuple], invalid: Invalid, name: str) -> str:
    head = f"# {name}.belote: {invalid.about}\n"
    head += "# line:column rule-id severity\n"
    return head + "".join(f"{_at(line)}:{_at(column)} {rule} {severity}\n" for line, column, rule, severity in rows)


def _at(number: int | None) -> str:
    return "-" if number is None else str(number)


# Base deals: clean records the faults are written into.

def base(profile: str, wanted: Callable[[GeneratedDeal], bool] = lambda d: True, dealer: Seat = N,
         start: int = 0, table: Table = CLUB, number: int = 1) -> Record:
    return dress(find(profile, wanted, dealer, start), table, deal_number=number)


def findings_after(record: Record) -> list[Finding]:
    return list(validate(record, repair=False).findings)


def swap_plays(record: Record, first: tuple[int, int], second: tuple[int, int]) -> Record:
    """The record with the cards at two (trick, position) places exchanged (one seat's plays)."""
    x = record.tricks[first[0] - 1].plays[first[1] - 1]
    y = record.tricks[second[0] - 1].plays[second[1] - 1]
    record = replace_play(record, *first, card=y.card, declaration=y.declaration)
    return replace_play(record, *second, card=x.card, declaration=x.declaration)


def seat_places(record: Record) -> dict[Seat, list[tuple[int, int]]]:
    places: dict[Seat, list[tuple[int, int]]] = {}
    for number, trick in enumerate(record.tricks, 1):
        for position, entry in enumerate(trick.plays, 1):
            places.setdefault(entry.seat, []).append((number, position))
    return places


def illegal_swaps(record: Record) -> Iterator[tuple[Record, str, tuple[int, int]]]:
    """Records where one seat plays two of its cards in the other order and exactly one
    illegal play results (at the earlier place); the Result is set to the rescore."""
    for seat, places in seat_places(record).items():
        for first, second in itertools.combinations(places, 2):
            swapped = with_result(swap_plays(record, first, second))
            found = findings_after(swapped)
            if len(found) == 1 and found[0].location.trick == first[0] and found[0].location.card == first[1]:
                yield swapped, found[0].rule, first


def illegal_play(profile: str, rule: str, start: int = 0, table: Table = CLUB,
                 wanted: Callable[[PlayState, Seat], bool] | None = None) -> tuple[Record, tuple[int, int]]:
    """The first swap (in seed order) that breaks ``rule`` alone; ``wanted``, given the play just
    before the illegal card and the seat that plays it, picks among such swaps."""
    for seed in itertools.count(start):
        deal = generate_deal(random.Random(seed), Rules.parse(profile), N)
        if deal.contract is None:
            continue
        record = dress(deal, table)
        for swapped, found, place in illegal_swaps(record):
            if found == rule and (wanted is None or wanted(*_before(record, *place))):
                return swapped, place
    raise LookupError(rule)


def _before(record: Record, trick: int, position: int) -> tuple[PlayState, Seat]:
    """The play of a clean record just before the card at (trick, position), and its seat."""
    state = state_after(record, trick - 1)
    for entry in record.tricks[trick - 1].plays[:position - 1]:
        state.push(entry.card, entry.declaration)
    return state, record.tricks[trick - 1].plays[position - 1].seat


def revoke() -> Invalid:
    record, (trick, position) = illegal_play("ffb", "must-follow")
    record = head_comment(record, "Renonce : le joueur ne fournit pas alors qu'il a la couleur demandée.")
    return Invalid(file_text([record]), (Expect("must-follow", ("card", 0, trick, position)),),
                   "a revoke: a seat does not follow suit although it can")


def must_trump() -> Invalid:
    record, (trick, position) = illegal_play("ffb", "must-trump", start=10)
    return Invalid(file_text([record]), (Expect("must-trump", ("card", 0, trick, position)),),
                   "a seat that cannot follow discards although it holds a trump (partner not master)")


def must_overtrump() -> Invalid:
    record, (trick, position) = illegal_play("ffb", "must-overtrump", start=230)  # the search from 0 finds 230
    return Invalid(file_text([record]), (Expect("must-overtrump", ("card", 0, trick, position)),),
                   "a seat trumps under an opponent's trump although it could overtrump")


def trump_lead() -> Invalid:
    record, (trick, position) = illegal_play("ffb", "trump-lead-must-go-over", start=30)
    return Invalid(file_text([record]), (Expect("trump-lead-must-go-over", ("card", 0, trick, position)),),
                   "trumps led: a seat plays a low trump although it can go over the highest one")


def two_illegal_plays() -> Invalid:
    record, first = illegal_play("ffb", "must-follow", start=50)
    for swapped, rule, second in _second_faults(record, first):
        return Invalid(file_text([swapped]), (Expect("must-follow", ("card", 0, *first)),
                                              Expect(rule, ("card", 0, *second))),
                       "two illegal plays in one record: both are reported")
    raise LookupError("two illegal plays")


def _second_faults(record: Record, first: tuple[int, int]) -> Iterator[tuple[Record, str, tuple[int, int]]]:
    for seat, places in seat_places(record).items():
        for a, b in itertools.combinations(places, 2):
            if first in (a, b) or a[0] == first[0]:
                continue
            swapped = with_result(swap_plays(record, a, b))
            found = findings_after(swapped)
            where = {(f.location.trick, f.location.card) for f in found}
            if len(found) == 2 and where == {first, a}:
                yield swapped, next(f.rule for f in found if (f.location.trick, f.location.card) == a), a


def card_not_held() -> Invalid:
    """A seat plays a card of another hand (so that card is played twice)."""
    for seed in itertools.count(5):
        record = base("ffb", start=seed)
        hands = {hand.seat: hand.cards for hand in record.hands}
        for number, position in [(3, 2), (4, 3), (5, 2), (2, 4)]:
            entry = record.tricks[number - 1].plays[position - 1]
            for card in hands[entry.seat.partner]:
                changed = with_result(replace_play(record, number, position, card=card))
                if _only(changed, "card-not-held"):
                    return Invalid(file_text([changed]), (Expect("card-not-held", ("card", 0, number, position)),),
                                   "a seat plays a card dealt to its partner (the card is played twice)")
    raise LookupError("card-not-held")


def _auction_with(record: Record, calls: list[CallEntry]) -> Record:
    return with_result(dataclasses.replace(record, auction=tuple(calls)))


def _close(record: Record, calls: list[CallEntry]) -> list[CallEntry]:
    """``calls`` followed by passes until the auction is over (as the engine sees it)."""
    rules = Rules.parse(record.tag("Rules"))
    state = AuctionState(rules, record.dealer)
    for entry in calls:
        state.push_unchecked(entry.call, entry.seat)
    while not state.is_over:
        calls.append(CallEntry(PASS, state.turn))
        state.push_unchecked(PASS, state.turn)
    return calls


def _only(record: Record, rule: str) -> bool:
    return [f.rule for f in findings_after(record)] == [rule]


def bid_not_higher() -> Invalid:
    """The first of two bids is raised to the level of the second, which is then not higher."""
    for deal in deals("ffb-coinche", W):
        bids = [i for i, call in enumerate(calls_of(deal)) if call.kind is CallKind.BID]
        if deal.contract is None or len(bids) < 2 or deal.contract.doubling:
            continue
        record = dress(deal, COINCHE_CLUB)
        calls = list(record.auction)
        first, second = calls[bids[0]], calls[bids[1]]
        calls[bids[0]] = dataclasses.replace(first, call=Call(CallKind.BID, first.call.denomination,
                                                               second.call.value))
        changed = _auction_with(record, calls)
        if _only(changed, "bid-not-higher"):
            return Invalid(file_text([changed]), (Expect("bid-not-higher", ("call", 0, bids[1])),),
                           "a bid at the level of the standing bid (not higher)")
    raise LookupError("bid-not-higher")


def coinche_by_bidding_side() -> Invalid:
    """The bidder's partner 'coinches' its own side's bid."""
    for deal in deals("ffb-coinche", S, 100):
        calls = calls_of(deal)
        if deal.contract is None or deal.contract.doubling or len(calls) < 6:
            continue
        record = dress(deal, COINCHE_CLUB)
        entries = list(record.auction)
        last_bid = max(i for i, c in enumerate(calls) if c.kind is CallKind.BID)
        partner = last_bid + 2
        entries = entries[:partner] + [dataclasses.replace(entries[partner], call=Call(CallKind.COINCHE))]
        changed = _auction_with(record, _close(record, entries))
        if _only(changed, "coinche-by-bidding-side"):
            return Invalid(file_text([changed]), (Expect("coinche-by-bidding-side", ("call", 0, partner)),),
                           "a coinche by the bidder's partner")
    raise LookupError("coinche-by-bidding-side")


def call_after_close() -> Invalid:
    record = base("ffb-coinche", lambda d: d.contract.doubling == 0, dealer=E, table=COINCHE_CLUB)
    calls = list(record.auction)
    seat = calls[-1].seat.next(Rules.parse(record.tag("Rules")).clockwise)
    calls.append(CallEntry(PASS, seat, comments=("un passe de trop",)))
    changed = _auction_with(record, calls)
    return Invalid(file_text([changed]), (Expect("call-after-auction-closed", ("call", 0, len(calls) - 1)),),
                   "a call after three passes closed the auction")


def announcement_not_held() -> Invalid:
    for deal in deals("ffb-annonces", W, 10):
        if deal.contract is None:
            continue
        record = dress(deal, CAFE)
        seat = next(s for s in (N, E, S, W) if s not in deal.melds)
        hand = set(record.hand(seat))
        for suit in "SHDC":
            run = tuple(Card.parse(rank + suit) for rank in ("A", "K", "Q"))
            if not set(run) <= hand:
                missing = " ".join(str(card) for card in run if card not in hand)
                claimed = Announcement(seat, MeldKind.TIERCE, run, comments=(f"sans {missing} !",))
                changed = with_result(dataclasses.replace(record, announcements=record.announcements + (claimed,)))
                if _only(changed, "announcement-not-held"):
                    index = len(changed.announcements) - 1
                    return Invalid(file_text([changed]), (Expect("announcement-not-held", ("announce", 0, index)),),
                                   "a tierce announced with cards the player does not hold")
    raise LookupError("announcement-not-held")


def belote_without_pair() -> Invalid:
    for deal in deals("ffb", S, 30):
        if deal.contract is None or declared_belote(deal):
            continue
        record = dress(deal, CLUB)
        trump = deal.contract.denomination.suit
        king, queen = Card.parse("K" + str(trump)), Card.parse("Q" + str(trump))
        number, position = card_index(record, king)
        seat = record.tricks[number - 1].plays[position - 1].seat
        if queen in record.hand(seat):
            continue
        changed = replace_play(record, number, position, declaration="belote")
        if _only(changed, "belote-without-king-queen"):
            return Invalid(file_text([changed]), (Expect("belote-without-king-queen", ("card", 0, number, position)),),
                           "belote said with the trump king by a player who does not hold the queen")
    raise LookupError("belote-without-king-queen")


def wrong_result() -> Invalid:
    record = base("ffb", lambda d: d.score.outcome is Outcome.MADE, dealer=S, start=7)
    ns, ew = record.result
    changed = set_tag(record, "Result", f"{ns + 10}-{ew - 10}")
    return Invalid(file_text([changed]), (Expect("result-mismatch", ("tag", 0, "Result")),),
                   "a Result tag that differs from the rescored deal (10 points moved)")


def match_wrong_score() -> Invalid:
    records = list(league_match().records)
    ns, ew = records[2].score
    records[2] = set_tag(records[2], "Score", f"{ns + 20}-{ew}")
    return Invalid(file_text(records), (Expect("score-tag-mismatch", ("tag", 2, "Score")),),
                   "a match whose third deal carries a wrong Score tag (the running score is off by 20)")


def claim_inconsistent() -> Invalid:
    for deal in deals("ffb", E, 200):
        if deal.contract is None:
            continue
        record = dress(deal, CAFE)
        state = state_after(record, 5)
        if claim_holds(state, state.turn.team) is False:
            claimed = with_result(dataclasses.replace(record, tricks=record.tricks[:5], claim=Claim(state.turn)))
            if _only(claimed, "claim-inconsistent"):
                return Invalid(file_text([claimed]), (Expect("claim-inconsistent", ("claim", 0)),),
                               "a claim of the last three tricks that the defence can beat")
    raise LookupError("claim-inconsistent")


def play_out_of_turn() -> Invalid:
    """Two cards of a trick written in the wrong order, each with the seat that played it."""
    record = base("ffb")
    changed = with_result(_swap_seats(swap_plays(record, (3, 2), (3, 3)), 3))
    return Invalid(file_text([changed]), (Expect("play-out-of-turn", ("card", 0, 3, 2)),
                                          Expect("play-out-of-turn", ("card", 0, 3, 3))),
                   "the second and third cards of trick 3 written in the wrong order")


def _swap_seats(record: Record, number: int) -> Record:
    """Trick ``number`` with the seats of its second and third cards exchanged back, so that
    each card keeps the seat that played it (only the order is wrong)."""
    second, third = record.tricks[number - 1].plays[1:3]
    record = replace_play(record, number, 2, seat=third.seat)
    return replace_play(record, number, 3, seat=second.seat)


def taking_turned_suit() -> Invalid:
    """A round-1 take rewritten as the same suit named in round 2, which is not allowed."""
    record = base("ffb", lambda d: CallKind.TAKE in kinds(d), dealer=W, start=15)
    rules = Rules.parse(record.tag("Rules"))
    taker = record.taking[-1].seat
    seat, calls = record.taking[0].seat, []
    for _ in range(4):
        calls.append(CallEntry(PASS, seat))
        seat = seat.next(rules.clockwise)
    while seat is not taker:
        calls.append(CallEntry(PASS, seat))
        seat = seat.next(rules.clockwise)
    calls.append(CallEntry(Call(CallKind.NAME, Denomination(str(record.turned.suit))), taker))
    changed = dataclasses.replace(record, taking=tuple(calls))
    return Invalid(file_text([changed]), (Expect("taking-turned-suit", ("call", 0, len(calls) - 1)),),
                   "round 2 names the suit of the turned card")


def match_over() -> Invalid:
    """The match of 12-match, then one more deal although a side has won."""
    match = league_match()
    records = list(match.records)
    dealer = match.deals[-1].dealer.next(Rules.parse("ffb").clockwise)
    extra = find("ffb", lambda d: True, dealer=dealer, start=500)
    records.append(dress(extra, LEAGUE, deal_number=len(records) + 1, score_before=match.totals))
    return Invalid(file_text(records), (Expect("match-over", ("record", len(records) - 1)),),
                   "a deal played after a side reached the target")


def dealer_rotation() -> Invalid:
    """Four deals of a match in progress; the third is dealt by the wrong player."""
    rules = Rules.parse("ffb")
    state = MatchState(rules)
    records = []
    for number, dealer in enumerate((N, W, E, S), 1):  # after West, South should deal
        deal = find("ffb", lambda d: True, dealer=dealer, start=700 + 10 * number)
        records.append(dress(deal, LEAGUE, deal_number=number, score_before=state.totals))
        state.add(deal.score)
    return Invalid(file_text(records), (Expect("dealer-rotation", ("tag", 2, "Dealer")),
                                        Expect("dealer-rotation", ("tag", 3, "Dealer"))),
                   "the third deal is dealt by East instead of South (the fourth is then out of turn too)")


# The seed pages' rules (docs/seeds.md): each fault breaks a rule of one page's profile.

def _replace_call(record: Record, index: int, call: Call) -> Record:
    calls = list(record.auction)
    calls[index] = dataclasses.replace(calls[index], call=call)
    return _auction_with(record, calls)


def coinche_not_right_after_bid() -> Invalid:
    """namu-coinche: a coinche of a bid that two passes already followed."""
    for deal in deals("namu-coinche", E, 10):
        calls = calls_of(deal)
        if deal.contract is None or deal.contract.doubling or len(calls) < 5:
            continue
        record = dress(deal, NAMU)
        late = len(calls) - 1  # the third pass after the last bid: the bidder's right-hand opponent
        entries = list(record.auction)[:late] + [dataclasses.replace(record.auction[late], call=Call(CallKind.COINCHE))]
        changed = _auction_with(record, _close(record, entries))
        if _only(changed, "coinche-not-right-after-bid"):
            changed = head_comment(changed, "바로 이전 플레이어(상대 팀)가 내건 공약에 대해서만 쿠앙슈를 선언할 수 있다: "
                                   "a coinche only on the bid just made, not after two passes.")
            return Invalid(file_text([changed]), (Expect("coinche-not-right-after-bid", ("call", 0, late)),),
                           "namu-coinche: a coinche after two passes followed the bid")
    raise LookupError("coinche-not-right-after-bid")


def surcoinche_not_right_after_coinche() -> Invalid:
    """namu-coinche: the bidder surcoinches after two passes followed the coinche."""
    for deal in deals("namu-coinche", S, 10):
        calls = calls_of(deal)
        if deal.contract is None or deal.contract.doubling != 1 or calls[-4].kind is not CallKind.COINCHE:
            continue
        record = dress(deal, NAMU)
        late = len(calls) - 1  # the third pass after the coinche: the bidder's
        entries = list(record.auction)[:late] + [dataclasses.replace(record.auction[late],
                                                                     call=Call(CallKind.SURCOINCHE))]
        changed = _auction_with(record, _close(record, entries))
        if _only(changed, "surcoinche-not-right-after-coinche"):
            changed = head_comment(changed, "쿠앙슈를 선언하고 바로 다음에: a surcoinche only right after the "
                                   "coinche, not two passes later.")
            return Invalid(file_text([changed]), (Expect("surcoinche-not-right-after-coinche", ("call", 0, late)),),
                           "namu-coinche: a surcoinche after two passes followed the coinche")
    raise LookupError("surcoinche-not-right-after-coinche")


def _slam_rewritten(profile: str, kind: CallKind, new: CallKind, rule: str, about: str, comment: str,
                    wanted: Callable[[GeneratedDeal], bool] = lambda d: True, table: Table = NAMU) -> Invalid:
    """The call that made a contract of ``kind`` rewritten as a ``new`` call of its denomination."""
    for deal in deals(profile, W):
        if deal.contract is None or not wanted(deal):
            continue
        calls = calls_of(deal)
        index = max((i for i, call in enumerate(calls) if call.kind is kind), default=None)
        if index is None or calls[index].denomination is not deal.contract.denomination:
            continue
        record = dress(deal, table)
        changed = _replace_call(record, index, Call(new, calls[index].denomination))
        if _only(changed, rule):
            changed = head_comment(changed, comment)
            return Invalid(file_text([changed]), (Expect(rule, ("call", 0, index)),), about)
    raise LookupError(rule)


def belote_at_ta() -> Invalid:
    """club-coinche (belote_at_ta=false): belote and rebelote said at TA on a king and queen."""
    for deal in deals("club-coinche", N, 20):
        if deal.contract is None or deal.contract.denomination is not Denomination.ALL_TRUMPS:
            continue
        record = dress(deal, CLUB_004)
        for seat in (N, E, S, W):
            hand = set(record.hand(seat))
            for suit in "SHDC":
                pair = [Card.parse(rank + suit) for rank in "KQ"]
                if not set(pair) <= hand:
                    continue
                places = sorted(card_index(record, card) for card in pair)
                changed = replace_play(record, *places[0], declaration="belote")
                changed = with_result(replace_play(changed, *places[1], declaration="rebelote"))
                expected = tuple(Expect("belote-without-king-queen", ("card", 0, *place)) for place in places)
                if sorted(f.rule for f in findings_after(changed)) == [e.rule for e in expected]:
                    changed = head_comment(changed, "이 두 가지로 경매한 경우 게임 도중 블로트를 선언할 수 없다: "
                                           "no belote at SA or TA.")
                    return Invalid(file_text([changed]), expected,
                                   "club-coinche (belote_at_ta=false): belote and rebelote said at TA")
    raise LookupError("belote at TA")


def meld_after_trick1() -> Invalid:
    """club-classic (meld_cards=after_trick1): a run announced with a card played in trick 1 and lost."""
    rules = Rules.parse("club-classic")
    for deal in deals("club-classic", E, 10):
        if deal.contract is None or deal.announcements:
            continue
        record = dress(deal, CLUB_002)
        first = record.tricks[0]
        for entry in first.plays:
            runs = [m for m in find_melds(record.hand(entry.seat), rules)
                    if not m.is_carre and entry.card in m.cards]
            if not runs:
                continue
            claimed = Announcement(entry.seat, runs[0].kind, runs[0].cards,
                                   comments=(f"{entry.card} was played in trick 1 and lost",))
            changed = with_result(dataclasses.replace(record, announcements=(claimed,)))
            if _only(changed, "announcement-not-held"):
                changed = head_comment(changed, "첫 트릭이 끝난 뒤 ... 자신의 패 일부와 첫 트릭으로 획득한 카드: "
                                       "melds are shown after trick 1, from the cards then held.")
                return Invalid(file_text([changed]), (Expect("announcement-not-held", ("announce", 0, 0)),),
                               "club-classic (meld_cards=after_trick1): a run announced with a card played "
                               "in trick 1 and lost")
    raise LookupError("meld after trick 1")


def carre_of_nines() -> Invalid:
    """sata-classic (carre_nines=0): four nines announced."""
    nines = tuple(Card.parse("9" + suit) for suit in "SHDC")
    for deal in deals("sata-classic", S):
        if deal.contract is None:
            continue
        record = dress(deal, SATA)
        seat = next((s for s in (N, E, S, W) if set(nines) <= set(record.hand(s))), None)
        if seat is None:
            continue
        claimed = Announcement(seat, MeldKind.CARRE, nines)
        announcements = tuple(a for a in record.announcements if a.seat is not seat) + (claimed,)
        changed = with_result(dataclasses.replace(record, announcements=announcements))
        if _only(changed, "announcement-wrong-kind"):
            changed = head_comment(changed, "Quad Jacks 200, Quad Aces 100, Quad Tens/Kings/Queens 50: "
                                   "no carré of nines in 003.")
            index = len(announcements) - 1
            return Invalid(file_text([changed]), (Expect("announcement-wrong-kind", ("announce", 0, index)),),
                           "sata-classic (carre_nines=0): a carré of nines announced")
    raise LookupError("carre of nines")


def _holds_led_suit(state: PlayState, seat: Seat) -> bool:
    led = state.current_trick[0][1].suit
    return any(card.suit is led for card in state.hand(seat))


def _partner_winning(state: PlayState, seat: Seat) -> bool:
    winner = state.current_winner
    return winner is not None and winner[0] is seat.partner


def _trumps_led(state: PlayState, seat: Seat) -> bool:
    return bool(state.current_trick) and state.current_trick[0][1].suit is state.contract.trump


def club_classic_undertrump() -> Invalid:
    """club-classic (follow_or_trump=true): holding the suit led, a trump instead, but under
    an opponent's trump although a higher one is held."""
    record, (trick, position) = illegal_play("club-classic", "must-overtrump", table=CLUB_002,
                                             wanted=lambda st, seat: _holds_led_suit(st, seat)
                                             and st.contract.trump is not None)
    record = head_comment(record, "같은 문양의 카드를 내야하며 으뜸패를 내도 된다 ... 그 트릭에 이미 으뜸패가 나왔다면 "
                          "무조건 그것보다 높은 으뜸패를 내야한다: a trump may replace the suit led, but it must go "
                          "over a trump already played.")
    return Invalid(file_text([record]), (Expect("must-overtrump", ("card", 0, trick, position)),),
                   "club-classic (follow_or_trump=true): a trump instead of the suit led, under a trump in "
                   "the trick although a higher one is held")


def club_coinche_must_trump() -> Invalid:
    """club-coinche (must_overtrump=false, partner_exemption=false): void, partner winning: still trump."""
    record, (trick, position) = illegal_play("club-coinche", "must-trump", table=CLUB_004,
                                             wanted=_partner_winning)
    record = head_comment(record, "같은 문양의 카드가 없다면 무조건 으뜸패를 내야 한다: void in the suit led, a "
                          "trump is due even when the partner is winning (any trump will do).")
    return Invalid(file_text([record]), (Expect("must-trump", ("card", 0, trick, position)),),
                   "club-coinche (no partner exemption, must_overtrump=false): a discard while the partner wins "
                   "the trick and a trump is held")


def sata_trump_lead() -> Invalid:
    """sata-classic (trump_lead_must_beat=false): trumps led, a trump is due (any trump), not a discard."""
    record, (trick, position) = illegal_play("sata-classic", "must-follow", table=SATA, wanted=_trumps_led)
    record = head_comment(record, "선과 같은 짝패의 카드가 있으면 해당 짝패의 카드 중 하나를 내야 한다: trumps led, any "
                          "trump will do, but a trump it must be.")
    return Invalid(file_text([record]), (Expect("must-follow", ("card", 0, trick, position)),),
                   "sata-classic (trump_lead_must_beat=false): trumps led, a discard although a trump is held")


def call_after_closing_coinche() -> Invalid:
    """club-coinche (coinche_closes=true): a pass after the coinche that ended the auction."""
    record = base("club-coinche", lambda d: calls_of(d)[-1].kind is CallKind.COINCHE, dealer=S, table=CLUB_004)
    calls = list(record.auction)
    seat = calls[-1].seat.next(Rules.parse(record.tag("Rules")).clockwise)
    calls.append(CallEntry(PASS, seat))
    changed = head_comment(_auction_with(record, calls), "누군가가 퀘시를 선언했다면 경매는 즉시 종료되고: the "
                           "coinche ended the auction.")
    return Invalid(file_text([changed]), (Expect("call-after-auction-closed", ("call", 0, len(calls) - 1)),),
                   "club-coinche (coinche_closes=true): a call after the coinche that ended the auction")


def match_exceed() -> Invalid:
    """namu-classic (match_end=exceed): the match of 18-namu-match, where a side stands at exactly
    500 (no finding: play goes on), plus one more deal after a side passed 500."""
    match = namu_match()
    records = list(match.records)
    dealer = match.deals[-1].dealer.next(Rules.parse("namu-classic").clockwise)
    extra = find("namu-classic", lambda d: True, dealer=dealer, start=500)
    records.append(dress(extra, NAMU_MATCH, deal_number=len(records) + 1, score_before=match.totals))
    at = exact_target(match)
    records[at] = head_comment(records[at], f"{records[at].tag('Score')}: 500 is not over 500, the match goes on.")
    return Invalid(file_text(records), (Expect("match-over", ("record", len(records) - 1)),),
                   "namu-classic (match_end=exceed): a side at exactly 500 plays on (no finding); a deal "
                   "after a side passed 500 is match-over")


def melds_decide_the_contract() -> Invalid:
    """namu-annonces (melds_in_contract=false): a Result written as if the takers' melds had made
    the contract (the old korean scoring)."""
    for deal in deals("namu-annonces", W, 100):
        if deal.contract is None or deal.score.outcome is not Outcome.FAILED:
            continue
        record = dress(deal, NAMU)
        old = with_result(set_tag(record, "Rules", "namu-annonces; melds_in_contract=true"))
        if old.result == record.result:
            continue
        changed = set_tag(record, "Result", old.tag("Result"))
        if _only(changed, "result-mismatch"):
            changed = head_comment(changed, "공격 팀의 승리 조건은 팀이 획득한 카드 점수가 과반인 82점 이상: the "
                                   f"takers fail on card points; the Result {old.tag('Result')} counts their "
                                   "melds toward the contract.")
            return Invalid(file_text([changed]), (Expect("result-mismatch", ("tag", 0, "Result")),),
                           "namu-annonces (melds_in_contract=false): a Result that lets the takers' melds "
                           "make the contract")
    raise LookupError("melds decide the contract")


def rules_alias() -> Invalid:
    """Records naming the old profiles: checked as the seed profiles they now stand for."""
    records = []
    for number, (old, profile, dealer) in enumerate((("korean", "namu-annonces", N),
                                                     ("korean-coinche", "namu-coinche", E)), 1):
        deal = find(profile, lambda d: d.score.outcome is Outcome.MADE, dealer=dealer, start=300)
        record = set_tag(dress(deal, SEOUL, round_=str(number)), "Rules", old)
        records.append(head_comment(record, f"{old} is an old name of {profile}."))
    return Invalid(file_text(records), tuple(Expect("rules-alias", ("tag", i, "Rules")) for i in range(2)),
                   "records naming the old profiles korean and korean-coinche (a note, no fault: checked as "
                   "namu-annonces and namu-coinche)")


# Syntax errors: the canonical text of a clean deal with one word broken.

def _edit(text: str, old: str, new: str) -> str:
    assert text.count(old) >= 1, old
    return text.replace(old, new, 1)


def _syntax(edit: Callable[[str, Record], tuple[str, tuple]], about: str, rule: str = "syntax-error",
            start: int = 0, also: tuple[str, ...] = ()) -> Invalid:
    record = base("ffb", start=start)
    text, where = edit(file_text([record]), record)
    return Invalid(text, tuple(Expect(r, where) for r in (rule, *also)), about)


def _bad_card(text: str, record: Record) -> tuple[str, tuple]:
    entry = record.tricks[3].plays[1]
    old = f"{entry.seat}:{entry.card}"
    return _edit(text, old, f"{entry.seat}:XZ"), ("text", "XZ")


def _unclosed_tag(text: str, record: Record) -> tuple[str, tuple]:
    return _edit(text, '[Site "Lyon"]', '[Site "Lyon"'), ("text", '[Site "Lyon"', 12)  # where "]" is due


def _bad_call(text: str, record: Record) -> tuple[str, tuple]:
    entry = record.taking[1]
    old = f"taking {record.taking[0].seat}:{record.taking[0].call} {entry.seat}:{entry.call}"
    return _edit(text, old, old[:-len(str(entry.call))] + "tkae"), ("text", "tkae")


def _short_hand(text: str, record: Record) -> tuple[str, tuple]:
    cards = record.hand(N)
    line = "hand N " + " ".join(map(str, cards))
    return _edit(text, line, "hand N " + " ".join(map(str, cards[:7]))), ("text", "hand N ")


def _dealt_twice(text: str, record: Record) -> tuple[str, tuple]:
    west = "hand W " + " ".join(map(str, record.hand(W)))
    north = record.hand(N)[0]
    changed = "hand W " + " ".join(map(str, (north,) + record.hand(W)[1:]))
    return _edit(text, west, changed), ("text", f"hand W {north}", len("hand W "))


def recovery() -> Invalid:
    """Three records, the middle one broken: the others still read and validate."""
    records = [base("ffb", start=s, dealer=d, number=n) for s, d, n in ((3, N, 1), (4, W, 2), (5, S, 3))]
    records = [set_tag(r, "Round", str(i)) for i, r in enumerate(records, 1)]
    text = file_text(records)
    entry = records[1].tricks[2].plays[2]
    broken = f"{entry.seat}:{entry.card}"
    where = text.index(broken, text.index('[Deal "2"]'))
    text = text[:where] + f"{entry.seat}:1O{str(entry.card)[1]}" + text[where + len(broken):]
    return Invalid(text, (Expect("syntax-error", ("text", "1O")),),
                   "three records, the second with a misspelt card (1O for 10): only it is lost")


def _where_in(text: str, needle: str, shift: int = 0) -> tuple[int, int]:
    """Line and column of the first ``needle`` in ``text``, ``shift`` characters on."""
    offset = text.index(needle) + shift
    return text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset)


INVALID: dict[str, Callable[[], Invalid]] = {
    "syntax-bad-card": lambda: _syntax(_bad_card, "a card written XZ in trick 4"),
    "syntax-unclosed-tag": lambda: _syntax(_unclosed_tag, "a tag pair without its ]",
                                           start=1),
    "syntax-bad-call": lambda: _syntax(_bad_call, "a misspelt call (tkae)", start=2),
    "hand-size": lambda: _syntax(_short_hand, "a hand of 7 cards; the missing card is found among the cards played",
                                 "hand-size", start=3, also=("hands-rebuilt",)),
    "dealt-twice": lambda: _syntax(_dealt_twice, "a card dealt to North and to West",
                                   "duplicate-card", start=4),
    "recovery": recovery,
    "revoke": revoke,
    "must-trump": must_trump,
    "must-overtrump": must_overtrump,
    "trump-lead-must-go-over": trump_lead,
    "two-illegal-plays": two_illegal_plays,
    "card-not-held": card_not_held,
    "bid-not-higher": bid_not_higher,
    "coinche-by-bidding-side": coinche_by_bidding_side,
    "call-after-auction-closed": call_after_close,
    "announcement-not-held": announcement_not_held,
    "belote-without-king-queen": belote_without_pair,
    "wrong-result": wrong_result,
    "match-wrong-score": match_wrong_score,
    "claim-inconsistent": claim_inconsistent,
    "play-out-of-turn": play_out_of_turn,
    "taking-turned-suit": taking_turned_suit,
    "match-over": match_over,
    "dealer-rotation": dealer_rotation,
    "coinche-not-right-after-bid": coinche_not_right_after_bid,
    "surcoinche-not-right-after-coinche": surcoinche_not_right_after_coinche,
    "capot-belote-not-played": lambda: _slam_rewritten(
        "namu-coinche", CallKind.CAPOT, CallKind.CAPOT_BELOTE, "capot-belote-not-played",
        "namu-coinche (capot_belote=0): a capot belote bid",
        "Capot Belote is a bid of page 003, not of 000's Coinche."),
    "generale-belote-not-played": lambda: _slam_rewritten(
        "namu-coinche", CallKind.GENERALE, CallKind.GENERALE_BELOTE, "generale-belote-not-played",
        "namu-coinche (generale_belote=0): a générale belote bid",
        "Générale Belote is a bid of page 003, not of 000's Coinche."),
    "belote-bid-without-trump": lambda: _slam_rewritten(
        "sata-coinche", CallKind.BID, CallKind.CAPOT_BELOTE, "belote-bid-without-trump",
        "sata-coinche: a capot belote at sans atout, where no belote exists",
        "Capot Belote: Capot에 Belote도 선언 (a capot and a belote), and at SA no belote exists.",
        lambda d: d.contract.denomination is Denomination.NO_TRUMPS and not d.contract.doubling, SATA),
    "belote-at-ta": belote_at_ta,
    "meld-after-trick1": meld_after_trick1,
    "carre-of-nines": carre_of_nines,
    "follow-or-trump-undertrump": club_classic_undertrump,
    "no-partner-exemption": club_coinche_must_trump,
    "trump-lead-any-trump": sata_trump_lead,
    "call-after-closing-coinche": call_after_closing_coinche,
    "match-exceed": match_exceed,
    "melds-decide-the-contract": melds_decide_the_contract,
    "rules-alias": rules_alias,
}


