"""Reading files for the archive: records turned into table rows, in worker processes.

The file is cut into chunks of whole records (``notation.splitter.chunks``); a worker
(or this process when ``jobs`` is 1) reads and validates each record of its chunk and
builds everything the ``records``, ``record_texts`` and ``findings`` tables need (the
canonical text, its hash, the tags as columns, the findings with lines relative to the
record, the report as stored), so the parent only deduplicates and inserts.

An item of a chunk is one of:

* ``Row``: a record that reads (valid or not), ready to store;
* ``Unreadable``: a record that does not read, with its place in the file.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import itertools
import json
import time
from collections import deque
from typing import Any, BinaryIO, Iterator, Mapping, NamedTuple, Self

from notation import RecordData, parse, write_data
from notation.errors import WriteError
from notation.parser import read_raw
from notation.record import variant_name
from notation.splitter import RawRecord, chunks, split_records

from ..check import analysis
from ..check.findings import Severity
from ..check.matches import match_key
from ..check.report import Report
from ..check.streams import RECORD_BYTES, worker_pool
from ..check.validator import validate
from ..engine.contract import Contract
from ..engine.generator import variant_of
from ..engine import solver
from ..engine.rules import Rules, RulesError
from ..engine.scoring import DealScore

CHUNK_RECORDS = 200  # records of a usual size per task sent to a worker
PARALLEL_BYTES = 256 * 1024  # below this much input, worker processes cost more than they save
_UNKNOWN_DATES = {"", "?", "????.??.??", "????-??-??"}


class Row(NamedTuple):
    """A record that reads: its ``records`` columns (with ``raw``, ``canonical`` and ``report``
    for ``record_texts``; ``canonical`` is ``None`` when the raw text is canonical already),
    its findings as ``findings`` rows without ``record_id``, its match key, its report
    (for the match check; ``None`` outside a match) and its ``deal_players`` rows without
    ``record_id`` (``seat_rows``)."""

    columns: dict[str, Any]
    findings: tuple[dict[str, Any], ...]
    match_key: tuple[str | None, str | None] | None
    report: Report | None
    seats: tuple[dict[str, Any], ...] = ()


class Unreadable(NamedTuple):
    """A record that does not read: where (in the file) and why, and the match its head's
    tags put it in (it is not stored, but it does not end its match)."""

    line: int
    column: int
    message: str
    match_key: tuple[str | None, str | None] | None = None


def read_record(raw: RawRecord, rules: Rules | None) -> Row | Unreadable:
    """Read and validate one record as cut by the splitter (lines those of its file)."""
    parsed = read_raw(raw)
    report = validate(parsed, rules, repair=False)
    if parsed.data is None:  # the report of its error, with the tags read from the record's head
        error = parsed.errors[0]
        return Unreadable(error.line, error.column, report.findings[0].message, match_key(report))
    data = parsed.data
    canonical = canonical_text(data, raw.text)
    replay = report.replay
    contract = replay.contract if replay is not None else None
    columns = _columns(data, report, raw, contract, all_comments(data))
    columns["canonical"] = canonical if canonical != raw.text else None  # the same text is not sent twice
    columns["hash"] = content_hash(canonical)
    stored = report.renumbered(0, 1 - raw.first_line).stored()  # lines from 1 of the record's own text
    columns["report"] = json.dumps(stored, ensure_ascii=False, separators=(",", ":"))
    key = match_key(report)
    return Row(columns, _finding_rows(report, raw), key, report if key is not None else None,
               seat_rows(columns, report.score))


def canonical_text(data: RecordData, raw_text: str) -> str:
    """The text a record is stored and deduplicated by: its canonical form, or the text as
    written when the canonical form cannot hold its comments."""
    try:
        return write_data(data)
    except WriteError:
        return raw_text


def content_hash(canonical: str) -> str:
    """The key that makes a record a duplicate: the sha256 of its canonical text."""
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def record_hash(data: RecordData, raw_text: str) -> str:
    """The content hash of a record that reads (``raw_text``: the record's text as written)."""
    return content_hash(canonical_text(data, raw_text))


def _finding_rows(report: Report, raw: RawRecord) -> tuple[dict[str, Any], ...]:
    """The ``findings`` rows of a report (without ``record_id``), lines relative to the record."""
    shift = raw.first_line - 1
    return tuple({"rule": f.rule, "severity": f.severity.value, "message": f.message,
                  "line": None if f.location.line is None else f.location.line - shift,
                  "column": f.location.column, "trick": f.location.trick, "card_index": f.location.card,
                  "seat": f.seat, "card": f.card} for f in report.findings)


def _columns(data: RecordData, report: Report, raw: RawRecord, contract: Contract | None,
             comments: str | None) -> dict[str, Any]:
    """The ``records`` columns known from the record and its report."""
    tag = dict(reversed(data.tags)).get  # the first of each name, as RecordData.tag
    errors = sum(1 for f in report.findings if f.severity is Severity.ERROR)
    warnings = sum(1 for f in report.findings if f.severity is Severity.WARNING)
    recorded, rescored = report.recorded, report.rescored
    date = (tag("Date") or "").strip()
    return {
        "raw": raw.text, "event": tag("Event"), "site": tag("Site"),
        "date": None if date in _UNKNOWN_DATES else date, "round": tag("Round"), "deal": tag("Deal"),
        "north": tag("North"), "east": tag("East"), "south": tag("South"), "west": tag("West"),
        "dealer": str(report.dealer) if report.dealer is not None else None,
        "variant": variant_name(tag("Variant")) or (variant_of(report.rules) if report.rules else None),
        "rules": report.rules_text,
        "contract": contract_text(contract) if contract is not None else None,
        "denomination": str(contract.denomination) if contract is not None else None,
        "doubling": contract.doubling if contract is not None else None,
        "taker": str(contract.taker) if contract is not None else None,
        "recorded_ns": recorded[0] if recorded else None, "recorded_ew": recorded[1] if recorded else None,
        "rescored_ns": rescored[0] if rescored else None, "rescored_ew": rescored[1] if rescored else None,
        "valid": 0 if errors else 1, "errors": errors, "warnings": warnings,
        "source_line": raw.first_line, "source_offset": raw.byte_offset, "comments": comments,
    }


_PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}
_SEAT_NAMES = {"N": "north", "E": "east", "S": "south", "W": "west"}
_SIDE = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
# The ``records`` columns a statistics row repeats, so that a search filter (replayer.archive's
# ``_search_filters``, whose tests name these columns) applies to ``deal_players`` without a join.
SEAT_FILTER_COLUMNS = ("date", "variant", "rules", "contract", "denomination", "doubling", "valid", "event")


def seat_rows(columns: Mapping[str, Any], score: DealScore | None) -> tuple[dict[str, Any], ...]:
    """The ``deal_players`` rows of a record (without ``record_id``): one per seat whose player
    is named, from its ``records`` columns and its rescored deal. The one derivation of the
    statistics rows, for the import and for the migration that fills them for older archives.

    ``took``: 1 when the seat's side took, 0 when it defended, None when nobody took (or the
    deal has no score); ``taker``: the seat itself took. ``level``: the bid (``80``...),
    ``capot``, ``generale`` (with ``belote`` after it for a capot belote), None for a classic
    taking. Belote, melds, card points, capot and score are the seat's side's."""
    taker = columns.get("taker")
    contract, denomination = columns.get("contract"), columns.get("denomination")
    level = None
    if contract and denomination and contract != denomination:
        level = contract[:-len(denomination)].strip()
    scored = score is not None and score.contract is not None and taker is not None
    sides = {str(s.team): s for s in (score.ns, score.ew) if s} if score is not None and scored else {}
    rows = []
    for seat, name_column in _SEAT_NAMES.items():
        player = _known_name(columns.get(name_column))
        if player is None:
            continue
        side = _SIDE[seat]
        mine = sides.get(side)
        rows.append({
            "seat": seat, "player": player, "partner": _known_name(columns.get(_SEAT_NAMES[_PARTNER[seat]])),
            "side": side, "took": None if not scored else int(_SIDE[taker] == side),
            "taker": None if not scored else int(taker == seat), "level": level,
            "outcome": str(score.outcome) if score is not None else None,
            "capot": int(score is not None and score.capot is not None and str(score.capot) == side),
            "belote": mine.belote if mine else None, "melds": mine.melds if mine else None,
            "card_points": mine.card_points if mine else None, "score": mine.score if mine else None,
            **{name: columns.get(name) for name in SEAT_FILTER_COLUMNS}})
    return tuple(rows)


def _known_name(value: Any) -> str | None:
    """A player's name as the tag gives it, None when unknown (missing, empty, ``?``)."""
    text = value.strip() if isinstance(value, str) else ""
    return text if text and text != "?" else None


def contract_text(contract: Contract) -> str:
    """``80H``, ``capot S``, ``generale TA``, or the bare suit of a classic taking (``H``)."""
    return contract.level_text(str(contract.denomination), " ", "generale", value_space="")


def all_comments(data: RecordData) -> str | None:
    """Every comment of the record, one per line, for full-text search."""
    if not (data.comments or data.turned_comments or data.call_comments or data.trick_comments or data.play_comments
            or any(hand[3] for hand in data.hands) or any(item[5] for item in data.announcements)
            or data.claim is not None and data.claim[2]):
        return None  # most records: none, found without walking the tricks
    texts = list(data.comments)
    for _, _, _, comments in sorted(data.hands, key=lambda hand: hand[0].index):
        texts += comments
    texts += data.turned_comments
    for comments in data.call_comments.values():
        texts += comments
    for announcement in data.announcements:
        texts += announcement[5]
    for trick in range(len(data.tricks)):
        texts += data.trick_comments.get(trick, ())
        for number in data.trick_plays(trick):
            texts += data.play_comments.get(number, ())
    if data.claim is not None:
        texts += data.claim[2]
    return "\n".join(texts) if texts else None


# --- chunks and workers -------------------------------------------------------

def read_chunk(chunk: tuple[Any, int, int], rules: Rules | None) -> list[Row | Unreadable]:
    """Every record of a chunk (``splitter.chunks``), lines and offsets those of the file."""
    data, line, offset = chunk
    return [read_record(raw, rules) for raw in split_records(data, line=line, offset=offset)]


class _Workers:
    """``jobs`` worker processes, started when first needed and kept until the ``with``
    block ends (for all the sources of one import, all the batches of one analysis)."""

    def __init__(self, jobs: int) -> None:
        self.jobs = max(1, jobs)
        self._pool: Any = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None

    def _start(self) -> Any:
        if self._pool is None:
            self._pool = worker_pool(self.jobs)
        return self._pool


class Reader(_Workers):
    """Reads sources into items, in worker processes or in this process."""

    def __init__(self, rules: Rules | None, jobs: int) -> None:
        super().__init__(jobs)
        self.rules = rules

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


# --- analyses ---------------------------------------------------------------------


class AnalysisTask(NamedTuple):
    """A stored record to analyse: its id, its content hash (the analysis is kept only if the
    record still has it when the result is written), its text, the rules it was stored under
    (``records.rules``), the time limit of its analysis and whether to analyse from the end
    (``from_end``: see ``analysis_row``)."""

    record_id: int
    hash: str
    raw: str
    rules: str | None
    max_seconds: float | None
    from_end: bool = False


class AnalysisFailed(Exception):
    """The analyser raised: the record and why (a worker's exception, re-raised in the parent)."""


# ``from_end``: the first cards of the analyses tried in turn, the last positions (cheap) first.
FROM_END_STEPS = (25, 17, 9, 1)


def analysis_row(task: AnalysisTask) -> dict[str, Any] | None:
    """The ``analyses`` row of one record (without ``created``), made in a worker or in this
    process; ``None`` when its text no longer reads (an archive edited by hand): nothing to analyse.
    The record is analysed under the rules it was validated with at import.

    The solver's first positions cost the most (a deal's first card, many seconds in pure
    Python, the next ones a fraction of it). With ``from_end`` and a time limit, the analysis is
    made from card 25, then 17, 9 and 1 while time is left, and the last one that ended is kept:
    a deal too long for the limit gets its last tricks analysed rather than nothing (the stored
    row then says ``time-limit``, so that a run with more time does it again)."""
    analyse_record = analysis.analyse_record  # looked up when called: a test may replace it
    results = list(itertools.islice(parse(task.raw), 2))
    if len(results) != 1 or results[0].data is None:
        return None
    start = time.monotonic()
    rules = _stored_rules(task.rules)
    limited = False
    try:
        if not task.from_end or task.max_seconds is None:
            data = analyse_record(results[0], rules, max_seconds=task.max_seconds).as_dict()
        else:
            plays = len(results[0].data.plays)
            kept: dict[str, Any] | None = None
            done_from = None  # the first card of the last analysis that ended within the limit
            for first in [step for step in FROM_END_STEPS if step <= plays] or [1]:
                left = task.max_seconds - (time.monotonic() - start)
                tried = analyse_record(results[0], rules, max_seconds=max(left, 0.0), first_step=first).as_dict()
                if (tried.get("stopped") or {}).get("reason") == analysis.TIME_LIMIT:
                    kept = kept or tried
                    break
                kept, done_from = tried, first
            assert kept is not None
            data = kept
            limited = done_from != 1
    except Exception as error:  # a bug of the analyser: said with the record it failed on
        raise AnalysisFailed(f"the analysis of record {task.record_id} failed: {type(error).__name__}: {error}") \
            from None
    seconds = time.monotonic() - start
    stopped = data.get("stopped")
    return {"record_id": task.record_id, "hash": task.hash, "version": int(data.get("version", 1)),
            "solver": solver_version(), "rules": data.get("rules"), "complete": 1 if data.get("complete") else 0,
            "stopped": "time-limit" if limited else stopped.get("reason") if isinstance(stopped, dict) else None,
            "max_seconds": task.max_seconds, "seconds": round(seconds, 3),
            "analysis": json.dumps(data, ensure_ascii=False, separators=(",", ":"))}


def _stored_rules(text: str | None) -> Rules | None:
    """The rules a record was stored under (``records.rules``), ``None`` when it names none that
    this version reads (then the record's own tags decide, as the analyser does by default)."""
    if not text or text == "?":
        return None
    try:
        return Rules.parse(text)
    except RulesError:
        return None


def solver_version() -> str:
    """The version of the solver that made an analysis: the solver's own when it states one
    (``SOLVER_VERSION``), else the package's."""
    for module in (analysis, solver):
        value = getattr(module, "SOLVER_VERSION", None)
        if value is not None:
            return str(value)
    try:
        return "belote-replayer " + importlib.metadata.version("belote-replayer")
    except importlib.metadata.PackageNotFoundError:
        return "belote-replayer"


class Analyser(_Workers):
    """Analyses tasks in worker processes or in this process."""

    def rows(self, tasks: list[AnalysisTask]) -> Iterator[dict[str, Any] | None]:
        """The rows of ``tasks``, in their order, each as soon as it and those before it are made."""
        if self.jobs == 1 or len(tasks) < 2:
            return map(analysis_row, tasks)
        return self._start().imap(analysis_row, tasks, chunksize=1)


__all__ = ["Row", "Unreadable", "Reader", "read_record", "read_chunk", "contract_text", "all_comments", "seat_rows",
           "AnalysisTask", "AnalysisFailed", "Analyser", "analysis_row", "solver_version"]
