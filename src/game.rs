//! A game of the puzzle, played move by move, with the exact distance left after every move.
//!
//! [`Game`] holds the position, the moves made (with undo and redo) and what is known of the
//! distance to the goal after each of them. The distances come from an [`Oracle`]: a perfect
//! table answers at once ([`Table`]); past 12 cells, [`SearchOracle`] finds the exact distance by
//! IDA* with pattern databases or linear conflict, which can take a while, so a caller with a
//! screen to keep alive asks it on another thread and hands the answer to
//! [`Game::set_distance`]. Nothing here draws: `table play` turns a game into a screen.

use crate::error::Error;
use crate::heuristic::{Heuristic, PatternSet};
use crate::lab::sample::sample_depth;
use crate::puzzle::board::{Board, Dir};
use std::sync::{Arc, Mutex};

use crate::search::{solve, Algorithm, ChildOrder, Guide, Options, Watch};
use crate::table::Table;

/// Where exact distances come from.
pub trait Oracle: Send + Sync {
    /// The goal the distances are measured to.
    fn goal(&self) -> &Board;

    /// The exact distance of `board` to the goal, or `None` when it cannot reach it.
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] for a board of another shape; a table's [`Error::Corrupt`]; a
    /// search's [`Error::SearchLimit`].
    fn distance(&self, board: &Board) -> Result<Option<u32>, Error>;

    /// What it is, in a few words: "eight.table", "IDA* with pattern tables 6-6-3".
    fn describe(&self) -> String;

    /// Whether an answer takes microseconds (a table), so that a caller may ask on the spot.
    fn is_instant(&self) -> bool;

    /// Stops the searches under way (they return [`Error::Cancelled`]); later ones run. For a
    /// caller whose questions went stale (the player moved on); a table has nothing to stop.
    fn interrupt(&self) {}

    /// The guide this oracle can give a search: a table's exact distance, or pattern databases.
    fn guide(&self) -> Option<Guide<'_>> {
        None
    }

    /// Whether [`Oracle::distance`] is the exact distance. An oracle that is not
    /// ([`BoundedOracle`], past the 24-puzzle) gives the length of a solution it found instead,
    /// with [`Oracle::solution`].
    fn is_exact(&self) -> bool {
        true
    }

    /// For an oracle that is not exact: the solution its last [`Oracle::distance`] of `board`
    /// found, and the lower bound it proved on the optimum; `None` otherwise.
    fn solution(&self, board: &Board) -> Option<(Vec<Dir>, Option<u32>)> {
        let _ = board;
        None
    }

    /// A board drawn uniformly at random from those exactly `depth` moves from the goal, where
    /// the oracle knows them all (a table); `None` where it does not.
    fn scramble(&self, depth: u8, seed: u64) -> Option<Result<Board, Error>> {
        let _ = (depth, seed);
        None
    }
}

/// A perfect table and the name to show for it.
pub struct TableOracle<D: AsRef<[u8]> + Send + Sync> {
    /// The table.
    pub table: Table<D>,
    /// Its file name, or how it was made.
    pub name: String,
}

impl<D: AsRef<[u8]> + Send + Sync> Oracle for TableOracle<D> {
    fn goal(&self) -> &Board {
        self.table.goal()
    }

    fn distance(&self, board: &Board) -> Result<Option<u32>, Error> {
        Ok(self.table.distance(board)?.map(u32::from))
    }

    fn describe(&self) -> String {
        self.name.clone()
    }

    fn is_instant(&self) -> bool {
        true
    }

    fn scramble(&self, depth: u8, seed: u64) -> Option<Result<Board, Error>> {
        Some(scramble(&self.table, depth, seed))
    }

    fn guide(&self) -> Option<Guide<'_>> {
        Some(Guide::Table(&self.table))
    }
}

/// Exact distances by IDA* search: with pattern databases when given, else linear conflict.
pub struct SearchOracle {
    goal: Board,
    patterns: Option<PatternSet>,
    threads: usize,
    max_nodes: Option<u64>,
    /// The watch of the searches now running; [`Oracle::interrupt`] cancels it and puts a new one.
    watch: Mutex<Arc<Watch>>,
}

impl SearchOracle {
    /// An oracle for `goal` searching with `patterns` (which must be for `goal`) or, without them,
    /// linear conflict; each search on `threads` threads and given up past `max_nodes` nodes.
    pub fn new(goal: Board, patterns: Option<PatternSet>, threads: usize, max_nodes: Option<u64>) -> SearchOracle {
        SearchOracle { goal, patterns, threads: threads.max(1), max_nodes, watch: Mutex::new(Arc::new(Watch::new())) }
    }
}

impl Oracle for SearchOracle {
    fn goal(&self) -> &Board {
        &self.goal
    }

    fn distance(&self, board: &Board) -> Result<Option<u32>, Error> {
        let guide = match &self.patterns {
            Some(set) => Guide::Patterns(set),
            None => Guide::Heuristic(Heuristic::LinearConflict),
        };
        let options = Options {
            algorithm: Algorithm::IdaStar,
            max_nodes: self.max_nodes,
            max_bytes: None,
            order: ChildOrder::ByEstimate,
            threads: self.threads,
            watch: Some(Arc::clone(&self.watch.lock().unwrap_or_else(|e| e.into_inner()))),
            prune: None,
            checkpoint: None,
            time_limit: None,
            anytime: false,
        };
        Ok(solve(board, &self.goal, guide, &options)?.map(|found| found.moves.len() as u32))
    }

    fn describe(&self) -> String {
        match &self.patterns {
            Some(set) => format!("IDA* with pattern tables {}", set.partition().name),
            None => "IDA* with linear conflict".to_string(),
        }
    }

    fn is_instant(&self) -> bool {
        false
    }

    fn interrupt(&self) {
        let mut watch = self.watch.lock().unwrap_or_else(|e| e.into_inner());
        watch.cancel();
        *watch = Arc::new(Watch::new());
    }

    fn guide(&self) -> Option<Guide<'_>> {
        self.patterns.as_ref().map(Guide::Patterns)
    }
}

/// Past the 24-puzzle, where no exact distance comes in seconds: the length of a solution found
/// by `algorithm` (the library's default for the size, [`crate::solver::Solver::default_algorithm`]:
/// within a factor of the optimum, or reduce) with pattern databases when given, else linear
/// conflict, each search stopped at `time_limit` with the best it has. Its distances are upper
/// bounds ([`Oracle::is_exact`] is false); its hint is its solution's first move.
pub struct BoundedOracle {
    goal: Board,
    patterns: Option<PatternSet>,
    algorithm: Algorithm,
    time_limit: Option<std::time::Duration>,
    watch: Mutex<Arc<Watch>>,
    /// The boards solved lately, newest last, with their solutions and proven lower bounds.
    last: Mutex<Vec<Solved>>,
}

/// How many solved boards [`BoundedOracle`] keeps (an undo finds its board again).
const KEPT: usize = 32;

/// How far along a kept solution [`BoundedOracle`] looks for a board (a player following hints
/// is a few moves along the last one).
const ALONG: usize = 64;

/// A board, the solution found for it and the lower bound proven on its optimum.
type Solved = (Board, Vec<Dir>, Option<u32>);

impl BoundedOracle {
    /// An oracle for `goal` solving with `algorithm` (a bounded or constructive one) guided by
    /// `patterns` (which must be for `goal`) or linear conflict, each search at most `time_limit`.
    pub fn new(
        goal: Board,
        patterns: Option<PatternSet>,
        algorithm: Algorithm,
        time_limit: Option<std::time::Duration>,
    ) -> BoundedOracle {
        BoundedOracle {
            goal,
            patterns,
            algorithm,
            time_limit,
            watch: Mutex::new(Arc::new(Watch::new())),
            last: Mutex::new(Vec::new()),
        }
    }

    /// A kept solution from `board`: its own, or the rest of one that passes through it within
    /// [`ALONG`] moves, its bound lowered by the moves made (one move changes the optimum by one).
    fn kept(&self, board: &Board) -> Option<(Vec<Dir>, Option<u32>)> {
        let last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        for (b, moves, lb) in last.iter().rev() {
            let mut at = b.clone();
            for k in 0..=moves.len().min(ALONG) {
                if &at == board {
                    return Some((moves[k..].to_vec(), lb.map(|l| l.saturating_sub(k as u32))));
                }
                if k < moves.len() && at.apply(moves[k]).is_none() {
                    break;
                }
            }
        }
        None
    }

    fn keep(&self, board: &Board, moves: Vec<Dir>, lb: Option<u32>) {
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        last.retain(|(b, _, _)| b != board);
        if last.len() >= KEPT {
            last.remove(0);
        }
        last.push((board.clone(), moves, lb));
    }
}

impl Oracle for BoundedOracle {
    fn goal(&self) -> &Board {
        &self.goal
    }

    fn distance(&self, board: &Board) -> Result<Option<u32>, Error> {
        if let Some((moves, lb)) = self.kept(board) {
            let len = moves.len() as u32;
            self.keep(board, moves, lb);
            return Ok(Some(len));
        }
        let guide = match &self.patterns {
            Some(set) => Guide::Patterns(set),
            None => Guide::Heuristic(Heuristic::LinearConflict),
        };
        let options = Options {
            time_limit: self.time_limit,
            watch: Some(Arc::clone(&self.watch.lock().unwrap_or_else(|e| e.into_inner()))),
            // the bounded search's first solution, a beam's, is made on every core
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            ..Options::new(self.algorithm)
        };
        let Some(found) = solve(board, &self.goal, guide, &options)? else { return Ok(None) };
        let len = found.moves.len() as u32;
        self.keep(board, found.moves, found.lower_bound);
        Ok(Some(len))
    }

    fn describe(&self) -> String {
        let guide = match &self.patterns {
            Some(set) => format!("pattern tables {}", set.partition().name),
            None => "linear conflict".to_string(),
        };
        match self.algorithm {
            Algorithm::Within(w) => format!("a search within a factor {w} of optimal with {guide}"),
            other => format!("{} (lower bound by {guide})", other.name()),
        }
    }

    fn is_instant(&self) -> bool {
        false
    }

    fn is_exact(&self) -> bool {
        false
    }

    fn solution(&self, board: &Board) -> Option<(Vec<Dir>, Option<u32>)> {
        self.kept(board)
    }

    fn interrupt(&self) {
        let mut watch = self.watch.lock().unwrap_or_else(|e| e.into_inner());
        watch.cancel();
        *watch = Arc::new(Watch::new());
    }

    fn guide(&self) -> Option<Guide<'_>> {
        self.patterns.as_ref().map(Guide::Patterns)
    }
}

/// The blank's moves from `board` that bring it one move closer: those whose neighbour's
/// distance is one less. Empty at the goal.
///
/// # Errors
/// Those of [`Oracle::distance`]. A board that cannot reach the goal has no optimal moves.
pub fn optimal_moves(oracle: &dyn Oracle, board: &Board) -> Result<Vec<Dir>, Error> {
    optimal_moves_at(oracle, board, oracle.distance(board)?)
}

/// As [`optimal_moves`], for a board whose distance `distance` is already known (`None`: it
/// cannot reach the goal), so that only the neighbours are asked about.
///
/// # Errors
/// Those of [`Oracle::distance`].
pub fn optimal_moves_at(oracle: &dyn Oracle, board: &Board, distance: Option<u32>) -> Result<Vec<Dir>, Error> {
    let Some(d) = distance else { return Ok(Vec::new()) };
    if !oracle.is_exact() {
        // the first move of the solution found (not proven optimal: the caller says so)
        let moves = match oracle.solution(board) {
            Some((moves, _)) => moves,
            None => {
                oracle.distance(board)?;
                oracle.solution(board).map(|(m, _)| m).unwrap_or_default()
            }
        };
        return Ok(moves.first().copied().into_iter().collect());
    }
    let mut best = Vec::new();
    if d == 0 {
        return Ok(best);
    }
    for dir in Dir::ALL {
        if let Some(next) = board.moved(dir) {
            if oracle.distance(&next)? == Some(d - 1) {
                best.push(dir);
            }
        }
    }
    Ok(best)
}

/// A board drawn uniformly at random from the states exactly `depth` moves from the table's goal.
///
/// # Errors
/// [`Error::NotEnoughStates`] when no state lies that far.
pub fn scramble<D: AsRef<[u8]>>(table: &Table<D>, depth: u8, seed: u64) -> Result<Board, Error> {
    let index = sample_depth(table, depth, 1, seed)?[0];
    Ok(table.index().board(index))
}

/// What a move did to the distance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// One closer: an optimal move.
    Closer,
    /// One farther.
    Farther,
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Game {
    goal: Board,
    start: Board,
    board: Board,
    /// The blank's moves made, oldest first.
    done: Vec<Dir>,
    /// Moves undone, the next to redo last.
    undone: Vec<Dir>,
    /// The distance after each prefix of `done` (`known[k]`: after `k` moves), when known.
    known: Vec<Option<u32>>,
    /// The distances of the undone positions, kept for redo, in `undone`'s order.
    undone_known: Vec<Option<u32>>,
}

impl Game {
    /// A game from `start` to `goal`, its distance if already known.
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] when the two boards differ in shape; [`Error::BadOption`] when
    /// `start` cannot reach `goal`.
    pub fn new(start: Board, goal: Board, distance: Option<u32>) -> Result<Game, Error> {
        if start.shape() != goal.shape() {
            return Err(Error::ShapeMismatch { board: start.shape(), table: goal.shape() });
        }
        if !start.is_solvable_to(&goal) {
            return Err(Error::BadOption(format!("{start} cannot reach the goal {goal}")));
        }
        Ok(Game {
            goal,
            board: start.clone(),
            start,
            done: Vec::new(),
            undone: Vec::new(),
            known: vec![distance],
            undone_known: Vec::new(),
        })
    }

    /// The position now.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The goal.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// The position the game started from.
    pub fn start(&self) -> &Board {
        &self.start
    }

    /// The blank's moves made so far (undone ones not counted).
    pub fn moves(&self) -> &[Dir] {
        &self.done
    }

    /// The exact distance left, when known.
    pub fn distance(&self) -> Option<u32> {
        *self.known.last().expect("one entry per position")
    }

    /// The start's exact distance, when known: the fewest moves the game could take.
    pub fn optimal(&self) -> Option<u32> {
        self.known[0]
    }

    /// Records the exact distance of the position now (from an oracle asked elsewhere).
    pub fn set_distance(&mut self, distance: u32) {
        *self.known.last_mut().expect("one entry per position") = Some(distance);
    }

    /// Records the exact distance of the position after `moves` moves, if the game still has it
    /// (an answer that comes back after an undo).
    pub fn set_distance_at(&mut self, moves: usize, board: &Board, distance: u32) {
        if moves <= self.done.len() && self.board_after(moves) == *board {
            self.known[moves] = Some(distance);
        }
    }

    /// The position after the first `moves` moves.
    pub fn board_after(&self, moves: usize) -> Board {
        let mut b = self.start.clone();
        for &dir in &self.done[..moves.min(self.done.len())] {
            b.apply(dir);
        }
        b
    }

    /// Whether the board is the goal.
    pub fn is_won(&self) -> bool {
        self.board == self.goal
    }

    /// What the last move did to the distance, when both distances are known.
    pub fn last_verdict(&self) -> Option<Verdict> {
        let n = self.known.len();
        if n < 2 {
            return None;
        }
        match (self.known[n - 2], self.known[n - 1]) {
            (Some(a), Some(b)) if b < a => Some(Verdict::Closer),
            (Some(_), Some(_)) => Some(Verdict::Farther),
            _ => None,
        }
    }

    /// Moves the blank one step `dir` (the tile there slides into the blank); returns the tile,
    /// or `None` (and nothing changes) at the edge. Clears the moves that could be redone.
    pub fn slide(&mut self, dir: Dir) -> Option<u16> {
        let tile = self.board.apply(dir)?;
        self.done.push(dir);
        self.known.push(None);
        self.undone.clear();
        self.undone_known.clear();
        Some(tile)
    }

    /// Slides the tiles between the blank and `cell` toward the blank, as a click on a tile in
    /// the blank's row or column does: one move per tile. Returns the number of moves, 0 when
    /// `cell` is the blank or not in its row or column.
    pub fn slide_to(&mut self, cell: usize) -> usize {
        let shape = self.board.shape();
        let cols = shape.cols();
        let blank = self.board.blank();
        if cell >= shape.cells() || cell == blank {
            return 0;
        }
        let (br, bc, r, c) = (blank / cols, blank % cols, cell / cols, cell % cols);
        let (dir, steps) = if br == r {
            if c > bc {
                (Dir::Right, c - bc)
            } else {
                (Dir::Left, bc - c)
            }
        } else if bc == c {
            if r > br {
                (Dir::Down, r - br)
            } else {
                (Dir::Up, br - r)
            }
        } else {
            return 0;
        };
        for _ in 0..steps {
            self.slide(dir);
        }
        steps
    }

    /// Takes back the last move; false when there is none.
    pub fn undo(&mut self) -> bool {
        let Some(dir) = self.done.pop() else { return false };
        self.board.apply(dir.opposite());
        self.undone.push(dir);
        self.undone_known.push(self.known.pop().expect("one entry per position"));
        true
    }

    /// Makes again the last move taken back; false when there is none.
    pub fn redo(&mut self) -> bool {
        let Some(dir) = self.undone.pop() else { return false };
        self.board.apply(dir);
        self.done.push(dir);
        self.known.push(self.undone_known.pop().expect("one entry per undone move"));
        true
    }

    /// Whether a move can be redone.
    pub fn can_redo(&self) -> bool {
        !self.undone.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{Goal, Shape};

    fn table() -> TableOracle<Vec<u8>> {
        let goal = Goal::BlankLast.board(Shape::EIGHT).unwrap();
        TableOracle { table: crate::build(&goal, |_| {}).unwrap(), name: "test".into() }
    }

    fn board(text: &str) -> Board {
        Board::parse(Shape::EIGHT, text).unwrap()
    }

    #[test]
    fn moves_distances_verdicts_undo_and_redo() {
        let oracle = table();
        let start = board("1 2 3 4 5 6 7 0 8");
        let mut g = Game::new(start.clone(), oracle.goal().clone(), Some(1)).unwrap();
        assert_eq!((g.distance(), g.optimal(), g.last_verdict()), (Some(1), Some(1), None));
        // the blank moves up: tile 5 slides down, one farther
        assert_eq!(g.slide(Dir::Up), Some(5));
        assert_eq!(g.distance(), None);
        g.set_distance(oracle.distance(g.board()).unwrap().unwrap());
        assert_eq!((g.distance(), g.last_verdict()), (Some(2), Some(Verdict::Farther)));
        assert!(g.undo());
        assert_eq!((g.board(), g.distance(), g.moves().len()), (&start, Some(1), 0));
        assert!(g.redo());
        assert_eq!((g.distance(), g.moves()), (Some(2), &[Dir::Up][..]));
        assert!(!g.redo());
        g.undo();
        g.slide(Dir::Right);
        g.set_distance(0);
        assert!(g.is_won());
        assert_eq!(g.last_verdict(), Some(Verdict::Closer));
        assert!(!g.can_redo(), "a new move clears the redo list");
        assert_eq!(g.slide(Dir::Right), None, "at the edge nothing moves");
        assert_eq!(g.moves().len(), 1);
        assert!(g.undo());
        assert!(!g.undo());
    }

    #[test]
    fn a_click_slides_a_row_or_column_of_tiles() {
        let mut g = Game::new(board("1 2 3 4 5 6 7 8 0"), board("1 2 3 4 5 6 7 8 0"), Some(0)).unwrap();
        assert_eq!(g.slide_to(6), 2);
        assert_eq!(g.board(), &board("1 2 3 4 5 6 0 7 8"));
        assert_eq!(g.slide_to(0), 2);
        assert_eq!(g.board(), &board("0 2 3 1 5 6 4 7 8"));
        assert_eq!(g.slide_to(4), 0, "not in the blank's row or column");
        assert_eq!(g.slide_to(0), 0, "the blank itself");
        assert_eq!(g.slide_to(99), 0);
        assert_eq!(g.moves(), &[Dir::Left, Dir::Left, Dir::Up, Dir::Up]);
    }

    #[test]
    fn optimal_moves_agree_with_the_table_everywhere_on_a_sample() {
        let oracle = table();
        for index in (0..181_440).step_by(997) {
            let b = oracle.table.index().board(index);
            let d = oracle.distance(&b).unwrap().unwrap();
            let best = optimal_moves(&oracle, &b).unwrap();
            assert_eq!(best.is_empty(), d == 0);
            for dir in Dir::ALL {
                let Some(next) = b.moved(dir) else { continue };
                let closer = oracle.distance(&next).unwrap() == Some(d.wrapping_sub(1));
                assert_eq!(best.contains(&dir), closer);
            }
        }
    }

    #[test]
    fn search_oracle_agrees_with_the_table() {
        let oracle = table();
        let search = SearchOracle::new(oracle.goal().clone(), None, 1, None);
        for index in (0..181_440).step_by(9_973) {
            let b = oracle.table.index().board(index);
            assert_eq!(search.distance(&b).unwrap(), oracle.distance(&b).unwrap());
        }
        assert!(!search.is_instant() && oracle.is_instant());
    }

    #[test]
    fn scrambles_are_at_the_asked_distance_and_unsolvable_starts_refused() {
        let oracle = table();
        for depth in [0u8, 1, 15, 31] {
            for seed in 0..5 {
                let b = scramble(&oracle.table, depth, seed).unwrap();
                assert_eq!(oracle.distance(&b).unwrap(), Some(depth as u32));
            }
        }
        assert!(scramble(&oracle.table, 32, 1).is_err());
        let swapped = board("2 1 3 4 5 6 7 8 0");
        assert!(Game::new(swapped, oracle.goal().clone(), None).is_err());
    }

    #[test]
    fn an_interrupted_search_oracle_stops_and_answers_the_next_question() {
        let shape = Shape::new(4, 4).unwrap();
        let goal = Goal::BlankFirst.board(shape).unwrap();
        let oracle = SearchOracle::new(goal.clone(), None, 1, None);
        // Korf's instance 88: minutes with linear conflict
        let hard = Board::parse(shape, "15 14 8 12 10 11 9 13 2 6 5 1 3 7 4 0").unwrap();
        let outcome = std::thread::scope(|s| {
            let search = s.spawn(|| oracle.distance(&hard));
            std::thread::sleep(std::time::Duration::from_millis(50));
            oracle.interrupt();
            search.join().unwrap()
        });
        assert!(matches!(outcome, Err(Error::Cancelled { .. })), "{outcome:?}");
        let easy = goal.moved(Dir::Right).unwrap();
        assert_eq!(oracle.distance(&easy).unwrap(), Some(1));
    }

    #[test]
    fn a_bounded_oracle_follows_its_own_solution_and_keeps_undone_boards() {
        // a 6x6 (past the 24-puzzle): the length of a solution found, and its first move as the hint
        let shape = crate::Shape::new(6, 6).unwrap();
        let goal = crate::Goal::BlankLast.board(shape).unwrap();
        let oracle = BoundedOracle::new(goal.clone(), None, Algorithm::Reduce, None);
        assert!(!oracle.is_exact());
        let mut board = goal.clone();
        let mut rng = crate::lab::sample::SplitMix64::new(5);
        for _ in 0..300 {
            let _ = board.apply(Dir::ALL[(rng.next_u64() % 4) as usize]);
        }
        let d = oracle.distance(&board).unwrap().unwrap();
        let (moves, lb) = oracle.solution(&board).unwrap();
        assert_eq!(moves.len() as u32, d);
        let lb = lb.unwrap();
        assert!(lb <= d);
        let hint = optimal_moves_at(&oracle, &board, Some(d)).unwrap();
        assert_eq!(hint, moves[..1]);
        // the hint followed: the rest of the same solution, its bound one lower, no new search
        let next = board.moved(hint[0]).unwrap();
        assert_eq!(oracle.distance(&next).unwrap(), Some(d - 1));
        assert_eq!(oracle.solution(&next).unwrap(), (moves[1..].to_vec(), Some(lb.saturating_sub(1))));
        // and the board before it, after an undo, is still known
        assert_eq!(oracle.solution(&board).unwrap().0, moves);
    }
}
