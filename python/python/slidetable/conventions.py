"""Moves: letters and action numbers, and the two conventions (the blank's direction or the tile's)."""

from __future__ import annotations

from typing import Iterable, Union

import numpy as np
import numpy.typing as npt

from ._common import MovesLike

MOVES = "UDLR"


_SWAP = str.maketrans("UDLRudlr", "DURLdurl")
_CONVENTIONS = ("blank", "tile")
# action i in the tile convention is the blank's action _TILE_TO_BLANK[i] (the opposite direction)
_TILE_TO_BLANK = np.array([1, 0, 3, 2])


def _convention(convention: str) -> str:
    if convention not in _CONVENTIONS:
        raise ValueError(f"unknown move convention {convention!r}: use 'blank' (the blank's direction) or 'tile'")
    return convention


def to_tile_moves(moves: str) -> str:
    """Moves written as the blank's directions, rewritten as the tiles' (and back: the same swap)."""
    return _letters(moves).translate(_SWAP)


def to_blank_moves(moves: str) -> str:
    """Moves written as the tiles' directions, rewritten as the blank's."""
    return _letters(moves).translate(_SWAP)


def _letters(moves: str) -> str:
    """The move letters of ``moves`` (either case; spaces, commas and dashes between them are
    ignored, as the CLI does), checked."""
    if not isinstance(moves, str):
        raise TypeError(f"moves must be a string of U, D, L and R, not {type(moves).__name__}")
    out = []
    for c in moves:
        if c.isspace() or c in ",-":
            continue
        if c not in "UDLRudlr":
            raise ValueError(f"`{c}` is not a move: moves are the letters U, D, L and R")
        out.append(c.upper())
    return "".join(out)


def moves_to_actions(moves: str, convention: str = "blank") -> np.ndarray:
    """Move letters as action numbers (``U D L R`` = ``0 1 2 3``) in the same convention."""
    _convention(convention)
    return np.array([MOVES.index(c) for c in _letters(moves)], dtype=np.int8)


def actions_to_moves(actions: Union[Iterable[int], npt.ArrayLike], convention: str = "blank") -> str:
    """Action numbers (``0 1 2 3`` = ``U D L R``) as move letters in the same convention."""
    _convention(convention)
    if isinstance(actions, str):
        raise TypeError("actions must be integers 0 to 3; for letters use the string itself")
    a = np.asarray(actions)
    if a.size == 0:
        return ""
    if a.dtype.kind not in "iu":
        raise TypeError(f"actions must be integers 0 to 3, not {a.dtype}")
    out = []
    for x in a.ravel():
        if not 0 <= int(x) <= 3:
            raise ValueError(f"action {x} is not a move: actions are 0 to 3 (U, D, L, R)")
        out.append(MOVES[int(x)])
    return "".join(out)


def _blank_moves(moves: MovesLike, convention: str) -> str:
    """Moves in any accepted form as the blank's letters."""
    _convention(convention)
    if isinstance(moves, str):
        letters = _letters(moves)
    else:
        letters = actions_to_moves(moves)
    return to_blank_moves(letters) if convention == "tile" else letters
