"""The Belote notation: domain values, the record model, the parser and the canonical writer.

This package knows nothing of the rules of the game (those live in ``replayer``).
"""

from .values import (ALL_CARDS, Call, CallKind, Card, Denomination, NotationError, Rank, Seat, Suit,
                    Team)
from .errors import DealError, EncodingError, JSONFormatError, LimitError, RecordSyntaxError, WriteError
from .jsonio import from_json, to_json
from .parser import ParseResult, parse, parse_file, parse_record
from .record import (TAG_ROSTER, Announcement, CallEntry, CardEntry, Claim, Hand, MeldKind, Pos, Record, Source,
                     Trick)
from .scan import Headers, scan_headers
from .writer import dumps, write_file, write_record

__all__ = [
    "ALL_CARDS", "Announcement", "Call", "CallEntry", "CallKind", "Card", "CardEntry", "Claim", "DealError",
    "Denomination", "EncodingError", "Hand", "Headers", "JSONFormatError", "LimitError", "MeldKind",
    "NotationError", "ParseResult", "Pos", "Rank", "Record", "RecordSyntaxError", "Seat", "Source", "Suit",
    "TAG_ROSTER", "Team", "Trick", "WriteError", "dumps", "from_json", "parse", "parse_file", "parse_record",
    "scan_headers", "to_json", "write_file", "write_record",
]
