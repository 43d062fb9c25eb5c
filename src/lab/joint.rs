//! The joint distribution of an estimate and the exact distance over every state of a table:
//! how many states at distance `h*` get estimate `h`, for a heat map of `h` against `h*`. Cells
//! on the diagonal are exact; above it (`h > h*`) the estimate overestimates.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;

use crate::error::Error;
use crate::puzzle::Board;
use crate::table::Table;

/// States per unit of parallel work.
const CHUNK: u64 = 1 << 14;

/// The largest estimate [`joint`] takes: four times the deepest distance a table can hold, so a
/// broken estimate cannot make it allocate a row of billions of cells.
pub const MAX_ESTIMATE: u32 = 1024;

/// An estimate against the exact distance, over every state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Joint {
    /// `counts[d][h]`: the states at exact distance `d` whose estimate is `h`; each row as long
    /// as its largest `h` with a state, plus one (empty for a distance with no state).
    pub counts: Vec<Vec<u64>>,
    /// States counted.
    pub states: u64,
    /// States whose estimate is their exact distance.
    pub exact: u64,
    /// States whose estimate exceeds their exact distance.
    pub overestimates: u64,
    /// The sum of the exact distances.
    pub sum_exact: u64,
    /// The sum of the estimates.
    pub sum_h: u64,
}

impl Joint {
    /// The share of states (0 to 1) whose estimate is exact.
    pub fn exact_share(&self) -> f64 {
        if self.states == 0 {
            0.0
        } else {
            self.exact as f64 / self.states as f64
        }
    }

    /// The mean of `h* - h` over every state.
    pub fn mean_error(&self) -> f64 {
        if self.states == 0 {
            0.0
        } else {
            (self.sum_exact as f64 - self.sum_h as f64) / self.states as f64
        }
    }

    fn add(&mut self, d: usize, h: usize) {
        self.add_many(d, h, 1);
    }

    /// Counts `count` states at exact distance `d` with estimate `h`.
    fn add_many(&mut self, d: usize, h: usize, count: u64) {
        if self.counts.len() <= d {
            self.counts.resize(d + 1, Vec::new());
        }
        let row = &mut self.counts[d];
        if row.len() <= h {
            row.resize(h + 1, 0);
        }
        row[h] += count;
        self.states += count;
        self.exact += (d == h) as u64 * count;
        self.overestimates += (h > d) as u64 * count;
        self.sum_exact += d as u64 * count;
        self.sum_h += h as u64 * count;
    }

    /// With a row (empty if need be) for every distance up to `depths - 1`.
    fn with_rows(mut self, depths: usize) -> Joint {
        if self.counts.len() < depths {
            self.counts.resize(depths, Vec::new());
        }
        self
    }

    fn merge(mut self, other: Joint) -> Joint {
        if self.counts.len() < other.counts.len() {
            self.counts.resize(other.counts.len(), Vec::new());
        }
        for (mine, theirs) in self.counts.iter_mut().zip(other.counts) {
            if mine.len() < theirs.len() {
                mine.resize(theirs.len(), 0);
            }
            for (m, t) in mine.iter_mut().zip(theirs) {
                *m += t;
            }
        }
        self.states += other.states;
        self.exact += other.exact;
        self.overestimates += other.overestimates;
        self.sum_exact += other.sum_exact;
        self.sum_h += other.sum_h;
        self
    }
}

/// The joint distribution of `estimate` (a function of a board's cells, row by row, 0 the blank)
/// and the exact distance, over every state of `table`, computed in parallel (a few milliseconds
/// for the 181,440 states of 3x3). `stop` is read once per block of states.
///
/// # Errors
/// [`Error::Cancelled`] when `stop` is set, its `generated` the number of states done;
/// [`Error::Corrupt`] for an entry that is not a distance; [`Error::BadOption`] for an estimate
/// above [`MAX_ESTIMATE`].
pub fn joint<D: AsRef<[u8]> + Sync>(
    table: &Table<D>,
    estimate: &(dyn Fn(&[u16]) -> u32 + Sync),
    stop: &AtomicBool,
) -> Result<Joint, Error> {
    joint_counting(table, estimate, stop, &AtomicU64::new(0))
}

/// As [`joint`], adding to `done` the states counted as it goes, block by block (for a progress
/// bar: the 3x4's 239,500,800 states take seconds). The states are walked in index order with
/// [`crate::index::StateIndex::for_each_cells`], each board's cells made from the last one's.
///
/// # Errors
/// As [`joint`].
pub fn joint_counting<D: AsRef<[u8]> + Sync>(
    table: &Table<D>,
    estimate: &(dyn Fn(&[u16]) -> u32 + Sync),
    stop: &AtomicBool,
    done: &AtomicU64,
) -> Result<Joint, Error> {
    if table.is_two_bit() {
        return joint_counting(&table.to_byte_table()?, estimate, stop, done);
    }
    let index = table.index();
    let n = index.len();
    let joint = (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            if stop.load(Ordering::Relaxed) {
                return Err(Error::Cancelled { generated: done.load(Ordering::Relaxed) });
            }
            let mut acc = Joint::default();
            let mut failed = None;
            let (start, end) = (c * CHUNK, ((c + 1) * CHUNK).min(n));
            index.for_each_cells(start..end, |i, cells| {
                if failed.is_some() {
                    return;
                }
                let d = match table.entry(i) {
                    Ok(d) => d,
                    Err(e) => {
                        failed = Some(e);
                        return;
                    }
                };
                let h = estimate(cells);
                if h > MAX_ESTIMATE {
                    failed = Some(Error::BadOption(format!(
                        "the estimate of {} is {h}, above the {MAX_ESTIMATE} a heat map takes",
                        index.board(i)
                    )));
                    return;
                }
                acc.add(d as usize, h as usize);
            });
            if let Some(e) = failed {
                return Err(e);
            }
            done.fetch_add(end - start, Ordering::Relaxed);
            Ok(acc)
        })
        .try_reduce(Joint::default, |a, b| Ok(a.merge(b)))?;
    Ok(joint.with_rows(table.histogram().len()))
}

/// As [`joint_counting`], for an estimate that adds up over the tiles: `cost[cell * n + tile]`
/// is what `tile` standing on `cell` adds (`n` the board's cells; the blank's entries unused),
/// as [`crate::heuristic::Estimator::tile_costs`] gives for misplaced tiles and Manhattan. The
/// states are walked with [`crate::index::StateIndex::for_each_sum`], each estimate made from
/// its prefix's: several times faster than calling an estimate on every board (the 3x4's
/// 239,500,800 states in about a second of one core).
///
/// # Errors
/// As [`joint`]; [`Error::BadOption`] also for a `cost` of fewer than `n * n` entries.
pub fn joint_additive<D: AsRef<[u8]> + Sync>(
    table: &Table<D>,
    cost: &[u32],
    stop: &AtomicBool,
    done: &AtomicU64,
) -> Result<Joint, Error> {
    if table.is_two_bit() {
        return joint_additive(&table.to_byte_table()?, cost, stop, done);
    }
    let index = table.index();
    let n = index.shape().cells();
    if cost.len() < n * n {
        return Err(Error::BadOption(format!("{} tile costs for a board of {n} cells", cost.len())));
    }
    // the largest sum a state can have bounds the rows: n - 1 tiles, each at its dearest cell
    let dearest =
        (1..n).map(|t| (0..n).map(|c| cost[c * n + t]).max().unwrap_or(0)).fold(0u64, |a, b| a + u64::from(b));
    if dearest > u64::from(MAX_ESTIMATE) {
        return Err(Error::BadOption(format!(
            "tile costs that can add up to {dearest}, above the {MAX_ESTIMATE} a heat map takes"
        )));
    }
    let width = dearest as usize + 1;
    let payload = table.payload();
    let joint = (0..index.parts())
        .into_par_iter()
        .map(|part| {
            if stop.load(Ordering::Relaxed) {
                return Err(Error::Cancelled { generated: done.load(Ordering::Relaxed) });
            }
            let range = index.part_range(part);
            let entries = &payload[range.start as usize..range.end as usize];
            // counts[d * width + h], a row past the deepest for every byte that is not a
            // distance: such an entry is found after the walk, not tested on every state. A
            // part has at most 10!/2 states: u32 counts, small enough for the first cache
            let deepest = table.header().max_depth as usize;
            let mut counts = vec![0u32; (deepest + 2) * width];
            let mut k = 0;
            index.for_each_sum(part, cost, |h| {
                let d = (entries[k] as usize).min(deepest + 1);
                counts[d * width + h as usize] += 1;
                k += 1;
            });
            debug_assert_eq!(k, entries.len());
            let mut acc = Joint::default();
            for (d, row) in counts.chunks_exact(width).enumerate() {
                for (h, &count) in row.iter().enumerate().filter(|&(_, &c)| c > 0) {
                    if d > deepest {
                        // the first entry that is not a distance, for the error
                        return Err(range.clone().find_map(|i| table.entry(i).err()).unwrap_or_else(|| {
                            Error::Internal(format!("entry {d} counted in part {part} but not found"))
                        }));
                    }
                    acc.add_many(d, h, u64::from(count));
                }
            }
            done.fetch_add(range.end - range.start, Ordering::Relaxed);
            Ok(acc)
        })
        .try_reduce(Joint::default, |a, b| Ok(a.merge(b)))?;
    Ok(joint.with_rows(table.histogram().len()))
}

/// The `skip`-th state (0 the first, in index order) of `table` at exact distance `exact` whose
/// estimate is `h`, or `None` when there are not that many. Searched in parallel, block by block
/// in index order, so the answer does not depend on the number of threads.
///
/// # Errors
/// [`Error::Corrupt`] for an entry that is not a distance.
pub fn example<D: AsRef<[u8]> + Sync>(
    table: &Table<D>,
    estimate: &(dyn Fn(&[u16]) -> u32 + Sync),
    exact: u32,
    h: u32,
    skip: u64,
) -> Result<Option<Board>, Error> {
    if table.is_two_bit() {
        return example(&table.to_byte_table()?, estimate, exact, h, skip);
    }
    let index = table.index();
    let n = index.len();
    let Ok(depth) = u8::try_from(exact) else { return Ok(None) };
    if table.histogram().get(depth as usize).copied().unwrap_or(0) <= skip {
        return Ok(None);
    }
    let mut left = skip;
    // blocks in order, each searched in parallel for its matches
    for block in (0..n).step_by((CHUNK * 64) as usize) {
        let end = (block + CHUNK * 64).min(n);
        let found: Vec<Vec<u64>> = (block..end)
            .step_by(CHUNK as usize)
            .collect::<Vec<_>>()
            .into_par_iter()
            .map(|start| {
                let mut hits = Vec::new();
                for i in start..(start + CHUNK).min(end) {
                    if table.entry(i)? == depth && estimate(index.board(i).cells()) == h {
                        hits.push(i);
                    }
                }
                Ok::<_, Error>(hits)
            })
            .collect::<Result<_, _>>()?;
        for i in found.into_iter().flatten() {
            if left == 0 {
                return Ok(Some(index.board(i)));
            }
            left -= 1;
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::{Estimator, Heuristic};
    use crate::lab::grade::grade;
    use crate::puzzle::{Goal, Shape};
    use crate::table::format::{Header, PAYLOAD_OFFSET, UNREACHED};

    fn eight() -> (Table<Vec<u8>>, Estimator) {
        let goal = Goal::BlankLast.board(Shape::EIGHT).unwrap();
        (crate::build(&goal, |_| {}).unwrap(), Estimator::new(&goal))
    }

    #[test]
    fn rows_add_up_to_the_histogram_and_agree_with_the_grade() {
        let (table, est) = eight();
        let never = AtomicBool::new(false);
        for h in [Heuristic::Hamming, Heuristic::Manhattan, Heuristic::LinearConflict, Heuristic::Nilsson] {
            let j = joint(&table, &|c: &[u16]| est.estimate(h, c), &never).unwrap();
            let sums: Vec<u64> = j.counts.iter().map(|r| r.iter().sum()).collect();
            assert_eq!(sums, table.histogram(), "{h:?}");
            assert_eq!(j.states, 181_440);
            let g = grade(&table, h).unwrap();
            assert_eq!(j.exact, g.total.exact, "{h:?}");
            assert_eq!(j.overestimates, g.total.overestimates, "{h:?}");
            assert_eq!(j.sum_h, g.total.sum_h, "{h:?}");
            assert_eq!(j.overestimates == 0, h.is_admissible(), "{h:?}");
            // rows are trimmed: the last entry of a non-empty row is a state
            assert!(j.counts.iter().all(|r| r.last().is_none_or(|&x| x > 0)));
        }
    }

    #[test]
    fn an_example_lies_in_its_cell_and_an_empty_cell_has_none() {
        let (table, est) = eight();
        let f = |c: &[u16]| est.estimate(Heuristic::Manhattan, c);
        let j = joint(&table, &f, &AtomicBool::new(false)).unwrap();
        let d = 20;
        let h = j.counts[d].iter().position(|&x| x > 0).unwrap();
        let count = j.counts[d][h];
        for skip in [0, count - 1] {
            let b = example(&table, &f, d as u32, h as u32, skip).unwrap().unwrap();
            assert_eq!(table.distance(&b).unwrap(), Some(d as u8));
            assert_eq!(f(b.cells()), h as u32);
        }
        assert_eq!(example(&table, &f, d as u32, h as u32, count).unwrap(), None);
        assert_eq!(example(&table, &f, 5, 30, 0).unwrap(), None);
        assert_eq!(example(&table, &f, 300, 0, 0).unwrap(), None);
    }

    #[test]
    fn a_bad_entry_or_a_huge_estimate_is_an_error() {
        let (table, est) = eight();
        let never = AtomicBool::new(false);
        assert!(matches!(joint(&table, &|_: &[u16]| MAX_ESTIMATE + 1, &never), Err(Error::BadOption(_))));
        assert!(joint(&table, &|_: &[u16]| MAX_ESTIMATE, &never).is_ok());
        // one entry set to the unreached marker, checksums made consistent
        let mut bytes = table.into_inner();
        bytes[PAYLOAD_OFFSET + 1000] = UNREACHED;
        let mut header = Header::parse(&bytes).unwrap();
        header.payload_crc = crc32fast::hash(&bytes[PAYLOAD_OFFSET..]);
        bytes[..PAYLOAD_OFFSET].copy_from_slice(&header.to_bytes());
        let bad = Table::new(bytes).unwrap();
        let f = |c: &[u16]| est.estimate(Heuristic::Manhattan, c);
        assert!(matches!(joint(&bad, &f, &never), Err(Error::Corrupt { index: 1000, .. })));
        assert!(matches!(example(&bad, &f, 31, 0, 0), Err(Error::Corrupt { index: 1000, .. })));
    }

    /// The joint distribution the plain way: every index unranked to its board, one by one.
    fn plain(table: &Table<Vec<u8>>, estimate: &dyn Fn(&[u16]) -> u32) -> Joint {
        let mut j = Joint::default();
        for i in 0..table.index().len() {
            j.add(table.entry(i).unwrap() as usize, estimate(table.index().board(i).cells()) as usize);
        }
        j.counts.resize(table.histogram().len(), Vec::new());
        j
    }

    #[test]
    fn the_walk_in_index_order_agrees_with_the_plain_computation() {
        for (rows, cols) in [(2, 3), (3, 2), (3, 3)] {
            for goal in [Goal::BlankLast, Goal::BlankFirst, Goal::Snail] {
                let goal = goal.board(Shape::new(rows, cols).unwrap()).unwrap();
                let (table, est) = (crate::build(&goal, |_| {}).unwrap(), Estimator::new(&goal));
                for h in [Heuristic::Hamming, Heuristic::Manhattan, Heuristic::LinearConflict, Heuristic::Nilsson] {
                    let f = |c: &[u16]| est.estimate(h, c);
                    let done = AtomicU64::new(0);
                    let fast = joint_counting(&table, &f, &AtomicBool::new(false), &done).unwrap();
                    assert_eq!(fast, plain(&table, &f), "{rows}x{cols} {goal} {h:?}");
                    assert_eq!(done.load(Ordering::Relaxed), table.index().len());
                }
            }
        }
    }

    /// The walk of sums agrees with the estimate called on every board, for every goal kind of
    /// every shape up to nine cells, and for misplaced tiles and Manhattan.
    #[test]
    fn the_walk_of_sums_agrees_with_the_estimate_on_every_board() {
        for (rows, cols) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)] {
            for goal in [Goal::BlankLast, Goal::BlankFirst, Goal::Snail] {
                let goal = goal.board(Shape::new(rows, cols).unwrap()).unwrap();
                let (table, est) = (crate::build(&goal, |_| {}).unwrap(), Estimator::new(&goal));
                for h in [Heuristic::Hamming, Heuristic::Manhattan] {
                    let f = |c: &[u16]| est.estimate(h, c);
                    let costs = est.tile_costs(h).unwrap();
                    let done = AtomicU64::new(0);
                    let fast = joint_additive(&table, &costs, &AtomicBool::new(false), &done).unwrap();
                    assert_eq!(fast, plain(&table, &f), "{rows}x{cols} {goal} {h:?}");
                    assert_eq!(done.load(Ordering::Relaxed), table.index().len());
                }
                assert!(est.tile_costs(Heuristic::LinearConflict).is_none());
            }
        }
    }

    #[test]
    fn the_walk_of_sums_finds_a_bad_entry_and_refuses_bad_costs() {
        let (table, est) = eight();
        let costs = est.tile_costs(Heuristic::Manhattan).unwrap();
        let never = AtomicBool::new(false);
        assert!(matches!(joint_additive(&table, &costs[..80], &never, &AtomicU64::new(0)), Err(Error::BadOption(_))));
        assert!(matches!(
            joint_additive(&table, &[MAX_ESTIMATE; 81], &never, &AtomicU64::new(0)),
            Err(Error::BadOption(_))
        ));
        let stopped = joint_additive(&table, &costs, &AtomicBool::new(true), &AtomicU64::new(0));
        assert!(matches!(stopped, Err(Error::Cancelled { generated: 0 })));
        for (at, byte) in [(1000, UNREACHED), (90_000, 40)] {
            let mut bytes = table.as_bytes().to_vec();
            bytes[PAYLOAD_OFFSET + at] = byte;
            let mut header = Header::parse(&bytes).unwrap();
            header.payload_crc = crc32fast::hash(&bytes[PAYLOAD_OFFSET..]);
            bytes[..PAYLOAD_OFFSET].copy_from_slice(&header.to_bytes());
            let bad = Table::new(bytes).unwrap();
            let r = joint_additive(&bad, &costs, &never, &AtomicU64::new(0));
            assert!(matches!(r, Err(Error::Corrupt { index, .. }) if index == at as u64), "{at}: {r:?}");
        }
    }

    #[test]
    fn a_stop_flag_cancels() {
        let (table, est) = eight();
        let r = joint(&table, &|c: &[u16]| est.estimate(Heuristic::Manhattan, c), &AtomicBool::new(true));
        assert!(matches!(r, Err(Error::Cancelled { generated: 0 })));
    }
}
