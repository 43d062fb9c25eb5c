//! The puzzle itself: a position on a rectangular board ([`board`]: shape, parsing, moves, the
//! solvability rule) and the arrangements a search aims at ([`goal`]). Everything else in the
//! crate is built on these two; they depend on nothing but the error type.

pub mod board;
pub mod goal;

pub use board::{check_cells, moves_letters, moves_to_string, Board, Dir, Parity, Shape, MAX_SIDE};
pub use goal::Goal;
