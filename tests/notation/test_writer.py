"""The canonical writer and the JSON form."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from notation import (Call, CallEntry, CallKind, Card, CardEntry, Claim, Hand, JSONFormatError, Record, Seat, Trick,
                      WriteError, dumps, from_json, parse, parse_record, to_json, write_file, write_record)

C = Card.parse
SCHEMA = Path(__file__).resolve().parents[2] / "notation" / "record.schema.json"
NAMES = ["classic", "coinche", "partial"]  # the records of tests/data/notation/


@pytest.mark.parametrize("name", NAMES)
def test_canonical_records_are_written_back_byte_for_byte(name, notation_texts):
    text = notation_texts[name]
    assert write_record(parse_record(text)) == text
    assert str(parse_record(text)) == text


def test_lenient_input_becomes_canonical():
    text = ('[Dealer "n"] [Event "x"]\n{ spaced note }\nHAND w 10s a♥ rh dd vc 9♣ 8C 7c\n'
            "Auction w:80♥ passe x\nPLAY\nw:10♠ belote n:V♥?  ;  why\n")
    assert str(parse_record(text)) == (
        '[Event "x"]\n[Dealer "n"]\n\n{spaced note}\nhand W TS AH KH QD JC 9C 8C 7C\n'
        "auction W:80H pass coinche\nplay\n1. W:TS belote N:JH? ; why\n")


def test_writer_orders_tags_and_hands_and_cards_whatever_the_model_was_given():
    record = Record(tags=(("Custom", "1"), ("Result", "?"), ("Event", "e")),
                    hands=(Hand(Seat.WEST, None), Hand(Seat.NORTH, (None, C("7C"), C("AS"), C("JH"), C("9D"),
                                                                  C("KS"), C("TH"), C("8C")))))
    assert str(record) == ('[Event "e"]\n[Result "?"]\n[Custom "1"]\n\nhand N AS KS JH TH 9D 8C 7C ??\n'
                           "hand W -\n")


def test_tag_values_are_escaped_and_only_present_tags_written():
    record = Record(tags=(("Event", 'a "b" \\ c'),))
    assert str(record) == '[Event "a \\"b\\" \\\\ c"]\n\nplay\n'  # tags alone: an empty play keeps them apart
    assert parse_record(str(record)) == record


def test_trick_comments_card_comments_and_calls_with_comments():
    record = Record(
        auction=(CallEntry(Call(CallKind.PASS), Seat.WEST, None, ("a}b",)),
                 CallEntry(Call(CallKind.COINCHE), Seat.NORTH)),
        tricks=(Trick((CardEntry(C("JH"), Seat.WEST, comments=("first", "second")),), ("multi\nline", "last")),),
        claim=Claim(Seat.NORTH, ("c",)))
    text = str(record)
    assert text == ("auction W:pass ; a}b\nN:coinche\nplay\n1. {multi\nline} W:JH {first} {second} ; last\n"
                    "claim N {c}\n")
    assert parse_record(text) == record


def test_stopped_play_and_empty_taking():
    record = Record(taking=(), stopped=True)
    assert str(record) == "taking\nplay\n*\n"
    assert parse_record(str(record)) == record


def test_what_cannot_be_written_raises_write_error():
    with pytest.raises(WriteError):
        write_record(Record(tags=(("Event", "two\nlines"),)))
    with pytest.raises(WriteError):
        write_record(Record(comments=("a } b",)))
    with pytest.raises(WriteError):
        write_record(Record(tricks=(Trick(()),)))


def test_dumps_and_write_file_write_the_header_once_and_blank_lines_between(coinche_text, partial_text):
    records = [parse_record(coinche_text), parse_record(partial_text)]
    text = dumps(records)
    assert text == "% belote-notation 1.0\n\n" + coinche_text + "\n" + partial_text
    stream = io.StringIO()
    assert write_file(records, stream) == 2 and stream.getvalue() == text
    assert [r.record for r in parse(text)] == records
    assert dumps(r.record for r in parse(text)) == text


# --- JSON ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_json_round_trip_is_lossless(name, notation_texts):
    text = notation_texts[name]
    record = parse_record(text)
    value = json.loads(json.dumps(to_json(record)))
    assert from_json(value) == record
    assert str(from_json(value)) == text


def test_json_shape(coinche_text, partial_text):
    value = to_json(parse_record(coinche_text), positions=True)
    assert value["auction"][4] == {"call": "coinche", "seat": "W", "comments": ["bold"], "pos": [11, 39]}
    assert value["tricks"][1]["plays"][1] == {"card": "AH", "seat": "S", "annotation": "!!", "pos": [14, 11]}
    assert value["claim"] == {"seat": "S", "comments": ["the rest is hers"], "pos": [16, 7]}
    assert to_json(parse_record(partial_text))["hands"] == [{"seat": "N", "cards": None},
                                                       {"seat": "E", "cards": ["??"] * 8}]


@pytest.mark.parametrize("value, path", [
    ([], ""),
    ({"tags": [["Event"]]}, "tags[0]"),
    ({"hands": [{"seat": "X", "cards": None}]}, "hands[0].seat"),
    ({"tricks": [{"plays": [{"card": "ZZ"}]}]}, "tricks[0].plays[0].card"),
    ({"auction": [{"call": "80Q"}]}, "auction[0].call"),
    ({"announcements": [{"seat": "N", "kind": "sixte", "cards": []}]}, "announcements[0].kind"),
    ({"tricks": [{"plays": [{"card": "JH", "annotation": "!!!"}]}]}, "tricks[0].plays[0].annotation"),
    ({"stopped": "yes"}, "stopped"),
])
def test_from_json_reports_the_path_of_the_bad_value(value, path):
    with pytest.raises(JSONFormatError) as caught:
        from_json(value)
    assert caught.value.path == path


def test_json_validates_against_the_schema(classic_text, coinche_text, partial_text):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    for text in (classic_text, coinche_text, partial_text):
        for positions in (False, True):
            jsonschema.validate(to_json(parse_record(text), positions=positions), schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"hands": [{"seat": "N", "cards": ["1X"]}]}, schema)


def test_the_data_as_read_and_the_record_built_from_it_write_the_same_text(generated_texts, notation_texts):
    """``write_data`` on the reader's data (the archive's way) and ``write_record`` on the
    ``Record`` built from it (through ``Record.data``) give the same canonical text, for
    records typed by hand too: tags, hands and cards out of order, comments everywhere."""
    import random

    from notation import write_data
    from replayer.engine.generator import typed_by_hand

    rng = random.Random(3)
    texts = generated_texts(60) + list(notation_texts.values())
    texts += [typed_by_hand(text, rng) for text in texts]
    texts.append('[Result "?"] [Event "e"]\n{a}\nhand S ?? 7C AS\nhand N -\nturned ??\n'
                 "taking N:pass {b} S:take ; c}\nannounce S tierce AS KS QS!\nplay\n1. {d} S:AS ; e\nclaim S {f}\n")
    checked = 0
    for text in texts:
        for result in parse(text):
            assert result.data is not None, result.errors
            written = write_data(result.data)
            assert written == write_record(result.record) == str(parse_record(written))
            checked += 1
    assert checked == len(texts) + sum(text.count("\n\n[") for text in notation_texts.values())
