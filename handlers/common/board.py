"""Hotel board (the meals a rate includes) as a ladder: a wish is the least a rate must include."""

from __future__ import annotations

from typing import Optional

BOARD_LEVELS = ("room_only", "breakfast", "half_board", "full_board", "all_inclusive")


def board_met(board: Optional[str], wished: Optional[str]) -> bool:
    """Whether a rate's board includes at least the meals wished (every board does when none is)."""
    if wished not in BOARD_LEVELS:
        return True
    have = BOARD_LEVELS.index(board) if board in BOARD_LEVELS else 0
    return have >= BOARD_LEVELS.index(str(wished))


BOARD_WORDS = {
    "breakfast": "breakfast included",
    "half_board": "half board (breakfast and dinner)",
    "full_board": "full board (all meals)",
    "all_inclusive": "all inclusive",
}


def board_words(wished: Optional[str]) -> str:
    """The wish in words, for what the traveller is told ("breakfast included")."""
    return BOARD_WORDS.get(str(wished), str(wished or "").replace("_", " "))
