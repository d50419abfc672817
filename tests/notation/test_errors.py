"""Errors: exact line:column, the offending text, what was expected in words; one per bad record."""

from __future__ import annotations

import io
import pickle

import pytest

from notation import (DealError, Pos, EncodingError, LimitError, NotationError, RecordSyntaxError, parse,
                      parse_record)
from notation.splitter import MAX_LINE


def error_of(text: str) -> RecordSyntaxError:
    results = list(parse(text))
    assert len(results) == 1 and results[0].record is None
    (error,) = results[0].errors
    return error


# (text, line, column, offending text, expected words)
CASES = [
    ('[Event "x"]\n\nplay\n1. W:JH S:XZ E:9H N:QH', 4, 11, "XZ",
     "a card (e.g. JH, 10S) or the end of the trick"),
    ("play\n1. W:JH S:7H E:9H N:QH AH", 2, 24, "AH", "at most 4 cards in a trick (one trick per line)"),
    ("play\n2. W:JH", 2, 1, "2.", "trick number 1. (or none)"),
    ("play\n1. W:JH S:7H\nturned JH", 3, 1, "turned", "a card (e.g. JH, 10S) or the end of the trick"),
    ("hand X AS KS QS JH TH 9D 8C 7C", 1, 6, "X", "a seat (N, E, S or W)"),
    ("hand N AS KS QS JH TH 9D 8C ZZ", 1, 29, "ZZ", "a card (e.g. JH, 10S), ?? or the end of the hand"),
    ("taking pass 80H", 1, 13, "80H", "a call of the taking (pass, take or a suit)"),
    ("auction W:80H N:pazz", 1, 17, "pazz",
     "a call of the auction (pass, 80H, 110SA, capotS, coinche, surcoinche)"),
    ("turned JH JD", 1, 11, "JD", "a comment or the end of the line"),
    ("announce W sixte KH QH JH", 1, 12, "sixte", "tierce, quarte, quinte or carre"),
    ("announce W tierce KH QH ??", 1, 25, "??", "a card (e.g. JH, 10S) or the end of the announcement"),
    ('[Event "x\\q"]', 1, 10, "\\q", 'only \\" and \\\\ escapes in a tag value'),
    ("[Event x]", 1, 8, "x", "a tag value in double quotes"),
    ('[Event "x"', 1, 11, "", '"]" to close the tag pair'),
    ('[Event "x]\nhand N -', 1, 8, '"', 'a closing " on the same line'),
    ("{never closed\nhand N -", 1, 1, "{", 'a closing "}"'),
    ("garbage here", 1, 1, "garbage",
     "a tag pair, a hand, the turned card, taking, auction, an announcement or play"),
    ("play\n1. W:JH\n*\n{late}", 4, 1, "{", "the end of the record"),
    ("hand N -\nplay\n1. W:JH belote belote", 3, 16, "belote", "a card (e.g. JH, 10S)"),
    ("play\n1.", 2, 3, "", "a card (e.g. JH, 10S)"),
]


@pytest.mark.parametrize("text, line, column, found, expected", CASES)
def test_error_position_text_and_expected_words(text, line, column, found, expected):
    error = error_of(text)
    assert (error.line, error.column, error.text, error.expected) == (line, column, found, expected)
    assert "__ANON" not in str(error) and "TRICK" not in str(error) and "$END" not in str(error)


def test_error_message_shows_the_line_with_a_caret(classic_text):
    text = classic_text + "\n" + classic_text + "\n" + '[Event "x"]\n\nplay\n1. W:JH S:XZ E:9H N:QH\n'
    error = list(parse(text))[2].errors[0]
    assert str(error) == ('record 3, line 74:11: unexpected "XZ": expected a card (e.g. JH, 10S) or the end of '
                          'the trick\n  1. W:JH S:XZ E:9H N:QH\n            ^')
    assert error.record_index == 2


def test_errors_are_value_errors_and_notation_errors_and_pickle():
    error = error_of("hand N")
    assert isinstance(error, DealError) and isinstance(error, NotationError) and isinstance(error, ValueError)
    copy = pickle.loads(pickle.dumps(error))
    assert (type(copy), str(copy), copy.line, copy.column) == (DealError, str(error), 1, 1)


def test_parse_record_raises_the_first_error():
    with pytest.raises(RecordSyntaxError) as caught:
        parse_record("hand N AS KS QS JH TH 9D 8C 7C 7D")
    assert (caught.value.line, caught.value.column) == (1, 32)


def test_parse_record_rejects_no_record_and_two_records(partial_text):
    with pytest.raises(RecordSyntaxError, match="no record"):
        parse_record("\n")
    with pytest.raises(RecordSyntaxError, match="a second record"):
        parse_record(partial_text + "\n" + partial_text)


# --- the deal ----------------------------------------------------------------------------------


def test_nine_cards_in_a_hand():
    error = error_of("hand N AS KS QS JH TH 9D 8C 7C 7D")
    assert isinstance(error, DealError) and (error.line, error.column, error.text) == (1, 32, "7D")
    assert error.problem == "a ninth card in hand N"


def test_a_hand_of_one_to_eight_cards_is_read_the_count_is_the_validators():
    record = parse_record("hand N AS KS QS JH TH\nhand E 7C {void deal}\nhand\tW\tAH")
    assert [len(hand.cards) for hand in record.hands] == [5, 1, 1]
    assert record.hands[1].comments == ("void deal",) and record.hands[2].pos == Pos(3, 1)


def test_a_hand_with_no_cards():
    error = error_of("\nhand S {nothing}")
    assert isinstance(error, DealError) and (error.line, error.column) == (2, 1)
    assert error.problem == "hand S has no cards"


def test_five_hands():
    error = error_of("hand N -\nhand E -\nhand S -\nhand W -\nhand N -")
    assert isinstance(error, DealError) and (error.line, error.problem) == (5, "a fifth hand")


def test_a_seat_given_twice():
    error = error_of("hand N -\nhand N -")
    assert isinstance(error, DealError) and error.problem == "a second hand for seat N"


def test_a_card_dealt_twice_is_the_33rd_card():
    text = ("hand N AS KS QS JS TS 9S 8S 7S\nhand E AH KH QH JH TH 9H 8H 7H\nhand S AD KD QD JD TD 9D 8D 7D\n"
            "hand W AC KC QC JC TC 9C 8C 7S")
    error = error_of(text)
    assert isinstance(error, DealError) and (error.line, error.column, error.text) == (4, 29, "7S")
    assert error.problem == "7S is dealt twice (hands N and W)"


# --- one bad record among good ones, and what the reader itself refuses -------------------------


def test_one_bad_record_does_not_stop_the_next(classic_text, coinche_text):
    bad = "hand N AS KS QS JH TH 9D 8C ZZ\n"
    results = list(parse(coinche_text + "\n" + bad + "\n" + classic_text))
    assert [r.ok for r in results] == [True, False, True]
    assert results[1].source.text == bad and results[1].errors[0].line == 18
    assert results[2].record == parse_record(classic_text)


def test_unterminated_comment_ends_at_the_next_record():
    text = '[Event "a"]\n\n{never closed\n\n[Event "b"]\n\nhand N -\n'
    results = list(parse(text))
    assert [r.ok for r in results] == [False, True]
    assert results[0].errors[0].problem == "a comment that is never closed"
    assert results[1].record.tag("Event") == "b"


def test_unterminated_tag_string_then_a_good_record(partial_text):
    results = list(parse('[Event "never closed]\nhand N -\n\n' + partial_text))
    assert [r.ok for r in results] == [False, True]
    assert results[0].errors[0].problem == "a tag value that is never closed"


def test_invalid_utf8_reports_the_byte_offset(partial_text):
    data = partial_text.encode() + b"\n" + b'[Event "caf\xe9"]\nhand N -\n' + b"\n" + partial_text.encode()
    results = list(parse(io.BytesIO(data)))
    assert [r.ok for r in results] == [True, False, True]
    error = results[1].errors[0]
    offset = len(partial_text.encode()) + 1 + len(b'[Event "caf')
    assert isinstance(error, EncodingError) and error.byte_offset == offset
    assert (error.line, error.column) == (10, 12)
    assert f"at byte {offset}" in str(error)


def test_binary_data_gives_errors_not_exceptions(partial_text):
    data = bytes(range(256)) * 40 + b"\n\n" + partial_text.encode()
    results = list(parse(io.BytesIO(data)))
    assert results[-1].ok and results[-1].record == parse_record(partial_text)
    assert all(isinstance(e, RecordSyntaxError) for r in results[:-1] for e in r.errors)
    assert not any(r.ok for r in results[:-1])


def test_a_ten_megabyte_line_is_an_error_of_its_record_only(partial_text):
    data = b"[Event \"x\"]\n\n" + b"x" * 10_000_000 + b"\n\n" + partial_text.encode()
    results = list(parse(io.BytesIO(data)))
    assert [r.ok for r in results] == [False, True]
    error = results[0].errors[0]
    assert isinstance(error, LimitError) and (error.line, error.column) == (3, MAX_LINE + 1)
    assert len(results[0].source.text) < 1000
    assert results[1].source.byte_offset == len(data) - len(partial_text.encode())
    assert results[1].source.first_line == 5


def test_an_over_long_line_starting_a_record_is_an_error_of_that_record_only(partial_text):
    long_record = b'[Event "' + b"x" * (3 * MAX_LINE) + b'"]\nhand N -\n'
    data = partial_text.encode() + b"\n" + long_record + b"\n" + partial_text.encode()
    results = list(parse(io.BytesIO(data)))
    assert [r.ok for r in results] == [True, False, True]
    (error,) = results[1].errors
    line = partial_text.count("\n") + 2
    assert isinstance(error, LimitError) and (error.line, error.column) == (line, MAX_LINE + 1)
    assert results[1].source.first_line == line and results[2].source.first_line == line + 3
    assert results[2].source.byte_offset == len(data) - len(partial_text.encode())


def test_messages_stay_on_one_line():
    error = error_of('[Event "x\\\n[Site "y"]\n')  # a backslash at the end of a line of tags
    assert error.problem == 'unexpected "\\" at the end of the line' and error.text == "\\"
    assert (error.line, error.column) == (1, 10) and str(error).count("\n") == 2
