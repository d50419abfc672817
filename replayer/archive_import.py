"""Reading files for the archive: records turned into table rows, in worker processes.

The file is cut into chunks of whole records by ``replayer.parallel.chunks``; a
worker (or the parent itself when ``jobs`` is 1) splits, parses and validates
each record of its chunk and builds everything the ``records`` and ``findings``
tables need (canonical text, content hash, tags as columns, findings with lines
relative to the record), so the parent only deduplicates and inserts.

An item of a chunk is one of:

* ``Row``: a record that parses (valid or not), ready to store;
* ``Unreadable``: a record that does not parse, with its place in the file.
"""

from __future__ import annotations

import dataclasses
import hashlib
import multiprocessing
from collections import deque
from typing import Any, BinaryIO, Callable, Iterator, NamedTuple

from notation.compact import CanonicalRecord
from notation.errors import WriteError
from notation.parser import read_raw
from notation.record import Record, variant_name
from notation.scan import RawRecord
from notation.writer import write_record

from .engine.contract import Contract
from .engine.generator import variant_of
from .engine.rules import Rules, RulesError
from .express import express_check
from .findings import Severity
from .parallel import RECORD_BYTES, chunk_records, chunks, pack
from .replay import replay
from .validator import Report, resolve_rules, validate

CHUNK_RECORDS = 200  # records of a usual size per task sent to a worker
PARALLEL_BYTES = 256 * 1024  # below this much input, worker processes cost more than they save
_UNKNOWN_DATES = {"", "?", "????.??.??", "????-??-??"}


class Row(NamedTuple):
    """A parsed record: its ``records`` columns (those known from the text alone;
    ``canonical`` is ``None`` when the raw text is canonical already),
    its findings as ``findings`` rows without ``record_id``, its match key and its
    report packed for the match check (``None`` outside a match). A NamedTuple: the
    parent unpickles one a record, in C."""

    columns: dict[str, Any]
    findings: tuple[dict[str, Any], ...]
    match_key: tuple[str | None, str | None] | None
    report: tuple | None


class Unreadable(NamedTuple):
    """A record the parser could not read: where (in the file) and why."""

    line: int
    column: int
    message: str


def read_record(raw: RawRecord, rules: Rules | None) -> Row | Unreadable:
    """Parse and validate one record as cut by the splitter (lines those of its file)."""
    checked = express_check(raw, rules)
    if checked is not None:  # sound and canonical already: no model to build, no text to write
        return _express_row(raw, *checked)
    parsed = read_raw(raw)
    if parsed.record is None or parsed.errors:
        error = parsed.errors[0]
        message = f"{error.problem}: expected {error.expected}" if error.expected else error.problem
        return Unreadable(error.line, error.column, message)
    record = parsed.record
    report = validate(record, rules, index=raw.index, repair=False)
    try:
        canonical = write_record(record)
    except WriteError:  # comments the canonical form cannot hold: the text as written stands for it
        canonical = raw.text
    contract = report.score.contract if report.score is not None else _contract_of(record, report)
    columns = _columns(record.tag, report, raw, contract, all_comments(record))
    columns["canonical"] = canonical if canonical != raw.text else None  # the same text is not sent twice
    columns["hash"] = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    key = _match_key(record.tag)
    return Row(columns, _finding_rows(report, raw), key, _match_report(report, key))


def _express_row(raw: RawRecord, report: Report, record: CanonicalRecord) -> Row:
    """The row of a record that went the express way: its text canonical, no finding
    but a Result that differs."""
    tag = dict(report.tags).get  # no tag twice on the express way
    assert report.score is not None
    columns = _columns(tag, report, raw, report.score.contract, "\n".join(record.comments) or None)
    columns["canonical"] = None
    columns["hash"] = hashlib.sha256(raw.text.encode("utf-8")).hexdigest()
    key = _match_key(tag)
    return Row(columns, _finding_rows(report, raw), key, _match_report(report, key))


def _finding_rows(report: Report, raw: RawRecord) -> tuple[dict[str, Any], ...]:
    """The ``findings`` rows of a report (without ``record_id``), lines relative to the record."""
    shift = raw.first_line - 1
    return tuple({"rule": f.rule, "severity": f.severity.value, "message": f.message,
                  "line": None if f.location.line is None else f.location.line - shift,
                  "column": f.location.column, "trick": f.location.trick, "card_index": f.location.card,
                  "seat": f.seat, "card": f.card} for f in report.findings)


def _match_report(report: Report, key: tuple | None) -> tuple | None:
    """The report packed for the match check (its findings are the record's own), outside a match None."""
    return None if key is None else pack(dataclasses.replace(report, findings=()) if report.findings else report)


def _columns(tag: Callable[[str], str | None], report: Report, raw: RawRecord, contract: Contract | None,
             comments: str | None) -> dict[str, Any]:
    """The ``records`` columns known from the text and the report; ``tag``: the record's tag look-up."""
    errors = sum(1 for f in report.findings if f.severity is Severity.ERROR)
    warnings = sum(1 for f in report.findings if f.severity is Severity.WARNING)
    recorded, rescored = report.recorded, report.rescored
    date = (tag("Date") or "").strip()
    return {
        "raw": raw.text, "event": tag("Event"), "site": tag("Site"),
        "date": None if date in _UNKNOWN_DATES else date, "round": tag("Round"), "deal": tag("Deal"),
        "north": tag("North"), "east": tag("East"), "south": tag("South"), "west": tag("West"),
        "dealer": str(report.dealer) if report.dealer is not None else None,
        "variant": variant_name(tag("Variant")) or _variant_of_rules(report.rules),
        "rules": report.rules,
        "contract": contract_text(contract) if contract is not None else None,
        "denomination": str(contract.denomination) if contract is not None else None,
        "doubling": contract.doubling if contract is not None else None,
        "taker": str(contract.taker) if contract is not None else None,
        "recorded_ns": recorded[0] if recorded else None, "recorded_ew": recorded[1] if recorded else None,
        "rescored_ns": rescored[0] if rescored else None, "rescored_ew": rescored[1] if rescored else None,
        "valid": 0 if errors else 1, "errors": errors, "warnings": warnings,
        "source_line": raw.first_line, "source_offset": raw.byte_offset, "comments": comments,
    }


def _contract_of(record: Record, report: Report) -> Contract | None:
    """The contract of a deal that was not rescored (a stopped or short play): replayed
    again, which the few such records can afford."""
    if record.taking is None and record.auction is None:
        return None
    rules, _ = resolve_rules(record, report.rules if report.rules != "?" else None)
    return replay(record, rules, report.index).contract


def contract_text(contract: Contract) -> str:
    """``80H``, ``capot S``, ``generale TA``, or the bare suit of a classic taking (``H``)."""
    return contract.level_text(str(contract.denomination), " ", "generale", value_space="")


def all_comments(record: Record) -> str | None:
    """Every comment of the record, one per line, for full-text search."""
    texts = list(record.comments)
    for hand in record.hands:
        texts += hand.comments
    texts += record.turned_comments
    for entry in (record.taking or ()) + (record.auction or ()):
        texts += entry.comments
    for announcement in record.announcements:
        texts += announcement.comments
    for trick in record.tricks:
        texts += trick.comments
        for play in trick.plays:
            texts += play.comments
    if record.claim is not None:
        texts += record.claim.comments
    return "\n".join(texts) if texts else None


def _match_key(tag: Callable[[str], str | None]) -> tuple[str | None, str | None] | None:
    """``replayer.matches.match_key`` on a record's tags: a match needs an Event or a Round."""
    event, round_ = tag("Event"), tag("Round")
    return None if not event and not round_ else (event, round_)


_VARIANTS: dict[str, str | None] = {}


def _variant_of_rules(rules: str) -> str | None:
    if rules not in _VARIANTS:
        try:
            _VARIANTS[rules] = variant_of(Rules.parse(rules))
        except RulesError:
            _VARIANTS[rules] = None
    return _VARIANTS[rules]


# --- chunks and workers -------------------------------------------------------

def read_chunk(chunk: tuple[Any, int, int], rules: Rules | None) -> list[Row | Unreadable]:
    """Every record of a chunk (``parallel.chunks``), lines and offsets those of the file."""
    return [read_record(raw, rules) for raw in chunk_records(chunk)]


class Reader:
    """Reads sources into items, with ``jobs`` worker processes (a pool kept for all
    the sources of one import) or in this process."""

    def __init__(self, rules: Rules | None, jobs: int) -> None:
        self.rules = rules
        self.jobs = max(1, jobs)
        self._pool: Any = None

    def __enter__(self) -> Reader:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None

    def items(self, stream: BinaryIO, size: int | None = None) -> Iterator[tuple[list[Row | Unreadable], int]]:
        """(items, bytes read) per chunk of ``stream``, in input order; ``size``: the
        stream's size when known (small inputs are read in this process)."""
        chunk_bytes = CHUNK_RECORDS * RECORD_BYTES
        if self.jobs == 1 or (size is not None and size < PARALLEL_BYTES):
            for chunk in chunks(stream, chunk_bytes):
                yield self._local(chunk)
            return
        pool = self._start()
        pending: deque = deque()
        rest = None
        for chunk in chunks(stream, chunk_bytes):
            if not isinstance(chunk[0], bytes):  # no place to cut: read the rest here
                rest = chunk
                break
            pending.append((pool.apply_async(read_chunk, (chunk, self.rules)), len(chunk[0])))
            while len(pending) > 2 * self.jobs:
                result, size_ = pending.popleft()
                yield result.get(), size_
        while pending:
            result, size_ = pending.popleft()
            yield result.get(), size_
        if rest is not None:
            yield self._local(rest)

    def _local(self, chunk: tuple[Any, int, int]) -> tuple[list[Row | Unreadable], int]:
        return read_chunk(chunk, self.rules), len(chunk[0]) if isinstance(chunk[0], bytes) else 0

    def _start(self) -> Any:
        if self._pool is None:
            methods = multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context("fork" if "fork" in methods else None)
            self._pool = context.Pool(self.jobs)
        return self._pool


__all__ = ["Row", "Unreadable", "Reader", "read_record", "read_chunk", "contract_text", "all_comments"]
