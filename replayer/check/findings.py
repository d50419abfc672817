"""What the validator reports: findings, their rule ids and their severities.

Every rule id is stable (kebab-case), documented with an example in
``docs/findings.md`` and listed in ``CATALOGUE`` with its default severity.
Findings are small frozen values made of plain data, so reports pickle cheaply
between worker processes and turn into JSON with ``as_dict()``.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass, field
from typing import Any


class Severity(enum.Enum):
    ERROR = "error"  # the record breaks a rule or contradicts itself
    WARNING = "warning"  # suspicious or unscored, but possible
    INFO = "info"  # what the validator did or could not do

    @property
    def rank(self) -> int:
        return _SEVERITY_RANK[self]

    def __str__(self) -> str:
        return self.value


_SEVERITY_RANK = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}
E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO

CATALOGUE: dict[str, tuple[Severity, str]] = {
    # the record as text and its header
    "syntax-error": (E, "the record cannot be read"),
    "bad-rules-tag": (E, "the Rules or Variant tag names an unknown profile, option or value"),
    "rules-alias": (I, "the Rules tag names an old profile; the profile it now stands for applies"),
    "missing-dealer": (W, "no valid Dealer tag; the dealer was inferred or assumed"),
    # the deal
    "duplicate-card": (E, "a card is dealt or played twice"),
    "hand-size": (E, "a hand does not have 8 cards"),
    "hands-rebuilt": (I, "hands were missing and were rebuilt from the 32 cards played"),
    "hidden-cards": (I, "some cards are unknown; what could not be checked is listed"),
    "turned-card-not-taken": (E, "classic: the turned card is not in the taker's hand"),
    "missing-turned-card": (W, "classic: no turned card, so the taking cannot be replayed"),
    # the taking and the auction
    "wrong-bidding-kind": (E, "a taking in a coinche record or an auction in a classic one"),
    "wrong-first-speaker": (E, "the first call is made by a seat other than the first speaker"),
    "call-out-of-turn": (E, "a call by a seat that is not in turn"),
    "call-after-auction-closed": (E, "a call after the taking or the auction has closed"),
    "illegal-call": (E, "a call that is not one of the calls allowed at that point"),
    "taking-turned-suit": (E, "classic round 2: the turned suit is named"),
    "dealer-must-take": (E, "classic: the dealer passed over a turned jack (jack_forces_dealer)"),
    "bid-not-higher": (E, "a bid not higher than the standing bid"),
    "bid-value": (E, "a bid value not on the ladder of bid_min, bid_step, bid_max"),
    "denomination-not-played": (E, "SA or TA bid or named where sa_ta is off"),
    "generale-not-played": (E, "a générale where generale=0"),
    "capot-belote-not-played": (E, "a capot belote where capot_belote=0"),
    "generale-belote-not-played": (E, "a générale belote where generale_belote=0"),
    "belote-bid-without-trump": (E, "a capot belote or générale belote where no belote can be held "
                                    "(SA; TA with belote_at_ta=false)"),
    "bid-after-coinche": (E, "a bid after a coinche (decoincher=false)"),
    "coincher-partner-must-pass": (E, "the coincher's partner called something other than pass"),
    "coinche-without-bid": (E, "a coinche with no bid standing"),
    "coinche-by-bidding-side": (E, "a coinche by the side of the bidder"),
    "coinche-twice": (E, "a coinche of a bid already coinched"),
    "coinche-not-right-after-bid": (E, "a coinche after calls followed the bid (coinche_right_after_bid)"),
    "surcoinche-not-played": (E, "a surcoinche where surcoinche=false"),
    "surcoinche-without-coinche": (E, "a surcoinche with no coinche to answer"),
    "surcoinche-by-defence": (E, "a surcoinche by the side that coinched"),
    "surcoinche-not-right-after-coinche": (E, "a surcoinche after calls followed the coinche "
                                              "(surcoinche_right_after_coinche)"),
    "auction-incomplete": (E, "the taking or the auction stops before it is over, yet cards are played"),
    "play-after-void-deal": (E, "cards played although everybody passed"),
    # announcements and belote
    "melds-not-played": (E, "announcements in a record whose rules have melds=false"),
    "announcement-not-held": (E, "an announced card was not in the player's hand as dealt (meld_cards=after_trick1: "
                                 "in the hand after trick 1 or among the cards won in it)"),
    "announcement-wrong-kind": (E, "the announced cards do not make the declared meld"),
    "announcement-card-reused": (E, "a card serves in two announcements of one player"),
    "belote-without-king-queen": (E, "belote or rebelote said without the K and Q of trump in one hand"),
    "belote-missing-announcement": (W, "K and Q of trump held and played without belote/rebelote: not scored"),
    # the play
    "wrong-leader": (E, "a trick is led by a seat other than the one that should lead"),
    "play-out-of-turn": (E, "a card's seat prefix is not the seat in turn"),
    "card-not-held": (E, "a card played that the seat did not hold at that moment"),
    "must-follow": (E, "the seat did not follow suit although it could"),
    "trump-lead-must-go-over": (E, "trumps led: the seat did not go over the highest trump although it could"),
    "ta-must-beat": (E, "all trumps: the seat did not beat the winning card of the suit led although it could"),
    "must-trump": (E, "the seat could not follow, held a trump and did not trump"),
    "must-overtrump": (E, "the seat trumped or discarded where it could overtrump"),
    "must-undertrump": (E, "the seat could neither follow nor overtrump and did not play a lower trump"),
    "shown-void": (E, "a seat plays a suit it showed out of earlier (hidden hands)"),
    "short-trick": (E, "a trick that is not the last one has fewer than 4 cards"),
    "too-many-cards": (E, "more than 4 cards in a trick or more than 8 tricks"),
    "incomplete-play": (E, "fewer than 8 tricks, with no claim and no stop mark"),
    "play-stopped": (I, "the play was stopped on purpose (*); the deal is not rescored"),
    "claim-inconsistent": (E, "the claimer's side cannot make every remaining trick whatever the others play"),
    "claim-unchecked": (I, "a claim that cannot be checked because cards are unknown"),
    # scores
    "result-mismatch": (E, "the Result tag differs from the rescored deal"),
    "result-unreadable": (W, "the Result tag is neither a score pair nor ?"),
    "not-rescored": (I, "the deal could not be rescored; the reason is given"),
    # matches (replayer/matches.py)
    "score-tag-mismatch": (E, "the Score tag differs from the running match score before the deal"),
    "dealer-rotation": (E, "the dealer is not the next player after the previous deal's dealer"),
    "match-over": (E, "a deal played after a side won the match (reached the target, or passed it with "
                      "match_end=exceed)"),
    "litige-lost": (I, "a litige hold still open at the end of the match is lost"),
}


SHOWN_ALTERNATIVES = 10  # in the text rendering; as_dict() keeps them all


@dataclass(frozen=True, slots=True)
class Location:
    """Where a finding is: the record (0-based index in its file), the 1-based
    line and column, the 1-based trick and card index within the trick."""

    record: int = 0
    line: int | None = None
    column: int | None = None
    trick: int | None = None
    card: int | None = None

    def sort_key(self) -> tuple[int, int, int, int, int]:
        big = 1 << 30
        return (self.record, self.line or big, self.column or 0, self.trick or 0, self.card or 0)

    def __str__(self) -> str:
        parts = [f"record {self.record + 1}"]
        if self.line is not None:
            parts.append(f"{self.line}:{self.column or 1}")
        if self.trick is not None:
            parts.append(f"trick {self.trick}" + (f" card {self.card}" if self.card else ""))
        return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class Repair:
    """One suggested edit: ``description`` in words, ``lines`` the corrected record
    lines as (line number, canonical text), ``findings_left`` after the edit."""

    description: str
    lines: tuple[tuple[int | None, str], ...]
    findings_left: int
    size: int

    def as_dict(self) -> dict[str, Any]:
        return {"description": self.description, "findings_left": self.findings_left, "size": self.size,
                "lines": [{"line": n, "text": t} for n, t in self.lines]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Repair:
        return cls(data["description"], tuple((line["line"], line["text"]) for line in data["lines"]),
                   data["findings_left"], data["size"])


@dataclass(frozen=True, slots=True)
class Finding:
    """One fault (or note) of a record."""

    rule: str
    severity: Severity
    message: str
    location: Location = field(default_factory=Location)
    seat: str | None = None
    card: str | None = None
    alternatives: tuple[str, ...] = ()  # the legal cards or calls, canonical text
    repairs: tuple[Repair, ...] = ()

    def sort_key(self) -> tuple:
        return (*self.location.sort_key(), self.severity.rank, self.rule)

    def with_repairs(self, repairs: tuple[Repair, ...]) -> Finding:
        return dataclasses.replace(self, repairs=repairs)

    def as_dict(self) -> dict[str, Any]:
        loc = self.location
        data: dict[str, Any] = {
            "rule": self.rule, "severity": self.severity.value, "message": self.message,
            "record": loc.record, "line": loc.line, "column": loc.column, "trick": loc.trick,
            "card_index": loc.card, "seat": self.seat, "card": self.card,
        }
        if self.alternatives:
            data["alternatives"] = list(self.alternatives)
        if self.repairs:
            data["repairs"] = [r.as_dict() for r in self.repairs]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Finding:
        """The finding ``as_dict`` gave."""
        return cls(data["rule"], Severity(data["severity"]), data["message"],
                   Location(data["record"], data["line"], data["column"], data["trick"], data["card_index"]),
                   data["seat"], data["card"], tuple(data.get("alternatives", ())),
                   tuple(map(Repair.from_dict, data.get("repairs", ()))))

    def __str__(self) -> str:
        loc = self.location
        where = f"{loc.line}:{loc.column or 1}: " if loc.line is not None else ""
        text = f"{where}{self.severity.value} [{self.rule}] {self.message}"
        if self.alternatives:
            shown = self.alternatives[:SHOWN_ALTERNATIVES]
            more = " ..." if len(self.alternatives) > SHOWN_ALTERNATIVES else ""
            text += f" (legal: {' '.join(shown)}{more})"
        for repair in self.repairs:
            text += f"\n    repair: {repair.description} ({repair.findings_left} error(s) left)"
            for number, line in repair.lines:
                text += f"\n      {number if number is not None else '?'}| {line}"
        return text


def make_finding(rule: str, message: str, location: Location, *, seat: object = None, card: object = None,
                 alternatives: tuple[str, ...] = (), severity: Severity | None = None) -> Finding:
    """A finding of a catalogued rule with its default severity (unless given)."""
    default, _ = CATALOGUE[rule]
    return Finding(rule, severity or default, message, location,
                   None if seat is None else str(seat), None if card is None else str(card), alternatives)
