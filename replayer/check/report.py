"""The report of one record's validation: what the command line prints, the archive stores
and the JSON API returns, made once per record."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from notation.values import ALL_CARDS, SEATS, Card, Seat

from ..engine.contract import Contract
from ..engine.play import PlayState
from ..engine.rules import Rules, rules_name
from ..engine.scoring import DealScore
from .findings import Finding, Severity


_MOVE_TEXT = tuple(f"{SEATS[move >> 5]}:{ALL_CARDS[move & 31]}" for move in range(128))  # "N:JD" by move


@dataclass(frozen=True, slots=True)
class Replayed:
    """What the validator's replay made of a deal: the hands as dealt (masks N E S W, when
    known or rebuilt), the contract, whether everybody passed, the seat each call is
    credited to, each card played with its seat, and the seat that claimed."""

    dealt: tuple[int, int, int, int] | None = None
    contract: Contract | None = None
    void: bool = False
    call_seats: tuple[Seat, ...] = ()
    moves: bytes = b""  # each card played, in order: seat index << 5 | card index (PlayState.moves)
    claimed_by: Seat | None = None

    @property
    def plays(self) -> tuple[tuple[Seat, Card], ...]:
        """Each card played, with the seat it is credited to."""
        return tuple((SEATS[move >> 5], ALL_CARDS[move & 31]) for move in self.moves)

    def hand(self, seat: Seat) -> tuple[Card, ...] | None:
        """The seat's cards as dealt, when known or rebuilt."""
        if self.dealt is None:
            return None
        mask = self.dealt[seat.index]
        return tuple(card for card in ALL_CARDS if mask >> card.index & 1)

    def play_state(self, rules: Rules, dealer: Seat | None) -> PlayState | None:
        """The play as the validator credited it, on the engine: each card played by its seat
        (moves only, nothing checked), the claim applied; None without a contract."""
        if self.contract is None or dealer is None:
            return None
        state = PlayState(self.dealt or (0, 0, 0, 0), self.contract, rules, dealer=dealer)
        for seat, card in self.plays:
            if state.turn is not seat:
                state.give_turn(seat)
            state.apply(card.index)
        if self.claimed_by is not None:
            state.claim(self.claimed_by)
        return state

    def as_dict(self) -> dict[str, Any]:
        return {"dealt": list(self.dealt) if self.dealt else None,
                "contract": str(self.contract) if self.contract else None, "void": self.void,
                "call_seats": "".join(map(str, self.call_seats)),
                "plays": [_MOVE_TEXT[move] for move in self.moves],
                "claimed_by": str(self.claimed_by) if self.claimed_by else None}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Replayed:
        moves = bytes(Seat.parse(text[0]).index << 5 | Card.parse(text[2:]).index for text in data["plays"])
        return cls(tuple(data["dealt"]) if data["dealt"] else None,  # type: ignore[arg-type]
                   Contract.parse(data["contract"]) if data["contract"] else None, data["void"],
                   tuple(map(Seat.parse, data["call_seats"])), moves,
                   Seat.parse(data["claimed_by"]) if data["claimed_by"] else None)


@dataclass(frozen=True, slots=True)
class Report:
    """The validation of one record: findings in order of position, the rescored deal
    and its comparison with the recorded Result. Plain data: it pickles cheaply."""

    index: int
    findings: tuple[Finding, ...]
    rules: Rules | None  # None: the record could not be read, so no rules applied
    tags: tuple[tuple[str, str], ...] = ()
    dealer: Seat | None = None
    score: DealScore | None = None
    recorded: tuple[int, int] | None = None
    lines: tuple[int, int] | None = None  # the record's first and last line in its file
    unchecked: tuple[str, ...] = ()
    # How the replay went, for whoever shows the deal step by step without replaying it again:
    replay: Replayed | None = None
    tag_lines: tuple[int, ...] = ()  # the line of each tag pair in its file (0: not known), for match findings

    def tag_line(self, name: str) -> int | None:
        """The line of the first tag called ``name``, when known."""
        for (key, _), line in zip(self.tags, self.tag_lines):
            if key == name:
                return line or None
        return None

    @property
    def rules_text(self) -> str:
        """The rules as written in a ``Rules`` tag (``ffb-coinche; undertrump=must``), ``?`` when none applied."""
        return "?" if self.rules is None else rules_name(self.rules)  # (a file holds the same few)

    def renumbered(self, index: int, line_shift: int = 0) -> Report:
        """The same report as record ``index`` of its file, its lines moved by ``line_shift``
        (a report of a record of a file, stored with lines from 1 of its own text)."""
        if index == self.index and not line_shift:
            return self
        findings = self.findings
        if findings:
            findings = tuple(replace(f, location=replace(f.location, record=index, line=None if f.location.line is None
                                                         else f.location.line + line_shift)) for f in findings)
        lines, tag_lines = self.lines, self.tag_lines
        if line_shift:
            lines = None if lines is None else (lines[0] + line_shift, lines[1] + line_shift)
            tag_lines = tuple(line and line + line_shift for line in tag_lines)
        return replace(self, index=index, findings=findings, lines=lines, tag_lines=tag_lines)

    @property
    def ok(self) -> bool:
        """No error (warnings and notes allowed)."""
        findings = self.findings
        return not findings or not any(f.severity is Severity.ERROR for f in findings)  # most records: none

    @property
    def errors(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity is Severity.ERROR)

    @property
    def rule_ids(self) -> set[str]:
        return {f.rule for f in self.findings}

    @property
    def rescored(self) -> tuple[int, int] | None:
        return self.score.scores if self.score is not None else None

    def tag(self, name: str) -> str | None:
        for key, value in self.tags:
            if key == name:
                return value
        return None

    def as_dict(self) -> dict[str, Any]:
        return {
            "record": self.index, "ok": self.ok, "rules": self.rules_text,
            "lines": list(self.lines) if self.lines else None,
            "dealer": str(self.dealer) if self.dealer else None,
            "findings": [f.as_dict() for f in self.findings],
            "score": self.score.as_dict() if self.score else None,
            "recorded_result": list(self.recorded) if self.recorded else None,
            "result_matches": None if self.recorded is None or self.score is None
            else self.recorded == self.score.scores,
            "unchecked": list(self.unchecked),
        }

    def stored(self) -> dict[str, Any]:
        """What the archive keeps of the report (``as_dict`` and the replay): ``from_stored``
        gives the report back, with the record's tags."""
        return {**self.as_dict(), "replay": self.replay.as_dict() if self.replay else None,
                "tag_lines": list(self.tag_lines)}

    @classmethod
    def from_stored(cls, data: dict[str, Any], tags: tuple[tuple[str, str], ...]) -> Report:
        return cls(data["record"], tuple(map(Finding.from_dict, data["findings"])),
                   None if data["rules"] == "?" else Rules.parse(data["rules"]), tags,
                   Seat.parse(data["dealer"]) if data["dealer"] else None,
                   DealScore.from_dict(data["score"]) if data["score"] else None,
                   tuple(data["recorded_result"]) if data["recorded_result"] else None,  # type: ignore[arg-type]
                   tuple(data["lines"]) if data["lines"] else None, tuple(data["unchecked"]),  # type: ignore[arg-type]
                   Replayed.from_dict(data["replay"]) if data.get("replay") else None,
                   tuple(data.get("tag_lines") or ()))

    def text(self) -> str:
        """A human rendering: one line per finding, then the rescored breakdown."""
        where = f" (lines {self.lines[0]}-{self.lines[1]})" if self.lines else ""
        status = "ok" if self.ok else f"{len(self.errors)} error(s)"
        out = [f"record {self.index + 1}{where}: {status} [{self.rules_text}]"]
        out += [f"  {line}" for f in self.findings for line in str(f).splitlines()]
        if self.score is not None:
            out += [f"  | {line}" for line in self.score.lines()]
            if self.recorded is not None:
                same = "matches" if self.recorded == self.score.scores else "differs"
                out.append(f"  | recorded Result {self.recorded[0]}-{self.recorded[1]}: {same}")
        return "\n".join(out)

    def __str__(self) -> str:
        return self.text()
