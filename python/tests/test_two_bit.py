"""A two-bit table (the distance modulo 3, four states a byte: `table build --bits 2`, the
default for 2x7) opened from Python answers as the byte table does. The file is a 2x3 table the
CLI wrote (tests/data/2x3-two-bit.table, 4,186 bytes)."""

import os

import numpy as np
import pytest

import slidetable as st

HERE = os.path.dirname(os.path.abspath(__file__))
FILE = os.path.join(HERE, "data", "2x3-two-bit.table")


@pytest.mark.parametrize("mmap", [True, False])
def test_a_two_bit_table_answers_as_the_byte_table(mmap):
    t = st.Table.open(FILE, mmap=mmap)
    ref = st.Table.build(st.Puzzle(2, 3))
    assert (t.bits, ref.bits) == (2, 8)
    assert t.puzzle == ref.puzzle and len(t) == len(ref) == 360 and t.max_depth == ref.max_depth == 21
    every = ref.unrank(np.arange(len(ref)))
    np.testing.assert_array_equal(t.distance(every), ref.distance(every))
    np.testing.assert_array_equal(t.optimal_moves(every), ref.optimal_moves(every))
    np.testing.assert_array_equal(t.histogram(), ref.histogram())
    hardest = t.sample(21, 1, seed=1)
    assert (ref.distance(hardest) == 21).all()
    sol = t.solve(hardest[0])
    assert sol.length == 21 and (t.puzzle.apply(hardest[0], sol.moves) == t.puzzle.goal).all()
    t.verify()
    # the packed layout the docstring gives: state i in bits 2 (i % 4) of byte i // 4
    a = t.as_array()
    assert a.shape == (90,) and not a.flags.writeable
    codes = (a[np.arange(360) // 4] >> (2 * (np.arange(360) % 4))) & 3
    np.testing.assert_array_equal(codes, ref.as_array() % 3)
