"""The express path: a clean record in canonical form validated straight from its text.

Most records a program reads were written by a program (an export of this tool, of
an archive, of the generator): in canonical form, and sound. For such a record the
validator's full way builds the model of ``notation`` (some hundred entries with their
positions), replays it collecting findings, and finds none. ``express_report(raw,
rules)`` reads the record with ``notation.compact.read_canonical`` (plain values, no
positions) and plays it on the same engine (``explain`` and ``push_unchecked`` of the
taking or auction, ``PlayState.fault`` and ``apply``, ``melds.check_melds``, ``scoring``),
under the same conditions as each fast path of
the full way; it returns the very ``Report`` that ``validate`` would, or ``None`` as
soon as anything would make a finding (a fault, a missing or unknown tag...), and the
caller then validates the record the full way, which says what is wrong and where.
The one finding it makes itself is a Result that differs from the rescored deal, the
usual slip of a sound record (it only needs the rescored deal and where the tag is).
``tests/test_express.py`` checks that both ways give equal reports on every sample and
on generated and damaged records.
"""

from __future__ import annotations

from notation.values import DECLARATIONS, SEATS, Seat
from notation.compact import CanonicalRecord, read_canonical
from notation.record import parse_score_pair, variant_name
from notation.scan import RawRecord

from .engine.bidding import AuctionState, BiddingState, TakingState
from .engine.melds import Meld, check_melds
from .engine.play import PlayState
from .engine.rules import Rules, RulesError, rules_from_text, rules_from_variant, rules_name
from .engine.scoring import FinishedDeal, finished_deal, score_deal
from .findings import Finding, make_finding
from .replay import tag_location_in
from .report import Report, new_report
from .results import compare_result, every_belote

_DEALERS = {str(seat): seat for seat in SEATS}
_NOT_A_RESULT = ("?", "*", "")  # a Result tag that says the score is not known (no finding)


def express_report(raw: RawRecord, rules: Rules | str | None = None) -> Report | None:
    """The report of a sound record in canonical form, exactly as ``validate`` gives it
    (the rescored deal, no finding but a Result that differs); ``None`` for any other
    record."""
    checked = express_check(raw, rules)
    return None if checked is None else checked[0]


def express_check(raw: RawRecord, rules: Rules | str | None = None) -> tuple[Report, CanonicalRecord] | None:
    """``express_report`` with the record as read (for what a report does not hold, its comments)."""
    if raw.problem is not None or raw.escapes:
        return None
    record = read_canonical(raw.text)
    if record is None:
        return None
    tags = dict(record.tags)
    if len(tags) != len(record.tags):  # a tag twice: Record.tag() reads the first
        return None
    used = _rules(tags, rules)
    dealer = _DEALERS.get(tags.get("Dealer"))  # type: ignore[arg-type]
    if used is None or dealer is None:
        return None
    played = _play(record, used, dealer)
    if played is None:
        return None
    state, deal = played
    score = score_deal(deal, used)
    result = tags.get("Result")
    recorded = parse_score_pair(result)
    if recorded is None and result and result.strip() not in _NOT_A_RESULT:
        return None
    findings: tuple[Finding, ...] = ()
    if recorded is not None and recorded != score.scores:  # as validator._result reports it
        message = compare_result(recorded, deal, score, used, every_belote(state))
        findings = (make_finding("result-mismatch", message,
                                 tag_location_in(raw.text, raw.first_line, "Result", raw.index)),)
    return new_report(raw.index, findings, rules_name(used), record.tags, dealer, score, recorded,
                      (raw.first_line, raw.last_line), ()), record


def _rules(tags: dict[str, str], rules: Rules | str | None) -> Rules | None:
    """``validator.resolve_rules`` when it has no finding to make, else None."""
    if isinstance(rules, Rules):
        return rules
    try:
        if isinstance(rules, str):
            return rules_from_text(rules)
        text = tags.get("Rules")
        if text and text.strip() not in ("", "?"):
            return rules_from_text(text)
        return rules_from_variant(variant_name(tags.get("Variant")))
    except RulesError:
        return None


def _play(record: CanonicalRecord, rules: Rules, dealer: Seat) -> tuple[PlayState, FinishedDeal] | None:
    """The play and the deal to score, when the calls, the deal, the play and the
    announcements are all sound, else None."""
    bidding = _bidding(record, rules, dealer)
    if bidding is None or (contract := bidding.contract) is None:
        return None
    hands = record.hands
    turned = record.turned
    if turned is not None and not rules.is_coinche and not hands[contract.taker.index] & turned.mask:
        return None  # the turned card is not in the taker's hand
    state = PlayState(hands, contract, rules, dealer=dealer)
    if _sound_plays(state, record.cards, record.seats, record.declarations) != 32 or not state.belotes_sound():
        return None
    melds = _melds(record, rules)
    if melds is None:
        return None
    return state, finished_deal(state, melds)


def _bidding(record: CanonicalRecord, rules: Rules, dealer: Seat) -> BiddingState | None:
    """The taking or the auction played out, when it is the kind the rules play and
    every call is sound, else None."""
    if rules.is_coinche:
        if not record.auction:
            return None
        state: BiddingState = AuctionState(rules, dealer)
    elif record.auction or record.turned is None:
        return None
    else:
        state = TakingState(rules, dealer, record.turned)
    for seat, call in record.calls:  # up to the first call with a problem
        if state.explain(call, seat) is not None:
            return None
        state.push_unchecked(call, seat)
    if not state.is_over:
        return None
    return state


def _sound_plays(state: PlayState, indexes, seats, words) -> int:
    """Play the cards (index or None, seat written or None, word or None) while each one
    is sound (a known card, by the seat in turn, a known word, no fault); return how
    many were played."""
    done = 0
    for index, seat, word in zip(indexes, seats, words):
        turn = state.turn  # None once the deal is over
        if index is None or turn is None or (seat is not None and seat is not turn) or (
                word is not None and word not in DECLARATIONS) or state.fault(index) is not None:
            break
        state.apply(index, word)
        done += 1
    return done


def _melds(record: CanonicalRecord, rules: Rules) -> dict[Seat, tuple[Meld, ...]] | None:
    """The announced melds by seat (in the order the seats first announce, as the
    validator groups them), when every one is sound."""
    if not record.announcements:
        return {}
    by_seat: dict[Seat, list[tuple]] = {}
    for seat, kind, mask, count in record.announcements:
        by_seat.setdefault(seat, []).append((kind, mask, count))
    melds = {}
    for seat, announced in by_seat.items():
        checked = check_melds(record.hands[seat.index], announced, rules)
        if not all(type(result) is Meld for result in checked):
            return None
        melds[seat] = checked
    return melds
