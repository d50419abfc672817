"""The validator: every rule id fires on a crafted record and only there, exact
positions and messages, clean generated records, hidden cards, reports, streams."""

from __future__ import annotations

import json
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.values import SEATS
from notation.parser import parse
from replayer.check.findings import CATALOGUE, Severity
from replayer.engine.generator import generate_record
from replayer.engine.rules import PROFILES, Rules
from replayer.check.streams import validate_stream
from replayer.check.validator import validate

# Legal deals made by replayer.engine.generator, kept as text so that the positions below stay exact.
CLASSIC = """\
[Dealer "S"]
[Rules "ffb-annonces"]
[Result "42-140"]

hand N 8H AD QD 9D 7D AC QC 8C
hand E AS KS JS 7S 9H 7H JD TD
hand S TS 9S AH KH KD 8D KC JC
hand W QS 8S QH JH TH TC 9C 7C
turned KS
taking E:take
announce W tierce QH JH TH
play
1. E:JD N:7D W:QS S:8D
2. W:TH S:KH E:9H N:8H
3. W:7C S:KC E:AS N:QC
4. E:KS N:AD W:8S S:9S
5. S:KD E:TD N:QD W:QH
6. E:7H N:8C W:JH S:AH
7. S:TS E:JS N:9D W:TC
8. E:7S N:AC W:9C S:JC
"""

COINCHE = """\
[Dealer "N"]
[Rules "ffb-coinche"]
[Result "0-280"]

hand N AS QS TS 7S 9H JD TD QC
hand E 9S KH AD KD QD 8D TC 9C
hand S KS JS JH TH 8H 9D KC 8C
hand W 8S AH QH 7H 7D AC JC 7C
auction W:pass S:80TA E:pass N:pass W:pass
announce E tierce AD KD QD
play
1. W:AC S:8C E:9C N:QC
2. E:8D N:TD W:7D S:9D
3. S:KS E:9S N:AS W:8S
4. E:TC N:TS W:JC S:KC
5. W:7H S:8H E:KH N:9H
6. N:JD W:7C S:JH E:AD
7. N:QS W:AH S:JS E:QD belote
8. S:TH E:KD rebelote N:7S W:QH
"""

MUST_FOLLOW = """\
[Dealer "N"]
[Rules "ffb"]
[Result "152-30"]

hand N AS TS 8S AH JH 8D QC 8C
hand E QS 9S 9H JD 7D JC 9C 7C
hand S JS TH 8H 7H KD TD AC KC
hand W KS 7S KH QH AD QD 9D TC
turned 8S
taking W:pass S:pass E:pass N:pass W:pass S:pass E:pass N:H
play
1. W:KS S:JS E:QS N:TS
2. N:8S W:7S S:TD E:9S
3. E:9H N:JH W:KH belote S:8H
4. N:QC W:TC S:AC E:9C
5. S:KD E:7D N:8D W:QD
6. S:TH E:JD N:AH W:QH rebelote
7. N:8C W:AD S:KC E:7C
8. S:7H E:JC N:AS W:9D
"""

TRUMP_LEAD_MUST_GO_OVER = """\
[Dealer "N"]
[Rules "ffb"]
[Result "20-142"]

hand N KS JS 8S AH QH AC 8C 7C
hand E TS KH JH AD TD 8D 7D QC
hand S AS 9S 7S TH 8H 7H JD 9D
hand W QS 9H KD QD KC JC TC 9C
turned QD
taking W:pass S:pass E:pass N:pass W:C
play
1. W:JC S:8H E:QC N:8C
2. W:KD S:9D E:8D N:AC
3. N:8S W:QS S:9S E:TS
4. E:7D N:7C W:QD S:JD
5. N:JS W:TC S:7S E:TD
6. W:9H S:7H E:KH N:QH
7. E:AD N:AH W:9C S:AS
8. W:KC S:TH E:JH N:KS
"""

MUST_TRUMP = """\
[Dealer "N"]
[Rules "ffb"]
[Result "153-29"]

hand N KS JS 8S KH AD QD 7D 7C
hand E AS TS 9S 7S AH QH JH TD
hand S QS KD 8D KC QC JC TC 9C
hand W TH 9H 8H 7H JD 9D AC 8C
turned KC
taking W:pass S:take
play
1. W:8H S:9C E:AH N:KH
2. S:8D E:TD N:QD W:JD
3. E:QH N:7C W:9H S:KC belote
4. S:QS E:AS N:8S W:8C
5. W:9D S:KD E:JH N:AD
6. N:JS W:AC S:JC E:9S
7. S:TC E:TS N:7D W:TH
8. S:QC rebelote E:7S N:KS W:7H
"""

TA_MUST_BEAT = """\
[Dealer "W"]
[Rules "ffb-coinche"]
[Result "240-50"]

hand N QS TS 8S AH 9H KD TD 8C
hand E KH QH TH AD QD AC TC 7C
hand S AS 9S JH 7H 9D KC JC 9C
hand W KS JS 7S 8H JD 8D 7D QC
auction S:80C E:90SA N:pass W:pass S:100TA E:pass N:pass W:pass
play
1. S:JC E:7C N:8C W:QC
2. S:JH E:TH N:AH W:8H
3. S:7H E:QH belote N:9H W:KS
4. N:KD W:JD S:9D E:QD
5. W:7S S:AS E:AC N:8S
6. S:9C E:TC N:TD W:JS
7. S:9S E:AD N:QS W:7D
8. S:KC E:KH rebelote N:TS W:8D
"""

MUST_OVERTRUMP = """\
[Dealer "N"]
[Rules "ffb-coinche"]
[Result "0-320"]

hand N KS JS 9S AH 7H KD JD 8C
hand E QS JH TD 7D QC JC TC 9C
hand S AS 8S 7S TH 9H 8H AD 9D
hand W TS KH QH QD 8D AC KC 7C
auction W:pass S:90H E:pass N:pass W:pass
announce S tierce TH 9H 8H
announce E quarte QC JC TC 9C
play
1. W:KC S:9H E:9C N:8C
2. S:8S E:QS N:JS W:TS
3. W:7C S:8H E:JC N:JD
4. S:AS E:JH N:KS W:8D
5. E:QC N:7H W:AC S:7S
6. N:AH W:QH belote S:TH E:TC
7. N:9S W:KH rebelote S:AD E:TD
8. W:QD S:9D E:7D N:KD
"""

MUST_UNDERTRUMP = """\
[Dealer "S"]
[Rules "namu-coinche"]
[Result "11-231"]

hand N QS JS 9S 8S 8H QD 8D KC
hand E AS JH TH AD JD TD QC TC
hand S KS KH 7H KD 9D 7D JC 8C
hand W TS 7S AH QH 9H AC 9C 7C
auction S:pass W:80H N:pass E:pass S:pass
play
1. S:9D W:QH N:QD E:JD
2. W:7S N:QS E:AS S:KS
3. E:TD S:KD W:AC N:8D
4. E:AD S:7D W:9C N:8H
5. N:JS E:TH S:7H W:TS
6. E:JH S:KH W:AH N:KC
7. E:QC S:8C W:7C N:8S
8. E:TC S:JC W:9H N:9S
"""


def edited(base: str, edits: list[tuple[str, str]]) -> str:
    for old, new in edits:
        assert old in base, old
        base = base.replace(old, new, 1)
    return base


def check(text: str, rules=None):
    (parsed,) = list(parse(text))
    return validate(parsed, rules, repair=False)


def found(report) -> set[tuple[str, str | None]]:
    return {(f.rule, f"{f.location.line}:{f.location.column}" if f.location.line else None)
            for f in report.findings}


# (rule the case is about, base record, text edits, exact (rule id, line:column) of every finding)
CASES = [
    ('syntax-error', CLASSIC, [('hand N 8H', 'hand N XZ')],
     {('syntax-error', '5:8')}),
    ('bad-rules-tag', CLASSIC, [('[Rules "ffb-annonces"]', '[Rules "ffb-annonces; undertrump=sometimes"]')],
     {('result-mismatch', '3:1'), ('melds-not-played', '11:12'), ('bad-rules-tag', '2:1')}),
    ('rules-alias', MUST_UNDERTRUMP, [('[Rules "namu-coinche"]', '[Rules "korean-coinche"]')],
     {('rules-alias', '2:1')}),
    ('missing-dealer', CLASSIC, [('[Dealer "S"]\n', '')],
     {('missing-dealer', None)}),
    ('duplicate-card', CLASSIC, [('hand N 8H', 'hand N AS')],
     {('duplicate-card', '6:8')}),
    ('hand-size', CLASSIC, [('hand N 8H', 'hand N 8H 7H')],
     {('hand-size', '5:32')}),
    ('wrong-bidding-kind', CLASSIC, [('taking E:take', 'auction E:80S N:pass W:pass S:pass')],
     {('wrong-bidding-kind', '10:11'), ('not-rescored', '3:1')}),
    ('wrong-first-speaker', CLASSIC, [('[Dealer "S"]', '[Dealer "E"]')],
     {('wrong-leader', '13:6'), ('wrong-first-speaker', '10:10')}),
    ('turned-card-not-taken', CLASSIC, [('turned KS', 'turned QS')],
     {('turned-card-not-taken', '9:8')}),
    ('missing-turned-card', CLASSIC, [('turned KS\n', '')],
     {('not-rescored', '3:1'), ('missing-turned-card', '9:10')}),
    ('illegal-call', CLASSIC, [('taking E:take', 'taking E:S')],
     {('illegal-call', '10:10')}),
    ('taking-turned-suit', CLASSIC, [('taking E:take', 'taking E:pass N:pass W:pass S:pass E:S')],
     {('taking-turned-suit', '10:38')}),
    ('dealer-must-take', CLASSIC, [('ffb-annonces"', 'ffb-annonces; jack_forces_dealer=true; round2_same_suit=true"'), ('turned KS', 'turned JS'), ('taking E:take', 'taking E:pass N:pass W:pass S:pass E:S')],
     {('dealer-must-take', '10:31')}),
    ('call-after-auction-closed', CLASSIC, [('taking E:take', 'taking E:take N:pass')],
     {('call-after-auction-closed', '10:17')}),
    ('call-out-of-turn', COINCHE, [('E:pass N:pass W:pass\n', 'E:pass N:pass S:pass\n')],
     {('call-out-of-turn', '9:39')}),
    ('bid-not-higher', COINCHE, [('auction W:pass S:80TA E:pass N:pass W:pass', 'auction W:pass S:80TA E:80S N:90TA W:pass S:pass E:pass')],
     {('result-mismatch', '3:1'), ('bid-not-higher', '9:25')}),
    ('bid-value', COINCHE, [('S:80TA', 'S:85TA')],
     {('result-mismatch', '3:1'), ('bid-value', '9:18')}),
    ('denomination-not-played', COINCHE, [('ffb-coinche"', 'ffb-coinche; sa_ta=false"')],
     {('denomination-not-played', '9:18')}),
    ('generale-not-played', COINCHE, [('S:80TA', 'S:generaleTA')],
     {('generale-not-played', '9:18'), ('result-mismatch', '3:1')}),
    ('bid-after-coinche', COINCHE, [('auction W:pass S:80TA E:pass N:pass W:pass', 'auction W:pass S:80TA E:coinche N:90TA W:pass S:pass E:pass')],
     {('bid-after-coinche', '9:35'), ('result-mismatch', '3:1')}),
    ('coincher-partner-must-pass', COINCHE, [('auction W:pass S:80TA E:pass N:pass W:pass', 'auction W:pass S:80TA E:coinche N:pass W:90TA S:pass E:pass N:pass')],
     {('coincher-partner-must-pass', '9:42'), ('result-mismatch', '3:1')}),
    ('coinche-without-bid', COINCHE, [('auction W:pass', 'auction W:coinche')],
     {('coinche-without-bid', '9:11')}),
    ('coinche-by-bidding-side', COINCHE, [('auction W:pass S:80TA E:pass N:pass W:pass', 'auction W:pass S:80TA E:pass N:coinche W:pass S:pass E:pass')],
     {('result-mismatch', '3:1'), ('coinche-by-bidding-side', '9:32')}),
    ('coinche-twice', COINCHE, [('auction W:pass S:80TA E:pass N:pass W:pass', 'auction W:pass S:80TA E:coinche N:pass W:coinche S:pass')],
     {('result-mismatch', '3:1'), ('coinche-twice', '9:42')}),
    ('surcoinche-not-played', COINCHE, [('ffb-coinche"', 'ffb-coinche; surcoinche=false"'), ('auction W:pass S:80TA E:pass N:pass W:pass', 'auction W:pass S:80TA E:coinche N:surcoinche')],
     {('result-mismatch', '3:1'), ('surcoinche-not-played', '9:35')}),
    ('surcoinche-without-coinche', COINCHE, [('auction W:pass S:80TA E:pass N:pass W:pass', 'auction W:pass S:80TA E:pass N:surcoinche W:pass')],
     {('surcoinche-without-coinche', '9:32')}),
    ('surcoinche-by-defence', COINCHE, [('auction W:pass S:80TA E:pass N:pass W:pass', 'auction W:pass S:80TA E:coinche N:pass W:surcoinche')],
     {('result-mismatch', '3:1'), ('surcoinche-by-defence', '9:42')}),
    # issue 11 (H1): the seed pages' auction rules and calls
    ('coinche-not-right-after-bid', COINCHE, [('ffb-coinche"', 'ffb-coinche; coinche_right_after_bid=true"'), ('auction W:pass S:80TA E:pass N:pass W:pass', 'auction W:pass S:80TA E:pass N:pass W:coinche S:pass E:pass N:pass')],
     {('result-mismatch', '3:1'), ('coinche-not-right-after-bid', '9:39')}),
    ('surcoinche-not-right-after-coinche', COINCHE, [('ffb-coinche"', 'ffb-coinche; surcoinche_right_after_coinche=true"'), ('auction W:pass S:80TA E:pass N:pass W:pass', 'auction W:pass S:80TA E:coinche N:pass W:pass S:surcoinche')],
     {('result-mismatch', '3:1'), ('surcoinche-not-right-after-coinche', '9:49')}),
    ('capot-belote-not-played', COINCHE, [('S:80TA', 'S:capotbeloteTA')],
     {('result-mismatch', '3:1'), ('capot-belote-not-played', '9:18')}),
    ('generale-belote-not-played', COINCHE, [('S:80TA', 'S:generalebeloteTA')],
     {('result-mismatch', '3:1'), ('generale-belote-not-played', '9:18')}),
    ('belote-bid-without-trump', COINCHE, [('ffb-coinche"', 'ffb-coinche; capot_belote=750; belote_at_ta=false"'), ('S:80TA', 'S:capotbeloteTA'), ('E:QD belote', 'E:QD'), ('E:KD rebelote', 'E:KD')],
     {('result-mismatch', '3:1'), ('belote-bid-without-trump', '9:18')}),
    ('auction-incomplete', COINCHE, [('E:pass N:pass W:pass\n', 'E:pass\n')],
     {('auction-incomplete', '9:25')}),
    ('play-after-void-deal', COINCHE, [('auction W:pass S:80TA E:pass N:pass W:pass', 'auction W:pass S:pass E:pass N:pass')],
     {('not-rescored', '3:1'), ('play-after-void-deal', '12:1')}),
    ('melds-not-played', CLASSIC, [('[Rules "ffb-annonces"]', '[Rules "ffb"]')],
     {('result-mismatch', '3:1'), ('melds-not-played', '11:12')}),
    ('announcement-not-held', COINCHE, [('announce E tierce AD KD QD', 'announce E tierce AS KS QS')],
     {('result-mismatch', '3:1'), ('announcement-not-held', '10:12')}),
    ('announcement-wrong-kind', COINCHE, [('announce E tierce AD KD QD', 'announce E quarte AD KD QD')],
     {('announcement-wrong-kind', '10:12'), ('result-mismatch', '3:1')}),
    ('announcement-card-reused', COINCHE, [('announce E tierce AD KD QD', 'announce E tierce AD KD QD\nannounce E tierce AD KD QD')],
     {('announcement-card-reused', '11:12')}),
    ('belote-without-king-queen', COINCHE, [('6. N:JD W:7C', '6. N:JD belote W:7C')],
     {('belote-without-king-queen', '17:6')}),
    ('belote-missing-announcement', COINCHE, [('E:QD belote', 'E:QD'), ('E:KD rebelote', 'E:KD')],
     {('result-mismatch', '3:1'), ('belote-missing-announcement', '18:21')}),
    ('wrong-leader', CLASSIC, [('3. W:7C S:KC E:AS N:QC', '3. S:KC E:AS N:QC W:7C')],
     {('wrong-leader', '15:6')}),
    ('play-out-of-turn', CLASSIC, [('3. W:7C S:KC E:AS N:QC', '3. W:7C S:KC N:QC E:AS')],
     {('play-out-of-turn', '15:16')}),  # East, left last, is not a second fault
    ('card-not-held', CLASSIC, [('1. E:JD N:7D W:QS S:8D', '1. E:JD N:7D W:QS S:9D')],
     {('card-not-held', '13:21')}),
    ('must-follow', MUST_FOLLOW, [('1. W:KS S:JS E:QS N:TS', '1. W:KS S:JS E:JD N:TS'), ('6. S:TH E:JD N:AH', '6. S:TH E:QS N:AH')],
     {('must-follow', '12:16')}),
    ('trump-lead-must-go-over', TRUMP_LEAD_MUST_GO_OVER, [('1. W:JC S:8H', '1. W:TC S:8H'), ('5. N:JS W:TC', '5. N:JS W:JC')],
     {('trump-lead-must-go-over', '12:21')}),
    ('must-trump', MUST_TRUMP, [('3. E:QH N:7C', '3. E:QH N:JS'), ('6. N:JS W:AC', '6. N:7C W:AC')],
     {('must-trump', '14:11')}),
    ('ta-must-beat', TA_MUST_BEAT, [('1. S:JC E:7C', '1. S:KC E:7C'), ('8. S:KC E:KH', '8. S:JC E:KH')],
     {('ta-must-beat', '11:11')}),
    ('must-overtrump', MUST_OVERTRUMP, [('N:KS W:8D', 'N:KS W:AC'), ('N:7H W:AC S:7S', 'N:7H W:8D S:7S')],
     {('must-overtrump', '17:16')}),
    ('must-undertrump', MUST_UNDERTRUMP, [('5. N:JS E:TH S:7H', '5. N:JS E:TH S:JC'), ('8. E:TC S:JC', '8. E:TC S:7H')],
     {('must-undertrump', '15:16')}),
    ('shown-void', CLASSIC, [('2. W:TH S:KH E:9H N:8H', '2. W:TH S:KH E:9H N:8C'), ('6. E:7H N:8C', '6. E:7H N:8H'), ('S:JC\n', 'S:??\n'), ('hand N 8H AD QD 9D 7D AC QC 8C\nhand E AS KS JS 7S 9H 7H JD TD\nhand S TS 9S AH KH KD 8D KC JC\nhand W QS 8S QH JH TH TC 9C 7C\n', '')],
     {('hidden-cards', None), ('not-rescored', '3:1'), ('shown-void', '14:11')}),
    ('short-trick', CLASSIC, [('3. W:7C S:KC E:AS N:QC', '3. W:7C S:KC E:AS')],
     {('short-trick', '15:1'), ('not-rescored', '3:1')}),
    ('too-many-cards', CLASSIC, [('8. E:7S N:AC W:9C S:JC', '8. E:7S N:AC W:9C S:JC\n9. E:7S')],
     {('too-many-cards', '21:1'), ('not-rescored', '3:1')}),
    # issue 15 F: a ?? hides a card, not a trick: the ninth trick is found with known or unknown hands
    ('too-many-cards', CLASSIC, [('1. E:JD', '1. E:??'), ('8. E:7S N:AC W:9C S:JC', '8. E:7S N:AC W:9C S:JC\n9. N:AS')],
     {('too-many-cards', '21:1'), ('hidden-cards', None), ('not-rescored', '3:1')}),
    ('too-many-cards', CLASSIC, [('hand N 8H AD QD 9D 7D AC QC 8C\nhand E AS KS JS 7S 9H 7H JD TD\nhand S TS 9S AH KH KD 8D KC JC\nhand W QS 8S QH JH TH TC 9C 7C\n', 'hand N -\n'), (CLASSIC[CLASSIC.index('1. E:JD'):], ''.join(f'{n}. ?? ?? ?? ??\n' for n in range(1, 33)))],
     {('too-many-cards', '18:1'), ('hidden-cards', None), ('not-rescored', '3:1')}),
    ('incomplete-play', CLASSIC, [('8. E:7S N:AC W:9C S:JC\n', '')],
     {('incomplete-play', '19:1')}),
    ('play-stopped', CLASSIC, [('8. E:7S N:AC W:9C S:JC\n', '*\n')],
     {('play-stopped', '19:1')}),
    ('claim-inconsistent', CLASSIC, [('5. S:KD E:TD N:QD W:QH\n6. E:7H N:8C W:JH S:AH\n7. S:TS E:JS N:9D W:TC\n8. E:7S N:AC W:9C S:JC\n', 'claim E\n')],
     {('result-mismatch', '3:1'), ('claim-inconsistent', '17:7')}),
    ('claim-unchecked', CLASSIC, [('8. E:7S N:AC W:9C S:JC\n', 'claim E\n'), ('hand N 8H AD QD 9D 7D AC QC 8C\n', 'hand N -\n')],
     {('hidden-cards', None), ('claim-unchecked', '20:7'), ('not-rescored', '3:1')}),
    ('result-mismatch', CLASSIC, [('[Result "42-140"]', '[Result "42-150"]')],
     {('result-mismatch', '3:1')}),
    ('result-unreadable', CLASSIC, [('[Result "42-140"]', '[Result "lots"]')],
     {('result-unreadable', '3:1')}),
    ('hands-rebuilt', CLASSIC, [('hand N 8H AD QD 9D 7D AC QC 8C\nhand E AS KS JS 7S 9H 7H JD TD\nhand S TS 9S AH KH KD 8D KC JC\nhand W QS 8S QH JH TH TC 9C 7C\n', '')],
     {('hands-rebuilt', None)}),
    ('hidden-cards', CLASSIC, [('hand N 8H AD QD 9D 7D AC QC 8C\n', 'hand N -\n'), ('1. E:JD N:7D', '1. E:JD N:??')],
     {('hidden-cards', None), ('not-rescored', '3:1')}),
    ('claim-ok', CLASSIC, [('8. E:7S N:AC W:9C S:JC\n', 'claim E\n')],
     set()),

]


@pytest.mark.parametrize("rule, base, edits, expected", CASES, ids=[case[0] for case in CASES])
def test_each_rule_fires_on_its_record_at_its_position(rule, base, edits, expected):
    assert found(check(edited(base, edits))) == expected


def test_every_record_rule_has_a_case_and_every_case_rule_is_catalogued():
    match_rules = {"score-tag-mismatch", "dealer-rotation", "match-over", "litige-lost"}  # test_matches.py
    covered = {rule for _, _, _, expected in CASES for rule, _ in expected}
    assert covered <= set(CATALOGUE)
    assert set(CATALOGUE) - match_rules == covered


@pytest.mark.parametrize("base", [CLASSIC, COINCHE, MUST_FOLLOW, TRUMP_LEAD_MUST_GO_OVER, MUST_TRUMP, TA_MUST_BEAT,
                                  MUST_OVERTRUMP, MUST_UNDERTRUMP])
def test_the_base_records_are_clean(base):
    report = check(base)
    assert report.findings == () and report.ok
    assert report.rescored == report.recorded


# --- messages -------------------------------------------------------------------

def message(base: str, edits: list[tuple[str, str]], rule: str) -> str:
    return next(f.message for f in check(edited(base, edits)).findings if f.rule == rule)


def test_exact_messages_name_seat_card_and_rule():
    assert message(MUST_TRUMP, [("3. E:QH N:7C", "3. E:QH N:JS"), ("6. N:JS W:AC", "6. N:7C W:AC")],
                   "must-trump") == ("trick 3: North played J♠ but held no heart and held 7♣ while East "
                                     "(an opponent) was winning with Q♥: North had to trump")
    assert message(CLASSIC, [("S:8D", "S:9D")], "card-not-held") == (
        "trick 1: South played 9♦ but does not hold it (could play K♦ 8♦)")
    assert message(CLASSIC, [("3. W:7C S:KC E:AS N:QC", "3. S:KC E:AS N:QC W:7C")], "wrong-leader") == (
        "trick 3: South leads K♣ but West should lead (the winner of trick 2)")
    assert message(COINCHE, [("S:80TA E:pass N:pass", "S:80TA E:pass N:coinche")], "coinche-by-bidding-side") == (
        "call 4: N cannot call coinche: only an opponent of the bidder may coinche 80TA by S")
    assert message(CLASSIC, [("3. W:7C S:KC E:AS N:QC", "3. W:7C S:KC E:AS")], "short-trick") == (
        "trick 3 has 3 cards but is not the last trick")
    assert message(CLASSIC, [("1. E:JD", "1. E:??"), ("8. E:7S N:AC W:9C S:JC", "8. E:7S N:AC W:9C S:JC\n9. N:AS")],
                   "too-many-cards") == "trick 9: a deal has 8 tricks (this one has 9)"


def test_a_result_mismatch_is_explained_item_by_item():
    text = message(COINCHE, [("E:QD belote", "E:QD"), ("E:KD rebelote", "E:KD")], "result-mismatch")
    assert text == (
        "Result 0-280 but the deal rescores to 180-80 (NS -180, EW +200): NS takers cards 91 + last trick 10 = 101, "
        "belote 0, melds 0, total 101, rounding -1, score 180; EW defenders cards 61 + last trick 0 = 61, belote 0, "
        "melds 20, total 81, rounding -1, score 80; contract 80; made: takers 101 + 80x1, defenders 81; "
        "the recorded result matches the deal scored with every belote counted (marks ignored)")
    swapped = message(CLASSIC, [('"42-140"', '"140-42"')], "result-mismatch")
    assert swapped.endswith("the recorded result matches the deal scored with the pair written EW-NS")


def test_legal_alternatives_and_locations_of_an_illegal_card():
    report = check(edited(MUST_FOLLOW, [("1. W:KS S:JS E:QS N:TS", "1. W:KS S:JS E:JD N:TS"),
                                        ("6. S:TH E:JD N:AH", "6. S:TH E:QS N:AH")]))
    (finding,) = report.findings
    assert (finding.location.record, finding.location.line, finding.location.column) == (0, 12, 16)
    assert (finding.location.trick, finding.location.card) == (1, 3)
    assert (finding.seat, finding.card, finding.alternatives) == ("E", "JD", ("QS", "9S"))
    assert finding.severity is Severity.ERROR and not report.ok


# --- rules ----------------------------------------------------------------------

def test_rules_precedence_argument_then_rules_tag_then_variant_then_ffb():
    assert check(CLASSIC).rules_text == "ffb-annonces"
    assert check(CLASSIC).rules == Rules.parse("ffb-annonces")
    assert check(CLASSIC, Rules.parse("ffb-annonces; undertrump=may_discard")).rules_text == (
        "ffb-annonces; undertrump=may_discard")
    no_rules = CLASSIC.replace('[Rules "ffb-annonces"]\n', '[Variant "coinche"]\n')
    assert check(no_rules).rules_text == "ffb-coinche"
    assert check(CLASSIC.replace('[Rules "ffb-annonces"]\n', "")).rules_text == "ffb"
    bad = check(CLASSIC.replace('[Rules "ffb-annonces"]', '[Rules "nope"]'))
    assert bad.findings[0].rule == "bad-rules-tag" and "valid profiles: ffb" in bad.findings[0].message


def test_eight_passes_over_an_unknown_turned_card_are_a_void_deal():
    text = '[Dealer "N"]\n[Variant "belote"]\n[Result "0-0"]\n\nturned ??\ntaking ' + " ".join(
        f"{seat}:pass" for seat in "ESWNESWN") + "\n"
    report = check(text)
    assert report.findings == () and report.ok
    assert report.score.outcome.value == "void" and report.rescored == report.recorded == (0, 0)
    assert report.replay.void and report.replay.contract is None
    seven = check(text.replace(" N:pass\n", "\n"))  # seven passes: the taking cannot be replayed
    assert [f.rule for f in seven.findings if f.rule == "missing-turned-card"] == ["missing-turned-card"]


# --- generated records ------------------------------------------------------------

@pytest.mark.parametrize("profile", list(PROFILES))
def test_generated_records_of_every_profile_validate_clean(profile):
    rules = Rules.parse(profile)
    rng = random.Random(profile)
    for i in range(40):
        record = generate_record(rng, rules, SEATS[i % 4], deal_number=i + 1)
        report = validate(record)
        assert report.findings == (), report.text()
        if report.score is not None and record.result is not None:
            assert report.rescored == record.result
        if not record.tricks and not rules.is_coinche:
            continue  # a void classic deal has 5-card hands, which the parser does not read yet
        assert check(str(record)).findings == (), check(str(record)).text()


# --- hidden cards -----------------------------------------------------------------

def without_hands(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith("hand ")) + "\n"


@pytest.mark.parametrize("base", [CLASSIC, COINCHE, MUST_TRUMP])
def test_hands_are_rebuilt_from_the_32_cards_played(base):
    full, hidden = check(base), check(without_hands(base))
    assert [f.rule for f in hidden.findings] == ["hands-rebuilt"]
    hands = {line.split()[1]: line.split()[2:] for line in base.splitlines() if line.startswith("hand ")}
    for seat, cards in hands.items():
        assert f"{seat} {' '.join(cards)}" in hidden.findings[0].message
    assert hidden.score == full.score and hidden.ok


def test_rebuilt_hands_still_catch_a_revoke():
    broken = edited(MUST_FOLLOW, [("1. W:KS S:JS E:QS N:TS", "1. W:KS S:JS E:JD N:TS"),
                                  ("6. S:TH E:JD N:AH", "6. S:TH E:QS N:AH")])
    assert {f.rule for f in check(without_hands(broken)).findings} == {"hands-rebuilt", "must-follow"}


def test_unknown_cards_say_what_was_not_checked():
    report = check(edited(CLASSIC, [("hand N 8H AD QD 9D 7D AC QC 8C\n", "hand N -\n"),
                                    ("5. S:KD E:TD N:QD", "5. S:KD E:TD N:??")]))
    note = next(f for f in report.findings if f.rule == "hidden-cards")
    assert note.message == ("not checked: the legality of cards played by North (hands unknown); "
                            "tricks 5-8 (a card of trick 5 is unknown)")
    assert report.ok and report.score is None


def test_a_known_seat_is_still_checked_when_another_hand_is_hidden():
    report = check(edited(CLASSIC, [("hand N 8H AD QD 9D 7D AC QC 8C\n", "hand N -\n"),
                                    ("1. E:JD N:7D W:QS S:8D", "1. E:JD N:7D W:QS S:9D")]))
    # South cannot play North's 9♦; North playing it later is a card played twice
    assert {f.rule for f in report.findings} == {"card-not-held", "duplicate-card", "hidden-cards"}


# --- reports and streams ------------------------------------------------------------

def test_report_as_dict_is_json_and_the_report_pickles():
    broken = edited(CLASSIC, [("2. W:TH S:KH E:9H", "2. W:TH S:KH E:7S"), ("8. E:7S", "8. E:9H")])
    (parsed,) = list(parse(broken))
    report = validate(parsed)
    data = json.loads(json.dumps(report.as_dict()))
    assert data["ok"] is False and data["result_matches"] is True
    first = data["findings"][0]
    assert (first["rule"], first["line"], first["column"], first["trick"], first["card_index"]) == (
        "must-follow", 14, 16, 2, 3)
    assert first["repairs"][0]["lines"] == [{"line": 14, "text": "2. W:TH S:KH E:9H N:8H"},
                                           {"line": 20, "text": "8. E:7S N:AC W:9C S:JC"}]
    assert data["score"]["score"] == [42, 140]
    assert pickle.loads(pickle.dumps(report)) == report
    assert "must-follow" in report.text() and "repair: swap 7♠ (trick 2, East) and 9♥ (trick 8, East)" in str(report)


def test_syntax_errors_become_findings_and_the_next_record_is_validated():
    text = CLASSIC.replace("hand N 8H", "hand N XZ") + "\n" + COINCHE
    first, second = list(validate_stream(text))
    assert [f.rule for f in first.findings] == ["syntax-error"] and not first.ok
    assert (first.findings[0].location.line, first.findings[0].location.column) == (5, 8)
    assert second.ok and second.index == 1 and second.lines == (22, 40)


def test_stream_with_two_jobs_keeps_the_input_order():
    texts = [CLASSIC, COINCHE, CLASSIC.replace("S:8D", "S:9D"), MUST_TRUMP] * 5
    source = "\n".join(texts)
    one = list(validate_stream(source, jobs=1))
    two = list(validate_stream(source, jobs=2, chunk=3))
    assert [r.index for r in two] == list(range(20))
    assert [r.as_dict() for r in two] == [r.as_dict() for r in one]
    assert [r.ok for r in one] == [True, True, False, True] * 5


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_validate_never_raises_on_a_damaged_record(data):
    base = data.draw(st.sampled_from([CLASSIC, COINCHE, TA_MUST_BEAT]))
    lines = base.splitlines()
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(lines) - 1))
        words = lines[i].split(" ")
        j = data.draw(st.integers(0, len(words) - 1))
        words[j] = data.draw(st.sampled_from(["", "??", "N:??", "E:AS", "claim", "W:JH belote", "pass", "*",
                                              "S:80H", "coinche", "-", "9. N:7C", "AS"]))
        lines[i] = " ".join(words)
    if data.draw(st.booleans()):
        del lines[data.draw(st.integers(0, len(lines) - 1))]
    for report in validate_stream("\n".join(lines) + "\n"):
        assert report.as_dict()["record"] == report.index
        str(report)


def test_a_record_built_in_code_gets_the_deal_checks_the_parser_would_refuse():
    import dataclasses

    (parsed,) = list(parse(CLASSIC))
    record = parsed.record
    north, east = record.hands[0], record.hands[1]
    nine = dataclasses.replace(north, cards=north.cards + (east.cards[0],))
    report = validate(dataclasses.replace(record, hands=(nine,) + record.hands[1:]), repair=False)
    messages = {f.rule: f.message for f in report.findings}
    assert messages["hand-size"] == "North's hand has 9 cards, not 8"
    assert messages["duplicate-card"] == "A♠ is dealt to East and also to North"


def test_every_rule_id_is_documented():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "findings.md").read_text(encoding="utf-8")
    assert [rule for rule in CATALOGUE if f"| `{rule}` |" not in text] == []


def test_missing_seat_prefixes_are_filled_in_with_the_dealer_tag_kept():
    import re

    from replayer.check.validator import fill_seats

    bare = re.sub(r"\b[NESW]:", "", CLASSIC)
    assert check(bare).findings == ()
    (parsed,) = list(parse(bare))
    filled = fill_seats(parsed.record, Rules.parse("ffb-annonces"))
    assert str(filled) == CLASSIC


def test_missing_seat_prefixes_are_filled_in_from_the_rules():
    import re

    from replayer.check.validator import fill_seats

    bare = re.sub(r"\b[NESW]:", "", CLASSIC).replace('[Dealer "S"]\n', "")
    assert "E:" not in bare.split("play")[1]
    report = check(bare)
    assert [f.message for f in report.findings] == [
        "no Dealer tag: dealer South, from the seat under which the record replays with the fewest faults"]
    (parsed,) = list(parse(bare))
    filled = fill_seats(parsed.record, Rules.parse("ffb-annonces"))
    assert str(filled).split("\n\n", 1)[1] == CLASSIC.split("\n\n", 1)[1]


def test_seats_are_not_guessed_when_more_than_one_dealer_replays():
    import re

    from replayer.check.validator import fill_seats

    # hands hidden and no seat written: every dealer replays the deal, so nothing is filled
    bare = re.sub(r"\b[NESW]:", "", without_hands(CLASSIC)).replace('[Dealer "S"]\n', "")
    (parsed,) = list(parse(bare))
    assert fill_seats(parsed.record, Rules.parse("ffb-annonces")) == parsed.record


def test_a_seat_that_did_not_trump_has_shown_out_of_trumps():
    # hands hidden, spades trump: South plays K♣ on a diamond lead (trick 1) and 8♦ on a club lead
    # while West wins with 7♣ (trick 3): South showed out of diamonds, then of spades and clubs.
    text = edited(without_hands(CLASSIC), [("1. E:JD N:7D W:QS S:8D", "1. E:JD N:7D W:QS S:KC"),
                                            ("3. W:7C S:KC", "3. W:7C S:8D"), ("S:JC\n", "S:??\n")])
    report = check(text)
    assert [(f.rule, f.location.trick) for f in report.findings if f.severity is Severity.ERROR] == [
        ("shown-void", 3), ("shown-void", 4), ("shown-void", 5), ("shown-void", 7)]


def test_a_claim_in_the_middle_of_a_trick_is_checked_and_scored():
    mid = check(edited(CLASSIC, [("8. E:7S N:AC W:9C S:JC", "8. E:7S N:AC\nclaim W")]))
    assert mid.findings == () and mid.rescored == (42, 140)
    # North-South claiming the same position cannot make the last trick: East's 7♠ is a trump
    wrong = check(edited(CLASSIC, [("8. E:7S N:AC W:9C S:JC", "8. E:7S N:AC\nclaim N")]))
    assert [f.message for f in wrong.findings if f.rule == "claim-inconsistent"] == [
        "North claims the last trick for NS, but EW can take a trick whatever NS play"]


def test_a_claim_before_any_card_is_checked_and_a_search_past_its_budget_is_unknown():
    from replayer.engine.claims import claim_holds
    from replayer.check.faults import find_faults

    head = MUST_TRUMP.split("play\n")[0]
    report = check(head + "play\nclaim E\n")
    assert "claim-inconsistent" in report.rule_ids and report.rescored == (0, 252)
    (parsed,) = list(parse(MUST_TRUMP))
    state = find_faults(parsed.data, Rules.parse("ffb")).state
    while len(state.plays) > 20:  # back to the start of trick 6
        state.pop()
    assert claim_holds(state, SEATS[0].team, budget=3) is None
