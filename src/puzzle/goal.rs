//! Goals: the named arrangements our sources use, or any arrangement of the tiles.

use std::fmt;

use crate::error::Error;
use crate::puzzle::board::{Board, Shape};

/// The arrangement a puzzle is solved into.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Goal {
    /// Tiles `1..n-1` in row-major order, blank in the last cell (the 1987 report, COS 226).
    #[default]
    BlankLast,
    /// Blank in the first cell, then tiles `1..n-1` (Russell & Norvig; Hazan & Ra: `0 1 2 / 3 4 5 / 6 7 8`).
    BlankFirst,
    /// Tiles `1, 2, ...` along a clockwise spiral from the top-left corner, ending with the blank
    /// (seeds 003 and 004: `1 2 3 / 8 _ 4 / 7 6 5` on 3x3).
    Snail,
    /// Any other arrangement.
    Custom(Board),
}

impl Goal {
    /// The goal names, as `--goal` accepts them.
    pub const NAMES: [&'static str; 3] = ["blank-last", "blank-first", "snail"];

    /// Parses a goal name (`blank-last`, `blank-first`, `snail`, also called `center`: on 3x3 the
    /// spiral ends with the blank in the centre) or a board in any board syntax.
    ///
    /// A custom board equal to a named goal is returned as that name.
    ///
    /// # Errors
    /// [`Error::BadGoal`] when the text is neither a name nor a valid board of `shape`.
    pub fn parse(shape: Shape, text: &str) -> Result<Goal, Error> {
        match text.trim().to_ascii_lowercase().as_str() {
            "blank-last" | "last" | "default" => Ok(Goal::BlankLast),
            "blank-first" | "first" => Ok(Goal::BlankFirst),
            // on 3x3 the spiral ends in the centre: the textbook's goal `1 2 3 / 8 _ 4 / 7 6 5`
            "snail" | "spiral" | "center" | "centre" => Ok(Goal::Snail),
            other => {
                // near misses of a name: `blank_last`, `blanklast`, `Blank Last`
                let squashed: String = other.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
                if let Some(name) = Goal::NAMES.iter().find(|n| n.replace('-', "") == squashed) {
                    return Err(Error::BadGoal(format!("`{text}` is not a goal name: did you mean `--goal {name}`?")));
                }
                let board = Board::parse(shape, text).map_err(|e| {
                    Error::BadGoal(format!(
                        "`{text}` is not a goal name ({}) nor a {shape} board: {e}",
                        Goal::NAMES.join(", ")
                    ))
                })?;
                Ok(Goal::identify(board))
            }
        }
    }

    /// The named goal equal to `board`, or `Custom(board)`.
    pub fn identify(board: Board) -> Goal {
        let shape = board.shape();
        for named in [Goal::BlankLast, Goal::BlankFirst, Goal::Snail] {
            if named.board(shape).is_ok_and(|b| b == board) {
                return named;
            }
        }
        Goal::Custom(board)
    }

    /// The goal's arrangement on a board of `shape`.
    ///
    /// # Errors
    /// [`Error::BadGoal`] for a custom goal of another shape.
    pub fn board(&self, shape: Shape) -> Result<Board, Error> {
        let n = shape.cells();
        let cells: Vec<u16> = match self {
            Goal::BlankLast => (1..n as u16).chain([0]).collect(),
            Goal::BlankFirst => (0..n as u16).collect(),
            Goal::Snail => snail(shape),
            Goal::Custom(b) if b.shape() == shape => return Ok(b.clone()),
            Goal::Custom(b) => {
                return Err(Error::BadGoal(format!("the goal is a {} board but the board is {shape}", b.shape())))
            }
        };
        Board::new(shape, cells)
    }

    /// The named goals other than `goal` that `board` can reach, for a board that cannot reach
    /// `goal`: a board given without its goal is often written for another convention (Korf's
    /// 15- and 24-puzzle instances have the blank first), and saying only "unsolvable" would
    /// leave the user to guess. Empty when `board` can reach `goal`.
    pub fn reachable_instead(board: &Board, goal: &Board) -> Vec<Goal> {
        if board.is_solvable_to(goal) {
            return Vec::new();
        }
        [Goal::BlankLast, Goal::BlankFirst, Goal::Snail]
            .into_iter()
            .filter(|named| named.board(board.shape()).is_ok_and(|b| &b != goal && board.is_solvable_to(&b)))
            .collect()
    }

    /// A short name for file names and messages: the goal's name, or its tiles (`1-2-3-...`).
    pub fn slug(&self) -> String {
        match self {
            Goal::Custom(b) => {
                let digits = b.cells().iter().all(|&t| t < 10);
                let tiles: Vec<String> = b.cells().iter().map(u16::to_string).collect();
                format!("goal-{}", tiles.join(if digits { "" } else { "-" }))
            }
            named => named.to_string(),
        }
    }
}

impl fmt::Display for Goal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Goal::BlankLast => f.write_str("blank-last"),
            Goal::BlankFirst => f.write_str("blank-first"),
            Goal::Snail => f.write_str("snail"),
            Goal::Custom(b) => write!(f, "{b}"),
        }
    }
}

/// The spiral goal: number the cells clockwise from the top-left corner inwards; the last is blank.
fn snail(shape: Shape) -> Vec<u16> {
    let (rows, cols) = (shape.rows() as isize, shape.cols() as isize);
    let mut cells = vec![0u16; shape.cells()];
    let (mut top, mut bottom, mut left, mut right) = (0isize, rows - 1, 0isize, cols - 1);
    let mut order = Vec::with_capacity(shape.cells());
    while top <= bottom && left <= right {
        order.extend((left..=right).map(|c| (top, c)));
        order.extend((top + 1..=bottom).map(|r| (r, right)));
        if top < bottom {
            order.extend((left..right).rev().map(|c| (bottom, c)));
        }
        if left < right {
            order.extend((top + 1..bottom).rev().map(|r| (r, left)));
        }
        top += 1;
        bottom -= 1;
        left += 1;
        right -= 1;
    }
    let last = order.len() - 1;
    for (k, &(r, c)) in order.iter().enumerate() {
        cells[(r * cols + c) as usize] = if k == last { 0 } else { k as u16 + 1 };
    }
    cells
}
