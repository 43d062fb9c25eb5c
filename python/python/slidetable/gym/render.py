"""Pictures of boards: the ``rgb_array`` rendering of the environments."""

from __future__ import annotations

import functools

import numpy as np
import numpy.typing as npt

from slidetable._common import BoardLike

__all__ = ["CELL_PIXELS", "render_rgb"]

#: The side of one cell, in pixels, of an ``rgb_array`` rendering.
CELL_PIXELS = 48


# a 3x5 bitmap font of the ten digits, one string of 15 bits (row by row) each
_FONT = np.array(
    [
        [int(c) for c in bits]
        for bits in (
            "111101101101111",  # 0
            "010110010010111",  # 1
            "111001111100111",  # 2
            "111001111001111",  # 3
            "101101111001001",  # 4
            "111100111001111",  # 5
            "111100111101111",  # 6
            "111001001001001",  # 7
            "111101111101111",  # 8
            "111101111001111",  # 9
        )
    ],
    dtype=bool,
).reshape(10, 5, 3)

# dark frame and numbers on light tiles: contrast about 12:1
_FRAME = np.array([40, 44, 52], dtype=np.uint8)
_TILE = np.array([238, 228, 206], dtype=np.uint8)
_INK = _FRAME


@functools.lru_cache(maxsize=16)
def _tile_images(cells: int, px: int) -> np.ndarray:
    """``(cells, px, px, 3)`` uint8: the picture of each tile (0, the blank, an empty square),
    its number in the bitmap font, scaled as large as the widest number allows."""
    border = max(1, px // 16)
    inner = px - 2 * border
    width = len(str(cells - 1))
    scale = max(1, min(int(inner * 0.8) // (4 * width - 1), int(inner * 0.6) // 5))
    images = np.empty((cells, px, px, 3), dtype=np.uint8)
    images[:] = _FRAME
    images[1:, border : px - border, border : px - border] = _TILE
    for tile in range(1, cells):
        digits = [int(c) for c in str(tile)]
        # the digits side by side, one font column apart, then scaled up
        text = np.zeros((5, 4 * len(digits) - 1), dtype=bool)
        for i, d in enumerate(digits):
            text[:, 4 * i : 4 * i + 3] = _FONT[d]
        text = np.kron(text, np.ones((scale, scale), dtype=bool))
        h, w = text.shape
        top, left = (px - h) // 2, (px - w) // 2
        images[tile, top : top + h, left : left + w][text] = _INK
    images.flags.writeable = False
    return images


def render_rgb(board: BoardLike, rows: int, cols: int, cell_pixels: int = CELL_PIXELS) -> npt.NDArray[np.uint8]:
    """A picture of a board: light tiles with dark numbers (a built-in bitmap font), the blank
    dark.

    What ``render()`` returns in the ``"rgb_array"`` render mode. The tiles need not form a
    valid board (a tile may repeat): each cell is drawn on its own.

    Parameters
    ----------
    board : array_like of int, shape (rows * cols,) or (rows, cols)
        The tiles, row-major, ``0`` the blank: any integer dtype.
    rows : int
        The board's number of rows.
    cols : int
        The board's number of columns.
    cell_pixels : int, default CELL_PIXELS
        The side of one cell in pixels (at least 8; ``CELL_PIXELS`` is 48).

    Returns
    -------
    numpy.ndarray of uint8, shape (rows * cell_pixels, cols * cell_pixels, 3)
        The RGB image.

    Raises
    ------
    TypeError
        If ``board`` is not of integers, or ``rows``, ``cols`` or ``cell_pixels`` is not an
        integer.
    ValueError
        If ``board`` does not have ``rows * cols`` cells or a tile is out of range (0 to
        ``rows * cols - 1``), or ``cell_pixels`` is below 8.

    Examples
    --------
    >>> from slidetable.gym import render_rgb
    >>> image = render_rgb([8, 6, 7, 2, 5, 4, 3, 0, 1], 3, 3)
    >>> image.shape, image.dtype
    ((144, 144, 3), dtype('uint8'))
    >>> render_rgb([[1, 2], [3, 0]], 2, 2, cell_pixels=8).shape
    (16, 16, 3)
    >>> image[0, 0], image[48 * 2 + 24, 48 + 24]        # the frame; the blank's cell is all frame
    (array([40, 44, 52], dtype=uint8), array([40, 44, 52], dtype=uint8))
    """
    for name, value in (("rows", rows), ("cols", cols), ("cell_pixels", cell_pixels)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise TypeError(f"{name} must be an integer, not {type(value).__name__}")
    if cell_pixels < 8:
        raise ValueError(f"cell_pixels must be at least 8 to draw a number, not {cell_pixels}")
    b = np.asarray(board).reshape(-1)
    if b.size and b.dtype.kind not in "iu":
        raise TypeError(f"a board is integers (0 the blank), not {b.dtype}")
    n = int(rows) * int(cols)
    if b.size != n:
        raise ValueError(f"a {rows}x{cols} board has {n} cells, not {b.size}")
    if b.size and (b.min() < 0 or b.max() >= n):
        raise ValueError(f"tiles of a {rows}x{cols} board are 0 to {n - 1}")
    tiles = _tile_images(n, int(cell_pixels))[b.astype(np.intp)]
    px = int(cell_pixels)
    return tiles.reshape(int(rows), int(cols), px, px, 3).transpose(0, 2, 1, 3, 4).reshape(int(rows) * px, int(cols) * px, 3)
