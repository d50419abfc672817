"""Validating files: record after record in this process, or in several processes.

``validate_stream(source)`` gives a report per record of a file, in input order. With
``jobs`` processes the file is read in blocks and cut into chunks of whole records (``notation.splitter.chunks``)
without being split record by record here. With ``jobs`` processes, ``jobs - 1`` are
workers and this process validates every ``jobs``-th chunk itself between taking the reports
of the others (waiting for them would leave a core idle). A worker splits and validates its
chunk, lines and byte offsets those of the file, and sends back the reports, which this
process numbers in the file. Chunks go out in order and at most ``2 * jobs`` are in flight,
so memory stays flat whatever the file size.
"""

from __future__ import annotations

import multiprocessing
from collections import deque
from typing import Any, Iterator

from notation.splitter import Input, Rest, chunks, split_records

from ..engine.rules import Rules
from .report import Report
from .validator import validate_raw

RECORD_BYTES = 640  # the size of a usual record, to turn a chunk size in records into bytes
CHUNK = 400  # records a worker validates per task, about

Chunk = tuple[bytes, int, int]  # the bytes of whole records, the line and byte offset they start at


def validate_chunk(chunk: Chunk | tuple[Rest, int, int], rules: Rules | None, repair: bool,
                   first_index: int = 0) -> list[Report]:
    """The reports of a chunk's records, numbered from ``first_index``."""
    data, line, offset = chunk
    return [validate_raw(raw, rules, repair) for raw in split_records(data, index=first_index, line=line,
                                                                      offset=offset)]


def validate_stream(source: Input, rules: Rules | str | None = None, jobs: int = 1, *, repair: bool = True,
                    chunk: int = CHUNK) -> Iterator[Report]:
    """A report per record of ``source`` (text, bytes, a path or a stream), in input order;
    with ``jobs > 1``, in that many processes, chunks of about ``chunk`` records each."""
    if isinstance(rules, str):
        rules = Rules.parse(rules)
    if jobs <= 1:
        for raw in split_records(source):
            yield validate_raw(raw, rules, repair)
        return
    yield from run_pool(source, rules, jobs, repair, chunk * RECORD_BYTES)


def worker_pool(processes: int) -> Any:
    """A ``multiprocessing`` pool of ``processes`` workers, forked where the system can fork
    (the workers start at once, the parent's modules already loaded). Every pool of the
    package is made here."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else None).Pool(processes)


def run_pool(source: Input, rules: Rules | None, jobs: int, repair: bool, size: int) -> Iterator[Report]:
    """The reports of ``source`` validated by ``jobs`` processes, in input order; ``size``: the
    bytes of a chunk."""
    index = 0
    with worker_pool(jobs - 1) as pool:
        pending: deque[Any] = deque()  # in input order: a worker's result, or a chunk to validate here
        for number, chunk in enumerate(chunks(source, size)):
            if isinstance(chunk[0], Rest) or number % jobs == 0:  # the first is ours: the workers start meanwhile
                pending.append(chunk)
            else:
                pending.append(pool.apply_async(validate_chunk, (chunk, rules, repair)))
            while len(pending) > 2 * jobs:
                for report in _reports(pending.popleft(), index, rules, repair):
                    yield report
                    index += 1
        while pending:
            for report in _reports(pending.popleft(), index, rules, repair):
                yield report
                index += 1


def _reports(item: Any, index: int, rules: Rules | None, repair: bool) -> list[Report]:
    """The reports of an item of ``run_pool``, its first record being record ``index`` of the file."""
    if isinstance(item, tuple):
        return validate_chunk(item, rules, repair, index)
    return [report.renumbered(number) for number, report in enumerate(item.get(), index)]
