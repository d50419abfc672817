"""The validator: replay a record, report every fault, rescore it, compare the result.

``validate(record, rules=None)`` never raises on a bad record: every problem is a
``Finding`` of the ``Report``. The rules are, in order of precedence, the
``rules`` argument, the record's ``Rules`` tag, its ``Variant`` tag, then ``ffb``;
a bad tag is a finding, not a crash. ``validate_stream`` validates a whole file,
in parallel if asked.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Iterator

from notation.values import SEATS, Card, Denomination, Seat, Suit
from notation.errors import DealError
from notation.parser import read_raw
from notation.record import Record
from notation.scan import RawRecord, split_records

from .engine.melds import Meld, MeldProblem, check_declaration
from .engine.rules import Rules, RulesError, rules_from_text, rules_from_variant, rules_name
from .engine.scoring import DealScore, FinishedDeal, finished_deal, score_deal, void_deal_score
from .express import express_report
from .findings import Finding, Location, make_finding
from .parallel import RECORD_BYTES, run_pool
from .repair import REPAIRABLE, suggest_repairs
from .replay import Replay, filled_record, replay, tag_location
from .report import Report, new_report
from .results import compare_result, every_belote

MELD_RULES = {"melds-off": "melds-not-played", "not-held": "announcement-not-held",
              "card-reused": "announcement-card-reused"}


# --- rules --------------------------------------------------------------------

def resolve_rules(record: Record, rules: Rules | str | None, index: int = 0) -> tuple[Rules, list[Finding]]:
    """The rules that apply to ``record`` and the findings about its Rules/Variant tags."""
    if isinstance(rules, Rules):
        return rules, []
    if isinstance(rules, str):
        return rules_from_text(rules), []  # the caller's own string: an error is the caller's to see
    findings: list[Finding] = []
    text = record.rules_text
    if text and text.strip() not in ("", "?"):
        try:
            return rules_from_text(text), findings
        except RulesError as error:
            findings.append(make_finding("bad-rules-tag", f"Rules tag {text!r}: {error}",
                                         tag_location(record, "Rules", index)))
    try:
        return rules_from_variant(record.variant), findings
    except RulesError as error:
        findings.append(make_finding("bad-rules-tag", f"Variant tag: {error}; ffb assumed",
                                     tag_location(record, "Variant", index)))
        return rules_from_text("ffb"), findings


# --- validate -----------------------------------------------------------------

def validate(record: Any, rules: Rules | str | None = None, index: int | None = None, *,
             repair: bool = True) -> Report:
    """Validate one record (a ``Record``, or a parse result carrying syntax errors).

    With ``repair``, the first faulty card gets repair suggestions (``replayer.repair``)."""
    failed = _syntax_report(record, index)
    if failed is not None:
        return failed
    if not isinstance(record, Record):  # a parse result that holds a record
        index = record.index if index is None else index
        record = record.record
    if index is None:
        index = record.source.index if record.source is not None else 0
    rules_used, findings = resolve_rules(record, rules, index)
    run = replay(record, rules_used, index)
    run.findings[:0] = findings
    melds = _announcements(run)
    _belote(run)
    score, deal = _rescore(run, melds)
    recorded = record.result
    _result(run, score, deal, recorded)
    if run.unchecked:
        run.add("hidden-cards", "not checked: " + "; ".join(run.unchecked), run.at(None))
    run.findings.sort(key=Finding.sort_key)
    if repair and run.findings and run.errors:
        _attach_repairs(run)
    source = record.source
    return new_report(index, tuple(run.findings), rules_name(rules_used), record.tags, run.dealer, score, recorded,
                      (source.first_line, source.last_line) if source is not None else None, tuple(run.unchecked))


def _syntax_report(parsed: Any, index: int | None) -> Report | None:
    """A report for a record the parser could not read (duck-typed: anything with
    ``errors`` and no ``record``), else ``None``."""
    if isinstance(parsed, Record):
        return None
    record = getattr(parsed, "record", None)
    errors = getattr(parsed, "errors", ())
    if record is not None and not errors:
        return None
    if index is None:
        index = getattr(parsed, "index", 0) or 0
    findings = []
    for error in errors or ("the record cannot be read",):
        line, column = getattr(error, "line", None), getattr(error, "column", None)
        findings.append(make_finding(_syntax_rule(error), _syntax_message(error), Location(index, line, column)))
    findings.sort(key=Finding.sort_key)
    source = getattr(parsed, "source", None)
    lines = (source.first_line, source.last_line) if source is not None else None
    return Report(index, tuple(findings), "?", getattr(record, "tags", ()) if record is not None else (),
                  lines=lines)


def _attach_repairs(run: Replay) -> None:
    for i, finding in enumerate(run.findings):
        if finding.rule in REPAIRABLE and finding.location.trick is not None:
            repairs = suggest_repairs(run.record, run.rules, finding, run.errors)
            if repairs:
                run.findings[i] = dataclasses.replace(finding, repairs=repairs)
            return


def _syntax_message(error: object) -> str:
    """One line: what was found and what was expected (the location is the finding's)."""
    problem = getattr(error, "problem", None)
    if problem is None:
        return str(error).splitlines()[0]
    expected = getattr(error, "expected", "")
    return f"{problem}: expected {expected}" if expected else problem


def _syntax_rule(error: object) -> str:
    """The parser refuses an impossible deal (``DealError``): name the deal rule it breaks."""
    if isinstance(error, DealError):
        if "twice" in error.problem:
            return "duplicate-card"
        if "card" in error.problem and "hand" in error.problem:
            return "hand-size"
    return "syntax-error"


def fill_seats(record: Record, rules: Rules | str | None = None) -> Record:
    """``record`` with every call and card credited to its seat (seat prefixes filled in
    as the rules and the replay say) and a Dealer tag; the rest as written."""
    rules_used, _ = resolve_rules(record, rules)
    return filled_record(replay(record, rules_used))


# --- announcements and belote -------------------------------------------------

def _announcements(run: Replay) -> dict[Seat, tuple[Meld, ...]]:
    """Check every announcement against the hand as dealt; return the valid melds."""
    record = run.record
    if not record.announcements:
        return {}
    by_seat: dict[Seat, list] = {}
    for entry in record.announcements:
        by_seat.setdefault(entry.seat, []).append(entry)
    melds: dict[Seat, tuple[Meld, ...]] = {}
    for seat, entries in by_seat.items():
        hand: tuple[Card, ...] | set[Card] | None = run.hands[seat] if run.hands is not None else None
        if hand is None:
            written = run.record.hand(seat)
            hand = written if written is not None and len(written) == 8 and None not in written else None
        if hand is None:  # hidden hand: check the shape of the melds only
            hand = {card for entry in entries for card in entry.cards}
            run.unchecked.append(f"{seat.full_name}'s announcements against the hand (hand unknown)")
        results = check_declaration(hand, [(e.kind, e.cards) for e in entries], run.rules)
        valid = []
        for entry, result in zip(entries, results):
            if isinstance(result, MeldProblem):
                rule = MELD_RULES.get(result.reason, "announcement-wrong-kind")
                shown = f"{entry.kind} {' '.join(c.pretty() for c in entry.cards)}"
                why = result.message.removeprefix(shown + ": ")
                if result.reason == "melds-off":
                    why = "announcements do not score under these rules (melds=false)"
                run.add(rule, f"{seat.full_name} announces {shown}: {why}", run.at(entry.pos), seat=seat)
            else:
                valid.append(result)
        melds[seat] = tuple(valid)
    return melds


def _belote(run: Replay) -> None:
    """Belote marks: only on the trump K or Q of a pair held as dealt; a pair played
    without its marks does not score when ``belote_must_announce``."""
    state = run.state
    if state is None or run.contract is None or state.belotes_sound():
        return
    pairs = {(b.seat, b.suit): b for b in state.belotes()}
    if not pairs and not any(entry.declaration for trick in run.record.tricks for entry in trick.plays):
        return
    trumps = _trump_suits(run)
    known = _known_seats(run)
    first_of_pair: dict[tuple[Seat, Suit], Location] = {}
    for (seat, card), (entry, number, position) in zip(state.plays, _entries(run)):
        in_pair = card.rank.value in "KQ" and card.suit in trumps and (seat, card.suit) in pairs
        if in_pair and (seat, card.suit) not in first_of_pair:
            first_of_pair[(seat, card.suit)] = run.at(entry.pos, number, position)
        if entry.declaration is not None and not in_pair and seat in known:
            run.add("belote-without-king-queen", f"trick {number}: {seat.full_name} says {entry.declaration} "
                    f"with {card.pretty()} without holding the K and Q of trump",
                    run.at(entry.pos, number, position), seat=seat, card=card)
    for key, belote in pairs.items():
        if not belote.entitled and run.rules.belote_must_announce and run.complete:
            run.add("belote-missing-announcement", f"{belote.seat.full_name} held the K and Q of "
                    f"{belote.suit.plural} but did not say belote then rebelote: no belote points",
                    first_of_pair.get(key, run.at(None)), seat=belote.seat)


def _entries(run: Replay):
    """(entry, trick number, position) of every card the replay played, in order."""
    for number, trick in enumerate(run.record.tricks, 1):
        for position, entry in enumerate(trick.plays[:4], 1):
            yield entry, number, position


def _trump_suits(run: Replay) -> set[Suit]:
    denomination = run.contract.denomination
    if denomination is Denomination.ALL_TRUMPS:
        return set(Suit)
    return {denomination.suit} if denomination.suit is not None else set()


def _known_seats(run: Replay) -> set[Seat]:
    if run.hands is not None:
        return set(SEATS)
    return {h.seat for h in run.record.hands if h.cards is not None and None not in h.cards}


# --- rescoring and the Result tag ---------------------------------------------

def _rescore(run: Replay, melds: dict[Seat, tuple[Meld, ...]]) -> tuple[DealScore | None, FinishedDeal | None]:
    if run.contract is None and run.is_void and not run.record.tricks:
        return void_deal_score(), None
    if not run.complete or run.state is None or not run.state.is_over:
        return None, None
    deal = finished_deal(run.state, melds)
    return score_deal(deal, run.rules), deal


def _result(run: Replay, score: DealScore | None, deal: FinishedDeal | None,
            recorded: tuple[int, int] | None) -> None:
    if recorded is None:
        text = run.record.tag("Result")
        if text and text.strip() not in ("?", "*", ""):
            run.add("result-unreadable", f"Result tag {text!r} is not a score pair such as 92-70",
                    run.tag_at("Result"))
        return
    if score is None:
        if not run.record.stopped and not any(f.rule == "incomplete-play" for f in run.findings):
            run.add("not-rescored", "the Result tag cannot be checked: the deal could not be rescored",
                    run.tag_at("Result"))
        return
    if recorded != score.scores:
        if deal is not None:
            message = compare_result(recorded, deal, score, run.rules, every_belote(run.state))
        else:
            message = f"Result {recorded[0]}-{recorded[1]} but the deal rescores to {score.scores[0]}-{score.scores[1]}"
        run.add("result-mismatch", message, run.tag_at("Result"))


__all__ = ["Report", "new_report", "validate", "validate_raw", "validate_stream", "resolve_rules", "fill_seats"]


# --- streams ------------------------------------------------------------------

CHUNK = 400  # records a worker validates per task, about


def validate_stream(source: Any, rules: Rules | str | None = None, jobs: int = 1, *,
                    repair: bool = True, chunk: int = CHUNK) -> Iterator[Report]:
    """A report per record of ``source`` (text, bytes, a path or a stream), in input order.

    With ``jobs > 1`` the file goes to worker processes in chunks of whole records,
    about ``chunk`` records of a usual size each (``replayer.parallel``); at most
    ``2 * jobs`` chunks are in flight, so memory stays flat whatever the file size.
    """
    if isinstance(rules, str):
        rules = Rules.parse(rules)
    if jobs <= 1:
        for raw in split_records(source):
            yield validate_raw(raw, rules, repair)
        return
    yield from run_pool(source, rules, jobs, repair, validate_raw, new_report, chunk * RECORD_BYTES)


def validate_raw(raw: RawRecord, rules: Rules | None = None, repair: bool = True) -> Report:
    """``validate`` of one record as cut by the splitter: a sound record in canonical
    form the express way (``replayer.express``), any other parsed and validated."""
    return express_report(raw, rules) or validate(read_raw(raw), rules, repair=repair)
