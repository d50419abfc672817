"""Check a pasted or uploaded text without storing it: every record parsed and validated,
every finding placed on the text's own lines (shared by the submit page and the JSON API).

The submit pages keep what a check found as a ``CheckSummary`` (JSON, beside the text, in
``replayer.archive.checks``) and show it from there, a page of records at a time; a record's own
page checks that record again (``recheck``) for all its findings and their repairs."""

from __future__ import annotations

import dataclasses
import functools
import json
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from notation.parser import parse
from replayer.archive import record_hash
from replayer.check.findings import Finding, Severity
from replayer.check.matches import MatchReport, check_matches
from replayer.check.validator import Report, validate
from replayer.engine.rules import PROFILES, Rules, RulesError, rules_from_text


@dataclass(frozen=True)
class CheckedRecord:
    """One record of the text: its report, and whether it can be stored (it parsed)."""

    index: int
    first_line: int
    last_line: int
    parsed: bool
    report: Report
    hash: str | None = None  # its content hash (``record_hash``) when asked for and it reads

    @property
    def title(self) -> str:
        parts = [self.report.tag(name) for name in ("Event", "Round", "Deal")]
        return " · ".join(p for p in parts if p and p != "?") or f"record {self.index + 1}"


@dataclass(frozen=True)
class SourceLine:
    """One line of the text for the listing, with the findings placed on it."""

    number: int
    segments: tuple[tuple[str, bool], ...]  # (text, marked?) in order; a marked empty text is the line's end
    severity: str | None  # the worst severity of the findings on this line
    findings: tuple[Finding, ...] = ()


@dataclass(frozen=True)
class Check:
    text: str  # the text as read (newlines normalized), what is kept for the check's pages and stored
    utf8: bool  # False: the bytes were not UTF-8; nothing can be stored
    records: tuple[CheckedRecord, ...] = field(default_factory=tuple)
    matches: tuple[MatchReport, ...] = ()  # consecutive deals of one Event and Round, checked as a whole
    rules: str | None = None  # the profile picked for every record (``picked_rules``); None: each record's tags

    @property
    def findings(self) -> list[Finding]:
        """Every finding: the records' own, then the matches'."""
        return [f for r in self.records for f in r.report.findings] + [f for m in self.matches for f in m.findings]

    def count(self, severity: Severity) -> int:
        return sum(f.severity is severity for f in self.findings)

    def as_dict(self) -> dict:
        ok = bool(self.records) and all(r.report.ok for r in self.records) and all(m.ok for m in self.matches)
        return {"ok": ok, "utf8": self.utf8, "rules": self.rules,
                "records": [{"parsed": r.parsed, **r.report.as_dict()} for r in self.records],
                "matches": [m.as_dict() for m in self.matches],
                "errors": self.count(Severity.ERROR), "warnings": self.count(Severity.WARNING)}


def is_blank(data: bytes | str) -> bool:
    return not (data.strip() if isinstance(data, str) else data.strip(b" \t\r\n"))


def read_upload(data: bytes | str) -> tuple[str, bytes | str, bool]:
    """(text to show, input for the parser, is it UTF-8?). Invalid UTF-8 goes to the parser as bytes,
    which reports the first bad byte at its line and column; the text shown replaces it."""
    if isinstance(data, str):
        text = data
        return normalize(text), normalize(text), True
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return normalize(data.decode("utf-8", "replace")), data, False
    return normalize(text), normalize(text), True


def normalize(text: str) -> str:
    """Browsers send form fields with CRLF; the parser and the listing count lines the same way on LF."""
    return text.replace("\r\n", "\n").replace("\r", "\n").removeprefix("\ufeff")


def picked_rules(value: str | None) -> str | None:
    """The rules profile picked on the submit form or sent to the API (``rules``): ``None`` when
    none was (each record's own Rules or Variant tag applies), else a name of ``PROFILES``, which
    then applies to every record in place of its tags, as ``belote validate --rules`` and ``belote
    import --rules`` do. Anything else raises a ``RulesError`` naming the valid profiles: the form
    offers profile names only, but a post may send any text."""
    name = (value or "").strip()
    if not name:
        return None
    if name not in PROFILES:  # a profile alone: options and old names are for the Rules tag and the CLI
        raise RulesError(f"unknown rules profile {name[:40]!r}; valid profiles: {', '.join(PROFILES)}")
    return name


def _rules(name: str | None) -> Rules | None:
    return rules_from_text(name) if name else None


REPAIRED_RECORDS = 10  # records with errors that get repair suggestions (each costs 50 validations or so)


def check(data: bytes | str, *, hashes: bool = False, repaired: int = REPAIRED_RECORDS,
          rules: str | None = None) -> Check:
    """Every record of the text validated and its matches checked; the first ``repaired``
    records with errors get repair suggestions (a 2 MB text of faulty deals would otherwise take
    minutes: a record's page asks for its own, ``recheck``). ``hashes``: each readable record's
    content hash too (to tell the ones already stored). ``rules``: a profile (``picked_rules``)
    for every record instead of its tags, as storing the text with it does (``Archive.add``)."""
    text, source, utf8 = read_upload(data)
    resolved = _rules(rules)
    records = []
    for result in parse(source):
        report = validate(result, resolved, repair=repaired > 0)
        repaired -= not report.ok
        parsed = result.data is not None and not result.errors
        digest = record_hash(result.data, result.source.text) if hashes and parsed and result.data else None
        records.append(CheckedRecord(result.index, result.source.first_line, result.source.last_line,
                                     parsed, report, digest))
    # a lone deal with Event and Round tags may come from the middle of a match: only runs of deals are matches
    # the match check takes the same rules as the archive's import does (``archive.store``)
    matches = tuple(m for m in check_matches((r.report for r in records if r.parsed), resolved) if len(m.deals) > 1)
    return Check(text, utf8, tuple(records), matches, rules)


def recheck(text: str, first_line: int, last_line: int, index: int, rules: str | None = None) -> Report | None:
    """Lines ``first_line`` to ``last_line`` of a checked UTF-8 text, one record, validated again
    with repair suggestions (its findings on the text's own lines), under the check's ``rules``;
    ``None`` if they are not one record."""
    lines = text.split("\n")[first_line - 1:last_line]
    results = list(parse("\n" * (first_line - 1) + "\n".join(lines) + "\n"))
    if len(results) != 1 or results[0].source.first_line != first_line:
        return None
    return validate(results[0], _rules(rules), index, repair=True)


def line_count(text: str) -> int:
    """The lines of the text as the listing numbers them (a final newline starts no line)."""
    return text.count("\n") + (not text.endswith("\n") or not text)


def source_lines(text: str, findings: list[Finding] | tuple[Finding, ...], first: int = 1,
                 last: int | None = None) -> list[SourceLine]:
    """Lines ``first`` to ``last`` (the text's own numbers; all of them by default), each line
    with the findings placed on it and their columns marked."""
    by_line: dict[int, list[Finding]] = {}
    for finding in findings:
        if finding.location.line is not None:
            by_line.setdefault(finding.location.line, []).append(finding)
    lines = text.split("\n")
    if len(lines) > 1 and lines[-1] == "" and len(lines) not in by_line:
        lines.pop()  # the final newline ends the last line; it does not start another
    out = []
    for number, line in enumerate(lines[first - 1:last], start=first):
        here = by_line.get(number, ())
        severity = min((f.severity for f in here), key=lambda s: s.rank).value if here else None
        columns = sorted({max(1, f.location.column or 1) for f in here})
        out.append(SourceLine(number, _segments(line, columns), severity, tuple(here)))
    return out


def _segments(line: str, columns: list[int]) -> tuple[tuple[str, bool], ...]:
    """``line`` cut so that the character at each 1-based column is a marked segment of its own;
    a column past the end marks the end of the line."""
    segments: list[tuple[str, bool]] = []
    start = 0
    for column in columns:
        at = column - 1
        if at >= len(line):
            if start < len(line):
                segments.append((line[start:], False))
            segments.append(("", True))
            return tuple(segments)
        if at > start:
            segments.append((line[start:at], False))
        segments.append((line[at], True))
        start = at + 1
    if start < len(line) or not segments:
        segments.append((line[start:], False))
    return tuple(segments)


# --- a check as the submit pages keep it ------------------------------------------------------

SHOWN_FINDINGS = 10  # of a record, kept for the lists; its page checks it again for all of them


@dataclass(frozen=True)
class RecordSummary:
    """One record of a kept check, as the lists show it: its first findings and their counts."""

    number: int  # 1-based, in the text
    title: str
    first_line: int
    last_line: int
    parsed: bool
    finding_json: str = "[]"  # its own first SHOWN_FINDINGS findings (JSON: read only for the records shown)
    total: int = 0  # its own findings, all of them
    own_errors: int = 0
    own_warnings: int = 0
    rescored: tuple[int, int] | None = None
    recorded: tuple[int, int] | None = None
    stored_id: int | None = None  # the archive holds this deal already, as this record
    same_as: int | None = None  # the same deal as this earlier record of the text (not stored yet)
    match_findings: tuple[Finding, ...] = ()  # what the check of its match found about it

    @classmethod
    def of(cls, record: CheckedRecord, stored_id: int | None, same_as: int | None) -> RecordSummary:
        report = record.report
        own = report.findings
        return cls(record.index + 1, record.title, record.first_line, record.last_line, record.parsed,
                   _dumps([f.as_dict() for f in own[:SHOWN_FINDINGS]]), len(own), sum(f.severity is Severity.ERROR for f in own),
                   sum(f.severity is Severity.WARNING for f in own), report.rescored, report.recorded,
                   stored_id, same_as)

    @functools.cached_property
    def findings(self) -> tuple[Finding, ...]:
        """Its own first SHOWN_FINDINGS findings."""
        return tuple(map(Finding.from_dict, json.loads(self.finding_json)))

    @property
    def shown(self) -> tuple[Finding, ...]:
        """What a list shows: its first own findings and those of its match."""
        return self.findings + self.match_findings

    @property
    def more(self) -> int:
        """Its own findings that a list leaves out."""
        return max(0, self.total - SHOWN_FINDINGS)

    @property
    def has_findings(self) -> bool:
        return bool(self.total or self.match_findings)

    @property
    def errors(self) -> int:
        return self.own_errors + sum(f.severity is Severity.ERROR for f in self.match_findings)

    @property
    def warnings(self) -> int:
        return self.own_warnings + sum(f.severity is Severity.WARNING for f in self.match_findings)

    def as_dict(self) -> dict[str, Any]:
        return {"number": self.number, "title": self.title, "lines": [self.first_line, self.last_line],
                "parsed": self.parsed, "findings": self.finding_json,
                "counts": [self.total, self.own_errors, self.own_warnings],
                "rescored": _pair(self.rescored), "recorded": _pair(self.recorded),
                "stored_id": self.stored_id, "same_as": self.same_as}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RecordSummary:
        total, errors, warnings = data["counts"]
        return cls(data["number"], data["title"], data["lines"][0], data["lines"][1], data["parsed"],
                   data["findings"], total, errors, warnings,
                   _tuple(data["rescored"]), _tuple(data["recorded"]), data["stored_id"], data["same_as"])


@dataclass(frozen=True)
class MatchSummary:
    """Consecutive deals of one Event and Round in a kept check, checked as a match."""

    event: str | None
    round: str | None
    first: int  # the numbers of its first and last records
    last: int
    deals: int
    target: int
    totals: tuple[int, int] | None
    winner: str | None
    findings: tuple[Finding, ...]

    @classmethod
    def of(cls, match: MatchReport) -> MatchSummary:
        return cls(match.event, match.round, match.deals[0].record + 1, match.deals[-1].record + 1, len(match.deals),
                   match.target, match.totals, str(match.winner) if match.winner else None, match.findings)

    def as_dict(self) -> dict[str, Any]:
        return {"event": self.event, "round": self.round, "records": [self.first, self.last],
                "deals": self.deals, "target": self.target, "totals": _pair(self.totals), "winner": self.winner,
                "findings": [f.as_dict() for f in self.findings]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MatchSummary:
        return cls(data["event"], data["round"], data["records"][0], data["records"][1], data["deals"],
                   data["target"], _tuple(data["totals"]), data["winner"],
                   tuple(map(Finding.from_dict, data["findings"])))


@dataclass(frozen=True)
class CheckSummary:
    """What a check found, as the submit pages keep and show it: every record with its first
    findings, whether the archive holds it already, and the matches. ``lines``: the text's lines."""

    utf8: bool
    lines: int
    records: tuple[RecordSummary, ...]
    matches: tuple[MatchSummary, ...] = ()
    rules: str | None = None  # the profile picked for every record, kept so its pages and Store use it too

    @classmethod
    def of(cls, result: Check, stored: Mapping[str, int]) -> CheckSummary:
        """The summary of ``result`` (checked with ``hashes=True``); ``stored``: hash -> id of
        its records that the archive holds already."""
        first: dict[str, int] = {}  # hash -> the number of its first record in the text
        records = []
        for record in result.records:
            digest, number = record.hash, record.index + 1
            stored_id = stored.get(digest) if digest else None
            earlier = first.setdefault(digest, number) if digest and stored_id is None else number
            records.append(RecordSummary.of(record, stored_id, earlier if earlier != number else None))
        matches = tuple(map(MatchSummary.of, result.matches))
        return cls(result.utf8, line_count(result.text), _with_match_findings(records, matches), matches,
                   result.rules)

    def to_json(self) -> str:
        return _dumps({"utf8": self.utf8, "lines": self.lines, "records": [r.as_dict() for r in self.records],
                       "matches": [m.as_dict() for m in self.matches], "rules": self.rules})

    @classmethod
    def from_json(cls, text: str) -> CheckSummary:
        data = json.loads(text)
        matches = tuple(map(MatchSummary.from_dict, data["matches"]))
        records = _with_match_findings(map(RecordSummary.from_dict, data["records"]), matches)
        # absent from the checks kept before the picker (the records' tags); a name that is no
        # longer a profile is a RulesError, a ValueError: a check this version cannot read
        rules = picked_rules(data.get("rules") or None)
        return cls(data["utf8"], data["lines"], records, matches, rules)

    def record(self, number: int) -> RecordSummary | None:
        return self.records[number - 1] if 1 <= number <= len(self.records) else None

    def listed(self, show_all: bool) -> tuple[tuple[RecordSummary, ...], tuple[MatchSummary, ...]]:
        """The records and matches a list shows: those with findings, or all of them."""
        if show_all:
            return self.records, self.matches
        return tuple(r for r in self.records if r.has_findings), tuple(m for m in self.matches if m.findings)

    @functools.cached_property
    def counts(self) -> dict[str, int]:
        """The numbers of the summary: records, how many can be stored, have errors, are new..."""
        records = self.records
        storable = sum(r.parsed for r in records) if self.utf8 else 0
        already = sum(r.stored_id is not None for r in records) if self.utf8 else 0
        repeated = sum(r.same_as is not None for r in records) if self.utf8 else 0
        match_findings = [f for m in self.matches for f in m.findings]
        return {"records": len(records), "storable": storable, "unreadable": sum(not r.parsed for r in records),
                "valid": sum(r.parsed and not r.errors for r in records),
                "with_errors": sum(r.errors > 0 for r in records),
                "with_warnings": sum(r.warnings > 0 for r in records),
                "with_findings": sum(r.has_findings for r in records),
                "already_stored": already, "repeated": repeated, "new": storable - already - repeated,
                "errors": sum(r.own_errors for r in records) + sum(f.severity is Severity.ERROR for f in match_findings),
                "warnings": (sum(r.own_warnings for r in records)
                             + sum(f.severity is Severity.WARNING for f in match_findings)),
                "matches": len(self.matches), "matches_with_findings": sum(bool(m.findings) for m in self.matches)}


def _with_match_findings(records: Iterable[RecordSummary], matches: tuple[MatchSummary, ...]) -> tuple[RecordSummary, ...]:
    """The records, each with the findings of its match about it (a match finding is about the
    record its location names)."""
    by_record: dict[int, list[Finding]] = {}
    for match in matches:
        for finding in match.findings:
            by_record.setdefault(finding.location.record + 1, []).append(finding)
    return tuple(dataclasses.replace(r, match_findings=tuple(by_record[r.number])) if r.number in by_record else r
                 for r in records)


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _pair(pair: tuple[int, int] | None) -> list[int] | None:
    return list(pair) if pair is not None else None


def _tuple(pair: list[int] | None) -> tuple[int, int] | None:
    return (pair[0], pair[1]) if pair else None
