"""Check a pasted or uploaded text without storing it: every record parsed and validated,
every finding placed on the text's own lines (shared by the submit page and the JSON API)."""

from __future__ import annotations

from dataclasses import dataclass, field

from notation.parser import parse
from replayer.check.findings import Finding, Severity
from replayer.check.matches import MatchReport, check_matches
from replayer.check.validator import Report, validate


@dataclass(frozen=True)
class CheckedRecord:
    """One record of the text: its report, and whether it can be stored (it parsed)."""

    index: int
    first_line: int
    last_line: int
    parsed: bool
    report: Report

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
    text: str  # the text as read (newlines normalized), what a "Store" form sends back
    utf8: bool  # False: the bytes were not UTF-8; nothing can be stored
    records: tuple[CheckedRecord, ...] = field(default_factory=tuple)
    matches: tuple[MatchReport, ...] = ()  # consecutive deals of one Event and Round, checked as a whole

    @property
    def findings(self) -> list[Finding]:
        """Every finding: the records' own, then the matches'."""
        return [f for r in self.records for f in r.report.findings] + [f for m in self.matches for f in m.findings]

    @property
    def storable(self) -> int:
        return sum(r.parsed for r in self.records) if self.utf8 else 0

    @property
    def unparseable(self) -> int:
        return sum(not r.parsed for r in self.records)

    def count(self, severity: Severity) -> int:
        return sum(f.severity is severity for f in self.findings)

    def lines(self) -> list[SourceLine]:
        return source_lines(self.text, self.findings)

    def as_dict(self) -> dict:
        ok = bool(self.records) and all(r.report.ok for r in self.records) and all(m.ok for m in self.matches)
        return {"ok": ok, "utf8": self.utf8,
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


def check(data: bytes | str) -> Check:
    text, source, utf8 = read_upload(data)
    records = []
    for result in parse(source):
        report = validate(result, repair=True)
        records.append(CheckedRecord(result.index, result.source.first_line, result.source.last_line,
                                     result.record is not None and not result.errors, report))
    # a lone deal with Event and Round tags may come from the middle of a match: only runs of deals are matches
    matches = tuple(m for m in check_matches(r.report for r in records if r.parsed) if len(m.deals) > 1)
    return Check(text, utf8, tuple(records), matches)


def source_lines(text: str, findings: list[Finding]) -> list[SourceLine]:
    """The text line by line, each line with the findings placed on it and their columns marked."""
    by_line: dict[int, list[Finding]] = {}
    for finding in findings:
        if finding.location.line is not None:
            by_line.setdefault(finding.location.line, []).append(finding)
    lines = text.split("\n")
    if len(lines) > 1 and lines[-1] == "" and len(lines) not in by_line:
        lines.pop()  # the final newline ends the last line; it does not start another
    out = []
    for number, line in enumerate(lines, start=1):
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
