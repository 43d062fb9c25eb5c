"""Moves: letters and action numbers, and the two conventions (the blank's direction or the tile's)."""

from __future__ import annotations

from typing import Iterable, Union

import numpy as np
import numpy.typing as npt

from ._common import Convention, MovesLike

__all__ = ["MOVES", "to_tile_moves", "to_blank_moves", "moves_to_actions", "actions_to_moves"]

#: The move letters in the order of their action numbers: ``U D L R`` = ``0 1 2 3``.
MOVES: str = "UDLR"


_SWAP = str.maketrans("UDLRudlr", "DURLdurl")
_CONVENTIONS = ("blank", "tile")
# action i in the tile convention is the blank's action _TILE_TO_BLANK[i] (the opposite direction)
_TILE_TO_BLANK = np.array([1, 0, 3, 2])


def _convention(convention: str) -> str:
    if convention not in _CONVENTIONS:
        raise ValueError(f"unknown move convention {convention!r}: use 'blank' (the blank's direction) or 'tile'")
    return convention


def to_tile_moves(moves: str) -> str:
    """Moves written as the blank's directions, rewritten as the tiles' (and back: the same swap).

    When the blank moves up, the tile above it moves down: each letter becomes its opposite
    (``U`` and ``D``, ``L`` and ``R``). Spaces, commas and dashes between letters are dropped,
    lower case is read as upper, as the CLI does.

    Parameters
    ----------
    moves : str
        Letters ``U D L R`` in the blank convention (the direction the blank moves).

    Returns
    -------
    str
        The same moves in the tile convention (the direction the tile moves), upper case.

    Raises
    ------
    TypeError
        ``moves`` is not a string (for action numbers use ``actions_to_moves`` first).
    ValueError
        A character that is not a move letter (naming it).

    Examples
    --------
    >>> import slidetable as st
    >>> st.to_tile_moves("UULR")
    'DDRL'
    >>> st.to_tile_moves("u-l, r")
    'DRL'
    """
    return _letters(moves).translate(_SWAP)


def to_blank_moves(moves: str) -> str:
    """Moves written as the tiles' directions, rewritten as the blank's.

    The inverse of ``to_tile_moves`` (the same swap of opposite letters).

    Parameters
    ----------
    moves : str
        Letters ``U D L R`` in the tile convention (the direction the tile moves); spaces,
        commas and dashes between them are ignored, lower case is read as upper.

    Returns
    -------
    str
        The same moves in the blank convention (the direction the blank moves), upper case.

    Raises
    ------
    TypeError
        ``moves`` is not a string.
    ValueError
        A character that is not a move letter (naming it).

    Examples
    --------
    >>> import slidetable as st
    >>> st.to_blank_moves("DDRL")
    'UULR'
    >>> st.to_blank_moves(st.to_tile_moves("RULD")) == "RULD"
    True
    """
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


def moves_to_actions(moves: str, convention: Convention = "blank") -> npt.NDArray[np.int8]:
    """Move letters as action numbers (``U D L R`` = ``0 1 2 3``) in the same convention.

    The numbering is the same in both conventions: ``convention`` only names the one the moves
    are written in (and is checked); to change convention use ``to_tile_moves`` or
    ``to_blank_moves``.

    Parameters
    ----------
    moves : str
        Letters ``U D L R`` (either case; spaces, commas and dashes between them are ignored).
    convention : {"blank", "tile"}
        The convention the letters are written in: the direction the blank moves (default) or
        the direction the tile moves.

    Returns
    -------
    ndarray of int8, shape (len(moves),)
        The action number of each move, ``0`` to ``3``.

    Raises
    ------
    TypeError
        ``moves`` is not a string.
    ValueError
        A character that is not a move letter, or an unknown convention.

    Examples
    --------
    >>> import slidetable as st
    >>> st.moves_to_actions("UDLR")
    array([0, 1, 2, 3], dtype=int8)
    >>> st.moves_to_actions("r, u", convention="tile")
    array([3, 0], dtype=int8)
    """
    _convention(convention)
    return np.array([MOVES.index(c) for c in _letters(moves)], dtype=np.int8)


def actions_to_moves(actions: Union[Iterable[int], npt.ArrayLike], convention: Convention = "blank") -> str:
    """Action numbers (``0 1 2 3`` = ``U D L R``) as move letters in the same convention.

    The inverse of ``moves_to_actions``: ``convention`` names the convention of both and
    is checked, nothing is converted.

    Parameters
    ----------
    actions : array_like of int, any shape
        Action numbers ``0`` to ``3``, any integer dtype (read in row-major order); empty gives
        ``""``.
    convention : {"blank", "tile"}
        The convention of the actions and of the letters returned.

    Returns
    -------
    str
        One letter ``U D L R`` per action.

    Raises
    ------
    TypeError
        A string (letters are already moves) or a non-integer dtype.
    ValueError
        An action outside ``0`` to ``3`` (naming it), or an unknown convention.

    Examples
    --------
    >>> import numpy as np
    >>> import slidetable as st
    >>> st.actions_to_moves([0, 2, 3])
    'ULR'
    >>> st.actions_to_moves(np.array([1, 1], dtype=np.uint8), convention="tile")
    'DD'
    """
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
