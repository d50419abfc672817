"""Realistic records shared by the notation tests (not a test module)."""

CLASSIC = """\
[Event "Club du jeudi"]
[Site "Lyon"]
[Date "2026.03.06"]
[Round "1"]
[Deal "3"]
[North "Anne"]
[East "Bruno"]
[South "Claire"]
[West "Denis"]
[Dealer "N"]
[Variant "belote"]
[Rules "ffb-annonces; undertrump=may_discard"]
[Target "1000"]
[Score "340-120"]
[Result "92-70"]

{A comment about the whole deal}
hand N TS 7S 9H 8H AC KC QC JC
hand E AS KS QS JS TC 9C 8C 7C
hand S AH KH QH JH TH 9D 8D 7D
hand W 9S 8S 7H AD KD QD JD TD
turned JH
taking E:pass S:take
announce E carre AS KS QS JS {four kings? no, a carre}
announce S quinte AH KH QH JH TH
play
1. E:AS S:7D W:7H N:7S
2. E:KS S:8D W:8S N:TS ; a comment about trick 2
3. E:QS S:9D W:9S N:KC
4. E:JS S:JH! W:AD N:AC
5. S:AH W:KD N:QC E:TC
6. S:KH belote W:QD N:JC E:9C
7. S:QH rebelote W:JD N:9H E:8C
8. S:TH W:TD N:8H E:7C
"""

COINCHE = """\
[Event "Coinche du samedi"]
[Dealer "S"]
[Variant "coinche"]
[Rules "ffb-coinche"]
[Result "?"]

hand N AS KS QS JH TH 9D 8C 7C
hand E JS TS 9H 8H 7H AD KD QD
hand S 9S 8S 7S AH KH QH TD 9C
hand W JD 8D 7D AC KC QC JC TC
auction W:pass N:80H E:pass S:100H? W:coinche {bold} N:pass E:pass S:pass
play
1. W:JD N:9D E:AD S:TD
2. E:KD S:AH!! W:7D N:8C
3. S:KH belote W:AC N:JH E:7H
claim S {the rest is hers}
"""

PARTIAL = """\
[Event "Partial"]
[Dealer "E"]

hand N -
hand E ?? ?? ?? ?? ?? ?? ?? ??
play
1. S:7H W:8H
*
"""
