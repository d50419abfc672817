"""Validating a file in several processes: worker processes and the parent.

The parent does not split records: it reads the file in blocks and cuts it into
chunks of whole records at safe points (a blank line followed by a tag pair,
which always ends a record for ``notation.scan.split_records``). With ``jobs``
processes, ``jobs - 1`` are workers and the parent validates every ``jobs``-th
chunk itself, between taking the reports of the others. A worker splits,
parses and validates its chunk with line numbers and byte offsets rebased, and
sends back each report packed as plain tuples of ints and strings (enums as
indexes), which pickle and unpickle several times faster than the ``Report``
objects; the parent unpacks them and numbers the records. What the parent spends
on the workers' reports is lost to its own share, so the packed form is made for
it: the tag pairs a chunk repeats (Event, Site, Rules...) are one object each,
which pickle sends once, and contracts are unpacked from a cache. Chunks go out in
order and at most ``2 * jobs`` are in flight, so memory stays flat whatever the
file size.
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import re
from collections import deque
from typing import Any, Callable, Iterator

from notation.values import SEATS, Denomination, Team
from notation.scan import TAG_START, RawRecord, read_blocks, split_records

from .engine.contract import Contract
from .engine.rules import Rules
from .engine.scoring import DealScore, Outcome, SideScore
from .findings import Finding

RECORD_BYTES = 640  # the size of a usual record, to turn a chunk size in records into bytes
MAX_STRETCH = 1 << 24
# Where a chunk may end: after a blank line, before a line that starts a tag pair.
_CUT = re.compile(rb"\n[ \t\r\x0b\x0c]*\n(?=" + TAG_START.pattern + rb")")
_TEAMS = (Team.NS, Team.EW)
_DENOMINATIONS = tuple(Denomination)
_OUTCOMES = {outcome.value: outcome for outcome in Outcome}
_TUPLE_NEW = tuple.__new__


def chunks(source: Any, size: int) -> Iterator[tuple[Any, int, int]]:
    """(data, first line - 1, byte offset) of runs of whole records of ``source``,
    of ``size`` bytes or a little more each. Should ``MAX_STRETCH`` bytes go by with
    no place to cut (no blank line before a tag pair), the last item holds, instead
    of bytes, a stream of the rest of the input, for the parent to read itself."""
    buffer = b""
    line = offset = scanned = 0
    blocks = read_blocks(source)
    for block in blocks:
        buffer += block
        while len(buffer) >= size:
            # the first place to cut past ``size`` (a tag line may have been cut short: look back a little)
            match = _CUT.search(buffer, max(0, max(size, scanned) - 256))
            if match is None:
                scanned = len(buffer)
                if scanned > MAX_STRETCH:
                    yield _Rest(buffer, blocks), line, offset
                    return
                break
            data, buffer, scanned = buffer[:match.end()], buffer[match.end():], 0
            yield data, line, offset
            line += data.count(b"\n")
            offset += len(data)
    if buffer:
        yield buffer, line, offset


class _Rest:
    """A binary stream of ``head`` then the blocks left."""

    def __init__(self, head: bytes, blocks: Iterator[bytes]) -> None:
        self._head, self._blocks = head, blocks

    def read(self, size: int = -1) -> bytes:
        head, self._head = self._head, b""
        return head or next(self._blocks, b"")


def validate_chunk(chunk: tuple[bytes, int, int], rules: Rules | None, repair: bool,
                   validate: Callable[..., Any]) -> list[tuple]:
    """Split, parse and validate one chunk in a worker; the reports packed.
    ``validate(raw, rules, repair)``: the report of one ``RawRecord``."""
    return list(_validated(chunk, rules, repair, validate))


def _validated(chunk: tuple[Any, int, int], rules: Rules | None, repair: bool,
               validate: Callable[..., Any]) -> Iterator[tuple]:
    """The packed reports of a chunk, numbered from 0 within it (the parent numbers
    them in the file), lines and byte offsets those of the file."""
    shared: dict[tuple[str, str], tuple[str, str]] = {}  # the chunk's tag pairs, one object each
    for raw in chunk_records(chunk):
        yield pack(validate(raw, rules, repair), shared)


def chunk_records(chunk: tuple[Any, int, int], first_index: int = 0) -> Iterator[RawRecord]:
    """The records of a chunk (from ``chunks``), their lines and byte offsets those of
    the file, numbered from ``first_index``."""
    data, line, offset = chunk
    for raw in split_records(data):
        raw.index += first_index
        raw.first_line += line
        raw.byte_offset += offset
        if raw.problem is not None:
            raw.problem = dataclasses.replace(raw.problem, line=raw.problem.line + line,
                                              byte_offset=raw.problem.byte_offset + offset)
        yield raw


def run_pool(source: Any, rules: Rules | None, jobs: int, repair: bool, validate: Callable[..., Any],
             make_report: Callable[..., Any], size: int) -> Iterator[Any]:
    """The reports of ``source`` validated by ``jobs`` processes, in input order:
    ``jobs - 1`` workers and this one, which validates every ``jobs``-th chunk itself
    (waiting for the workers, it would leave a core idle, and its own reports need no
    packing); ``size``: the bytes of a chunk."""
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    index = 0
    rest = None
    with context.Pool(jobs - 1) as pool:
        pending: deque = deque()  # in input order: a worker's result, or a chunk this process validates
        for number, chunk in enumerate(chunks(source, size)):
            if not isinstance(chunk[0], bytes):  # no place to cut: this process reads the rest itself
                rest = chunk
                break
            own = number % jobs == 0  # the first: the workers get theirs while this one works
            pending.append(chunk if own else pool.apply_async(validate_chunk, (chunk, rules, repair, validate)))
            while len(pending) > 2 * jobs:
                for report in _reports(pending.popleft(), index, rules, repair, validate, make_report):
                    yield report
                    index += 1
        while pending:
            for report in _reports(pending.popleft(), index, rules, repair, validate, make_report):
                yield report
                index += 1
    if rest is not None:
        yield from _reports(rest, index, rules, repair, validate, make_report)


def _reports(item: Any, index: int, rules: Rules | None, repair: bool, validate: Callable[..., Any],
             make_report: Callable[..., Any]) -> Iterator[Any]:
    """The reports of a chunk of ``run_pool``, the first one record ``index`` of the file."""
    if isinstance(item, tuple):  # a chunk to validate here
        for raw in chunk_records(item, index):
            yield validate(raw, rules, repair)
        return
    for number, packed in enumerate(item.get(), index):
        yield unpack(packed, number, make_report)


# --- reports as plain data ------------------------------------------------------

def pack(report: Any, shared: dict[tuple[str, str], tuple[str, str]] | None = None) -> tuple:
    """A ``Report`` as tuples of ints and strings (findings, rare, as they are).
    ``shared`` maps each tag pair to the one object that stands for it in a batch."""
    tags = report.tags
    if shared is not None:
        same = shared.setdefault
        tags = tuple([same(pair, pair) for pair in tags])
    return (report.index, report.findings, report.rules, tags,
            -1 if report.dealer is None else report.dealer.index, _pack_score(report.score),
            report.recorded, report.lines, report.unchecked)


def unpack(packed: tuple, index: int, make_report: Callable[..., Any]) -> Any:
    """The ``Report`` of ``pack``, renumbered as record ``index`` of the file."""
    local, findings, rules, tags, dealer, score, recorded, lines, unchecked = packed
    if findings and index != local:
        findings = tuple(_renumbered(finding, index) for finding in findings)
    return make_report(index, findings, rules, tags, None if dealer < 0 else SEATS[dealer],
                        None if score is None else _unpack_score(score), recorded, lines, unchecked)


def _renumbered(finding: Finding, index: int) -> Finding:
    return dataclasses.replace(finding, location=dataclasses.replace(finding.location, record=index))


def _pack_score(score: DealScore | None) -> tuple | None:
    if score is None:
        return None
    contract = score.contract
    return (None if contract is None else (contract.taker.index, _DENOMINATIONS.index(contract.denomination),
                                           contract.value, contract.capot, contract.generale, contract.doubling),
            score.outcome.value, _pack_side(score.ns), _pack_side(score.ew), score.contract_value,
            score.multiplier, _team_index(score.capot), score.litige_hold, _team_index(score.meld_team),
            score.formula)


def _unpack_score(packed: tuple) -> DealScore:
    contract, outcome, ns, ew, value, multiplier, capot, hold, meld_team, formula = packed
    if contract is not None:
        contract = _CONTRACTS.get(contract) or _unpack_contract(contract)
    # tuple.__new__: built in C, not through the NamedTuple's __new__ written in Python; the
    # sides are unpacked inline: two calls less a record in the parent.
    if ns is not None:
        ns = _TUPLE_NEW(SideScore, (_TEAMS[ns[0]],) + ns[1:])
    if ew is not None:
        ew = _TUPLE_NEW(SideScore, (_TEAMS[ew[0]],) + ew[1:])
    return _TUPLE_NEW(DealScore, (contract, _OUTCOMES[outcome], ns, ew, value, multiplier,
                                  None if capot < 0 else _TEAMS[capot], hold,
                                  None if meld_team < 0 else _TEAMS[meld_team], formula))


# Contracts are few (seats x denominations x bids x doublings) and immutable: each is unpacked once.
_CONTRACTS: dict[tuple, Contract] = {}


def _unpack_contract(packed: tuple) -> Contract:
    taker, denomination, bid, capot_bid, generale, doubling = packed
    if len(_CONTRACTS) > 4096:
        _CONTRACTS.clear()
    contract = _CONTRACTS[packed] = Contract(SEATS[taker], _DENOMINATIONS[denomination], bid, capot_bid,
                                             generale, doubling)
    return contract


def _pack_side(side: SideScore | None) -> tuple | None:
    return None if side is None else (_TEAMS.index(side.team),) + tuple(side[1:])


def _team_index(team: Team | None) -> int:
    return -1 if team is None else _TEAMS.index(team)
