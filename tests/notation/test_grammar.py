"""The word-level grammar (notation/belote.lark) against the reader, its oracle.

Whenever the reader (``notation.parser``) accepts a record, the grammar accepts it too and
builds the same ``Record`` with the same positions; where the reader refuses, the grammar
either refuses with a ``RecordSyntaxError`` or gives a record: it is the more lenient of the
two on what needs memory (trick numbers in sequence, a seat given twice, a card dealt twice),
on blank lines (escape lines) inside the calls or the play, and on white space other than
spaces and tabs before a keyword or inside a tag pair.
"""

from __future__ import annotations

import logging
import random
import re
from pathlib import Path

import pytest

from notation import Record, RecordSyntaxError, Seat, parse, write_record
from notation.grammar import expected_after, grammar_parser, read_with_grammar, words_for
from notation.jsonio import to_json
from notation.parser import parse_record
from notation.splitter import split_records

from replayer.engine.generator import generate_match
from replayer.engine.rules import PROFILES, Rules

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").glob("*.belote")) + sorted((ROOT / "samples" / "invalid").glob("*.belote"))


# --- the comparison ------------------------------------------------------------------------


def compare(data: str | bytes) -> tuple[int, int]:
    """Read ``data`` with the reader and the grammar, record by record; returns (records the
    reader accepts, records it refuses).  Accepted: the grammar agrees on every value and
    position.  Refused: the grammar raises RecordSyntaxError or gives a record."""
    accepted = refused = 0
    raws = list(split_records(data))
    results = list(parse(data))
    assert [result.index for result in results] == [raw.index for raw in raws]
    for raw, result in zip(raws, results):
        if raw.problem is not None:  # bad UTF-8, a size limit: the splitter's business
            continue
        text = raw.grammar_text()
        if result.ok:
            accepted += 1
            try:
                record = read_with_grammar(text, raw.first_line)
            except RecordSyntaxError as error:
                raise AssertionError(f"the grammar refuses a record the reader accepts: {error}\n{raw.text}")
            assert record == result.record, raw.text
            assert to_json(record, positions=True) == to_json(result.record, positions=True), raw.text
        else:
            refused += 1
            try:
                record = read_with_grammar(text, raw.first_line)
            except RecordSyntaxError as error:
                assert error.line >= raw.first_line
                words = error.problem + error.expected
                assert "$END" not in words and "__" not in words and "_NL" not in words, words
            else:
                assert isinstance(record, Record)
    return accepted, refused


# --- the grammar itself --------------------------------------------------------------------


def test_the_grammar_is_lalr1_without_conflicts(caplog):
    """Lark resolves a shift/reduce conflict silently (as a shift); with debug it says so."""
    from lark import Lark, logger

    with caplog.at_level(logging.DEBUG, logger=logger.name):
        Lark.open("belote.lark", rel_to=str(ROOT / "notation" / "grammar.py"), parser="lalr",
                  lexer="contextual", debug=True)
    assert not [r for r in caplog.records if "conflict" in r.getMessage().lower()]


def _sample_words() -> set[str]:
    seats = "NESWOneswo"
    ranks = ["10", "7", "8", "9", "T", "J", "Q", "K", "A", "R", "D", "V", "t", "j", "q", "k", "a", "r", "d", "v"]
    cards = [r + s for r in ranks for s in "SHDCshdc♠♥♦♣♤♡♢♧"] + ["??"]
    annotations = ["", "!!", "??", "!?", "?!", "!", "?"]
    denominations = ["S", "H", "D", "C", "SA", "TA", "NT", "AT", "s", "h", "sa", "nt", "♠", "♥", "♤"]
    calls = ["pass", "passe", "p", "-", "take", "prend", "pris", "coinche", "contre", "x", "surcoinche",
             "surcontre", "xx", "PASS", "X", "XX"] + denominations + [
        prefix + d for d in denominations for prefix in ("80", "110", "0", "capot", "generale", "Générale")]
    words = set(seats) | {"-", "*", "1.", "12.", "belote", "rebelote", "BELOTE", "tierce", "quarte", "quinte",
                          "carre", "carré", "cinquante", "cent", "hand", "turned", "taking", "auction",
                          "announce", "play", "claim", "PLAY", "Event"}
    for word in cards + calls:
        for annotation in annotations:
            words.add(word + annotation)
            words.update(seat + ":" + word + annotation for seat in "Wo")
    return words


def test_no_state_of_the_parser_reads_a_word_two_ways():
    """The contextual lexer reads a word as one of the terminals its LALR state accepts: no
    two of them may match the same word ("S" a seat or a call, "-" a pass or an unknown hand)."""
    parser = grammar_parser()
    patterns = {t.name: re.compile(t.pattern.to_regexp()) for t in parser.terminals}
    readings: set[tuple[str, frozenset[str]]] = set()  # a word, and every terminal that matches it whole
    for word in _sample_words():
        names = frozenset(name for name, pattern in patterns.items()
                          if (m := pattern.match(word + " ")) is not None and m.end() == len(word))
        if len(names) > 1:
            readings.add((word, names))
    assert any(word == "S" and {"SEAT", "TAKING_CALL"} <= names for word, names in readings)  # the point
    states = parser.parser.parser.parser.parse_table.states
    clashes = {(word, tuple(sorted(names & accepted)))
               for accepted in {frozenset(actions) for actions in states.values()}
               for word, names in readings if len(names & accepted) > 1}
    assert not clashes


# --- 1. the samples --------------------------------------------------------------------------


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_samples_read_the_same(path):
    accepted, refused = compare(path.read_bytes())
    assert accepted + refused > 0


def test_the_samples_hold_records_the_reader_accepts():
    assert sum(compare(path.read_bytes())[0] for path in SAMPLES) >= 40


# --- 2. generated records, canonical and lenient -----------------------------------------


def generated_records(rng: random.Random, rules: Rules, count: int):
    """``count`` records: the deals of successive generated matches (as ``belote generate``)."""
    round_ = 0
    while count > 0:
        round_ += 1
        match = generate_match(rng, rules, list(Seat)[(round_ - 1) % 4], event="Random deals", round_=str(round_))
        yield from match.records[:count]
        count -= len(match.records)


_SUIT_SYMBOLS = {"S": "♠♤", "H": "♥♡", "D": "♦♢", "C": "♣♧"}
_FRENCH = {"K": "R", "Q": "D", "J": "V"}
_CALL_SYNONYMS = {"pass": ["passe", "p", "-", "PASS", "Passe"], "take": ["prend", "pris", "TAKE"],
                  "coinche": ["contre", "x", "X", "Coinche"], "surcoinche": ["surcontre", "xx", "XX"]}
_MELD_SYNONYMS = {"quarte": ["cinquante", "QUARTE"], "quinte": ["cent", "Quinte"], "carre": ["carré", "CARRE"],
                  "tierce": ["Tierce"]}
_CARD = re.compile(r"(\?\?|[AKQJT987])([SHDC])(.*)")
_CALL = re.compile(r"(\d+|capot|generale)?(SA|TA|[SHDC])(.*)")
NOTES = ["a note", "  spaced  ", "deux mots", "x;y", "[not a tag]", "line\nbreak", "é ♥ ??", ""]


def _card_word(rng: random.Random, word: str) -> str:
    """A canonical card (with its annotation) in one of its import forms."""
    match = _CARD.fullmatch(word)
    if match is None:
        return word
    rank, suit, annotation = match.groups()
    if rank == "??":
        return word
    if rank == "T" and rng.random() < 0.5:
        rank = "10"
    if rank in _FRENCH and rng.random() < 0.3:
        rank = _FRENCH[rank]
    if rng.random() < 0.3:
        suit = rng.choice(_SUIT_SYMBOLS[suit])
    text = rank + suit
    if rng.random() < 0.3:
        text = text.lower()
    return text + annotation


def _seat_word(rng: random.Random, seat: str) -> str:
    if seat == "W" and rng.random() < 0.3:
        seat = "O"
    return seat.lower() if rng.random() < 0.3 else seat


def _prefixed(rng: random.Random, word: str, rewrite) -> str:
    if len(word) > 2 and word[1] == ":":
        return _seat_word(rng, word[0]) + ":" + rewrite(rng, word[2:])
    return rewrite(rng, word)


def _call_word(rng: random.Random, word: str) -> str:
    base = word.rstrip("!?")
    annotation = word[len(base):]
    if base in _CALL_SYNONYMS and rng.random() < 0.5:
        return rng.choice(_CALL_SYNONYMS[base]) + annotation
    match = _CALL.fullmatch(base)
    if match is not None:
        prefix, denomination, _ = match.groups()
        prefix = prefix or ""
        if prefix == "generale" and rng.random() < 0.5:
            prefix = rng.choice(["générale", "GÉNÉRALE"])
        if denomination in _SUIT_SYMBOLS and rng.random() < 0.3:
            denomination = rng.choice(_SUIT_SYMBOLS[denomination])
        elif denomination in ("SA", "TA") and rng.random() < 0.5:
            denomination = {"SA": "NT", "TA": "AT"}[denomination]
        base = prefix + denomination
        if rng.random() < 0.3:
            base = base.lower()
    elif rng.random() < 0.3:
        base = base.upper()
    return base + annotation


def _keyword(rng: random.Random, word: str) -> str:
    return rng.choice([word, word.upper(), word.capitalize()])


def _blank(rng: random.Random) -> str:
    return rng.choice([" ", " ", " ", "  ", "\t", " \t ", "   "])


def _note(rng: random.Random) -> str:
    text = rng.choice(NOTES)
    return "{" + text + "}" if "}" not in text else "{x}"


def lenient(rng: random.Random, text: str) -> str:
    """A record in export form rewritten the way people type: every import form of
    docs/notation.md section 3, comments inserted after items, calls over several lines."""
    out: list[str] = []
    lines = text.split("\n")
    tags = [line for line in lines if line.startswith("[")]
    if tags:  # tags in any order, several on a line, spaces inside the brackets
        rng.shuffle(tags)
        while tags:
            take = rng.randint(1, 3)
            pieces = [tag.replace(" ", _blank(rng), 1) if rng.random() < 0.3 else tag for tag in tags[:take]]
            out.append(_blank(rng).join(pieces) + (" " + _note(rng) if rng.random() < 0.1 else ""))
            tags = tags[take:]
        if rng.random() < 0.7:
            out.append("")
    for line in lines:
        if not line or line.startswith("["):
            continue
        words = line.split(" ")
        head, rest = words[0], words[1:]
        if head == "hand":
            new = [_keyword(rng, head), _seat_word(rng, rest[0])] + [_card_word(rng, w) for w in rest[1:]]
        elif head == "turned":
            new = [_keyword(rng, head)] + [_card_word(rng, w) for w in rest]
        elif head in ("taking", "auction"):
            new = [_keyword(rng, head)] + [_prefixed(rng, w, _call_word) for w in rest]
        elif head == "announce":
            meld = rest[1]
            if meld in _MELD_SYNONYMS and rng.random() < 0.5:
                meld = rng.choice(_MELD_SYNONYMS[meld])
            new = [_keyword(rng, head), _seat_word(rng, rest[0]), meld] + [_card_word(rng, w) for w in rest[2:]]
        elif head in ("play", "claim"):
            new = [_keyword(rng, head)] + [_seat_word(rng, w) if len(w) == 1 else w for w in rest]
        elif re.fullmatch(r"\d+\.", head):
            new = [] if rng.random() < 0.4 else [head]
            for word in rest:
                if word in ("belote", "rebelote"):
                    new.append(rng.choice([word, word.upper(), word.capitalize()]))
                elif word.startswith(";"):
                    new.append(word)
                elif new and new[-1].startswith(";"):
                    new.append(word)
                else:
                    new.append(_prefixed(rng, word, _card_word) if _CARD.fullmatch(word[2:] if word[1:2] == ":"
                                                                                    else word) else word)
        else:  # comments and "*"
            out.append(line)
            continue
        out.append(_join(rng, head, new))
    return "\n".join(out) + "\n"


def _join(rng: random.Random, head: str, words: list[str]) -> str:
    """Words with odd blanks, comments inserted after items, calls cut over lines."""
    pieces = [_blank(rng) if rng.random() < 0.1 else ""]
    for i, word in enumerate(words):
        if i:
            pieces.append(_blank(rng))
        pieces.append(word)
        following = words[i + 1] if i + 1 < len(words) else ""
        if word.startswith(";") or following.lower() in ("belote", "rebelote"):
            continue
        if ";" in " ".join(words[i + 1:]):
            continue
        if rng.random() < 0.08:
            pieces.append(_blank(rng) + _note(rng))
        if head in ("taking", "auction") and i and following and rng.random() < 0.15:
            pieces.append("\n" + rng.choice(["", "  ", "\t"]))  # the calls go on on the next line
    if rng.random() < 0.08 and not any(w.startswith(";") for w in words):
        pieces.append(" ; " + rng.choice(["end", "  fin  ", "{braces}", ""]))
    return "".join(pieces).replace("\n ", "\n ")


def _generated(count: int, seed: int):
    per_profile = max(1, count // len(PROFILES))
    for i, profile in enumerate(sorted(PROFILES)):
        yield from generated_records(random.Random(seed + i), Rules.parse(profile), per_profile)


@pytest.fixture(scope="module")
def generated_texts() -> list[str]:
    texts = []
    for record in _generated(300, 20260306):
        texts.append(write_record(record))
    return texts


def test_generated_records_in_export_form(generated_texts):
    accepted = 0
    for text in generated_texts:
        accepted += compare(text)[0]
    assert accepted == len(generated_texts) >= 280


def test_generated_records_in_import_forms(generated_texts):
    rng = random.Random(7)
    accepted = refused = 0
    for text in generated_texts:
        a, r = compare(lenient(rng, text))
        accepted, refused = accepted + a, refused + r
    assert accepted >= 0.9 * len(generated_texts), (accepted, refused)  # the rewrites are import forms


def test_import_forms_of_the_documentation():
    text = """\
[Variant "coinche"] [Event "Coinche du samedi"] [Dealer "S"]
[Rules "ffb-coinche"] [Result "?"]
hand n as ks qs jh 10h 9d 8c 7c
hand W ac kc qc jc 10c jd 8d 7d
hand S 9♠ 8♠ 7♠ A♥ R♥ D♥ 10♦ 9♣
hand E js ts 9h 8h 7h ad kd qd
Auction w:pass n:80♥ e:passe s:100H? w:contre {bold}
        n:p e:p s:p
PLAY
W:JD N:9D E:AD S:10D
E:KD S:AH!! W:7D N:8C
S:R♥ Belote W:AC N:V♥ E:7H
claim S {the rest is hers}
"""
    assert compare(text) == (1, 0)


# Word by word, the forms and places the reader accepts (and a few it refuses).
EDGE_CASES = [
    "play 1. W:JH N:AS", "play W:JH", "play\n1. W:JH 2. N:AS", "play\n1. W:JH N:AS 2. E:7H", "taking",
    "taking\npass", "play", "play\n{c}", "{c} hand N -", "hand N -\n{c} hand E -", "hand N -\n%x\nhand E -",
    '[A "1"]\n%x\n\nhand N -', "hand\xa0N -", "play\n1. W:JH\n claim N", "play\n1. W:JH\n\tclaim N {c}\n{d}\n;e",
    "play\n1. W:JH\n*", "play\n1. W:JH\n* ", "turned JH\n{c} taking pass", "turned ??", "turned ????",
    "turned JH!", "announce N tierce AH KH QH!! {c}", "announce N tierce AH! KH", "taking {c} pass",
    "taking {c}", "taking pass {c} take ; d\n{e} ; f",
    "auction W:80H? x xx X XX contre surcontre capotS générale♥ GENERALESA 80nt 250at 080h",
    "taking S H D C SA TA NT AT ♠ s", "taking {c} S", "taking pass\n{c} play", "taking pass\nplay",
    "hand {c} S {d} - {e}\n;f\nhand N 10s {g} ?? AH", "hand N ????", "hand N AS -", "hand N {c}",
    "play\n{a}\n; b\n{c} 1. {d} W:JH {e} N:AH belote {f} 2. ???? ; g\n{h} E:7C\n{i}\n;j",
    "play\n1. W:JH {c} belote", "play\n1. W:JH belote belote", "play\n1. belote", "play ; c\n1. W:JH",
    "play {c}", "play\n1. {a\n\nb} W:JH\nN:AS {c\nd} E:7H", '[A "1"] {c} [B "x\\"y\\\\"]\n{d}\n[C "{;]"] ; e',
    '[A "1"][B "2"]', '[ A  "1" ]', '{c} [A "1"]', '[A "1"] hand N -', "hand N -\n\thand E -\n  turned JH",
    "turned {a} JH {b}\n{c}", "announce {a} N {b} cent {c} AH {d} KH QH JH TH {e}\n;f\n{g} play",
    "claim N", "play\nclaim N N", "play\nclaim", "play\n1. W:JH\n{c} claim N", "play\n*\n{late}",
    "play\n1. W:JH S:7H E:9H N:QH AH", "play\n1.", "play\n1. 2. W:JH", "play\n0. W:JH", "play\n١. W:JH",
    "taking pass\ntake\n  \tS\n[A \"1\"]", "auction 80H\n*", "taking W:pass S:take\nannounce E carre AS KS QS JS",
    "hand N AS KS QS JS TS 9S 8S 7S 7D", "hand N -\nhand E -\nhand S -\nhand W -\nhand N -", "hand N -\nhand N -",
    "TAKING Passe PRIS", "auction W:80H N:pazz", "taking pass 80H", "play\n1. W:JH S:XZ",
    "hand N AS KS\nturned 7D\ntaking pass take\nannounce N tierce AS KS QS\nplay\n1. N:AS\nclaim N",
    "{only a comment}", "; only a comment", "{a}\n\n{b}", "play\nW:JH\n{c}\nN:AS\n\n", "taKing pass",
    "play\n1. W:JH! N:AS?? E:7H!? S:8H?!", "play\n1. W:??! N:???? E:?? S:???", "announce N quarte AS KS QS JS!?",
    "auction W:capotSA! N:generaleta? E:x! S:xx!! W:-?", "play\n1.W:JH", "play\n1. W:JH{c}N:AS;d",
    # "any case" (see belote.lark): a Kelvin sign is a k, a long s is an S in a denomination only, a
    # dotless i is an i in a keyword only; trick numbers are any decimal digits
    "ta\u212aing ta\u212ae", "auction 80\u017f 80\u017fa capot\u017f", "taking \u017f", "taking pr\u0131s",
    "taking pa\u017fs", "announce N t\u0131erce AS KS QS", "tak\u0131ng pass", "play\n\u0661. W:JH",
    "auction g\u00c9n\u00e9rale\u2660 GEN\u00c9RALEta", "announce N CARR\u00c9 AS AH AD AC",
]


@pytest.mark.parametrize("text", EDGE_CASES)
def test_edge_cases_read_the_same(text):
    compare(text)


# Where the grammar says exactly what the reader says: both accept, or both refuse.
AGREED = [
    ("taking pass\n{c} play", False), ("taking pass\nplay", True), ('[A "1"] hand N -', False),
    ('{c} [A "1"]\n{d} hand N -', False), ("turned JH {c} taking pass", False), ("turned JH\n{c} taking pass", False), ("turned JH\n{c}\ntaking pass", True),
    ("hand N - {c} hand E -", False), ("hand N -\n{c} hand E -", False), ("hand N -\n{c}\nhand E -", True), ("play\n1. W:JH {c} claim N", False),
    ("play\n1. W:JH\n{c}\nclaim N", True), ("play\n1. W:JH\n*\n{late}", False), ("play\n1. W:JH\n*", True),
    ("hand N JHKH", False), ("hand N JH{c}KH", True), ("taking pr\u0131s", False), ("taking pa\u017fs", False),
    ("taking \u017f", True), ("announce N t\u0131erce AS KS QS", False), ("tak\u0131ng pass", False),
    ("ta\u212aing ta\u212ae", False), ("taking ta\u212ae", True), ("play\n1. W:JH belote {c}", True), ("play\n1. W:JH {c} belote", False),
    ("taking {c}", False), ("play {c}", False), ("hand N ????", False), ("turned JH!", False),
    ("announce N tierce AH! KH", False), ("announce N tierce AH KH!", True), ("play\n1. 2. W:JH", False),
    ("play\n1. W:JH S:7H E:9H N:QH AH", False), ("play\n1. W:JH S:7H E:9H N:QH 2. AH", True),
    ("auction 80H\nannounce N tierce AH KH QH", True), ("auction 80H\n{c}\nannounce N tierce AH KH QH", True),
    ("auction 80H\n*", False), ("hand N AS KS QS JS TS 9S 8S 7S 7D", False), ("hand N", False),
    ("claim N", False), ("play\nclaim N N", False), ("play\nclaim N\n{c}\n; d", True), ("* ", False),
]


@pytest.mark.parametrize("text, accepted", AGREED)
def test_the_grammar_accepts_what_the_reader_accepts_here(text, accepted):
    try:
        parse_record(text)
    except RecordSyntaxError:
        assert not accepted, "the reader refuses it"
    else:
        assert accepted, "the reader accepts it"
    assert (expected_after(text) is None) == accepted
    compare(text)


def test_file_forms_bom_crlf_escape_lines_and_comments_over_blank_lines():
    data = ("\ufeff% belote-notation 1.0\r\n\r\n[Event \"a\"]\r\n\r\n{deal {one}\r\nhand N -\r\n%escape\r\n"
            "play\r\n1. W:JH {a\r\n\r\nb} N:AS\r\n\r\n[Event \"b\"]\r\n%x\r\n\r\n\r\nhand E -\r\n"
            "taking pass\r\n").encode("utf-8")
    assert compare(data) == (2, 0)
    assert compare(data.decode("utf-8")) == (2, 0)


def test_lines_are_numbered_from_first_line():
    text = "hand N -\nplay\n1. W:JH\n"
    record = read_with_grammar(text, first_line=41)
    assert record.hands[0].pos.line == 41 and record.tricks[0].plays[0].pos.line == 43
    with pytest.raises(RecordSyntaxError) as caught:
        read_with_grammar("hand N -\nplay\n1. W:XZ\n", first_line=41)
    assert (caught.value.line, caught.value.column) == (43, 6)


# --- 3. the fuzz corpus ------------------------------------------------------------------

def _seed_records() -> list[bytes]:
    """Realistic records: comments and announcements, a lenient import, a coinche, a partial play."""
    seeds = []
    for name in ("13-comments.belote", "16-lenient-import.belote", "09-coinche-surcoinche.belote",
                 "14-partial.belote"):
        text = (ROOT / "samples" / name).read_text(encoding="utf-8")
        seeds.append(next(iter(split_records(text))).text.encode("utf-8"))
    return seeds


def test_mutated_records_read_the_same(mutate):
    """Damaged records (the ``mutate`` fixture: byte flips, deletions, insertions, line swaps)."""
    seeds = _seed_records()
    rng = random.Random(20260307)
    accepted = refused = 0
    for _ in range(3000):
        seed = rng.choice(seeds)
        start = seed.find(b"\n", rng.randrange(0, len(seed) // 2)) + 1  # from a line start on
        a, r = compare(mutate(rng, seed[start if rng.random() < 0.3 else 0:]))
        accepted, refused = accepted + a, refused + r
    assert accepted > 400 and refused > 1000, (accepted, refused)  # both sides of the corpus are exercised


# --- 4. errors in words ------------------------------------------------------------------

# (text, line, column, offending text, expected words): as the reader says them
ERRORS = [
    ("garbage here", 1, 1, "garbage",
     "a tag pair, a hand, the turned card, taking, auction, an announcement or play"),
    ("play\n1. W:JH\n*\n{late}", 4, 1, "{", "the end of the record"),
    ("claim N", 1, 1, "claim", "a tag pair, a hand, the turned card, taking, auction, an announcement or play"),
    ("{never closed\nhand N -", 1, 1, "{", 'a closing "}"'),
    ("turned JH JD", 1, 11, "JD", "a comment or the end of the line"),
    ("hand X AS KS QS JH TH 9D 8C 7C", 1, 6, "X", "a seat (N, E, S or W)"),
    ("hand N AS KS QS JH TH 9D 8C ZZ", 1, 29, "ZZ", "a card (e.g. JH, 10S), ?? or the end of the hand"),
    ("taking pass 80H", 1, 13, "80H", "a call of the taking (pass, take or a suit)"),
    ("auction W:80H N:pazz", 1, 17, "pazz",
     "a call of the auction (pass, 80H, 110SA, capotS, coinche, surcoinche)"),
    ("announce W sixte KH QH JH", 1, 12, "sixte", "tierce, quarte, quinte or carre"),
    ("announce W tierce KH QH ??", 1, 25, "??", "a card (e.g. JH, 10S) or the end of the announcement"),
    ('[Event "x"]\n\nplay\n1. W:JH S:XZ E:9H N:QH', 4, 11, "XZ", "a card (e.g. JH, 10S) or the end of the trick"),
    ("play\n1. W:JH S:7H E:9H N:QH AH", 2, 24, "AH", "at most 4 cards in a trick (one trick per line)"),
    ("play\n1.", 2, 3, "", "a card (e.g. JH, 10S)"),
    ("[Event x]", 1, 8, "x", "a tag value in double quotes"),
    ('[Event "x"', 1, 11, "", '"]" to close the tag pair'),
    ('[Event "x]\nhand N -', 1, 8, '"', 'a closing " on the same line'),
    ('[Event "x\\q"]', 1, 10, "\\q", 'only \\" and \\\\ escapes in a tag value'),
    ("hand N -\nturned JH\nhand E -", 3, 1, "hand", "taking, auction, an announcement or play"),
    ("play\n1. W:JH\n\nhand N -", 4, 1, "hand", "a card (e.g. JH, 10S), a trick number (e.g. 1.), a claim or *"),
]


@pytest.mark.parametrize("text, line, column, found, expected", ERRORS)
def test_refused_texts_say_where_and_what_was_expected(text, line, column, found, expected):
    with pytest.raises(RecordSyntaxError) as caught:
        read_with_grammar(text)
    error = caught.value
    assert (error.line, error.column, error.text, error.expected) == (line, column, found, expected)
    assert expected_after(text) == (line, column, found, expected)
    for name in ("$END", "__ANON", "_NL", "TRICK", "PLAYED", "BRACE", "<END"):
        assert name not in str(error)


@pytest.mark.parametrize("text, line, column, found, expected", ERRORS[:18])
def test_the_reader_says_the_same(text, line, column, found, expected):
    with pytest.raises(RecordSyntaxError) as caught:
        parse_record(text)
    error = caught.value
    assert (error.line, error.column, error.text, error.expected) == (line, column, found, expected)


def test_a_text_the_grammar_accepts_has_nothing_expected():
    assert expected_after("hand N -\nplay\n1. W:JH") is None


def test_terminal_names_never_show_in_words():
    parser = grammar_parser()
    names = {t.name for t in parser.terminals} | {"$END"}
    for size in (1, 2, 3):
        for group in (set(list(names)[i:i + size]) for i in range(len(names))):
            words = words_for(group)
            assert not any(name in words for name in names if len(name) > 3 and name.isupper()), (group, words)
