"""The Belote notation: domain values, the record model, the parser and the canonical writer.

This package knows nothing of the rules of the game (those live in ``replayer``).
"""

from .cards import (ALL_CARDS, Call, CallKind, Card, Denomination, NotationError, Rank, Seat, Suit,
                    Team)
from .record import Announcement, CallEntry, CardEntry, Claim, Hand, MeldKind, Pos, Record, Source, Trick

__all__ = [
    "ALL_CARDS", "Announcement", "Call", "CallEntry", "CallKind", "Card", "CardEntry", "Claim",
    "Denomination", "Hand", "MeldKind", "NotationError", "Pos", "Rank", "Record", "Seat", "Source",
    "Suit", "Team", "Trick",
]
