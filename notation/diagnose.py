"""Explain, in words, why a record does not fit the grammar's order of sections.

Errors inside a section are found by ``sections.py`` word by word; what
reaches here is a section out of place (``turned`` after ``play``), a line
that starts no section, or a ``{`` comment that is never closed.  Lark names
terminals (``PLAY``, ``$END``); these become words.
"""

from __future__ import annotations

import re

from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

_TERMINAL_WORDS = {  # in the order they are listed in messages
    "TAGS": "a tag pair", "HANDS": "a hand", "TURNED": "the turned card", "TAKING": "taking",
    "AUCTION": "auction", "ANNOUNCES": "an announcement", "PLAY": "play", "CLAIM": "a claim",
    "STAR": "*", "$END": "the end of the record", "<END-OF-FILE>": "the end of the record",
}
_WORD = re.compile(r"[^\s{};]{1,30}|.")

Failure = tuple[int, int, str, str, str]  # line, column (in the record), problem, found, expected


def words_for(terminals: set[str] | frozenset[str]) -> str:
    """``{"CLAIM", "$END"}`` -> ``a claim or the end of the record``; comments are left out."""
    words = list(dict.fromkeys(word for name, word in _TERMINAL_WORDS.items() if name in terminals))
    if not words:
        return ""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _at(text: str, pos: int, problem: str, found: str, expected: str) -> Failure:
    line_start = text.rfind("\n", 0, pos) + 1
    return text.count("\n", 0, pos) + 1, pos - line_start + 1, problem, found, expected


def describe_failure(exc: UnexpectedInput, text: str) -> Failure:
    """Line, column, problem, offending text and expected words for a Lark exception."""
    if isinstance(exc, UnexpectedToken) and exc.token.type != "$END":
        pos = exc.token.start_pos
        found = _WORD.match(text, pos).group()
        return _at(text, pos, f'unexpected "{found}"', found, words_for(exc.expected))
    if isinstance(exc, UnexpectedCharacters):
        pos = exc.pos_in_stream
        if text[pos] == "{":
            return _at(text, pos, "a comment that is never closed", "{", 'a closing "}"')
        found = _WORD.match(text, pos).group()
        return _at(text, pos, f'unexpected "{found}"', found, words_for(exc.allowed))
    expected = exc.expected if isinstance(exc, (UnexpectedEOF, UnexpectedToken)) else set()
    return _at(text, len(text.rstrip()), "unexpected end of the record", "", words_for(expected))
