"""The contract a taking or an auction ends with."""

from __future__ import annotations

from dataclasses import dataclass

from notation.values import Denomination, Seat, Suit

from .rules import Rules


@dataclass(frozen=True, slots=True)
class Contract:
    """Who plays what.

    Classic belote: ``value`` is ``None``. Coinche: ``value`` is the bid (80..160),
    or ``None`` with ``capot`` or ``generale`` set. ``doubling`` is 0, 1 after a
    coinche, 2 after a surcoinche. ``belote``: a capot belote or a générale belote
    (003): the capot or générale, and a belote of the takers as well.
    """

    taker: Seat
    denomination: Denomination
    value: int | None = None
    capot: bool = False
    generale: bool = False
    doubling: int = 0
    belote: bool = False

    @property
    def trump(self) -> Suit | None:
        """The trump suit of a suit contract; ``None`` at SA and TA."""
        return self.denomination.suit

    def multiplier(self, rules: Rules) -> int:
        """M of rules.md §7: 1, 2 after a coinche, ``surcoinche_factor`` after a surcoinche."""
        return (1, 2, rules.surcoinche_factor)[self.doubling]

    def contract_value(self, rules: Rules) -> int:
        """C of rules.md §7 (coinche only): the bid, ``capot_value``, the ``generale`` value,
        or ``capot_belote`` / ``generale_belote``."""
        if self.generale:
            return rules.generale_belote if self.belote else rules.generale
        if self.capot:
            return rules.capot_belote if self.belote else rules.capot_value
        return self.value or 0

    def level_text(self, denomination: str, space: str, generale: str, value_space: str | None = None,
                   belote: str = "belote") -> str:
        """The bid and its denomination: ``110 H``, ``capot S``, ``generale TA``,
        ``capotbelote H``, or the bare denomination of a classic taking; ``value_space``
        between a value and the denomination (``space`` by default); ``belote`` after
        capot or générale in a capot belote or générale belote."""
        if self.generale or self.capot:
            word = (generale if self.generale else "capot") + (belote if self.belote else "")
            return f"{word}{space}{denomination}"
        if self.value is not None:
            return f"{self.value}{space if value_space is None else value_space}{denomination}"
        return denomination

    def pretty(self) -> str:
        """For people: ``110 ♥, coinched, taken by North``."""
        level = self.level_text(self.denomination.pretty(), " ", "générale", belote=" belote")
        doubled = ("", ", coinched", ", surcoinched")[self.doubling]
        return f"{level}{doubled}, taken by {self.taker.full_name}"

    def __str__(self) -> str:
        level = self.level_text(str(self.denomination), "", "generale")
        suffix = ("", " coinche", " surcoinche")[self.doubling]
        return f"{level}{suffix} by {self.taker}"

    @classmethod
    def parse(cls, text: str) -> Contract:
        """The contract ``str()`` gives: ``110H coinche by S``, ``capotS by N``, ``H by E``,
        ``capotbeloteH by W``."""
        level, _, taker = text.rpartition(" by ")
        level, _, doubled = level.partition(" ")
        doubling = ("", "coinche", "surcoinche").index(doubled)
        for word in ("capot", "generale"):
            if level.startswith(word):
                rest = level[len(word):]
                belote = rest.startswith("belote")
                denomination = Denomination.parse(rest[len("belote"):] if belote else rest)
                return contract_of(Seat.parse(taker), denomination, None, word == "capot", word == "generale",
                                   doubling, belote)
        digits = len(level) - len(level.lstrip("0123456789"))
        value = int(level[:digits]) if digits else None
        return contract_of(Seat.parse(taker), Denomination.parse(level[digits:]), value, doubling=doubling)


_INTERNED: dict[tuple, Contract] = {}


def contract_of(taker: Seat, denomination: Denomination, value: int | None = None, capot: bool = False,
                generale: bool = False, doubling: int = 0, belote: bool = False) -> Contract:
    """``Contract(...)``, interned: the same few hundred contracts come back record after
    record, and building a frozen dataclass costs ten times a dict lookup. Keyed by
    the identity of the (singleton) seat and denomination: enum hashes run in Python."""
    key = (id(taker), id(denomination), value, capot, generale, doubling, belote)
    contract = _INTERNED.get(key)
    if contract is None:
        if len(_INTERNED) > 4096:
            _INTERNED.clear()
        contract = _INTERNED[key] = Contract(taker, denomination, value, capot, generale, doubling, belote)
    return contract
