//! The number of distinct optimal solutions of a board, by dynamic programming down the table.
//!
//! An optimal solution from a state at distance `d` is a walk of `d` moves, each to a neighbour
//! one step closer. The number of such walks reaching a state `s` from the start is the sum of
//! that number over the states one level up that have `s` as a closer neighbour; so, level by
//! level from the start down to the goal, each level is a map from state index to the number of
//! optimal walks reaching it, and the goal's number at the end is the answer. Only the *cone* of
//! the start (the states on some optimal solution) is ever visited, one level held at a time.
//!
//! The counts are `u128` with checked arithmetic: a state has at most 4 neighbours and after the
//! first move at most 3 of them are closer (the one just left is farther), so a board at distance
//! `d` has at most `4 * 3^(d-1)` optimal solutions; for the deepest 12-cell states (80 moves)
//! that is below `2^128`, so [`Error::Overflow`] signals a corrupt table, never a real count.

use std::collections::HashMap;

use crate::error::Error;
use crate::puzzle::board::Board;
use crate::table::Table;

/// How many optimal solutions a board has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    /// The board's exact distance.
    pub distance: u8,
    /// Distinct optimal solutions (sequences of moves); 1 for the goal itself (the empty one).
    pub solutions: u128,
    /// States on at least one optimal solution, the board and the goal included.
    pub cone: u64,
    /// The most states at one distance in the cone.
    pub widest_level: u64,
}

/// The number of distinct optimal solutions of `board`, or `None` if it cannot reach the goal.
///
/// # Errors
/// [`Error::ShapeMismatch`] for a board of another shape; [`Error::Corrupt`] when the table
/// contradicts itself in the cone (a state with no neighbour one closer, or a walk that does not
/// end on the goal); [`Error::Overflow`] (a corrupt table only: see the module doc).
pub fn count_solutions<D: AsRef<[u8]>>(table: &Table<D>, board: &Board) -> Result<Option<Count>, Error> {
    let Some(d) = table.distance(board)? else { return Ok(None) };
    let start = table.index().index(board).expect("a board with a distance has an index");
    Ok(Some(count_from_index(table, start, d)?))
}

/// [`count_solutions`] for the state at `start`, whose distance is `distance`.
fn count_from_index<D: AsRef<[u8]>>(table: &Table<D>, start: u64, distance: u8) -> Result<Count, Error> {
    let index = table.index();
    let mut level: HashMap<u64, u128> = HashMap::from([(start, 1)]);
    let mut cone = 1u64;
    let mut widest = 1u64;
    for d in (1..=distance).rev() {
        let mut next: HashMap<u64, u128> = HashMap::with_capacity(level.len() * 2);
        for (&i, &ways) in &level {
            let mut closer = false;
            let mut overflow = false;
            index.for_each_neighbor_index(i, |_, j| {
                if table.is_closer_neighbour(j, d) {
                    closer = true;
                    let slot = next.entry(j).or_insert(0);
                    match slot.checked_add(ways) {
                        Some(v) => *slot = v,
                        None => overflow = true,
                    }
                }
            });
            if overflow {
                return Err(Error::Overflow("the number of optimal solutions"));
            }
            if !closer {
                return Err(corrupt(table, i, format!("distance {d} but no neighbour at distance {}", d - 1)));
            }
        }
        cone += next.len() as u64;
        widest = widest.max(next.len() as u64);
        level = next;
    }
    let goal = index.index(table.goal()).expect("the goal reaches itself");
    match (level.len(), level.get(&goal)) {
        (1, Some(&solutions)) => Ok(Count { distance, solutions, cone, widest_level: widest }),
        _ => {
            let i = level.keys().copied().find(|&i| i != goal).unwrap_or(goal);
            Err(corrupt(table, i, "distance 0 at a state that is not the goal".to_string()))
        }
    }
}

fn corrupt<D: AsRef<[u8]>>(table: &Table<D>, index: u64, detail: String) -> Error {
    Error::Corrupt { index, board: table.index().board(index).to_string(), detail }
}
