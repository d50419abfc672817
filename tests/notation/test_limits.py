"""The limits of a record (docs/notation.md §1): past one, the record is a ``LimitError`` at the
place it went past, the next records are read, and neither the work nor the memory grows with
what the record holds (issue 15 I). Also: whitespace-only lines at the end of a record or a
file, and digits, which are ASCII only (issue 15 J)."""

from __future__ import annotations

import tracemalloc

import pytest

from notation.errors import LimitError
from notation.parser import parse
from notation.splitter import MAX_LINES, MAX_RECORD, MAX_TAGS, MAX_TRICKS, MAX_WORDS, scan_headers

NEXT = '[Event "next"]\nhand N AS\n'  # a record after the one past a limit: it is read


def results(text: str) -> list[tuple[str, int, int, str] | None]:
    """Each record's first error as (kind, line, column, problem), None when it reads."""
    return [(type(r.errors[0]).__name__, r.errors[0].line, r.errors[0].column, r.errors[0].problem)
            if r.errors else None for r in parse(text)]


def test_the_limits_are_those_the_notation_states() -> None:
    assert (MAX_RECORD, MAX_LINES, MAX_TAGS, MAX_WORDS, MAX_TRICKS) == (2_000_000, 10_000, 1_000, 10_000, 100)


def test_a_record_past_the_line_limit_is_a_limit_error_at_its_first_line_past_it() -> None:
    text = '[Event "x"]\n' + "hand N AS\n" * MAX_LINES + "\n" + NEXT
    assert results(text) == [("LimitError", MAX_LINES + 1, 1, f"record longer than {MAX_LINES} lines"), None]
    assert results('[Event "x"]\n' + "% an escape line\n" * (MAX_LINES - 1)) == [None]  # MAX_LINES lines: read


def test_the_lines_past_the_limit_are_counted_so_the_next_record_keeps_its_place() -> None:
    text = "[\n" * (MAX_LINES + 500) + "\n" + NEXT
    records = list(parse(text))
    assert [r.source.first_line for r in records] == [1, MAX_LINES + 502]
    assert records[1].ok and records[1].record.tag("Event") == "next"


def test_tag_pairs_past_the_limit_one_a_line_and_several_a_line() -> None:
    one_a_line = "".join(f'[T{i} "v"]\n' for i in range(MAX_TAGS + 1))
    assert results(one_a_line + "\n" + NEXT) == [
        ("LimitError", MAX_TAGS + 1, 1, f"more than {MAX_TAGS} tag pairs in a record"), None]
    assert results("".join(f'[T{i} "v"]\n' for i in range(MAX_TAGS))) == [None]
    several = '[a "1"] [b "2"] [c "3"] [d "4"] [e "5"]\n' * (MAX_TAGS // 5 + 1)
    assert results(several) == [("LimitError", MAX_TAGS // 5 + 1, 1, f"more than {MAX_TAGS} tag pairs in a record")]
    blocks = '[a "1"] [b "2"]\n{a comment between the tag pairs}\n' * (MAX_TAGS // 2 + 1)  # short runs of them
    assert results(blocks) == [("LimitError", MAX_TAGS + 1, 1, f"more than {MAX_TAGS} tag pairs in a record")]


def test_words_past_the_limit_calls_or_comments() -> None:
    calls = '[Event "x"]\nauction ' + " ".join(["pass"] * 6000) + "\n" + " ".join(["pass"] * 6000) + "\n"
    assert results(calls + "\n" + NEXT) == [("LimitError", 3, 1, f"more than {MAX_WORDS} words in a record"), None]
    comments = '[Event "x"]\nplay\n1. AS ' + "{c}" * MAX_WORDS + "\n"
    assert results(comments) == [("LimitError", 3, 1, f"more than {MAX_WORDS} words in a record")]


def test_tricks_past_the_limit_one_a_line_or_several_a_line() -> None:
    one_a_line = '[Event "x"]\nplay\n' + "".join(f"{i}. ?? ?? ?? ??\n" for i in range(1, MAX_TRICKS + 2))
    assert results(one_a_line + "\n" + NEXT) == [
        ("LimitError", MAX_TRICKS + 3, 1, f"more than {MAX_TRICKS} tricks in a record"), None]
    assert results(one_a_line.rsplit("\n", 2)[0] + "\n") == [None]  # MAX_TRICKS tricks: read
    numbered = '[Event "x"]\nplay\n' + " ".join(f"{i}. ??" for i in range(1, MAX_TRICKS + 2)) + "\n"
    column = numbered.split("\n")[2].index(f"{MAX_TRICKS + 1}.") + 1
    assert results(numbered) == [("LimitError", 3, column, f"more than {MAX_TRICKS} tricks in a record")]


@pytest.mark.parametrize("text", [
    "[\n" * 990_000,  # 2 MB of lines that start a tag pair
    '[Event "x"]\nplay\n' + "AS\n" * 660_000,  # 2 MB of one-card tricks
    '[Event "x"]\nauction ' + "\n".join([" ".join(["pass"] * 18_000)] * 21) + "\n",  # 1.9 MB of calls
    "\n".join(['[a ""]' * 15_000] * 21) + "\n",  # 1.9 MB of tag pairs, many a line
], ids=["brackets", "trick-lines", "calls", "tags"])
def test_a_two_megabyte_record_takes_bounded_memory(text: str) -> None:
    """Before the limits, such records took 80 to 425 MB to read; now a few."""
    tracemalloc.start()
    try:
        (result,) = parse(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert isinstance(result.errors[0], LimitError)
    assert peak < 3 * len(text) + 8_000_000, peak


# --- whitespace-only lines -------------------------------------------------------------------

@pytest.mark.parametrize("space", ["\u00a0", "\u3000", " \u2003\t", "\x1c"])
def test_a_last_line_of_whitespace_is_not_part_of_the_record(space: str) -> None:
    """The reader skips a line of whitespace (no-break spaces...) as it skips a blank line: it
    does not make the record end a line later, nor is a stretch of such lines a record."""
    record = '[Event "a"]\nhand N AS\n'
    for tail in (space, space + "\n", "\n" + space, "\n" + space + "\n\n" + space):
        text = record + tail
        assert [(h.first_line, h.last_line) for h in scan_headers(text)] == [(1, 2)], repr(text)
        assert [(r.source.first_line, r.source.last_line) for r in parse(text)] == [(1, 2)], repr(text)
    assert [(h.first_line, h.last_line) for h in scan_headers(record + space + "\n\n" + NEXT)] == [(1, 2), (5, 6)]
    assert [h.last_line for h in scan_headers(record + space + "\nhand E KS\n")] == [4]  # inside the record: kept
    assert list(parse(space + "\n")) == []


# --- digits ----------------------------------------------------------------------------------

@pytest.mark.parametrize("number", ["\u0663.", "\uff13.", "3\u0663."])
def test_a_trick_number_of_other_digits_is_a_syntax_error_at_its_place(number: str) -> None:
    text = f'[Event "x"]\nplay\n{number} AS KS QS JS\n'
    assert results(text) == [("RecordSyntaxError", 3, 1, f'unexpected "{number}"')]


def test_the_word_caches_stay_bounded_whatever_a_file_spells() -> None:
    """The lexer remembers each call and card word it has read (a file repeats a few hundred);
    a crafted file that spells 40,000 different bids does not make it keep them all."""
    from notation import lexer

    lexer._CALLS.clear()
    words = [f"{seat}:{value}H{note}" for value in range(80, 3_413) for seat in "NESW" for note in ("", "!", "?!")]
    text = "\n\n".join(f'[Event "{i}"]\nauction {" ".join(words[i:i + 4_000])}' for i in range(0, len(words), 4_000))
    assert len(words) == 39_996
    assert all(not result.errors for result in parse(text))
    assert 0 < len(lexer._CALLS) <= 20_000
    assert lexer.call("N:80H", lexer.AUCTION_KINDS) is not None  # still read right after a clear
