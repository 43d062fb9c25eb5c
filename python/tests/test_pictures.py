"""Pictures for notebooks: boards as SVG, solutions played as SVG animations, HTML summaries."""

import xml.etree.ElementTree as ET

import numpy as np
import pytest

import slidetable as st

SVG = "{http://www.w3.org/2000/svg}"


def tiles_of(svg: str) -> dict[int, tuple[float, float, bool]]:
    """Each tile's number -> its translate offset and whether it is drawn as home."""
    root = ET.fromstring(svg)
    out = {}
    for g in root.iter(SVG + "g"):
        if "tile" in g.get("class", "").split():
            n = int(g.get("data-tile"))
            assert n not in out, f"tile {n} drawn twice"
            x, y = g.get("transform")[len("translate(") : -1].split(",")
            out[n] = (float(x), float(y), "home" in g.get("class").split())
            assert g.find(SVG + "text").text == str(n)
    return out


def test_a_board_is_drawn_with_every_tile_once_and_the_blank_where_it_is():
    p = st.Puzzle(3, 3)
    board = [8, 6, 7, 2, 5, 4, 3, 0, 1]
    svg = p.picture(board).to_svg()
    tiles = tiles_of(svg)
    assert sorted(tiles) == list(range(1, 9))
    root = ET.fromstring(svg)
    blanks = [r for r in root.iter(SVG + "rect") if r.get("class") == "blank"]
    assert [int(b.get("data-cell")) for b in blanks] == [7]
    # cells are laid out row by row: tile 1 (cell 8) is right of the blank (cell 7), same row
    assert tiles[1][1] == float(blanks[0].get("y")) and tiles[1][0] > float(blanks[0].get("x"))
    assert tiles[8][:2] == (4.0, 4.0)
    # tile 5 is where the goal has it (cell 4): light blue; no other is
    assert [n for n, t in tiles.items() if t[2]] == [5]


def test_the_goals_colours_follow_the_goal_and_every_shape_is_drawn():
    for rows, cols in [(2, 2), (2, 3), (3, 4), (4, 4), (5, 5), (2, 7)]:
        p = st.Puzzle(rows, cols, "blank-first")
        pic = p.picture(p.goal)
        tiles = tiles_of(pic._repr_svg_())
        assert len(tiles) == rows * cols - 1 and all(t[2] for t in tiles.values())
        root = ET.fromstring(pic.to_svg())
        assert int(root.get("width")) > cols * 8 and int(root.get("height")) > rows * 8


def test_picture_reads_the_shape_and_refuses_what_is_not_a_board(tmp_path):
    assert repr(st.picture(np.arange(16)[::-1].reshape(4, 4) % 16)) == "BoardPicture(4x4: 15 14 13 12 / 11 10 9 8 / 7 6 5 4 / 3 2 1 _)"
    with pytest.raises(ValueError, match="not square"):
        st.picture([1, 2, 3, 4, 5, 0])
    with pytest.raises(ValueError, match="each tile 0 to 8 once"):
        st.picture([1, 1, 3, 4, 5, 6, 7, 8, 0])
    with pytest.raises(ValueError):
        st.picture([1, 2, 3, 4, 5, 6, 7, 8, 9])
    with pytest.raises(ValueError, match="8 to 1000 pixels"):
        st.picture([1, 2, 3, 0], st.Puzzle(2, 2), size=2).to_svg()
    out = tmp_path / "board.svg"
    st.picture([1, 2, 3, 0], st.Puzzle(2, 2), size=20).save(out)
    assert ET.parse(out).getroot().get("width") == str(4 * 2 + 2 * 20 + 4)


def final_cells(svg: str, cols: int, size: int = 48) -> dict[int, int]:
    """Each tile's cell at the end of the animation (the last value of its animateTransform, or
    where it stands when it does not move)."""
    root = ET.fromstring(svg)
    out = {}
    for g in root.iter(SVG + "g"):
        n = int(g.get("data-tile"))
        a = g.find(SVG + "animateTransform")
        xy = a.get("values").split(";")[-1] if a is not None else g.get("transform")[len("translate(") : -1]
        x, y = (float(v) for v in xy.split(","))
        out[n] = int(round((y - 4) / (size + 4))) * cols + int(round((x - 4) / (size + 4)))
    return out


def test_a_solution_plays_from_its_start_to_the_goal_and_the_hardest_3x3_is_small():
    p = st.Puzzle(3, 3)
    table = st.Table.build(p)
    sol = table.solve([8, 6, 7, 2, 5, 4, 3, 0, 1])
    assert sol.start.tolist() == [8, 6, 7, 2, 5, 4, 3, 0, 1] and sol.puzzle == p
    svg = sol.to_svg()
    root = ET.fromstring(svg)
    anims = list(root.iter(SVG + "animateTransform"))
    assert anims and all(len(a.get("values").split(";")) == sol.length + 3 == len(a.get("keyTimes").split(";")) for a in anims)
    ends = final_cells(svg, 3)
    assert all(ends[n] == int(np.flatnonzero(p.goal == n)[0]) for n in range(1, 9))
    html = sol._repr_html_()
    ET.fromstring(html)
    assert "31 moves (optimal)" in html and len(html.encode()) <= 50_000
    # the same played in the tile convention, and from a search
    assert final_cells(table.solve([8, 6, 7, 2, 5, 4, 3, 0, 1], convention="tile").to_svg(), 3) == ends
    found = st.solve([8, 6, 7, 2, 5, 4, 3, 0, 1], heuristic="manhattan", algorithm="astar")
    assert final_cells(found.to_svg(), 3) == ends and "nodes generated" in found._repr_html_()
    # the start held, then each move: a solution of length 0 is drawn without animation
    assert "animateTransform" not in table.solve(p.goal).to_svg()


def test_a_solution_without_its_start_says_so_and_compares_as_before():
    s = st.Table.build(st.Puzzle(2, 2)).solve([0, 3, 2, 1])
    bare = st.Solution(s.moves, s.convention, s.length, True, 0, 0, 0.0, "table", "table", goal=s.goal, optimal_length=s.length)
    assert bare == s and bare._repr_html_() is None
    with pytest.raises(ValueError, match="does not know its start"):
        bare.to_svg()
    assert "start=" not in repr(s)


def test_the_summaries_are_html_jupyter_can_show():
    p = st.Puzzle(3, 3)
    table = st.Table.build(p)
    g = table.grade("manhattan")
    data = st.balanced_sample(table, 5, seed=1)
    batch = st.solve_batch([[1, 2, 3, 4, 5, 6, 0, 7, 8], [2, 1, 3, 4, 5, 6, 7, 8, 0]], puzzle=p)
    for obj, words in [
        (p, ["Puzzle 3x3", "blank-last"]),
        (table, ["181,440", "31 moves"]),
        (g, ["manhattan", "admissible, consistent"]),
        (data, ["Dataset", "0 to 31"]),
        (batch, ["2: 1 solved, 1 unsolvable, 0 failed"]),
    ]:
        html = obj._repr_html_()
        ET.fromstring(html)
        for w in words:
            assert w in html, (obj, w, html)
    # plain repr stays as it was, for terminals
    assert repr(p) == "Puzzle(3, 3, goal='blank-last')"
