"""Random damage to realistic records: the reader gives results or documented errors, never anything else."""

from __future__ import annotations

import io
import random

from notation import RecordSyntaxError, dumps, parse, parse_record, write_record
from notation_samples import CLASSIC, COINCHE, PARTIAL

SEED_TEXT = (CLASSIC + "\n" + COINCHE + "\n" + PARTIAL).encode("utf-8")
NOISE = [b"{", b"}", b"[", b"]", b'"', b"\\", b";", b"%", b"*", b"\n", b"\n\n", b" ", b"\t", b"\r", b":", b"??",
         b"10", b"\xff", b"\xc3", "♥".encode(), b"belote", b"claim", b"play", b"hand", b"1.", b"\x00"]
CASES = 10_000


def mutate(rng: random.Random, data: bytes) -> bytes:
    """Byte flips, deletions, insertions and line swaps, one to four of them."""
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(5)
        at = rng.randrange(len(data) + 1)
        if kind == 0 and data:
            at = min(at, len(data) - 1)
            data = data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1:]
        elif kind == 1:
            data = data[:at] + data[at + rng.randint(1, 12):]
        elif kind == 2:
            data = data[:at] + rng.choice(NOISE) + data[at:]
        elif kind == 3:
            lines = data.split(b"\n")
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            data = b"\n".join(lines)
        else:
            data = data[:at] + bytes(rng.randrange(256) for _ in range(rng.randint(1, 6))) + data[at:]
    return data


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


def test_mutated_files_only_give_records_or_documented_errors():
    rng = random.Random(20260306)
    for _ in range(CASES):
        check(mutate(rng, SEED_TEXT[rng.randrange(0, 1500):]))
