//! Perfect lookup tables for sliding-tile puzzles.
//!
//! A perfect table holds the exact distance to the goal of every state reachable from it, one byte
//! per state, as in Utgoff & Saxena's "A Perfect Lookup Table Evaluation Function for the
//! Eight-Puzzle" (1987). It answers "how far is this board?" with one memory read, and gives an
//! optimal solution by hill-climbing: from any state, step to a neighbour one closer.
//!
//! # Overview
//! The crate is layered; each folder's module doc says what it holds, and a lower layer never
//! uses a higher one.
//! - [`puzzle`]: [`Shape`] and [`Board`] (a rectangular position, parsing, moves ([`Dir`]) and the
//!   solvability rule) and [`Goal`] (the named goals of our sources, `blank-last`, `blank-first`,
//!   `snail`, or any arrangement).
//! - [`index`]: [`StateIndex`], the bijection between reachable states and `0..n!/2`, and the
//!   neighbours of a state computed from its index alone.
//! - [`table`]: [`build`], a parallel breadth-first search from the goal filling a table; the
//!   file layout; [`Table`], an opened table over any bytes: lookups, solutions, verification.
//! - [`heuristic`] and [`search`]: distance estimates, A* and IDA* on boards of any size.
//! - [`lab`]: the laboratory: states drawn at random at one depth, the number of optimal
//!   solutions, a heuristic graded against the exact distances, Russell & Norvig's experiment.
//! - [`game`]: the puzzle played move by move, with undo, redo and the exact distance after every
//!   move (what `table play` shows).
//! - [`arrays`]: many boards at once, as one flat array of cells (what the Python package calls):
//!   distances, ranks, estimates, children, random walks, each board checked, spread over the cores.
//! - [`solver`]: what every front end decides the same way before a search: the heuristic, the
//!   pattern tables (found, or built on the spot), the perfect table that checks the answer.
//! - [`Error`]: everything that can go wrong.
//!
//! # Example
//! ```
//! use slidetable::{build, Board, Goal, Shape, Table};
//!
//! // Build the 8-puzzle table (181,440 states) and write it to a file.
//! let goal = Goal::BlankLast.board(Shape::EIGHT)?;
//! let table = build(&goal, |_progress| {})?;
//! let dir = tempfile::tempdir()?;
//! let path = dir.path().join("eight.table");
//! table.write(&path)?;
//!
//! // Open it again (memory-mapped) and ask about one of the two hardest states.
//! let table = slidetable::open(&path)?;
//! let board = Board::parse(Shape::EIGHT, "8 6 7 / 2 5 4 / 3 0 1")?;
//! assert_eq!(table.distance(&board)?, Some(31));
//! let solution = table.solve(&board)?.expect("solvable");
//! assert_eq!(solution.moves.len(), 31);
//! assert_eq!(table.histogram().len(), 32); // depths 0..=31
//!
//! // Half of all arrangements cannot reach the goal.
//! let swapped = Board::parse(Shape::EIGHT, "2 1 3 4 5 6 7 8 0")?;
//! assert_eq!(table.distance(&swapped)?, None);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

pub mod arrays;
pub mod error;
pub mod game;
pub mod heuristic;
pub mod index;
pub mod lab;
mod memory;
pub mod puzzle;
pub mod search;
pub mod solver;
pub mod table;

pub use error::{BoardError, Error};
pub use index::StateIndex;
pub use puzzle::{Board, Dir, Goal, Parity, Shape};
pub use table::bfs::Progress;
pub use table::{build, build_file, open, read, Solution, Table};
