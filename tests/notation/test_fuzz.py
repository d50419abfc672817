"""Random damage to realistic records: the reader gives results or documented errors, never anything else."""

from __future__ import annotations

import io
import random

from notation import RecordSyntaxError, dumps, parse, parse_record, write_record

CASES = 10_000


def check(data: bytes) -> None:
    read = []
    for result in parse(io.BytesIO(data)):
        if result.record is None:
            assert len(result.errors) == 1 and isinstance(result.errors[0], RecordSyntaxError)
            assert "\n" not in result.errors[0].problem  # messages stay on one line
            assert result.errors[0].line >= result.source.first_line
            str(result.errors[0])
        else:
            assert not result.errors
            text = write_record(result.record)  # what was read can be written...
            assert parse_record(text) == result.record  # ...and read back the same
            assert write_record(parse_record(text)) == text  # (a fixed point)
            read.append(result.record)
    assert [result.record for result in parse(dumps(read))] == read  # a file of them too: none lost or merged


def test_mutated_files_only_give_records_or_documented_errors(seed_text, mutate):
    rng = random.Random(20260306)
    for _ in range(CASES):
        check(mutate(rng, seed_text[rng.randrange(0, 1500):]))
