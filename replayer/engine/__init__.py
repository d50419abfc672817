"""The rules engine: the rules of Belote and Coinche played out on plain values.

``Rules`` holds every option of docs/rules.md (profiles and overrides); a deal goes
through the taking or the auction (``new_bidding``: ``TakingState`` or
``AuctionState``), which gives the ``Contract``, then the card play (``PlayState``:
legal cards, tricks, belote, claims), the announcements (``melds``) and the score
(``score_deal`` of a ``finished_deal``; ``MatchState`` over a match). Cards are ints
0..31 and hands 32-bit masks inside (``cardmasks``); each rule is written once and
serves checked moves, their explanations and a validator's fast replay alike.
``generator`` deals random legal deals and ``claims`` searches whether a claim
holds. The engine imports only ``notation`` and the standard library.
"""

from .bidding import AuctionState, BiddingState, TakingState, new_bidding
from .contract import Contract
from .play import PlayState
from .rules import Rules, RulesError
from .scoring import DealScore, FinishedDeal, MatchState, Outcome, finished_deal, score_deal

__all__ = ["AuctionState", "BiddingState", "Contract", "DealScore", "FinishedDeal", "MatchState", "Outcome",
           "PlayState", "Rules", "RulesError", "TakingState", "finished_deal", "new_bidding", "score_deal"]
