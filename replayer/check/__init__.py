"""Checking records: every fault of a deal, its rescoring, matches, repairs.

``validate`` (``validator``) gives the ``Report`` of one record: its faults
(``faults``: the deal, the calls and the play replayed through the engine), its
announcements and belote, the deal rescored and compared with its Result
(``result_check`` explains a difference), repair suggestions (``repair``). Matches are
checked as a whole (``matches``, ``scoresheet``); ``streams`` validates whole files, in
several processes if asked. Findings (``findings``) carry a stable rule id, a severity and
a location.
"""

from .findings import CATALOGUE, Finding, Location, Severity
from .matches import MatchReport, check_match, check_matches, with_match_checks
from .report import Report
from .streams import validate_stream
from .validator import resolve_rules, validate, validate_raw

__all__ = ["CATALOGUE", "Finding", "Location", "MatchReport", "Report", "Severity", "check_match", "check_matches",
           "resolve_rules", "validate", "validate_raw", "validate_stream", "with_match_checks"]
