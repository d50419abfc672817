"""The anchor every benchmark is compared with: python-chess reading random games.

Random legal games of 80 plies, written as PGN, read back with ``chess.pgn.read_game``: a
reader of another game's notation, in Python too, measured in the same run as our figures
(on a shared machine only such ratios mean something). This module imports nothing of the
project, so a benchmark that measures another checkout can use it too.
"""

from __future__ import annotations

import io
import random
import time

import chess
import chess.pgn


def chess_games(count: int = 3000, plies: int = 80, seed: int = 1) -> str:
    """PGN of ``count`` random legal games of up to ``plies`` plies."""
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        board = chess.Board()
        game = chess.pgn.Game()
        node = game
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            node = node.add_variation(move)
            board.push(move)
        games.append(str(game))
    return "\n\n".join(games) + "\n"


def read_all(pgn: str) -> int:
    """How many games ``read_game`` reads from ``pgn``."""
    stream, count = io.StringIO(pgn), 0
    while chess.pgn.read_game(stream) is not None:
        count += 1
    return count


def chess_rate(pgn: str) -> float:
    """Games/s (CPU time) of ``read_game`` on ``pgn``."""
    start = time.process_time()
    count = read_all(pgn)
    return count / (time.process_time() - start)
