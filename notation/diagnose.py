"""Explain where and why a record failed the grammar, in words.

Lark reports a failure with terminal names (``TRICK``, ``CALLS``) and, since
the tokens are coarse, at the start of the item that did not match.  This
module finds the exact offending word (``XZ`` in ``S:XZ``) and says what was
expected there in plain words.
"""

from __future__ import annotations

import re

from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

_CARD = re.compile(r"(?:\?\?|(?:10|[789TJQKARDVtjqkardv])[SHDCshdc♠♥♦♣♤♡♢♧])(?:!!|\?\?|!\?|\?!|!|\?)?")
_SEAT = re.compile(r"[NESWOneswo]")
_SEAT_PREFIX = re.compile(r"[NESWOneswo]:(?=\S)")
_MELD = re.compile(r"(?i:tierce|quarte|quinte|carr[eé]|cinquante|cent)")
_TAG_NAME = re.compile(r"\[[ \t]*([A-Za-z0-9_]*)[ \t]*")
_BIDDING_KEYWORD = re.compile(r"(?im)^[ \t]*(taking|auction)\b")

A_CARD = "a card (e.g. JH, 10S)"
A_SEAT = "a seat (N, E, S or W)"
_TERMINAL_WORDS = {  # in the order they are listed in messages
    "TAGS": "a tag pair", "HAND": "a hand", "TURNED": "the turned card", "TAKING": "taking",
    "AUCTION": "auction", "CALLS": "a call", "ANNOUNCE": "an announcement", "PLAY": "play",
    "TRICK": "a trick", "CLAIM": "a claim", "STAR": "*", "$END": "the end of the record",
}
_MID_LINE = {
    "hand": f"{A_CARD}, ?? or the end of the hand",
    "turned": "a comment or the end of the line",
    "announce": f"{A_CARD} or the end of the announcement",
    "claim": "a comment or the end of the record",
    "trick": f"{A_CARD} or the end of the trick",
    "taking": "a call of the taking (pass, take or a suit)",
    "auction": "a call of the auction (pass, 80H, 110SA, capotS, coinche, surcoinche)",
}

Failure = tuple[int, int, str, str, str]  # line, column (1-based, in the record), problem, found, expected


def words_for(terminals: set[str] | frozenset[str]) -> str:
    """``{"TRICK", "$END"}`` -> ``a trick or the end of the record``."""
    words = [word for name, word in _TERMINAL_WORDS.items() if name in terminals]
    if not words:
        return ""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _at(text: str, pos: int, problem: str, found: str, expected: str) -> Failure:
    line_start = text.rfind("\n", 0, pos) + 1
    return text.count("\n", 0, pos) + 1, pos - line_start + 1, problem, found, expected


def _word_at(text: str, pos: int) -> str:
    match = re.compile(r"[^\s{};]{1,30}|.").match(text, pos)
    return match.group() if match else ""


def describe_failure(exc: UnexpectedInput, text: str) -> Failure:
    if isinstance(exc, UnexpectedEOF):
        return _at(text, len(text.rstrip()), "unexpected end of the record", "",
                   words_for({t for t in exc.expected}))
    if isinstance(exc, UnexpectedToken):
        token = exc.token
        if token.type == "$END":
            return _at(text, len(text.rstrip()), "unexpected end of the record", "", words_for(exc.expected))
        found = _word_at(text, token.start_pos)
        return _at(text, token.start_pos, f'unexpected "{found}"', found, words_for(exc.expected))
    assert isinstance(exc, UnexpectedCharacters)
    return _characters(exc, text)


def _characters(exc: UnexpectedCharacters, text: str) -> Failure:
    pos = exc.pos_in_stream
    char = text[pos]
    if char == "{":
        return _at(text, pos, "a comment that is never closed", "{", 'a closing "}"')
    if char == "[":
        return _tag(text, pos)
    line_start = text.rfind("\n", 0, pos) + 1
    line_end = text.find("\n", pos)
    line = text[line_start:line_end if line_end >= 0 else len(text)]
    context = _context(line, text, pos, exc.allowed)
    if line[:pos - line_start].strip():  # the coarse token of this line stopped here
        expected = _MID_LINE.get(context) or words_for(exc.allowed)
        return _unexpected(text, pos, expected, context)
    if context in ("hand", "turned", "announce", "claim", "trick"):
        return _inside_line(text, line_start, line, context)
    return _unexpected(text, pos, words_for(exc.allowed), context)


def _context(line: str, text: str, pos: int, allowed: set[str]) -> str:
    first = line.split(None, 1)[0].lower() if line.strip() else ""
    if first in ("hand", "turned", "announce", "claim", "taking", "auction"):
        return first
    if "TRICK" in allowed:
        return "trick"
    if "CALLS" in allowed:
        found = _BIDDING_KEYWORD.findall(text, 0, pos)
        return found[-1].lower() if found else "taking"
    return ""


def _unexpected(text: str, pos: int, expected: str, context: str) -> Failure:
    if context in ("trick", "taking", "auction") and _SEAT_PREFIX.match(text, pos):
        pos += 2  # point at the card or call, not at its seat
    found = _word_at(text, pos)
    return _at(text, pos, f'unexpected "{found}"', found, expected)


def _inside_line(text: str, line_start: int, line: str, context: str) -> Failure:
    """The whole line failed its pattern: check it word by word."""
    words = [(m.start() + line_start, m.group()) for m in re.finditer(r"[^\s{;]+|[{;].*", line)]
    checks: list[tuple[re.Pattern, str]]
    if context == "trick":
        if words and re.fullmatch(r"\d+\.", words[0][1]):
            words = words[1:]
        for at, word in words:
            if word.lower() in ("belote", "rebelote") or word[0] in "{;":
                continue
            if not _CARD.fullmatch(word[2:] if _SEAT_PREFIX.match(word) else word):
                return _unexpected(text, at, f"{A_CARD} or the end of the trick", context)
        return _unexpected(text, words[0][0] if words else line_start, f"{A_CARD} or the end of the trick",
                           context)
    checks = [(_SEAT, A_SEAT)]
    if context == "announce":
        checks.append((_MELD, "tierce, quarte, quinte or carre"))
    for i, (pattern, expected) in enumerate(checks, start=1):
        if i >= len(words):
            return _at(text, line_start + len(line), "unexpected end of the line", "", expected)
        if not pattern.fullmatch(words[i][1]):
            return _unexpected(text, words[i][0], expected, "")
    rest = words[len(checks) + 1:]
    if context == "claim" or (context == "hand" and rest and rest[0][1] == "-"):
        extra = rest[1:] if context == "hand" else rest
        at = extra[0][0] if extra else line_start + len(line)
        return _unexpected(text, at, "a comment or the end of the line", "")
    if not rest:
        return _at(text, line_start + len(line), "unexpected end of the line", "", A_CARD)
    for at, word in rest:
        if word[0] in "{;":
            break
        if not _CARD.fullmatch(word):
            return _unexpected(text, at, f"{A_CARD}" + (", ?? or -" if context == "hand" else ""), "")
    return _unexpected(text, rest[0][0], A_CARD, "")


def _tag(text: str, pos: int) -> Failure:
    """A tag pair that does not match ``[Name "value"]``: say which part is wrong."""
    match = _TAG_NAME.match(text, pos)
    if not match.group(1):
        return _unexpected(text, match.end(), "a tag name (letters, digits or _)", "")
    at = match.end()
    if text[at:at + 1] != '"':
        return _unexpected(text, at, 'a tag value in double quotes', "")
    i = at + 1
    while i < len(text) and text[i] != "\n":
        if text[i] == "\\":
            if text[i + 1:i + 2] not in ('"', "\\"):
                return _at(text, i, f'unexpected "{text[i:i + 2]}"', text[i:i + 2],
                           'only \\" and \\\\ escapes in a tag value')
            i += 2
            continue
        if text[i] == '"':
            break
        i += 1
    else:
        return _at(text, at, "a tag value that is never closed", '"', 'a closing " on the same line')
    close = re.compile(r"[ \t]*").match(text, i + 1).end()
    return _unexpected(text, close, '"]" to close the tag pair', "")
