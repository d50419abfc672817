"""Round trips over generated records: parse(str(r)) == r, and the canonical text is a fixed point."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from notation import (ALL_CARDS, Announcement, Call, CallEntry, CallKind, CardEntry, Claim, Denomination, Hand,
                      MeldKind, Record, Seat, Trick, dumps, from_json, parse, parse_record, to_json)
from notation.record import ANNOTATIONS, TAG_ROSTER

SEATS = list(Seat)
# Comment text: anything but braces (a "{...}" comment cannot hold "}") and "[" (a line of a comment
# that starts with a tag pair after a blank line would end the record); line breaks allowed.
COMMENT_TEXT = st.text(st.characters(blacklist_characters="{}[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029",
                                     blacklist_categories=("Cs", "Zl", "Zp", "Cc"))
                       | st.just("\n"), max_size=8).map(str.strip)
COMMENTS = st.lists(COMMENT_TEXT, max_size=2).map(tuple) | st.just(())
SEAT_OR_NONE = st.none() | st.sampled_from(SEATS)
ANNOTATION = st.none() | st.sampled_from(ANNOTATIONS)
DENOMINATIONS = st.sampled_from(list(Denomination))
CARD_OR_NONE = st.none() | st.sampled_from(ALL_CARDS)

TAG_NAME = st.sampled_from(TAG_ROSTER) | st.from_regex(r"[A-Za-z0-9_]{1,12}", fullmatch=True)
TAG_VALUE = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp"),
                                  blacklist_characters="\x85"), max_size=20)
TAGS = st.lists(st.tuples(TAG_NAME, TAG_VALUE), min_size=1, max_size=6).map(tuple)

TAKING_CALL = st.sampled_from([Call(CallKind.PASS), Call(CallKind.TAKE)]) | DENOMINATIONS.map(
    lambda d: Call(CallKind.NAME, d))
AUCTION_CALL = st.one_of(
    st.sampled_from([Call(CallKind.PASS), Call(CallKind.COINCHE), Call(CallKind.SURCOINCHE)]),
    st.builds(lambda d, v: Call(CallKind.BID, d, v), DENOMINATIONS, st.integers(80, 250)),
    st.builds(lambda k, d: Call(k, d), st.sampled_from([CallKind.CAPOT, CallKind.GENERALE]), DENOMINATIONS))


def call_entries(calls):
    return st.lists(st.builds(CallEntry, calls, SEAT_OR_NONE, ANNOTATION, COMMENTS), max_size=6).map(tuple)


@st.composite
def hands(draw) -> tuple[Hand, ...]:
    deck = draw(st.permutations(ALL_CARDS))
    result = []
    for i, seat in enumerate(draw(st.lists(st.sampled_from(SEATS), unique=True, max_size=4))):
        if draw(st.booleans()):
            cards = tuple(None if draw(st.integers(0, 5)) == 0 else card for card in deck[i * 8:i * 8 + 8])
        else:
            cards = None
        result.append(Hand(seat, cards, draw(COMMENTS)))
    return tuple(result)


PLAY = st.builds(CardEntry, CARD_OR_NONE, SEAT_OR_NONE, st.none() | st.sampled_from(["belote", "rebelote"]),
                 ANNOTATION, COMMENTS)
TRICKS = st.lists(st.builds(Trick, st.lists(PLAY, min_size=1, max_size=4).map(tuple), COMMENTS),
                  max_size=8).map(tuple)
ANNOUNCEMENTS = st.lists(st.builds(Announcement, st.sampled_from(SEATS), st.sampled_from(list(MeldKind)),
                                   st.lists(st.sampled_from(ALL_CARDS), min_size=1, max_size=5).map(tuple),
                                   ANNOTATION, COMMENTS), max_size=3).map(tuple)


@st.composite
def records(draw) -> Record:
    bidding = draw(st.sampled_from(["taking", "auction", None]))
    ending = draw(st.sampled_from(["claim", "stopped", None]))
    return Record(
        tags=draw(TAGS), comments=draw(COMMENTS), hands=draw(hands()),
        turned=draw(st.none() | st.sampled_from(ALL_CARDS)) if bidding != "auction" else None,
        turned_comments=(), taking=draw(call_entries(TAKING_CALL)) if bidding == "taking" else None,
        auction=draw(call_entries(AUCTION_CALL)) if bidding == "auction" else None,
        announcements=draw(ANNOUNCEMENTS), tricks=draw(TRICKS),
        claim=Claim(draw(st.sampled_from(SEATS)), draw(COMMENTS)) if ending == "claim" else None,
        stopped=ending == "stopped")


@settings(max_examples=80, deadline=None)
@given(records())
def test_parse_of_str_gives_the_record_back(record):
    text = str(record)
    assert parse_record(text) == record
    assert str(parse_record(text)) == text


@settings(max_examples=25, deadline=None)
@given(st.lists(records(), min_size=1, max_size=4))
def test_a_written_file_is_a_fixed_point(record_list):
    text = dumps(record_list)
    results = list(parse(text))
    assert all(r.ok for r in results)
    assert [r.record for r in results] == record_list
    assert dumps(r.record for r in results) == text


@settings(max_examples=40, deadline=None)
@given(records())
def test_json_round_trip(record):
    assert from_json(json.loads(json.dumps(to_json(record, positions=True)))) == record
