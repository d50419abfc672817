"""The validator: replay a record, report every fault, rescore it, compare the result.

``validate(record, rules=None)`` never raises on a bad record: every problem is a
``Finding`` of the ``Report``. It takes the record as read (``notation.RecordData``, what
``parse`` gives as ``ParseResult.data``), a ``ParseResult`` (one that holds a syntax error
gives a report of it) or a ``Record`` made in code. The rules are, in order of precedence,
the ``rules`` argument, the record's ``Rules`` tag, its ``Variant`` tag, then ``ffb``; a bad
tag is a finding, not a crash. ``validate_raw`` reads and validates a record as the
splitter cut it (``check.streams`` validates whole files). Every record takes the same way.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterator

from notation import ParseResult, RecordData, Record
from notation.errors import DealError, RecordSyntaxError
from notation.lexer import UNKNOWN
from notation.parser import read_raw
from notation.reader import WORD_BITS
from notation.record import SCORE_DIGITS, parse_score_pair, seat_or_none, variant_name
from notation.splitter import RawRecord, head_tags
from notation.values import ALL_CARDS, SEATS, Denomination, MeldKind, Seat, Suit

from ..engine.melds import Meld, check_declaration, meld_cards
from ..engine.rules import Rules, RulesError, profile_alias, rules_from_text, rules_from_variant
from ..engine.scoring import DealScore, FinishedDeal, finished_deal, score_deal, void_deal_score
from .faults import Faults, find_faults
from .findings import Finding, Location, Severity, make_finding
from .repair import REPAIRABLE, suggest_repairs
from .report import Replayed, Report
from .result_check import compare_result, every_belote

MELD_RULES = {"melds-off": "melds-not-played", "not-held": "announcement-not-held",
              "card-reused": "announcement-card-reused"}
_NOT_A_RESULT = ("?", "*", "")  # a Result tag saying the score is not known


def resolve_rules(data: RecordData | Record, rules: Rules | str | None = None,
                  index: int = 0) -> tuple[Rules, list[Finding]]:
    """The rules that apply to a record and the findings about its Rules and Variant tags."""
    if isinstance(rules, Rules):
        return rules, []
    if isinstance(rules, str):
        return rules_from_text(rules), []  # the caller's own string: an error is the caller's to see
    findings: list[Finding] = []
    text = data.tag("Rules")
    if text and text.strip() not in ("", "?"):
        try:
            rules = rules_from_text(text)
        except RulesError as error:
            findings.append(make_finding("bad-rules-tag", f"Rules tag {text!r}: {error}",
                                         _tag_location(data, "Rules", index)))
        else:
            alias = profile_alias(text)
            if alias is not None:  # an old profile name (rules.md §8): say which profile applies
                findings.append(make_finding("rules-alias", f"Rules tag {text!r}: {alias[0]} is an old name, "
                                             f"checked as {alias[1]}", _tag_location(data, "Rules", index)))
            return rules, findings
    try:
        return rules_from_variant(variant_name(data.tag("Variant"))), findings
    except RulesError as error:
        findings.append(make_finding("bad-rules-tag", f"Variant tag: {error}; ffb assumed",
                                     _tag_location(data, "Variant", index)))
        return rules_from_text("ffb"), findings


def _tag_location(data: RecordData | Record, name: str, index: int) -> Location:
    if isinstance(data, Record):
        data = data.data()
    position = data.tag_position(name)
    return Location(index) if position is None else Location(index, *position)


# --- validate -----------------------------------------------------------------

def validate(record: RecordData | ParseResult | Record, rules: Rules | str | None = None,
             index: int | None = None, *, repair: bool = True) -> Report:
    """The report of one record (see the module's docstring). With ``repair``, the first
    faulty card gets repair suggestions (``check.repair``)."""
    lines = None
    if isinstance(record, ParseResult):
        if record.data is None:
            return syntax_report(record, record.index if index is None else index)
        index = record.index if index is None else index
        lines = (record.source.first_line, record.source.last_line)
        record = record.data
    elif isinstance(record, Record):
        source = record.source
        index = (source.index if source is not None else 0) if index is None else index
        lines = (source.first_line, source.last_line) if source is not None else None
        record = record.data(index)
    else:
        lines = (record.first_line, record.first_line + record.text.count("\n") - 1)
    return _validate(record, rules, record.index if index is None else index, repair, lines)


def _validate(data: RecordData, rules: Rules | str | None, index: int, repair: bool,
              lines: tuple[int, int] | None = None) -> Report:
    rules_used, findings = resolve_rules(data, rules, index)
    run = find_faults(data, rules_used, index)
    run.findings[:0] = findings
    melds = counted_melds(run)
    if run.state is not None and run.contract is not None and not run.state.belotes_sound():
        _belote(run)
    score, deal = _rescore(run, melds)
    recorded = _result(run, score, deal)
    if run.unchecked:
        run.add("hidden-cards", "not checked: " + "; ".join(run.unchecked), Location(index))
    run.findings.sort(key=Finding.sort_key)
    if repair and run.findings and run.errors:
        _attach_repairs(run)
    return Report(index, tuple(run.findings), rules_used, tuple(data.tags), run.dealer, score, recorded, lines,
                  tuple(run.unchecked), _replayed(run), tuple(at >> WORD_BITS for at in data.tag_places))


def _replayed(run: Faults) -> Replayed:
    state = run.state
    return Replayed(run.masks, run.contract, run.void,
                    tuple(seat for seat, _ in run.bidding.history) if run.bidding is not None else (),
                    state.moves if state is not None else b"", state.claimed_by if state is not None else None)


def syntax_report(result: ParseResult, index: int) -> Report:
    """The report of a record that could not be read: its error, as a finding, and its tag
    pairs read leniently (``head_tags``), so that it keeps its place in its match with its
    Dealer, Score and Result."""
    findings = []
    for error in result.errors or (RecordSyntaxError("the record cannot be read"),):
        findings.append(make_finding(_syntax_rule(error), _syntax_message(error),
                                     Location(index, error.line, error.column)))
    findings.sort(key=Finding.sort_key)
    source = result.source
    head = head_tags(source.text)
    tags = tuple((name, value) for name, value, _ in head)
    dealer = next((value for name, value in tags if name == "Dealer"), None)
    return Report(index, tuple(findings), None, tags, seat_or_none(dealer),
                  recorded=parse_score_pair(next((value for name, value in tags if name == "Result"), None)),
                  lines=(source.first_line, source.last_line),
                  tag_lines=tuple(source.first_line + number for _, _, number in head))


def _syntax_message(error: RecordSyntaxError) -> str:
    """One line: what was found and what was expected (the location is the finding's)."""
    return f"{error.problem}: expected {error.expected}" if error.expected else error.problem


def _syntax_rule(error: RecordSyntaxError) -> str:
    """The reader refuses an impossible deal (``DealError``): name the deal rule it breaks."""
    if isinstance(error, DealError):
        if "twice" in error.problem:
            return "duplicate-card"
        if "card" in error.problem and "hand" in error.problem:
            return "hand-size"
    return "syntax-error"


def _attach_repairs(run: Faults) -> None:
    for i, finding in enumerate(run.findings):
        if finding.rule in REPAIRABLE and finding.location.trick is not None:
            repairs = suggest_repairs(run.data, run.rules, finding, run.errors, _validate)
            if repairs:
                run.findings[i] = finding.with_repairs(repairs)
            return


# --- announcements and belote -------------------------------------------------

def counted_melds(run: Faults) -> dict[Seat, tuple[Meld, ...]]:
    """Check every announcement against the hand as dealt; return the valid melds."""
    announcements = run.data.announcements
    if not announcements:
        return {}
    by_seat: dict[Seat, list] = {}
    for entry in announcements:
        by_seat.setdefault(entry[0], []).append(entry)
    written = {seat: cards for seat, cards, _, _ in run.hands()}
    melds: dict[Seat, tuple[Meld, ...]] = {}
    for seat, entries in by_seat.items():
        if run.masks is not None:
            hand = run.masks[seat.index]
        elif (cards := written.get(seat)) is not None and len(cards) == 8 and UNKNOWN not in cards:
            hand = sum(1 << index for index in cards)
        else:
            hand = None
        if hand is None:  # a hidden hand: only the shape of the melds is checked
            hand = sum(1 << index for entry in entries for index in entry[2])
            run.unchecked.append(f"{seat.full_name}'s announcements against the hand (hand unknown)")
        elif run.rules.meld_cards != "dealt":
            hand = _after_trick1(run, seat, hand)
        announced = [(kind, tuple(ALL_CARDS[index] for index in indexes)) for _, kind, indexes, _, _, _ in entries]
        valid = []
        for (_, kind, _, _, place, _), (_, shown_cards), result in zip(entries, announced,
                                                                        check_declaration(hand, announced, run.rules)):
            if isinstance(result, Meld):
                valid.append(result)
                continue
            shown = f"{kind} {' '.join(card.pretty() for card in shown_cards)}"
            why = result.message.removeprefix(shown + ": ")
            if result.reason == "melds-off":
                why = "announcements do not score under these rules (melds=false)"
            elif result.reason == "not-held" and run.rules.meld_cards == "after_trick1":
                why += " after trick 1 (meld_cards=after_trick1: the hand left and the cards won in trick 1)"
            run.add(MELD_RULES.get(result.reason, "announcement-wrong-kind"), f"{seat.full_name} announces {shown}: "
                    f"{why}", run.at(place), seat=seat)
        melds[seat] = tuple(valid)
    return melds


def _after_trick1(run: Faults, seat: Seat, dealt: int) -> int:
    """The cards ``seat`` may meld from under ``meld_cards=after_trick1`` (``melds.meld_cards``);
    the hand as dealt, noted as not checked, when trick 1 was not played out."""
    state = run.state
    trick = state.tricks[0] if state is not None and state.trick_count else None
    cards = meld_cards(dealt, seat, trick.plays if trick else None, trick.winner if trick else None, run.rules)
    if cards is None:
        run.unchecked.append(f"{seat.full_name}'s announcements against the cards after trick 1 (trick 1 unknown)")
        return dealt
    return cards


def _belote(run: Faults) -> None:
    """Belote marks: only on the trump K or Q of a pair held as dealt; a pair played without
    its marks does not score when ``belote_must_announce``."""
    state = run.state
    assert state is not None and run.contract is not None
    pairs = {(b.seat, b.suit): b for b in state.belotes()}
    words = run.data.declarations
    if not pairs and not words:
        return
    denomination = run.contract.denomination
    trumps = set(Suit) if denomination is Denomination.ALL_TRUMPS else {denomination.suit} - {None}
    known = set(SEATS) if run.masks is not None else {
        seat for seat, cards, _, _ in run.data.hands if cards is not None and UNKNOWN not in cards}
    first_of_pair: dict[tuple[Seat, Suit], Location] = {}
    # 004: "이 두 가지로 경매한 경우 게임 도중 블로트를 선언할 수 없다" (no belote at SA or TA).
    no_belote = denomination is Denomination.ALL_TRUMPS and not run.rules.belote_at_ta
    for (seat, card), (number, trick, position) in zip(state.plays, _played(run.data)):
        in_pair = card.rank.value in "KQ" and card.suit in trumps and (seat, card.suit) in pairs
        if in_pair and (seat, card.suit) not in first_of_pair:
            first_of_pair[(seat, card.suit)] = run.play_at(number, trick, position)
        word = words.get(number)
        if word is not None and (no_belote or not in_pair and seat in known):
            why = "but no belote is played at TA (belote_at_ta=false)" if no_belote else \
                "without holding the K and Q of trump"
            run.add("belote-without-king-queen", f"trick {trick}: {seat.full_name} says {word} with {card.pretty()} "
                    f"{why}", run.play_at(number, trick, position), seat=seat, card=card)
    for key, belote in pairs.items():
        if not belote.entitled and run.rules.belote_must_announce and run.complete:
            run.add("belote-missing-announcement", f"{belote.seat.full_name} held the K and Q of "
                    f"{belote.suit.plural} but did not say belote then rebelote: no belote points",
                    first_of_pair.get(key, Location(run.index)), seat=belote.seat)


def _played(data: RecordData) -> list[tuple[int, int, int]]:
    """(play number, trick, position) of every card the replay plays, in order.

    A list, not a generator: compiled by mypyc 2.4.1, a generator that ``zip`` left unfinished
    (the replay stopped before the last card) ended ``_belote`` in "SystemError: error return
    without exception set"."""
    return [(number, trick + 1, position) for trick in range(len(data.tricks))
            for position, number in enumerate(data.trick_plays(trick)[:4], 1)]


# --- rescoring and the Result tag ---------------------------------------------

def _rescore(run: Faults, melds: dict[Seat, tuple[Meld, ...]]) -> tuple[DealScore | None, FinishedDeal | None]:
    if run.void and not run.data.tricks:
        return void_deal_score(), None
    if not run.complete or run.state is None or not run.state.is_over:
        return None, None
    deal = finished_deal(run.state, melds)
    return score_deal(deal, run.rules), deal


def _result(run: Faults, score: DealScore | None, deal: FinishedDeal | None) -> tuple[int, int] | None:
    """The recorded Result, checked against the rescored deal."""
    text = run.data.tag("Result")
    recorded = parse_score_pair(text)
    if recorded is None:
        if text and text.strip() not in _NOT_A_RESULT:
            run.add("result-unreadable", f"Result tag {text!r} is not a score pair such as 92-70"
                    + _out_of_range(text), run.tag_at("Result"))
        return None
    if score is None:
        if not run.data.stopped and not any(f.rule == "incomplete-play" for f in run.findings):
            run.add("not-rescored", "the Result tag cannot be checked: the deal could not be rescored",
                    run.tag_at("Result"))
        return recorded
    if recorded != score.scores:
        if deal is not None:
            message = compare_result(recorded, deal, score, run.rules, every_belote(run.state))
        else:
            message = f"Result {recorded[0]}-{recorded[1]} but the deal rescores to {score.scores[0]}-{score.scores[1]}"
        run.add("result-mismatch", message, run.tag_at("Result"))
    return recorded


def _out_of_range(text: str) -> str:
    """Why a pair of numbers is still no score: one of them is out of range."""
    numbers = "".join(c if "0" <= c <= "9" else " " for c in text).split()
    if any(len(number) > SCORE_DIGITS for number in numbers):
        return f": a score is out of range (at most {SCORE_DIGITS} digits)"
    return ""


# --- seats filled in -------------------------------------------------------------

SCORING_RULES = frozenset({"result-mismatch", "result-unreadable", "not-rescored", "melds-not-played",
                           "announcement-not-held", "announcement-wrong-kind", "announcement-card-reused",
                           "belote-without-king-queen", "belote-missing-announcement"})
"""Findings about the score and the announcements, not about how the deal was played."""


def fill_seats(record: Record, rules: Rules | str | None = None) -> Record:
    """The record with the seat prefixes a transcriber left out, as the replay credits them,
    and a Dealer tag when it had none, when the deal replays without fault (notes, and
    findings about the score, aside) under one dealer only; else the record as it is."""
    calls = record.auction if record.auction is not None else record.taking or ()
    if all(entry.seat is not None for entry in calls) and all(
            entry.seat is not None for trick in record.tricks for entry in trick.plays):
        return record
    report = validate(record, rules, repair=False)
    replayed = report.replay
    if replayed is None or not _replays_cleanly(report, dealer_guessed=record.dealer is None):
        return record
    if record.dealer is None and not _only_dealer(record, rules, report.dealer):
        return record  # hidden hands, say: more than one dealer replays, so the seats are a guess
    changes: dict[str, Any] = {}
    if calls:
        name = "auction" if record.auction is not None else "taking"
        seats = replayed.call_seats
        changes[name] = tuple(replace(entry, seat=seat) for entry, seat in zip(calls, seats)) + calls[len(seats):]
    if replayed.plays:
        seats_played = iter(seat for seat, _ in replayed.plays)
        changes["tricks"] = tuple(replace(trick, plays=tuple(
            replace(entry, seat=next(seats_played, entry.seat)) if position < 4 else entry
            for position, entry in enumerate(trick.plays))) for trick in record.tricks)
    if record.dealer is None and report.dealer is not None:
        changes["tags"] = tuple(t for t in record.tags if t[0] != "Dealer") + (("Dealer", str(report.dealer)),)
    return replace(record, **changes)


def _replays_cleanly(report: Report, dealer_guessed: bool = False) -> bool:
    """No finding but notes and the score's, and the missing-dealer warning when the record
    had no Dealer tag to be wrong."""
    return not any(f.severity is not Severity.INFO and f.rule not in SCORING_RULES
                   and not (dealer_guessed and f.rule == "missing-dealer") for f in report.findings)


def _only_dealer(record: Record, rules: Rules | str | None, dealer: Seat | None) -> bool:
    """Whether ``dealer`` is the one seat under which the record replays cleanly."""
    clean = [seat for seat in SEATS if _replays_cleanly(validate(
        replace(record, tags=record.tags + (("Dealer", str(seat)),)), rules, repair=False))]
    return clean == [dealer]


# --- records as cut --------------------------------------------------------------

def validate_raw(raw: RawRecord, rules: Rules | None = None, repair: bool = True) -> Report:
    """The report of one record as the splitter cut it: read, then validated."""
    return validate(read_raw(raw), rules, raw.index, repair=repair)


__all__ = ["Report", "fill_seats", "validate", "validate_raw", "resolve_rules", "syntax_report"]
