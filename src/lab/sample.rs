//! Random samples of a table's states at one exact distance, reproducible from a seed.
//!
//! [`sample_depth`] draws `count` distinct states uniformly at random from all the states at one
//! depth: every subset of that size is equally likely, and so is every order of it. The draws come
//! from [`SplitMix64`], written out here rather than taken from a crate, so a seed gives the same
//! boards on every platform and in every future version: the experiments built on it
//! (`table experiment`) stay reproducible from the seed alone.
//!
//! How: Floyd's algorithm picks `count` distinct ranks among the `n` states at the depth (Bentley
//! & Floyd, "A sample of brilliance", CACM 1987), a Fisher-Yates shuffle puts them in random
//! order, and one scan of the payload turns each rank (the `r`-th state at that depth in index
//! order) into its index. Memory is O(`count`); time is one pass over the payload.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::Error;
use crate::table::Table;

/// SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number generators", OOPSLA
/// 2014): a 64-bit state advanced by the golden-ratio constant `0x9E3779B97F4A7C15` and mixed by
/// two xor-shift-multiply rounds. Small, fast, passes BigCrush; not for cryptography.
///
/// The stream for a seed is fixed: `SplitMix64::new(0).next_u64()` is `0xE220A8397B1DCDAF` now
/// and always.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator whose stream is fixed by `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number drawn uniformly from `0..n`, without the bias of `next_u64() % n`: Lemire's
    /// multiply-and-shift with rejection ("Fast random integer generation in an interval", 2019).
    ///
    /// # Panics
    /// If `n == 0`.
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "below(0) has no value to return");
        let threshold = n.wrapping_neg() % n; // 2^64 mod n: the low products to reject
        loop {
            let m = self.next_u64() as u128 * n as u128;
            if (m as u64) >= threshold {
                return (m >> 64) as u64;
            }
        }
    }
}

/// `k` distinct numbers below `n` (`k <= n`), every `k`-subset and every order equally likely:
/// Floyd's draw (for `j` in `n-k..n`, draw `t` in `0..=j`; take `t`, or `j` if `t` was taken),
/// then a shuffle, since Floyd's order is not uniform (a later draw is more likely to be large).
fn distinct_ranks(rng: &mut SplitMix64, n: u64, k: u64) -> Vec<u64> {
    let mut taken = HashSet::with_capacity(k as usize);
    let mut ranks = Vec::with_capacity(k as usize);
    for j in n - k..n {
        let t = rng.below(j + 1);
        let r = if taken.insert(t) { t } else { j };
        taken.insert(r);
        ranks.push(r);
    }
    for i in (1..ranks.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        ranks.swap(i, j);
    }
    ranks
}

/// `count` distinct state indices drawn uniformly at random from the states at distance `depth`,
/// in random order; the same `seed` gives the same indices (see the module doc for how).
///
/// # Errors
/// [`Error::NotEnoughStates`] when the table has fewer than `count` states at `depth` (none at
/// all when `depth` is past the maximum depth); [`Error::CorruptHeader`] when the payload does not hold
/// as many states at `depth` as the header's histogram says.
pub fn sample_depth<D: AsRef<[u8]>>(table: &Table<D>, depth: u8, count: usize, seed: u64) -> Result<Vec<u64>, Error> {
    let available = table.histogram().get(depth as usize).copied().unwrap_or(0);
    if count as u64 > available {
        return Err(Error::NotEnoughStates { depth, requested: count as u64, available });
    }
    if table.is_two_bit() {
        if table.header().shape.cells() > crate::index::rank::MAX_BYTE_TABLE_CELLS {
            return sample_depth_by_rejection(table, depth, count, seed);
        }
        return sample_depth(&table.to_byte_table()?, depth, count, seed);
    }
    let mut rng = SplitMix64::new(seed);
    let ranks = distinct_ranks(&mut rng, available, count as u64);
    // One scan: the r-th state at `depth`, for every wanted r in increasing order.
    let mut wanted: Vec<(u64, usize)> = ranks.iter().enumerate().map(|(pos, &r)| (r, pos)).collect();
    wanted.sort_unstable();
    let mut out = vec![0u64; count];
    let mut next = wanted.iter().peekable();
    let mut seen = 0u64;
    for (i, &d) in table.payload().iter().enumerate() {
        if next.peek().is_none() {
            break;
        }
        if d != depth {
            continue;
        }
        while let Some(&&(r, pos)) = next.peek() {
            if r != seen {
                break;
            }
            out[pos] = i as u64;
            next.next();
        }
        seen += 1;
    }
    if next.peek().is_some() {
        let detail = format!("the header counts {available} states at depth {depth} but the payload has {seen}");
        return Err(Error::CorruptHeader(detail));
    }
    Ok(out)
}

/// Draws a two-bit table too large to expand: states drawn uniformly from the blank blocks of
/// `depth`'s parity, those with its residue walked down to the goal, kept when exactly `depth`
/// away and not drawn before. Each draw is uniform, so the kept ones are uniform over the states
/// at `depth`; a depth holding fewer than one state in [`MAX_REJECTION`] of its class is refused
/// (the draws would not end).
fn sample_depth_by_rejection<D: AsRef<[u8]>>(
    table: &Table<D>,
    depth: u8,
    count: usize,
    seed: u64,
) -> Result<Vec<u64>, Error> {
    let index = table.index();
    let shape = index.shape();
    let block = index.block_len();
    let cols = shape.cols();
    let goal_blank = table.goal().blank();
    let blocks: Vec<u64> = (0..shape.cells())
        .filter(|&b| {
            ((b / cols).abs_diff(goal_blank / cols) + (b % cols).abs_diff(goal_blank % cols)) % 2 == depth as usize % 2
        })
        .map(|b| b as u64)
        .collect();
    let class = blocks.len() as u64 * block;
    let available = table.histogram()[depth as usize];
    if available.saturating_mul(MAX_REJECTION) < class {
        return Err(Error::BadOption(format!(
            "depth {depth} holds {available} of the {class} states of its parity: too few to draw at random from a two-bit table of {shape}; choose a depth nearer the middle (`table stats`)"
        )));
    }
    let mut rng = SplitMix64::new(seed);
    let mut taken = HashSet::with_capacity(count);
    let mut out = Vec::with_capacity(count);
    let r = depth % 3;
    while out.len() < count {
        let k = rng.below(class);
        let i = blocks[(k / block) as usize] * block + k % block;
        if crate::table::residue::code(table.payload(), i) != r || taken.contains(&i) {
            continue;
        }
        if table.entry(i)? == depth {
            taken.insert(i);
            out.push(i);
        }
    }
    Ok(out)
}

/// The rarest depth [`sample_depth`] draws from a two-bit table past 12 cells: one state in this
/// many of its parity class.
pub const MAX_REJECTION: u64 = 1 << 20;

/// A depth-balanced sample: `per_depth` states from each depth in `depths` (or every depth of
/// the table), as `(index, depth)` pairs, depth by depth, each depth's states in random order.
///
/// Without `replace`, a depth's states are distinct and as many as it holds when that is fewer
/// than `per_depth` (depth 1 of the 3x3 has 2): every subset of that size is equally likely, as in
/// [`sample_depth`]. With `replace`, each depth gives exactly `per_depth` states, each drawn
/// uniformly and independently (so a small depth repeats its states). One scan of the payload
/// serves every depth. The same `seed` gives the same sample.
///
/// # Errors
/// [`Error::BadOption`] for a depth past 255 in `depths`; [`Error::CorruptHeader`] when the payload
/// does not hold the states the header's histogram counts.
pub fn sample_balanced<D: AsRef<[u8]>>(
    table: &Table<D>,
    per_depth: u64,
    depths: Option<&[u32]>,
    replace: bool,
    seed: u64,
) -> Result<Vec<(u64, u8)>, Error> {
    sample_balanced_until(table, per_depth, depths, replace, seed, |_| {}, &AtomicBool::new(false))
}

/// States scanned between two calls of [`sample_balanced_until`]'s `progress` (and two looks
/// at its `stop`): a few milliseconds.
const SCAN_CHUNK: usize = 1 << 22;

/// As [`sample_balanced`], calling `progress(k)` as each `k` more entries of the payload are
/// scanned (the table's length in all, the last call reaching it) and stopping soon after
/// `stop` is set (a few million entries later).
///
/// # Errors
/// Those of [`sample_balanced`]; [`Error::Cancelled`] when stopped.
pub fn sample_balanced_until<D: AsRef<[u8]>>(
    table: &Table<D>,
    per_depth: u64,
    depths: Option<&[u32]>,
    replace: bool,
    seed: u64,
    mut progress: impl FnMut(u64),
    stop: &AtomicBool,
) -> Result<Vec<(u64, u8)>, Error> {
    if table.is_two_bit() {
        return sample_balanced_until(&table.to_byte_table()?, per_depth, depths, replace, seed, progress, stop);
    }
    let histogram = table.histogram();
    let mut chosen: Vec<u8> = match depths {
        Some(ds) => {
            let mut v = Vec::with_capacity(ds.len());
            for &d in ds {
                let d = u8::try_from(d).map_err(|_| Error::BadOption(format!("depth {d} is past 255")))?;
                v.push(d);
            }
            v.sort_unstable();
            v.dedup();
            v
        }
        None => (0..histogram.len()).map(|d| d as u8).collect(),
    };
    chosen.retain(|&d| histogram.get(d as usize).is_some_and(|&n| n > 0));
    // what the sample will hold, refused before any of it is made when memory will not do: a
    // rank, its place and its state a board, and the board itself for the caller
    let planned: u64 = chosen
        .iter()
        .map(|&d| if replace { per_depth } else { per_depth.min(histogram[d as usize]) })
        .fold(0u64, u64::saturating_add);
    let needed = planned.saturating_mul(40 + table.index().shape().cells() as u64);
    let available = crate::solver::available_memory();
    let refused = || Error::NotEnoughMemory {
        what: format!("a sample of {planned} boards"),
        needed,
        available: available.unwrap_or(0),
        hint: "; ask for fewer boards a depth".into(),
    };
    if available.is_some_and(|a| needed > a) || usize::try_from(needed).is_err() {
        return Err(refused());
    }
    let mut rng = SplitMix64::new(seed);
    // per depth: the ranks wanted (the r-th state at that depth in index order), each with its
    // place in the output
    let mut wanted: Vec<Vec<(u64, usize)>> = vec![Vec::new(); 256];
    let mut total = 0usize;
    for &d in &chosen {
        let available = histogram[d as usize];
        let k = if replace { per_depth } else { per_depth.min(available) };
        let ranks: Vec<u64> = if replace {
            (0..k).map(|_| rng.below(available)).collect()
        } else {
            distinct_ranks(&mut rng, available, k)
        };
        let list = &mut wanted[d as usize];
        list.extend(ranks.into_iter().enumerate().map(|(i, r)| (r, total + i)));
        list.sort_unstable();
        total += k as usize;
    }
    let mut out = Vec::new();
    out.try_reserve_exact(total).map_err(|_| refused())?;
    out.resize(total, (0u64, 0u8));
    let mut next = [0usize; 256];
    let mut seen = [0u64; 256];
    let mut left = total;
    let payload = table.payload();
    let mut scanned = 0u64;
    for (c, chunk) in payload.chunks(SCAN_CHUNK).enumerate() {
        if left == 0 {
            break;
        }
        if stop.load(Ordering::Relaxed) {
            return Err(Error::Cancelled { generated: 0 });
        }
        let first = c * SCAN_CHUNK;
        for (k, &d) in chunk.iter().enumerate() {
            if left == 0 {
                break;
            }
            let list = &wanted[d as usize];
            let at = &mut next[d as usize];
            while *at < list.len() && list[*at].0 == seen[d as usize] {
                out[list[*at].1] = ((first + k) as u64, d);
                *at += 1;
                left -= 1;
            }
            seen[d as usize] += 1;
        }
        progress(chunk.len() as u64);
        scanned += chunk.len() as u64;
    }
    if left == 0 && scanned < payload.len() as u64 {
        // every state wanted was found before the end: the rest need no scan
        progress(payload.len() as u64 - scanned);
    }
    if left > 0 {
        let d = (0..256).find(|&d| next[d] < wanted[d].len()).unwrap_or(0);
        let detail = format!("the header counts {} states at depth {d} but the payload has {}", histogram[d], seen[d]);
        return Err(Error::CorruptHeader(detail));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn balanced_samples_cap_or_repeat_and_agree_with_the_payload() {
        let goal = crate::Goal::BlankLast.board(crate::Shape::EIGHT).unwrap();
        let table = crate::build(&goal, |_| {}).unwrap();
        let hist = table.histogram().to_vec();
        for (per, replace) in [(5u64, false), (5, true), (100_000, false), (3, true)] {
            let got = sample_balanced(&table, per, None, replace, 9).unwrap();
            for (d, &held) in hist.iter().enumerate() {
                let at: Vec<u64> = got.iter().filter(|x| x.1 as usize == d).map(|x| x.0).collect();
                let want = if replace { per } else { per.min(held) };
                assert_eq!(at.len() as u64, want, "depth {d} per {per} replace {replace}");
                assert!(at.iter().all(|&i| table.payload()[i as usize] as usize == d));
                if !replace {
                    let distinct: HashSet<u64> = at.iter().copied().collect();
                    assert_eq!(distinct.len(), at.len(), "distinct at depth {d}");
                }
            }
            // depth by depth in order
            assert!(got.windows(2).all(|w| w[0].1 <= w[1].1));
            assert_eq!(got, sample_balanced(&table, per, None, replace, 9).unwrap(), "reproducible");
        }
        // every state at a depth when asked for as many as it holds
        let all = sample_balanced(&table, u64::MAX, Some(&[31, 30]), false, 1).unwrap();
        assert_eq!(all.len() as u64, hist[30] + hist[31]);
        // a depth past the table gives nothing, one past 255 is refused
        assert!(sample_balanced(&table, 4, Some(&[40]), false, 1).unwrap().is_empty());
        assert!(sample_balanced(&table, 4, Some(&[256]), false, 1).is_err());
    }

    #[test]
    fn a_balanced_sample_reports_the_whole_scan_and_stops_when_told() {
        let goal = crate::Goal::BlankLast.board(crate::Shape::EIGHT).unwrap();
        let table = crate::build(&goal, |_| {}).unwrap();
        let never = AtomicBool::new(false);
        for per in [1u64, 100_000] {
            let mut scanned = 0;
            let got = sample_balanced_until(&table, per, None, false, 3, |k| scanned += k, &never).unwrap();
            assert_eq!(got, sample_balanced(&table, per, None, false, 3).unwrap());
            assert_eq!(scanned, table.index().len(), "{per} a depth: the progress adds up to the table");
        }
        let stopped = sample_balanced_until(&table, 5, None, false, 3, |_| {}, &AtomicBool::new(true));
        assert!(matches!(stopped, Err(Error::Cancelled { .. })), "{stopped:?}");
    }

    #[test]
    fn splitmix_matches_the_reference_stream() {
        // The first outputs of the reference C implementation (Vigna's splitmix64.c) for seed 0.
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(r.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut r = SplitMix64::new(7);
        let mut seen = [0u32; 5];
        for _ in 0..5000 {
            seen[r.below(5) as usize] += 1;
        }
        // each value about 1000 times; 800 is over six standard deviations away
        assert!(seen.iter().all(|&c| c > 800), "{seen:?}");
        assert_eq!(r.below(1), 0);
    }
}
