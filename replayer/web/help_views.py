"""The help page: the notation as a user types it, the card symbols, the replay's keys.

A page of the site's own, so that no page sends its visitors to a file of the repository
(``docs/notation.md`` stays the full definition, for those who write a reader). The example
records are here, not in the template, so that each is printed in its ``<pre>`` and in the
hidden field of its "Check this record" form from one text, escaped by Jinja in both places;
they are the examples of docs/notation.md §7, and ``tests/web/test_help.py`` reads each one
back from the page and validates it."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, render_template

bp = Blueprint("help", __name__)


@dataclass(frozen=True, slots=True)
class Example:
    """A complete record shown on the page: its anchor, what it shows, its text."""

    key: str
    title: str
    text: str


EXAMPLES: tuple[Example, ...] = (
    Example("classic", "A classic deal with announcements: the third deal of a match that stands at 340-120",
            """\
% belote-notation 1.0

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
[Result "101-201"]

{A comment about the whole deal}
hand N AS JH KD QD 7D KC JC 8C
hand E 9S 8S 7S 8H AD JD 9D QC
hand S KS QS JS AH KH QH 9H 7C
hand W TS TH 7H TD 8D AC TC 9C
turned AD
taking W:pass S:pass E:take
announce W carre TS TH TD TC {four tens: 100}
announce S tierce KS QS JS
announce S tierce AH KH QH
announce E tierce 9S 8S 7S
play
1. W:TD S:QH E:AD N:QD belote
2. E:9S N:AS W:TS S:KS ; a comment about trick 2
3. N:JH W:TH S:AH! E:8H
4. S:KH E:9D N:8C W:7H
5. E:QC N:JC W:AC S:7C
6. W:8D S:9H E:JD N:7D
7. E:8S N:KD rebelote W:TC S:JS
8. N:KC W:9C S:QS E:7S
"""),
    Example("coinche", "A coinche deal, ended by a claim",
            """\
[Event "Coinche du samedi"]
[Dealer "S"]
[Variant "coinche"]
[Rules "ffb-coinche"]
[Result "?"]

hand N JS TS AD 9D 7D KC TC 7C
hand E KS QS KH QH JH QD JD AC
hand S 9S 8S 7S TH 9H 8H TD 9C
hand W AS AH 7H KD 8D QC JC 8C
auction E:pass N:pass W:80C S:pass E:90H? N:coinche {bold} W:pass S:pass E:pass
announce E tierce KH QH JH
play
1. E:KH belote N:JS W:AH S:9H
2. S:TD E:JD N:9D W:8D
3. S:TH E:JH!! N:7D W:7H
4. E:QD N:AD W:KD S:8S
claim E {the rest is theirs}
"""),
    Example("typed", "The same coinche deal as someone might type it: any case, 10 for T, suit symbols, "
                     "French ranks and calls, the auction over two lines, no trick numbers",
            """\
[Variant "coinche"] [Event "Coinche du samedi"] [Dealer "S"]
[Rules "ffb-coinche"] [Result "?"]
hand n js 10s ad 9d 7d kc 10c 7c
hand W as ah 7h kd 8d qc jc 8c
hand S 9♠ 8♠ 7♠ 10♥ 9♥ 8♥ 10♦ 9♣
hand E ks qs kh qh jh qd jd ac
Auction e:passe n:p w:80♣ s:pass e:90H? n:contre {bold}
        w:p s:p e:p
announce e tierce R♥ D♥ V♥
PLAY
E:KH Belote N:JS W:AH S:9H
S:10D E:JD N:9D W:8D
S:TH E:V♥!! N:7D W:7H
E:QD N:AD W:KD S:8S
claim E {the rest is theirs}
"""),
)


@bp.get("/help")
def index() -> str:
    return render_template("help.html", examples={example.key: example for example in EXAMPLES})
