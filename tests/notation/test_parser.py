"""The reader: every construct, every lenient form, positions, streams."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest

from notation import (Call, CallKind, Card, Denomination, MeldKind, Pos, Record, RecordSyntaxError, Seat, dumps,
                      parse, parse_file, parse_record, scan_headers, to_json)

ROOT = Path(__file__).resolve().parents[2]

C = Card.parse


def one(text: str) -> Record:
    return parse_record(text)


# --- constructs -------------------------------------------------------------------------------


def test_classic_record_every_section(classic_text):
    record = one(classic_text)
    assert record.tag("Event") == "Club du jeudi"
    assert record.tag("Rules") == "ffb-annonces; undertrump=may_discard"
    assert len(record.tags) == 15
    assert record.dealer is Seat.NORTH and record.result == (92, 70) and record.score == (340, 120)
    assert record.comments == ("A comment about the whole deal",)
    assert [h.seat for h in record.hands] == [Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST]
    assert record.hand(Seat.SOUTH) == tuple(map(C, "AH KH QH JH TH 9D 8D 7D".split()))
    assert record.turned == C("JH")
    assert [(e.seat, e.call) for e in record.taking] == [(Seat.EAST, Call(CallKind.PASS)),
                                                         (Seat.SOUTH, Call(CallKind.TAKE))]
    assert record.auction is None
    carre, quinte = record.announcements
    assert (carre.seat, carre.kind, carre.cards) == (Seat.EAST, MeldKind.CARRE, tuple(map(C, "AS KS QS JS".split())))
    assert carre.comments == ("four kings? no, a carre",)
    assert quinte.kind is MeldKind.QUINTE and len(quinte.cards) == 5
    assert len(record.tricks) == 8 and all(len(t.plays) == 4 for t in record.tricks)
    assert record.tricks[1].comments == ("a comment about trick 2",)
    assert record.tricks[3].plays[1].annotation == "!"
    assert record.tricks[5].plays[0].declaration == "belote"
    assert record.tricks[6].plays[0].declaration == "rebelote"
    assert record.claim is None and not record.stopped


def test_coinche_record_auction_claim_and_annotations(coinche_text):
    record = one(coinche_text)
    assert [str(e.call) for e in record.auction] == ["pass", "80H", "pass", "100H", "coinche", "pass", "pass",
                                                    "pass"]
    assert record.auction[3].annotation == "?"
    assert record.auction[4].comments == ("bold",)
    assert record.tricks[1].plays[1].annotation == "!!"
    assert record.claim.seat is Seat.SOUTH and record.claim.comments == ("the rest is hers",)
    assert record.taking is None and record.turned is None


def test_partial_record_unknown_hand_unknown_cards_and_star(partial_text):
    record = one(partial_text)
    assert record.hand(Seat.NORTH) is None
    assert record.hand(Seat.EAST) == (None,) * 8
    assert record.stopped and record.claim is None
    assert [e.card for e in record.tricks[0].plays] == [C("7H"), C("8H")]


def test_unknown_card_in_play_and_unknown_card_with_annotation():
    record = one("play\n1. W:?? S:????")
    first, second = record.tricks[0].plays
    assert (first.card, first.annotation) == (None, None)
    assert (second.card, second.annotation) == (None, "??")


def test_every_annotation_glued_to_cards_and_calls():
    record = one("auction 80H!! pass?? 90S!? pass?! coinche! pass?\nplay\n1. JH!! 7H?? 9H!? QH?!")
    assert [e.annotation for e in record.auction] == ["!!", "??", "!?", "?!", "!", "?"]
    assert [e.annotation for e in record.tricks[0].plays] == ["!!", "??", "!?", "?!"]


def test_auction_calls_of_every_kind():
    record = one("auction 80H 110SA capotS generaleTA 90TA coinche surcoinche pass")
    kinds = [e.call.kind for e in record.auction]
    assert kinds == [CallKind.BID, CallKind.BID, CallKind.CAPOT, CallKind.GENERALE, CallKind.BID, CallKind.COINCHE,
                     CallKind.SURCOINCHE, CallKind.PASS]
    assert record.auction[1].call == Call(CallKind.BID, Denomination.NO_TRUMPS, 110)


def test_taking_round_two_names_a_suit():
    record = one("turned 9C\ntaking pass pass pass pass H pass")
    assert record.taking[4].call == Call(CallKind.NAME, Denomination.HEARTS)


def test_calls_may_go_on_over_several_lines_with_comments():
    record = one("auction W:80H {opening}\n  N:pass ; thinks\nE:coinche\nplay\n1. W:JH")
    assert [str(e.call) for e in record.auction] == ["80H", "pass", "coinche"]
    assert record.auction[0].comments == ("opening",)
    assert record.auction[1].comments == ("thinks",)


def test_trick_numbers_and_seats_are_optional():
    record = one("play\nJH 7H 9H QH\n2. KH AH")
    assert [len(t.plays) for t in record.tricks] == [4, 2]
    assert all(e.seat is None for t in record.tricks for e in t.plays)


def test_two_tricks_on_one_line_split_at_the_number():
    record = one("play\n1. W:JH S:7H E:9H N:QH 2. N:KH")
    assert [len(t.plays) for t in record.tricks] == [4, 1]


def test_comment_placement_card_trick_record_hand_turned():
    record = one('[Event "x"] {on the tags}\n{before the body}\nhand N - {north unknown}\nturned JH {turned}\n'
                 "play\n1. {trick note} W:JH {card note} S:7H ; end note\n{between tricks}\n2. N:KH")
    assert record.comments == ("on the tags", "before the body")
    assert record.hands[0].comments == ("north unknown",)
    assert record.turned_comments == ("turned",)
    first = record.tricks[0]
    assert first.comments == ("trick note", "end note", "between tricks")
    assert first.plays[0].comments == ("card note",)


def test_comment_may_hold_blank_lines():
    record = one('[Event "x"]\n\n{first\n\nsecond}\nhand N -')
    assert record.comments == ("first\n\nsecond",)
    assert record.hands[0].cards is None


def test_tag_escapes_and_unknown_tags_kept_in_order_after_the_roster():
    record = one('[Zeta "z"]\n[Event "say \\"hi\\" \\\\o/"]\n[Alpha "a"]\n[Dealer "W"]')
    assert record.tags == (("Event", 'say "hi" \\o/'), ("Dealer", "W"), ("Zeta", "z"), ("Alpha", "a"))


def test_several_tags_on_one_line():
    assert one('[Event "a"] [Site "b"]').tags == (("Event", "a"), ("Site", "b"))


# --- lenient import ----------------------------------------------------------------------------


def test_lenient_cards_ten_symbols_lowercase_french_ranks():
    record = one("HAND n 10s a♥ rh dd vc 9♣ 8C 7c\nPlay\n1. w:10♠ s:V♥")
    assert record.hand(Seat.NORTH) == tuple(map(C, "TS AH KH QD JC 9C 8C 7C".split()))
    assert [e.card for e in record.tricks[0].plays] == [C("TS"), C("JH")]
    assert record.tricks[0].plays[0].seat is Seat.WEST


def test_lenient_calls():
    record = one("Auction 80♥ passe p contre x xx surcontre générale♠ Capot♦")
    assert [str(e.call) for e in record.auction] == ["80H", "pass", "pass", "coinche", "coinche", "surcoinche",
                                                    "surcoinche", "generaleS", "capotD"]


def test_lenient_meld_words():
    record = one("announce W cinquante KH QH JH TH\nannounce N cent AS KS QS JS TS\nannounce E carré JS JH JD JC")
    assert [a.kind for a in record.announcements] == [MeldKind.QUARTE, MeldKind.QUINTE, MeldKind.CARRE]


def test_lenient_declaration_case_and_ouest():
    record = one("play\n1. O:KH Belote")
    assert record.tricks[0].plays[0].seat is Seat.WEST
    assert record.tricks[0].plays[0].declaration == "belote"


def test_bom_crlf_tabs_extra_spaces_and_escape_lines():
    text = '\ufeff% belote-notation 1.0\r\n[Event  "x" ]\r\n\r\nhand\tN  AS KS QS JH TH 9D 8C 7C\r\n% private\r\n' \
           "play\r\n1.\tW:JH   S:7H\r\n"
    record = one(text)
    assert record.tags == (("Event", "x"),)
    assert record.hand(Seat.NORTH)[0] == C("AS")
    assert [e.card for e in record.tricks[0].plays] == [C("JH"), C("7H")]
    assert record.tricks[0].plays[1].pos == Pos(7, 13)  # after a tab and three spaces


def test_keywords_are_ascii_letters_in_any_case():
    record = one("hAnD n -\nTurned JH\nTAKING pass\nPlAy\n1. W:JH\nClaim W")
    assert record.hands[0].seat is Seat.NORTH and record.taking[0].call == Call(CallKind.PASS)
    assert record.claim.seat is Seat.WEST
    with pytest.raises(RecordSyntaxError) as caught:  # the Kelvin sign lowers to "k", but is no ASCII letter
        one("ta\u212aing pass")
    assert (caught.value.line, caught.value.column, caught.value.text) == (1, 1, "ta\u212aing")


def test_each_keyword_starts_a_line_a_comment_before_it_is_refused():
    with pytest.raises(RecordSyntaxError) as caught:
        one("{note} hand N -")
    assert (caught.value.line, caught.value.column, caught.value.text) == (1, 8, "hand")
    with pytest.raises(RecordSyntaxError) as caught:
        one("hand N -\n{note} play\n1. W:JH")
    assert (caught.value.line, caught.value.column, caught.value.expected) == (
        2, 8, "a comment or the end of the line")


def test_escape_lines_inside_the_calls_and_the_play_are_skipped():
    record = one("auction W:80H\n% a note\nN:pass E:pass\n%\nS:pass\nplay\n1. W:JH\n% another\n2. N:7H\nclaim N")
    assert [str(entry.call) for entry in record.auction] == ["80H", "pass", "pass", "pass"]
    assert [entry.pos for entry in record.auction] == [Pos(1, 11), Pos(3, 3), Pos(3, 10), Pos(5, 3)]
    assert [len(trick.plays) for trick in record.tricks] == [1, 1] and record.tricks[1].pos == Pos(9, 1)
    assert record.claim.seat is Seat.NORTH


def test_same_record_from_str_bytes_text_stream_binary_stream_and_path(tmp_path, classic_text, coinche_text):
    path = tmp_path / "file.belote"
    path.write_text(coinche_text + "\n" + classic_text, encoding="utf-8")
    expected = [one(coinche_text), one(classic_text)]
    sources = [coinche_text + "\n" + classic_text, path.read_bytes(), io.StringIO(path.read_text()),
               io.BytesIO(path.read_bytes()), path]
    for source in sources:
        assert [r.record for r in parse(source)] == expected
    assert [r.record for r in parse_file(str(path))] == expected


# --- positions ---------------------------------------------------------------------------------


def test_positions_are_in_the_file_and_point_at_the_card_or_call(classic_text, coinche_text):
    text = coinche_text + "\n" + classic_text
    results = list(parse(text))
    coinche, classic = results[0].record, results[1].record
    assert coinche.auction[1].pos == Pos(11, 18)  # "80H" after "N:"
    assert coinche.tricks[1].plays[1].pos == Pos(14, 11)  # "AH!!"
    assert coinche.hands[3].pos == Pos(10, 1)
    assert classic.tricks[0].plays[0].pos == Pos(44, 6)
    assert classic.announcements[0].pos == Pos(41, 12)  # the meld word
    assert classic.turned_pos == Pos(39, 8)
    assert results[1].source.first_line == 18 and results[1].source.last_line == 51
    assert results[1].index == 1 and results[1].source.index == 1


def test_positions_after_a_comment_spanning_lines():
    record = one("play\n1. W:JH {a\nlong note} S:7H E:9H")
    assert record.tricks[0].plays[1].pos == Pos(3, 14)
    assert record.tricks[0].plays[2].pos == Pos(3, 19)


def test_source_keeps_raw_text_and_byte_offset(partial_text):
    data = ("% header\n\n" + partial_text + "\n" + partial_text).encode()
    results = list(parse(io.BytesIO(data)))
    assert [r.source.byte_offset for r in results] == [10, 10 + len(partial_text) + 1]
    assert results[1].source.text == partial_text


# --- headers scan ------------------------------------------------------------------------------


def test_scan_headers_reads_tags_lines_and_offsets(classic_text, coinche_text):
    data = (coinche_text + "\n\n\n" + classic_text).encode()
    scanned = list(scan_headers(io.BytesIO(data)))
    assert [h.headers["Event"] for h in scanned] == ["Coinche du samedi", "Club du jeudi"]
    assert len(scanned[1].tags) == 15
    assert (scanned[1].first_line, scanned[1].last_line) == (20, 53)
    assert scanned[1].byte_offset == len((coinche_text + "\n\n\n").encode())
    assert all(h.ok for h in scanned)


def test_blank_line_between_tags_and_body_does_not_split_but_one_after_the_body_does():
    results = list(parse('[Event "a"]\n\n\nhand N -\n\n[Event "b"]\n\nhand S -'))
    assert [r.record.tag("Event") for r in results] == ["a", "b"]
    assert [r.record.hands[0].seat for r in results] == [Seat.NORTH, Seat.SOUTH]


@pytest.mark.parametrize("text", ["", "\n\n", "% only an escape line\n", "   \n\t\n"])
def test_no_record(text):
    assert list(parse(text)) == []


def test_the_examples_of_docs_notation_md_parse():
    """The canonical examples are written as the writer writes them; the import form reads
    to the same record (tests/check/test_docs_examples.py validates them)."""
    doc = (ROOT / "docs" / "notation.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```belote\n(.*?)^```", doc, re.S | re.M)
    records = [parse_record(block) for block in blocks]
    assert len(records) == 3
    assert records[1] == records[2]
    assert str(records[0]) == blocks[0].split("\n", 2)[2] and str(records[1]) == blocks[1]


# --- a corpus of files: samples, their canonical rewrites, damaged records ------------------------


def _outcomes(data: bytes | io.BytesIO) -> list[tuple]:
    """Everything a reader's results say: records with every position, errors with their place."""
    return [(r.index, r.source.first_line, r.source.byte_offset,
             None if r.record is None else to_json(r.record, positions=True),
             [(type(e).__name__, str(e)) for e in r.errors]) for r in parse(data)]


@pytest.fixture(scope="module")
def corpus(seed_text, mutate) -> list[bytes]:
    """Every sample file, its canonical rewrite, and damaged copies of the shared records (as the fuzz test)."""
    samples = sorted(ROOT.joinpath("samples").rglob("*.belote"))
    corpus = [path.read_bytes() for path in samples]
    corpus += [dumps([r.record for r in parse(data) if r.ok]).encode() for data in corpus]
    rng = random.Random(7)
    corpus += [mutate(rng, seed_text[rng.randrange(0, 1500):]) for _ in range(1500)]
    corpus += [dumps([r.record for r in parse(data) if r.ok]).encode() for data in corpus[-1500:]]
    return corpus


def test_every_record_starts_at_its_byte_offset_and_line(corpus):
    for data in corpus:
        for result in parse(data):
            source = result.source
            assert data[:source.byte_offset].count(b"\n") + 1 == source.first_line
            first = source.text.split("\n", 1)[0]
            if result.record is not None and "\r" not in first:
                assert data[source.byte_offset:].lstrip(b"\xef\xbb\xbf").startswith(first.encode())


def test_a_stream_read_in_small_blocks_reads_as_the_whole_bytes(corpus, monkeypatch):
    from notation import splitter

    rng = random.Random(11)
    for data in corpus[::7]:
        expected = _outcomes(data)
        monkeypatch.setattr(splitter, "BLOCK", rng.randint(1, 200))
        assert _outcomes(io.BytesIO(data)) == expected, data
        monkeypatch.undo()
