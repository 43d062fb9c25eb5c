//! `Puzzle`: a board shape and a goal, and the calls that need nothing more (parsing, the parity
//! rule, moves, children, random walks, the classic heuristics).

use numpy::prelude::*;
use numpy::{PyArray1, PyArray2, PyArray3, PyReadonlyArray2};
use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;
use slidetable::heuristic::Heuristic;
use slidetable::puzzle::board::Dir;
use slidetable::{arrays, Board, Goal, Shape};

use crate::{detach, error, row_error, rows};

/// A board shape and its goal.
#[pyclass(frozen, module = "slidetable._core")]
pub struct Puzzle {
    pub shape: Shape,
    pub goal: Goal,
    pub goal_board: Board,
}

impl Puzzle {
    /// `count` boards of this shape, made by `fill(first, cells)` (the boards from number
    /// `first` on, as many as `cells` holds) `piece` boards at a time with the GIL released,
    /// Ctrl-C looked at between pieces: millions of boards take seconds.
    fn made_in_pieces<'py>(
        &self,
        py: Python<'py>,
        count: usize,
        piece: usize,
        fill: impl Fn(u64, &mut [u16]) + Sync,
    ) -> PyResult<Bound<'py, PyArray2<u16>>> {
        let c = self.shape.cells();
        let too_many = || format!("{count} boards of {c} cells do not fit in memory");
        let len = count.checked_mul(c).ok_or_else(|| PyValueError::new_err(too_many()))?;
        let mut out: Vec<u16> = Vec::new();
        out.try_reserve_exact(len).map_err(|_| PyMemoryError::new_err(too_many()))?;
        out.resize(len, 0);
        for (k, cells) in out.chunks_mut(piece * c.max(1)).enumerate() {
            detach(py, || fill((k * piece) as u64, cells));
            py.check_signals()?;
        }
        PyArray1::from_vec(py, out).reshape([count, c])
    }

    pub fn board(&self, cells: Vec<u16>) -> PyResult<Board> {
        Board::new(self.shape, cells).map_err(error)
    }
}

/// The letters of a move string as directions of the blank.
pub fn parse_moves(moves: &str) -> PyResult<Vec<Dir>> {
    moves
        .chars()
        .filter(|c| !c.is_whitespace() && *c != ',' && *c != '-')
        .map(|c| {
            Dir::from_letter(c).ok_or_else(|| {
                PyValueError::new_err(format!("`{c}` is not a move: moves are the letters U, D, L and R"))
            })
        })
        .collect()
}

#[pymethods]
impl Puzzle {
    #[new]
    #[pyo3(signature = (rows, cols, goal))]
    fn new(rows: usize, cols: usize, goal: &Bound<'_, PyAny>) -> PyResult<Puzzle> {
        let shape = Shape::new(rows, cols).map_err(error)?;
        let goal = if let Ok(text) = goal.extract::<String>() {
            Goal::parse(shape, &text).map_err(error)?
        } else {
            let cells: Vec<i64> = goal.extract().map_err(|_| {
                PyValueError::new_err("goal must be a goal name (blank-last, blank-first, snail) or a board")
            })?;
            let cells = cells
                .into_iter()
                .map(|t| {
                    u16::try_from(t).map_err(|_| PyValueError::new_err(format!("bad goal: tile {t} is out of range")))
                })
                .collect::<PyResult<Vec<u16>>>()?;
            Goal::identify(Board::new(shape, cells).map_err(|e| PyValueError::new_err(format!("bad goal: {e}")))?)
        };
        let goal_board = goal.board(shape).map_err(error)?;
        Ok(Puzzle { shape, goal, goal_board })
    }

    /// Rows of the board.
    #[getter]
    fn rows(&self) -> usize {
        self.shape.rows()
    }

    /// Columns of the board.
    #[getter]
    fn cols(&self) -> usize {
        self.shape.cols()
    }

    /// Cells of the board.
    #[getter]
    fn cells(&self) -> usize {
        self.shape.cells()
    }

    /// The goal's cells, row-major, 0 the blank.
    #[getter]
    fn goal_cells(&self) -> Vec<u16> {
        self.goal_board.cells().to_vec()
    }

    /// The goal's name (`blank-last`, `blank-first`, `snail`) or its tiles.
    #[getter]
    fn goal_name(&self) -> String {
        self.goal.to_string()
    }

    /// The goal's name as a file name part, as `table build` names files.
    #[getter]
    fn goal_slug(&self) -> String {
        self.goal.slug()
    }

    /// A board parsed from text in any syntax `table` accepts, or a COS 226 puzzle file's text.
    fn parse(&self, text: &str) -> PyResult<Vec<u16>> {
        let first = text.trim_start().lines().next().unwrap_or("");
        let looks_cos226 = text.trim().contains('\n') && (1..=2).contains(&first.split_whitespace().count());
        let board = if looks_cos226 {
            let b = Board::parse_cos226(text).map_err(error)?;
            if b.shape() != self.shape {
                return Err(PyValueError::new_err(format!("the file holds a {} board, not {}", b.shape(), self.shape)));
            }
            b
        } else {
            Board::parse(self.shape, text).map_err(error)?
        };
        Ok(board.cells().to_vec())
    }

    /// Whether each board can reach the goal.
    fn solvable<'py>(
        &self,
        py: Python<'py>,
        cells: PyReadonlyArray2<'py, u16>,
    ) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let rows = rows(self.shape, &cells)?;
        let mut out = vec![false; cells.shape()[0]];
        detach(py, || arrays::solvable(&self.goal_board, rows, &mut out)).map_err(row_error)?;
        Ok(PyArray1::from_vec(py, out))
    }

    /// The estimate `name` of each board.
    fn estimates<'py>(
        &self,
        py: Python<'py>,
        cells: PyReadonlyArray2<'py, u16>,
        name: &str,
    ) -> PyResult<Bound<'py, PyArray1<u32>>> {
        let h = Heuristic::from_name(name).ok_or_else(|| {
            PyValueError::new_err(format!(
                "unknown heuristic `{name}`: use misplaced (hamming), manhattan, linear-conflict or nilsson"
            ))
        })?;
        let rows = rows(self.shape, &cells)?;
        let mut out = vec![0u32; cells.shape()[0]];
        detach(py, || arrays::estimates(&self.goal_board, h, rows, &mut out)).map_err(row_error)?;
        Ok(PyArray1::from_vec(py, out))
    }

    /// The four children of each board (U D L R of the blank) and which moves are legal.
    #[allow(clippy::type_complexity)]
    fn expand<'py>(
        &self,
        py: Python<'py>,
        cells: PyReadonlyArray2<'py, u16>,
    ) -> PyResult<(Bound<'py, PyArray3<u16>>, Bound<'py, PyArray2<bool>>)> {
        let rows = rows(self.shape, &cells)?;
        let (n, c) = (cells.shape()[0], self.shape.cells());
        let mut kids = vec![0u16; n * 4 * c];
        let mut valid = vec![false; n * 4];
        detach(py, || arrays::expand(self.shape, rows, &mut kids, &mut valid)).map_err(row_error)?;
        let kids = PyArray1::from_vec(py, kids).reshape([n, 4, c])?;
        let valid = PyArray1::from_vec(py, valid).reshape([n, 4])?;
        Ok((kids, valid))
    }

    /// The board after the blank's moves (letters U D L R).
    fn apply(&self, cells: Vec<u16>, moves: &str) -> PyResult<Vec<u16>> {
        let mut board = self.board(cells)?;
        arrays::apply_moves(&mut board, &parse_moves(moves)?).map_err(error)?;
        Ok(board.cells().to_vec())
    }

    /// Boards reached from the goal by random walks.
    fn random_walks<'py>(
        &self,
        py: Python<'py>,
        count: usize,
        steps: usize,
        seed: u64,
    ) -> PyResult<Bound<'py, PyArray2<u16>>> {
        let goal = &self.goal_board;
        self.made_in_pieces(py, count, 1 << 18, |first, piece| {
            arrays::random_walks_from(goal, first, steps, seed, piece)
        })
    }

    /// `count` boards drawn uniformly from every board that can reach the goal
    /// (`arrays::random_boards`).
    fn random_boards<'py>(&self, py: Python<'py>, count: usize, seed: u64) -> PyResult<Bound<'py, PyArray2<u16>>> {
        let goal = &self.goal_board;
        self.made_in_pieces(py, count, 1 << 20, |first, piece| arrays::random_boards(goal, seed, first, piece))
    }

    /// Why a board cannot reach the goal (the parity rule), or None if it can.
    fn unsolvable_reason(&self, cells: Vec<u16>) -> PyResult<Option<String>> {
        let board = self.board(cells)?;
        let parity = board.parity_to(&self.goal_board);
        Ok((!parity.is_solvable()).then(|| parity.explain()))
    }

    /// The named goals this board can reach when it cannot reach the puzzle's
    /// (`Goal::reachable_instead`): empty when it can reach it.
    fn reachable_instead(&self, cells: Vec<u16>) -> PyResult<Vec<String>> {
        let board = self.board(cells)?;
        Ok(Goal::reachable_instead(&board, &self.goal_board).iter().map(Goal::to_string).collect())
    }

    /// The board drawn as a grid.
    fn grid(&self, cells: Vec<u16>) -> PyResult<String> {
        Ok(self.board(cells)?.grid())
    }
}
