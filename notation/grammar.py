"""The notation's word-level grammar (``belote.lark``) and the records it builds.

``belote.lark`` is the definition of the notation: one token per word, one rule
per structure (docs/notation.md, section 4).  ``read_with_grammar(text)`` reads one
record's text with it (Lark LALR, contextual lexer) and builds the model with an inline
transformer: the same ``Record`` as the reader (``notation.parser``), positions and
comments included.  It serves as the reference the reader (``notation.reader``) is tested against, and
``expected_after(text)`` says in words what the grammar expected where it refuses a text.

The grammar checks the form of a record, and the counts it can state (1 to 4 hands, 1 to
8 cards a hand, 1 to 4 cards a trick, a call or a trick for every comment of the calls or
the play).  What needs memory is left to the reader: trick numbers in sequence, a seat
given twice, a card dealt twice.
"""

from __future__ import annotations

import re
import threading

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .errors import RecordSyntaxError
from .record import Announcement, CallEntry, CardEntry, Claim, Hand, MeldKind, Pos, Record, Trick
from .values import Call, Card, Seat

__all__ = ["Builder", "TERMINAL_WORDS", "expected_after", "grammar_parser", "read_with_grammar", "words_for"]

_context = threading.local()  # line_offset: the file's lines before the record being read

_COMMENTS = frozenset({"BRACE_COMMENT", "LINE_COMMENT"})
_LINE_STARTS = frozenset({"_TAG_OPEN", "HAND", "TURNED", "TAKING", "AUCTION", "ANNOUNCE", "PLAY", "CLAIM", "STAR"})
_UNESCAPE = re.compile(r'\\(["\\])')
_MELDS = {"tierce": MeldKind.TIERCE, "quarte": MeldKind.QUARTE, "cinquante": MeldKind.QUARTE,
          "quinte": MeldKind.QUINTE, "cent": MeldKind.QUINTE, "carre": MeldKind.CARRE}


def _fold(word: str) -> str:
    """A call word or a meld as the grammar reads it (any case, é for e): lower case, e."""
    return word.lower().replace("é", "e")


def _pos(token: Token, shift: int = 0) -> Pos:
    return Pos(token.line + getattr(_context, "line_offset", 0), token.column + shift)


def _comment(token: Token) -> str:
    text = token.value
    return (text[1:-1] if text[0] == "{" else text[1:]).strip()


def _seat_prefix(word: str) -> tuple[Seat | None, str]:
    """``W:JH!`` -> (W, ``JH!``); a word without a seat prefix is returned whole."""
    if len(word) > 2 and word[1] == ":":
        return Seat.parse(word[0]), word[2:]
    return None, word


def _card_and_annotation(word: str) -> tuple[Card | None, str | None]:
    """``10S!?`` -> (TS, ``!?``); ``????`` -> (None, ``??``)."""
    size = 3 if word.startswith("10") else 2
    text, annotation = word[:size], word[size:] or None
    return (None if text == "??" else Card.parse(text)), annotation


def _call_entry(token: Token) -> CallEntry:
    seat, rest = _seat_prefix(token.value)
    cut = len(rest.rstrip("!?"))
    text, annotation = rest[:cut], rest[cut:] or None
    try:
        call = Call.parse(_fold(text))
    except ValueError:  # the grammar's call words and Call.parse disagree: a bug
        raise RecordSyntaxError(f'unexpected "{token.value}"', line=_pos(token).line,
                                column=token.column, text=token.value, expected="a call") from None
    return CallEntry(call, seat, annotation, (), _pos(token, 2 if seat is not None else 0))


class Builder(Transformer):
    """The inline callbacks of ``belote.lark``: each returns the model value of its rule
    (sections as ``(name, value)`` pairs, which ``start`` puts in their places)."""

    def start(self, children: list) -> Record:
        sections = dict(children)
        tags, comments = sections["head"]
        turned, turned_pos, turned_comments = sections.get("turned", (None, None, ()))
        tricks, claim, stopped = sections.get("play", ((), None, False))
        return Record(tags=tags, comments=comments, hands=sections.get("hands", ()), turned=turned,
                      taking=sections.get("taking"), auction=sections.get("auction"),
                      announcements=sections.get("announces", ()), tricks=tricks, claim=claim, stopped=stopped,
                      turned_comments=turned_comments, turned_pos=turned_pos,
                      turned_unknown="turned" in sections and turned is None)

    # --- head --------------------------------------------------------------------------

    def head(self, children: list) -> tuple:
        tags, comments = [], []
        for child in children:
            if type(child) is tuple:
                tags.append(child)
            else:
                comments.append(_comment(child))
        return "head", (tuple(tags), tuple(comments))

    def tag(self, children: list) -> tuple[str, str]:
        name, value = children
        value = value.value[1:-1]
        return name.value, (_UNESCAPE.sub(r"\1", value) if "\\" in value else value)

    # --- deal --------------------------------------------------------------------------

    def hands(self, children: list) -> tuple:
        return "hands", tuple(children)

    def hand(self, children: list) -> Hand:
        seat, cards, comments = None, [], []
        for token in children[1:]:
            kind = token.type
            if kind == "CARD":
                cards.append(None if token.value == "??" else Card.parse(token.value))
            elif kind == "SEAT":
                seat = Seat.parse(token.value)
            elif kind == "UNKNOWN_HAND":
                cards = None
            else:
                comments.append(_comment(token))
        return Hand(seat, None if cards is None else tuple(cards), tuple(comments), _pos(children[0]))

    def turned(self, children: list) -> tuple:
        card, pos, comments = None, None, []
        for token in children[1:]:
            if token.type == "CARD":
                card = None if token.value == "??" else Card.parse(token.value)
                pos = _pos(token)
            else:
                comments.append(_comment(token))
        return "turned", (card, pos, tuple(comments))

    # --- taking, auction -----------------------------------------------------------------

    def taking(self, children: list) -> tuple:
        return "taking", self._calls(children)

    def auction(self, children: list) -> tuple:
        return "auction", self._calls(children)

    @staticmethod
    def _calls(children: list) -> tuple[CallEntry, ...]:
        entries: list[list] = []  # [entry, comments]
        waiting: list[str] = []  # comments before the first call belong to it
        for token in children[1:]:
            if token.type in _COMMENTS:
                (entries[-1][1] if entries else waiting).append(_comment(token))
            else:
                entries.append([_call_entry(token), waiting])
                waiting = []
        return tuple(CallEntry(e.call, e.seat, e.annotation, tuple(comments), e.pos) for e, comments in entries)

    # --- announcements -----------------------------------------------------------------

    def announces(self, children: list) -> tuple:
        return "announces", tuple(children)

    def announce(self, children: list) -> Announcement:
        seat = kind = pos = annotation = None
        cards, comments = [], []
        for token in children[1:]:
            type_ = token.type
            if type_ == "KNOWN_CARD" or type_ == "ANNOTATED_CARD":
                card, annotation = _card_and_annotation(token.value)
                cards.append(card)
            elif type_ == "SEAT":
                seat = Seat.parse(token.value)
            elif type_ == "MELD":
                kind, pos = _MELDS[_fold(token.value)], _pos(token)
            else:
                comments.append(_comment(token))
        return Announcement(seat, kind, tuple(cards), annotation, tuple(comments), pos)

    # --- play ----------------------------------------------------------------------------

    def play(self, children: list) -> tuple:
        tricks: list[list] = []  # [plays, comments, pos]
        waiting: list[str] = []  # comments before the first trick belong to it
        claim, stopped = None, False
        for child in children[1:]:
            if type(child) is list:
                child[1][:0] = waiting
                waiting = []
                tricks.append(child)
            elif type(child) is Claim:
                claim = child
            elif child == "*":
                stopped = True
            else:  # a comment outside a trick: the trick before it (a ";" ending a trick's line: that trick)
                (tricks[-1][1] if tricks else waiting).append(_comment(child))
        return "play", (tuple(Trick(tuple(plays), tuple(comments), pos) for plays, comments, pos in tricks),
                        claim, stopped)

    def trick(self, children: list) -> list:
        return [children, [], children[0].pos]

    def numbered_trick(self, children: list) -> list:
        plays, comments = [], []
        for child in children[1:]:
            if type(child) is CardEntry:
                plays.append(child)
            else:
                comments.append(_comment(child))
        return [plays, comments, _pos(children[0])]

    def played(self, children: list) -> CardEntry:
        token = children[0]
        seat, rest = _seat_prefix(token.value)
        card, annotation = _card_and_annotation(rest)
        declaration, comments = None, []
        for other in children[1:]:
            if other.type == "DECLARATION":
                declaration = "rebelote" if len(other.value) == 8 else "belote"
            else:
                comments.append(_comment(other))
        return CardEntry(card, seat, declaration, annotation, tuple(comments), _pos(token, 2 if seat else 0))

    def claim(self, children: list) -> Claim:
        seat, pos, comments = None, None, []
        for token in children[1:]:
            if token.type == "SEAT":
                seat, pos = Seat.parse(token.value), _pos(token)
            else:
                comments.append(_comment(token))
        return Claim(seat, tuple(comments), pos)

    def stopped(self, children: list) -> str:
        return "*"


_parser: Lark | None = None
_lock = threading.Lock()


def grammar_parser() -> Lark:
    """The parser of ``belote.lark``, built once (LALR, contextual lexer, inline transformer)."""
    global _parser
    if _parser is None:
        with _lock:
            if _parser is None:
                _parser = Lark.open("belote.lark", rel_to=__file__, parser="lalr", lexer="contextual",
                                    transformer=Builder())
    return _parser


def _prepare(text: str) -> str:
    """The text as the grammar reads it: CRLF as LF, no byte-order mark, a final line end."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r\n" in text:
        text = text.replace("\r\n", "\n")
    return text if text.endswith("\n") else text + "\n"


def read_with_grammar(text: str, first_line: int = 1) -> Record:
    """The record of one record's ``text`` (as cut by ``notation.splitter.split_records``: use
    ``RawRecord.grammar_text()``), its lines numbered from ``first_line``.

    Raises ``RecordSyntaxError`` (line, column, the offending word, what was expected in
    words) where the grammar refuses the text.
    """
    text = _prepare(text)
    _context.line_offset = first_line - 1
    try:
        return grammar_parser().parse(text)
    except UnexpectedInput as exc:
        line, column, problem, found, expected = _describe(exc, text)
        lines = text.split("\n")
        raise RecordSyntaxError(problem, line=line + first_line - 1, column=column, text=found, expected=expected,
                                source_line=lines[line - 1] if 0 < line <= len(lines) else "") from None


def expected_after(text: str) -> tuple[int, int, str, str] | None:
    """For a text the grammar refuses: (line, column, found word, expected words), the line
    counted in ``text``; None when the grammar accepts the text."""
    try:
        read_with_grammar(text)
    except RecordSyntaxError as error:
        return error.line, error.column, error.text, error.expected
    return None


# --- errors in words ---------------------------------------------------------------------

A_CARD = "a card (e.g. JH, 10S)"

TERMINAL_WORDS: dict[str, str] = {  # in the order they are listed in messages
    "_TAG_OPEN": "a tag pair", "HAND": "a hand", "TURNED": "the turned card", "TAKING": "taking",
    "AUCTION": "auction", "ANNOUNCE": "an announcement", "PLAY": "play",
    "TAG_NAME": "a tag name (letters, digits or _)", "TAG_VALUE": "a tag value in double quotes",
    "_TAG_CLOSE": '"]" to close the tag pair',
    "SEAT": "a seat (N, E, S or W)", "MELD": "tierce, quarte, quinte or carre",
    "CARD": A_CARD, "UNKNOWN_HAND": "- (an unknown hand)", "KNOWN_CARD": A_CARD, "ANNOTATED_CARD": A_CARD,
    "TAKING_CALL": "a call of the taking (pass, take or a suit)",
    "AUCTION_CALL": "a call of the auction (pass, 80H, 110SA, capotS, coinche, surcoinche)",
    "PLAYED": A_CARD, "TRICK_NUMBER": "a trick number (e.g. 1.)", "DECLARATION": "belote or rebelote",
    "CLAIM": "a claim", "STAR": "*",
    "BRACE_COMMENT": "a comment", "LINE_COMMENT": "a comment",
    "_NL": "the end of the line", "$END": "the end of the record",
}
_WORD = re.compile(r"[^\s{};]{1,30}|.", re.S)


def _join(words: list[str]) -> str:
    words = list(dict.fromkeys(words))
    if not words:
        return ""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def words_for(terminals) -> str:
    """What a set of terminal names stands for, in words (Lark's names never show)."""
    names = set(terminals)
    ends = names & {"_NL", "$END"}
    for call in ("TAKING_CALL", "AUCTION_CALL"):  # in the calls, whatever else may come
        if call in names:
            return TERMINAL_WORDS[call]
    if "PLAYED" in names and "_NL" in names:
        return f"{A_CARD} or the end of the trick"
    if "CARD" in names and "_NL" in names:
        return f"{A_CARD}, ?? or the end of the hand"
    if "KNOWN_CARD" in names and "_NL" in names:
        return f"{A_CARD} or the end of the announcement"
    if names and names <= _COMMENTS | ends:
        if "_NL" in names:
            return "a comment or the end of the line"
        return "a comment or the end of the record" if names & _COMMENTS else "the end of the record"
    if names & _LINE_STARTS:  # where a line may start a section, a blank line is no news
        names.discard("_NL")
    words = [word for name, word in TERMINAL_WORDS.items()
             if name in names and name not in _COMMENTS and name != "$END"]
    if "CARD" in names:  # a hand's or the turned card: ?? too
        words.insert(words.index(A_CARD) + 1, "??")
    return _join(words) or _join([TERMINAL_WORDS[name] for name in sorted(ends)])


def _at(text: str, pos: int) -> tuple[int, int]:
    line_start = text.rfind("\n", 0, pos) + 1
    return text.count("\n", 0, pos) + 1, pos - line_start + 1


def _describe(exc: UnexpectedInput, text: str) -> tuple[int, int, str, str, str]:
    """Line, column (in ``text``), problem, offending word and expected words for a Lark error."""
    expected = _expected(exc)
    if isinstance(exc, UnexpectedCharacters):
        pos = exc.pos_in_stream
    elif isinstance(exc, UnexpectedToken) and exc.token.type != "$END":
        pos = exc.token.start_pos
    else:
        line, column = _at(text, len(text.rstrip()))
        return line, column, "unexpected end of the record", "", words_for(expected)
    char = text[pos]
    if char == "\n":
        line, column = _at(text, pos)
        return line, column, "unexpected end of the line", "", words_for(expected)
    if char == "{" and text.find("}", pos) < 0:
        line, column = _at(text, pos)
        return line, column, "a comment that is never closed", "{", 'a closing "}"'
    if char == '"' and "TAG_VALUE" in expected:
        return _tag_value_problem(text, pos)
    found = _WORD.match(text, pos).group()
    if expected and expected <= _IN_A_TAG:
        found = char.strip()
    if _SEATED.match(found) and expected & {"PLAYED", "TAKING_CALL", "AUCTION_CALL"}:
        pos, found = pos + 2, found[2:]  # a seat prefix is fine: the rest is not
    line, column = _at(text, pos)
    if "TRICK_NUMBER" in expected and "PLAYED" not in expected and _is_word("PLAYED", found):
        return line, column, f'unexpected "{found}"', found, "at most 4 cards in a trick (one trick per line)"
    return line, column, f'unexpected "{found}"', found, words_for(expected)


_SEATED = re.compile(r"[NESWOneswo]:[^\s{};]")
_IN_A_TAG = frozenset({"TAG_NAME", "TAG_VALUE", "_TAG_CLOSE"})


def _expected(exc: UnexpectedInput) -> set[str]:
    """The terminals the parser would have taken where it stopped, "$END" included (the
    lexer's list of what it was allowed to read leaves it out); rules are left out."""
    state = getattr(exc, "state", None)
    table = getattr(getattr(state, "parse_conf", None), "parse_table", None)
    if table is not None:
        return {name for name in table.states[state.position] if name.lstrip("_")[:1].isupper() or name == "$END"}
    if isinstance(exc, UnexpectedCharacters):
        return set(exc.allowed or ())
    return set(getattr(exc, "expected", None) or ())


_patterns: dict[str, re.Pattern] = {}


def _is_word(terminal: str, word: str) -> bool:
    """Whether ``word`` is a word of the grammar's ``terminal``."""
    pattern = _patterns.get(terminal)
    if pattern is None:
        regexp = next(t.pattern.to_regexp() for t in grammar_parser().terminals if t.name == terminal)
        pattern = _patterns[terminal] = re.compile(regexp)
    match = pattern.match(word + " ")
    return match is not None and match.end() == len(word)


def _tag_value_problem(text: str, pos: int) -> tuple[int, int, str, str, str]:
    """Why the quoted value at ``pos`` is not a tag value: never closed, or a bad escape."""
    i, end = pos + 1, text.find("\n", pos)
    while i < end:
        if text[i] == "\\":
            if text[i + 1] not in '"\\':
                line, column = _at(text, i)
                found = text[i:i + 2].rstrip("\n")
                return line, column, f'unexpected "{found}"', found, 'only \\" and \\\\ escapes in a tag value'
            i += 2
        elif text[i] == '"':
            break
        else:
            i += 1
    line, column = _at(text, pos)
    return line, column, "a tag value that is never closed", '"', 'a closing " on the same line'
