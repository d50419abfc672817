"""The Belote notation: domain values, the record model, the reader and the canonical writer.

The layers inside: ``values`` (cards, seats, calls), ``lexer`` (the words), ``splitter``
(files into records), ``reader`` (a record into plain data), ``builder`` (that data into
the ``Record`` model of ``record``), ``writer`` (the canonical text, from that data), ``jsonio`` (JSON),
``grammar`` (the Lark grammar ``belote.lark``, the definition the reader is tested
against). This package knows nothing of the rules of the game (those live in ``replayer``).
"""

from .values import (ALL_CARDS, Call, CallKind, Card, Denomination, NotationError, Rank, Seat, Suit,
                    Team)
from .errors import DealError, EncodingError, JSONFormatError, LimitError, RecordSyntaxError, WriteError
from .jsonio import from_json, to_json
from .builder import to_record
from .parser import ParseResult, parse, parse_file, parse_record
from .reader import RecordData, read_record
from .record import (TAG_ROSTER, Announcement, CallEntry, CardEntry, Claim, Hand, MeldKind, Pos, Record, Source,
                     Trick)
from .splitter import Headers, RawRecord, scan_headers, split_records
from .writer import dumps, write_data, write_file, write_record

__all__ = [
    "ALL_CARDS", "Announcement", "Call", "CallEntry", "CallKind", "Card", "CardEntry", "Claim", "DealError",
    "Denomination", "EncodingError", "Hand", "Headers", "JSONFormatError", "LimitError", "MeldKind",
    "NotationError", "ParseResult", "Pos", "Rank", "Record", "RecordSyntaxError", "Seat", "Source", "Suit",
    "TAG_ROSTER", "Team", "Trick", "WriteError", "dumps", "from_json", "parse", "parse_file", "parse_record",
    "RawRecord", "RecordData", "read_record", "scan_headers", "split_records", "to_json",
    "to_record", "write_data", "write_file", "write_record",
]
