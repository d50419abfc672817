"""The calls 003 adds to the auction, in the notation: capot belote and générale belote
(../shared/seeds/003, 5.4: "Capot Belote도 추가하는 경우도 있다 ... 간혹 Générale, Générale Belote도
추가하는데"). Written ``capotbelote<denomination>`` and ``generalebelote<denomination>``, like
``capotS`` and ``generaleTA``; the reader, the grammar, the writer and the JSON schema agree."""

from __future__ import annotations

import re

import pytest
from jsonschema import Draft202012Validator

from notation import RecordSyntaxError, from_json, parse, to_json, write_record
from notation.grammar import grammar_parser, read_with_grammar
from notation.jsonio import record_schema
from notation.values import Call, CallKind, Denomination, NotationError

from .test_grammar import compare

RECORD = """\
[Rules "ffb-coinche; capot_belote=750; generale_belote=1500"]

auction W:pass S:capotbeloteTA E:generalebeloteH N:pass W:pass S:pass
"""


@pytest.mark.parametrize("word, kind, denomination, canonical, pretty", [
    ("capotbeloteH", CallKind.CAPOT_BELOTE, Denomination.HEARTS, "capotbeloteH", "capot belote ♥"),
    ("CapotBelote♠", CallKind.CAPOT_BELOTE, Denomination.SPADES, "capotbeloteS", "capot belote ♠"),
    ("capotbeloteat", CallKind.CAPOT_BELOTE, Denomination.ALL_TRUMPS, "capotbeloteTA", "capot belote TA"),
    ("generalebeloteTA", CallKind.GENERALE_BELOTE, Denomination.ALL_TRUMPS, "generalebeloteTA",
     "generale belote TA"),
    ("généralebelote♥", CallKind.GENERALE_BELOTE, Denomination.HEARTS, "generalebeloteH", "generale belote ♥"),
    ("GÉNÉRALEBELOTEd", CallKind.GENERALE_BELOTE, Denomination.DIAMONDS, "generalebeloteD", "generale belote ♦"),
    ("capotH", CallKind.CAPOT, Denomination.HEARTS, "capotH", "capot ♥"),  # unchanged
    ("generaleC", CallKind.GENERALE, Denomination.CLUBS, "generaleC", "generale ♣"),
])
def test_003_belote_bids_are_read_and_written(word, kind, denomination, canonical, pretty):
    """003: "Capot Belote ... 공약을 걸때에는 Capot보다 높으며 이쪽은 Capot에 Belote도 선언" — a call of
    its own, spelled like capot and générale with "belote" before the denomination."""
    call = Call.parse(word)
    assert (call.kind, call.denomination, call.value) == (kind, denomination, None)
    assert str(call) == canonical and call.pretty() == pretty and call.is_bid
    assert Call.parse(canonical) == call


@pytest.mark.parametrize("word", ["capotbelote", "capotbeloteX", "capotbelotteH", "beloteH", "capot-beloteH"])
def test_what_is_no_belote_bid(word):
    with pytest.raises(NotationError):
        Call.parse(word)
    with pytest.raises(ValueError):
        Call(CallKind.CAPOT_BELOTE)  # a denomination is needed


def test_003_record_with_belote_bids_reads_writes_and_round_trips():
    """The reader takes the import forms and the writer gives the canonical words."""
    typed = RECORD.replace("S:capotbeloteTA", "s:CAPOTBELOTEat").replace("E:generalebeloteH", "e:Généralebelote♥")
    (result,) = list(parse(typed))
    assert result.ok
    record = result.record
    assert [str(entry.call) for entry in record.auction] == [
        "pass", "capotbeloteTA", "generalebeloteH", "pass", "pass", "pass"]
    assert write_record(record).endswith(RECORD.split("\n\n", 1)[1])
    (again,) = list(parse(write_record(record)))
    assert again.record == record


def test_003_belote_bids_are_no_taking_calls():
    """A classic taking has no bids: the word is a syntax error there, as capotH is."""
    (result,) = list(parse("taking W:capotbeloteH\n"))
    assert not result.ok


@pytest.mark.parametrize("text", [
    RECORD,
    "auction W:capotbeloteH! N:generalebeloteta? E:x S:CAPOTBELOTESA W:g\u00e9n\u00e9ralebelote\u2660 N:-",
    "auction capotbelote H",
    "auction W:capotbelote",
    "auction capotbelotteH",
    "taking capotbeloteH",
])
def test_the_grammar_agrees_with_the_reader(text):
    """tests/notation/test_grammar.py's differential comparison, on the new words."""
    accepted, refused = compare(text)
    assert accepted + refused == 1
    if refused:
        with pytest.raises(RecordSyntaxError):
            read_with_grammar(text)


def test_no_parser_state_reads_a_belote_bid_two_ways():
    """The contextual lexer reads each new word as one terminal only (AUCTION_CALL)."""
    parser = grammar_parser()
    patterns = {t.name: re.compile(t.pattern.to_regexp()) for t in parser.terminals}
    states = {frozenset(actions) for actions in parser.parser.parser.parser.parse_table.states.values()}
    for word in ("capotbeloteH", "generalebeloteTA", "W:généralebelote♥!", "CAPOTBELOTESA"):
        names = {name for name, pattern in patterns.items()
                 if (m := pattern.match(word + " ")) is not None and m.end() == len(word)}
        assert "AUCTION_CALL" in names, word
        assert all(len(names & accepted) <= 1 for accepted in states), word


def test_the_json_schema_takes_the_belote_bids():
    """notation/record.schema.json: the call pattern has capotbelote / generalebelote."""
    (result,) = list(parse(RECORD))
    value = to_json(result.record)
    Draft202012Validator(record_schema()).validate(value)
    assert from_json(value) == result.record
    pattern = re.compile(record_schema()["$defs"]["call"]["pattern"])
    assert pattern.match("capotbeloteTA") and pattern.match("generalebeloteS")
    assert not pattern.match("capotbelote") and not pattern.match("belotecapotS")
