"""The JSON form (notation.jsonio): every record's JSON comes back equal, and ``from_json``
refuses what the schema (``notation/record.schema.json``) or the notation cannot hold, with
the path of the first bad value (issue 15 G)."""

from __future__ import annotations

import fnmatch
import json
import tomllib
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation import JSONFormatError, from_json, parse, parse_record, to_json
from notation.jsonio import MAX_DEPTH, SCHEMA_FILE, decode_json, record_schema
from notation.splitter import MAX_TAGS, MAX_TRICKS

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").glob("**/*.belote"))
FULL_HAND = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S"]


def _round_trip(record) -> None:
    value = json.loads(json.dumps(to_json(record)))
    again = from_json(value)
    assert again == record
    assert to_json(again) == value
    assert from_json(json.loads(json.dumps(to_json(record, positions=True)))) == record


@pytest.mark.parametrize("path", SAMPLES, ids=lambda path: path.relative_to(ROOT / "samples").as_posix())
def test_every_sample_record_round_trips_through_json(path):
    records = [result.record for result in parse(path.read_bytes()) if result.ok]
    assert records or "invalid" in path.parts  # a sample that cannot be read has nothing to convert
    for record in records:
        _round_trip(record)


def test_generated_records_round_trip_through_json(generated_texts):
    for text in generated_texts(120, seed=11):
        _round_trip(parse_record(text))


def _deep(depth: int) -> list:
    value: list = []
    for _ in range(depth - 1):
        value = [value]
    return value


FULL = {"hands": [{"seat": "N", "cards": FULL_HAND}]}


@pytest.mark.parametrize("value, message", [
    # the cases
    ({"tricks": [{"plays": [{"card": card} for card in ["AS", "KS", "QS", "JS", "TS"]]}]},
     "tricks[0].plays: 5 items, at most 4"),
    ({"hands": [{"seat": "N", "cards": ["AS", "KS"]}, {"seat": "E", "cards": ["QS", "AS"]}]},
     "hands[1].cards[1]: AS is dealt twice (hands N and E)"),
    ({"hands": [{"seat": "N", "cards": ["AS", "KS", "AS"]}]}, "hands[0].cards[2]: AS is dealt twice (hands N and N)"),
    ({"hands": [{"seat": "N", "cards": FULL_HAND + ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H"]}]},
     "hands[0].cards: 16 items, at most 8"),
    ({"hands": [{"seat": "N", "cards": FULL_HAND}, {"seat": "N", "cards": FULL_HAND}]},
     "hands[1]: 2 hands for seat N, at most 1"),
    ({"tags": [["Bad Name!", "x"]]}, "tags[0][0]: not a tag name (letters, digits and _): 'Bad Name!'"),
    ({"tags": [["Event", "a\nb"]]}, "tags[0][1]: a tag value cannot hold a line break: 'a\\nb'"),
    ({"tags": [["Event", "\ud800"]]}, "tags[0][1]: a lone surrogate is not text: '\\ud800'"),
    ({"comments": ["\udfff"]}, "comments[0]: a lone surrogate is not text: '\\udfff'"),
    # the form of the value
    ([], "expected an object"),
    ({"tags": [["Event"]]}, "tags[0]: 1 item, at least 2"),
    ({"tags": [["Event\n", "x"]]}, "tags[0][0]: not a tag name (letters, digits and _): 'Event\\n'"),
    ({"hands": [{"seat": "X", "cards": None}]}, "hands[0].seat: not a seat (N, E, S, W): 'X'"),
    ({"hands": [{"seat": "N", "cards": []}]}, "hands[0].cards: 0 items, at least 1"),
    ({"hands": [{"seat": "N"}]}, "hands[0].cards: missing"),
    ({"hands": [{"seat": "N", "cards": "AS KS"}]}, "hands[0].cards: expected a list or null"),
    ({"hands": [{}] * 5}, "hands: 5 items, at most 4"),
    ({"tricks": [{"plays": [{"card": "ZZ"}]}]}, "tricks[0].plays[0].card: not a card: 'ZZ'"),
    ({"tricks": [{"plays": [{"card": "AS\n"}]}]}, "tricks[0].plays[0].card: not a card: 'AS\\n'"),
    ({"tricks": [{"plays": []}]}, "tricks[0].plays: 0 items, at least 1"),
    ({"tricks": [{"plays": [{"card": "JH", "annotation": "!!!"}]}]},
     "tricks[0].plays[0].annotation: not an annotation (!!, ??, !?, ?!, ! or ?): '!!!'"),
    ({"tricks": [{"plays": [{"card": "JH", "declaration": "tierce"}]}]},
     "tricks[0].plays[0].declaration: not belote or rebelote: 'tierce'"),
    ({"tricks": [{"plays": [{"card": "JH", "pos": [0, 3]}]}]}, "tricks[0].plays[0].pos[0]: 0, at least 1"),
    ({"tricks": [{"plays": [{"card": "JH", "colour": "red"}]}]}, "tricks[0].plays[0].colour: unknown key"),
    ({"auction": [{"call": "80Q"}]}, "auction[0].call: not a call: '80Q'"),
    ({"auction": [{"call": "pass\n"}]}, "auction[0].call: not a call: 'pass\\n'"),
    ({"announcements": [{"seat": "N", "kind": "sixte", "cards": []}]},
     "announcements[0].kind: not a meld (tierce, quarte, quinte, carre): 'sixte'"),
    ({"stopped": "yes"}, "stopped: expected true or false"),
    ({"taking": [], "auction": []}, "auction: a record has a taking or an auction, not both"),
    ({"claim": {"seat": "N"}, "stopped": True}, "stopped: the play ends with a claim or a stop, not both"),
    ({"turned_comments": ["x"]}, "turned_comments: only with turned"),
    ({"comments": ['a\n\n[Event "x"]']},
     "comments[0]: a blank line then a tag pair would end the record here: 'a\\n\\n[Event \"x\"]'"),
    ({"a\nb": 1}, "['a\\nb']: unknown key"),
    ({"x" * 50: 1}, "['xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'...]: unknown key"),
    # the first bad value in the order of the value: its keys as given, its items by index
    ({"hands": 3, "tags": 5}, "hands: expected a list"),
    ({"tags": 5, "hands": 3}, "tags: expected a list"),
    ({"hands": [{"seat": "X", "cards": ["ZZ"]}, {"seat": "Y", "cards": None}]},
     "hands[0].seat: not a seat (N, E, S, W): 'X'"),
    # what the writer cannot write where it stands: a "}" in a comment written in braces
    ({"comments": ["a}b"]}, "comments[0]: a comment here cannot hold \"}\": 'a}b'"),
    ({"tricks": [{"plays": [{"card": "AS", "comments": ["x}", "y"]}]}]},
     "tricks[0].plays[0].comments[0]: a comment here cannot hold \"}\": 'x}'"),
    ({"hands": [{"seat": "N", "cards": None, "comments": ["a}", "b"]}]},
     "hands[0].comments[0]: a comment here cannot hold \"}\": 'a}'"),
    # a bid the schema's pattern lets through but the notation's reader would refuse
    ({"auction": [{"call": "99999H"}]}, "auction[0].call: bid value out of range: 99999 (at most 4 digits)"),
    # nesting: refused before the schema walks it
    ({"tags": _deep(MAX_DEPTH - 1)}, "tags[0]: 1 item, at least 2"),
    ({"tags": _deep(MAX_DEPTH)}, "tags" + "[0]" * (MAX_DEPTH - 1) + f": nested deeper than {MAX_DEPTH} levels"),
    (_deep(900), "[0]" * MAX_DEPTH + f": nested deeper than {MAX_DEPTH} levels"),
])
def test_from_json_refuses_with_the_path_of_the_first_bad_value(value, message):
    with pytest.raises(JSONFormatError) as caught:
        from_json(value)
    assert str(caught.value) == message


def test_the_path_of_an_error_is_its_own_attribute():
    with pytest.raises(JSONFormatError) as caught:
        from_json({"tricks": [{"plays": [{"card": "AS"}] * 5}]})
    assert caught.value.path == "tricks[0].plays"
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize("value", [
    {"hands": [{"seat": "N", "cards": ["??", "??", "AS"]}, {"seat": "E", "cards": ["??"]}]},  # ?? may repeat
    {"hands": [{"seat": "N", "cards": None, "comments": ["b", "a}"]}]},  # a last comment holding "}": "; a}"
    {"tricks": [{"plays": [{"card": "AS"}], "comments": ["x", "a } b"]}]},
    {"tags": [["Event", "a\rb \\ \"q\" \x00 \u2028 😀"]], "comments": ["a\n\n[Event", "line\nbreak"]},
    {"stopped": False},
    {},
])
def test_from_json_accepts_what_the_notation_can_hold(value):
    record = from_json(value)
    assert parse_record(str(record)) == record


def test_what_the_reader_would_refuse_is_refused():
    """The reader's limits (tag pairs, tricks) are the reader's: from_json reads the text it
    would write back and says why it cannot."""
    with pytest.raises(JSONFormatError) as caught:
        from_json({"tags": [[f"T{i}", "x"] for i in range(MAX_TAGS + 1)]})
    assert str(caught.value) == (f"the notation written from it cannot be read back: more than {MAX_TAGS} tag pairs "
                                 "in a record")
    with pytest.raises(JSONFormatError) as caught:
        from_json({"tricks": [{"plays": [{"card": "AS"}]}] * (MAX_TRICKS + 1)})
    assert str(caught.value) == (f"the notation written from it cannot be read back: more than {MAX_TRICKS} tricks "
                                 "in a record")
    assert len(from_json({"tags": [[f"T{i}", "x"] for i in range(MAX_TAGS)]}).tags) == MAX_TAGS


def test_decode_json_refuses_bad_and_too_deep_json_in_one_line():
    with pytest.raises(JSONFormatError) as caught:
        decode_json("[" * 100_000 + "]" * 100_000)
    assert str(caught.value) == "not JSON: nested too deeply to decode"
    with pytest.raises(JSONFormatError) as caught:
        decode_json('{"a": 1')
    assert str(caught.value) == "not JSON: Expecting ',' delimiter: line 1 column 8 (char 7)"
    with pytest.raises(JSONFormatError) as caught:
        decode_json(b"\xff")
    assert str(caught.value) == "not JSON: 'utf-8' codec can't decode byte 0xff in position 0: invalid start byte"
    assert decode_json(b'{"stopped": true}') == {"stopped": True}


# --- whatever from_json accepts can be written and read back ------------------------------------

NASTY = st.sampled_from(["}", "{", ";", "\n", "\n\n", "\r\n", "\r", " ", "\t", "[", '"', "\\", "%", "*", "\u2028",
                         "\x85", "\x00", "\ud800", "é", "😀", '\n\n[Event "x"]', "play", "1."])
TEXT = st.lists(NASTY | st.text(max_size=3), max_size=4).map("".join)
COMMENT_LISTS = st.lists(TEXT, max_size=3)


@st.composite
def json_records(draw) -> dict:
    """The JSON of a sample record with nasty tag values and comments put into it."""
    value = to_json(parse_record((ROOT / "tests" / "data" / "notation" / draw(st.sampled_from(
        ["classic", "coinche", "partial"]))).with_suffix(".belote").read_text(encoding="utf-8")))
    value["tags"] = [[name, draw(st.text(max_size=8) if i else TEXT)] for i, (name, _) in enumerate(value["tags"])]
    value["comments"] = draw(COMMENT_LISTS)
    for hand in value.get("hands", []):
        hand["comments"] = draw(COMMENT_LISTS)
    for trick in value.get("tricks", [])[:3]:
        trick["comments"] = draw(COMMENT_LISTS)
        trick["plays"][0]["comments"] = draw(COMMENT_LISTS)
    for key in ("taking", "auction"):
        for call in value.get(key, [])[:2]:
            call["comments"] = draw(COMMENT_LISTS)
    return value


def _as_read(value: dict) -> dict:
    """A record's JSON as the reader gives it back: comments without the whitespace at their
    ends, CRLF read as LF (docs/notation.md §1, §2.7)."""
    if isinstance(value, dict):
        return {key: [c.replace("\r\n", "\n").strip() for c in item] if key.endswith("comments") else _as_read(item)
                for key, item in value.items()}
    return [_as_read(item) for item in value] if isinstance(value, list) else value


@settings(max_examples=300, deadline=None)
@given(json_records())
def test_what_from_json_accepts_is_written_and_read_back(value):
    try:
        record = from_json(value)
    except JSONFormatError as error:
        assert "\n" not in str(error)
        return
    back = parse_record(str(record))
    assert to_json(back) == _as_read(to_json(record))


# --- the schema ships with the package --------------------------------------------------------

def test_the_schema_is_in_the_package_and_in_its_package_data():
    shipped = resources.files("notation").joinpath(SCHEMA_FILE)
    assert json.loads(shipped.read_text(encoding="utf-8")) == record_schema()
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"][
        "package-data"]["notation"]
    assert any(fnmatch.fnmatch(SCHEMA_FILE, pattern) for pattern in package_data)
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    assert any(dependency.startswith("jsonschema") for dependency in dependencies)


def test_the_schema_is_a_valid_2020_12_schema():
    from jsonschema import Draft202012Validator
    Draft202012Validator.check_schema(record_schema())
