//! The state index (`src/rank.rs`): an exact bijection between the states solvable to a goal and
//! `0..n!/2`, checked exhaustively on every shape up to nine cells against every arrangement of
//! the tiles and against breadth-first searches, and by property tests on all twelve table shapes.

use std::collections::{HashMap, VecDeque};

use proptest::prelude::*;
use slidetable::index::rank::{lex_rank, lex_unrank, FACT, MAX_TABLE_CELLS};
use slidetable::table::bfs::reference_distances;
use slidetable::{build, Board, Dir, Error, Goal, Shape, StateIndex};

/// Every shape a perfect table covers (at most 12 cells).
const TABLE_SHAPES: [(usize, usize); 12] =
    [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3), (2, 5), (5, 2), (2, 6), (6, 2), (3, 4), (4, 3)];

fn shape(rows: usize, cols: usize) -> Shape {
    Shape::new(rows, cols).unwrap()
}

/// A small deterministic generator, so "random" goals are the same on every run.
use slidetable::lab::sample::SplitMix64 as SplitMix;

/// Swaps two tiles (not the blank) of `board`.
fn swap_two_tiles(board: &Board) -> Board {
    let mut cells = board.cells().to_vec();
    let tiles: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] != 0).collect();
    cells.swap(tiles[0], tiles[1]);
    Board::new(board.shape(), cells).unwrap()
}

/// Two deterministic pseudo-random custom goals of `shape`, neither a named goal: one solvable to
/// blank-last, one not (so both parity classes of goal are covered).
fn custom_goals(shape: Shape) -> Vec<Board> {
    let mut rng = SplitMix::new(0x5EED ^ ((shape.rows() as u64) << 8) ^ shape.cols() as u64);
    let n = shape.cells();
    let blank_last = Goal::BlankLast.board(shape).unwrap();
    loop {
        let mut cells: Vec<u16> = (0..n as u16).collect();
        for i in (1..n).rev() {
            cells.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let b = Board::new(shape, cells).unwrap();
        let other = swap_two_tiles(&b);
        let both_custom = [&b, &other].iter().all(|g| matches!(Goal::identify((*g).clone()), Goal::Custom(_)));
        if both_custom {
            let mut goals = vec![b, other];
            goals.sort_by_key(|g| !g.is_solvable_to(&blank_last));
            assert!(goals[0].is_solvable_to(&blank_last) && !goals[1].is_solvable_to(&blank_last));
            return goals;
        }
    }
}

/// The named goals and the custom ones for `shape`.
fn all_goals(shape: Shape) -> Vec<Board> {
    let mut goals: Vec<Board> =
        [Goal::BlankLast, Goal::BlankFirst, Goal::Snail].iter().map(|g| g.board(shape).unwrap()).collect();
    goals.extend(custom_goals(shape));
    goals
}

/// Rearranges `p` into the next permutation in lexicographic order; false after the last.
fn next_permutation(p: &mut [u16]) -> bool {
    let Some(i) = (1..p.len()).rev().find(|&i| p[i - 1] < p[i]) else {
        return false;
    };
    let j = (i..p.len()).rev().find(|&j| p[j] > p[i - 1]).unwrap();
    p.swap(i - 1, j);
    p[i..].reverse();
    true
}

/// Calls `f` with every arrangement of the tiles of `shape`.
fn for_each_arrangement(shape: Shape, mut f: impl FnMut(Board)) {
    let mut p: Vec<u16> = (0..shape.cells() as u16).collect();
    let mut count = 0u64;
    loop {
        f(Board::new(shape, p.clone()).unwrap());
        count += 1;
        if !next_permutation(&mut p) {
            break;
        }
    }
    assert_eq!(count, FACT[shape.cells()]);
}

/// A breadth-first search over boards written here, independent of the library's index: the
/// distance of every board reachable from `goal`, keyed by its cells.
fn bfs_by_cells(goal: &Board) -> HashMap<Vec<u16>, u8> {
    let mut dist = HashMap::new();
    let mut queue = VecDeque::new();
    dist.insert(goal.cells().to_vec(), 0u8);
    queue.push_back(goal.clone());
    while let Some(b) = queue.pop_front() {
        let d = dist[b.cells()];
        let cols = b.shape().cols();
        let blank = b.blank();
        let (row, col) = (blank / cols, blank % cols);
        let mut targets = Vec::new();
        if row > 0 {
            targets.push(blank - cols);
        }
        if blank + cols < b.cells().len() {
            targets.push(blank + cols);
        }
        if col > 0 {
            targets.push(blank - 1);
        }
        if col + 1 < cols {
            targets.push(blank + 1);
        }
        for t in targets {
            let mut cells = b.cells().to_vec();
            cells.swap(blank, t);
            if !dist.contains_key(&cells) {
                dist.insert(cells.clone(), d + 1);
                queue.push_back(Board::new(b.shape(), cells).unwrap());
            }
        }
    }
    dist
}

/// The exhaustive check for one shape and goal: every arrangement is classified by the parity
/// rule exactly as the search finds it, the index is a bijection onto `0..n!/2` that round-trips,
/// and the built table and the library's reference search both match the search here.
fn check_exhaustively(goal: &Board) {
    let shape = goal.shape();
    let index = StateIndex::new(goal).unwrap();
    let half = FACT[shape.cells()] / 2;
    assert_eq!(index.len(), half);
    assert_eq!(index.block_len() * shape.cells() as u64, half);
    let bfs = bfs_by_cells(goal);
    assert_eq!(bfs.len() as u64, half, "{shape} goal {goal}: exactly half the arrangements are reachable");

    let table = build(goal, |_| {}).unwrap();
    let payload = table.payload();
    assert_eq!(payload.len() as u64, half);

    let mut seen = vec![false; half as usize];
    let (mut solvable, mut unsolvable) = (0u64, 0u64);
    for_each_arrangement(shape, |board| {
        let reachable = bfs.get(board.cells());
        let is_solvable = board.is_solvable_to(goal);
        assert_eq!(is_solvable, reachable.is_some(), "{shape} goal {goal}: is_solvable_to({board}) disagrees with BFS");
        match index.index(&board) {
            Some(i) => {
                assert!(is_solvable, "{shape} goal {goal}: unsolvable {board} has index {i}");
                assert!(i < half, "index {i} out of range for {board}");
                assert!(!seen[i as usize], "{shape} goal {goal}: index {i} given twice (second: {board})");
                seen[i as usize] = true;
                assert_eq!(index.board(i), board, "board({i}) does not round-trip");
                assert_eq!(index.state_board(&index.unrank(i)), board);
                assert_eq!(index.state_index(&index.state(&board)), Some(i));
                assert_eq!(Some(&payload[i as usize]), reachable, "table entry of {board} (index {i})");
                solvable += 1;
            }
            None => {
                assert!(!is_solvable, "{shape} goal {goal}: solvable {board} has no index");
                unsolvable += 1;
            }
        }
    });
    assert_eq!(solvable, half);
    assert_eq!(unsolvable, half);
    assert!(seen.iter().all(|&s| s), "every index in 0..n!/2 is used");
    assert_eq!(index.index(goal).map(|i| payload[i as usize]), Some(0));

    let reference = reference_distances(&index);
    assert!(reference == payload, "{shape} goal {goal}: built table differs from reference_distances");
    assert_eq!(table.histogram().iter().sum::<u64>(), half);
}

fn check_shape_exhaustively(rows: usize, cols: usize) {
    for goal in all_goals(shape(rows, cols)) {
        check_exhaustively(&goal);
    }
}

#[test]
fn exhaustive_2x2() {
    check_shape_exhaustively(2, 2);
}

#[test]
fn exhaustive_2x3() {
    check_shape_exhaustively(2, 3);
}

#[test]
fn exhaustive_3x2() {
    check_shape_exhaustively(3, 2);
}

#[test]
fn exhaustive_2x4() {
    check_shape_exhaustively(2, 4);
}

#[test]
fn exhaustive_4x2() {
    check_shape_exhaustively(4, 2);
}

#[test]
fn exhaustive_3x3_blank_last() {
    check_exhaustively(&Goal::BlankLast.board(Shape::EIGHT).unwrap());
}

#[test]
fn exhaustive_3x3_blank_first() {
    check_exhaustively(&Goal::BlankFirst.board(Shape::EIGHT).unwrap());
}

#[test]
fn exhaustive_3x3_snail() {
    check_exhaustively(&Goal::Snail.board(Shape::EIGHT).unwrap());
}

#[test]
fn exhaustive_3x3_custom() {
    for goal in custom_goals(Shape::EIGHT) {
        check_exhaustively(&goal);
    }
}

/// The built table equals the plain BFS on a ten-cell board (1,814,400 states; a few seconds with
/// `--release`). Too slow for an unoptimised build, so skipped there.
fn ten_cells_match_reference_bfs(goal: Board) {
    if cfg!(debug_assertions) {
        eprintln!("skipped in debug builds: run with --release");
        return;
    }
    let index = StateIndex::new(&goal).unwrap();
    let table = build(&goal, |_| {}).unwrap();
    let reference = reference_distances(&index);
    assert_eq!(reference.len(), 1_814_400);
    assert!(!reference.contains(&255), "every index is reached");
    assert!(reference == table.payload(), "{} goal {goal}: table differs from reference BFS", goal.shape());
}

#[test]
fn reference_bfs_2x5_blank_last() {
    ten_cells_match_reference_bfs(Goal::BlankLast.board(shape(2, 5)).unwrap());
}

#[test]
fn reference_bfs_5x2_custom() {
    ten_cells_match_reference_bfs(custom_goals(shape(5, 2)).remove(1));
}

/// Lexicographic rank of a permutation of any values, by the O(m^2) definition.
fn reference_lex_rank<T: Ord>(perm: &[T]) -> u64 {
    let m = perm.len();
    (0..m).map(|i| (i + 1..m).filter(|&j| perm[j] < perm[i]).count() as u64 * FACT[m - 1 - i]).sum()
}

/// Whether a sequence has an odd number of inversions, by the O(m^2) definition.
fn reference_odd(perm: &[u8]) -> bool {
    let m = perm.len();
    (0..m).flat_map(|i| (i + 1..m).map(move |j| (i, j))).filter(|&(i, j)| perm[j] < perm[i]).count() % 2 == 1
}

/// The trap the module doc warns about: halving the rank of the whole permutation (blank
/// included) collides on 3x3, while the state index is injective.
#[test]
fn halving_the_whole_permutation_rank_is_not_a_bijection() {
    let goal = Goal::BlankLast.board(Shape::EIGHT).unwrap();
    let index = StateIndex::new(&goal).unwrap();
    let mut naive = vec![false; 181_440];
    let mut ours = vec![false; 181_440];
    let mut states = 0;
    for_each_arrangement(Shape::EIGHT, |board| {
        if board.is_solvable_to(&goal) {
            states += 1;
            naive[(reference_lex_rank(board.cells()) / 2) as usize] = true;
            ours[index.index(&board).unwrap() as usize] = true;
        }
    });
    assert_eq!(states, 181_440);
    assert_eq!(naive.iter().filter(|&&s| s).count(), 161_280);
    assert_eq!(ours.iter().filter(|&&s| s).count(), 181_440);
}

#[test]
fn tables_stop_at_fifteen_cells() {
    assert_eq!(MAX_TABLE_CELLS, 15);
    for (rows, cols) in [(4, 4), (2, 8), (8, 2)] {
        let goal = Goal::BlankLast.board(shape(rows, cols)).unwrap();
        assert!(matches!(StateIndex::new(&goal), Err(Error::TableTooLarge { cells, .. }) if cells == rows * cols));
        assert!(matches!(build(&goal, |_| {}), Err(Error::TableTooLarge { .. })));
    }
    // 2x7 and 7x2 have an index (ranks past 32 bits), not built here: 10.9 GB
    for (rows, cols) in [(2, 7), (7, 2)] {
        let goal = Goal::BlankLast.board(shape(rows, cols)).unwrap();
        let index = StateIndex::new(&goal).unwrap();
        assert_eq!(index.len(), 43_589_145_600);
        let hardest = slidetable::Board::new(shape(2, 7), vec![7, 6, 12, 4, 3, 9, 1, 0, 13, 5, 11, 10, 2, 8]).unwrap();
        if rows == 2 {
            let i = index.index(&hardest).unwrap();
            assert_eq!(index.board(i), hardest);
        }
    }
    // 3x5 and 5x3 too (offsets in a blank block past 32 bits): 163.5 GB at two bits
    for (rows, cols) in [(3, 5), (5, 3)] {
        let goal = Goal::BlankLast.board(shape(rows, cols)).unwrap();
        let index = StateIndex::new(&goal).unwrap();
        assert_eq!(index.len(), 653_837_184_000);
        assert_eq!(index.block_len(), 43_589_145_600);
        assert_eq!(index.index(&goal), Some(index.len() - index.block_len()));
        let last = index.board(index.len() - 1);
        assert_eq!(index.index(&last), Some(index.len() - 1));
        assert!(matches!(build(&goal, |_| {}), Err(Error::NotEnoughMemory { .. } | Error::TableTooLarge { .. })));
    }
    for (rows, cols) in TABLE_SHAPES {
        let goal = Goal::Snail.board(shape(rows, cols)).unwrap();
        let index = StateIndex::new(&goal).unwrap();
        assert_eq!(index.len(), FACT[rows * cols] / 2);
        assert_eq!(index.shape(), shape(rows, cols));
        assert_eq!(index.goal(), &goal);
        assert!(!index.is_empty());
    }
}

#[test]
fn lex_rank_small_cases() {
    assert_eq!(lex_rank(&[0]), (0, false));
    assert_eq!(lex_rank(&[0, 1]), (0, false));
    assert_eq!(lex_rank(&[1, 0]), (1, true));
    assert_eq!(lex_rank(&[0, 1, 2]), (0, false));
    assert_eq!(lex_rank(&[2, 1, 0]), (5, true));
    assert_eq!(lex_rank(&[1, 2, 0]), (3, false));
    let mut out = [0u8; 4];
    assert!(!lex_unrank(23, &mut out)); // six inversions: even
    assert_eq!(out, [3, 2, 1, 0]);
    assert!(!lex_unrank(0, &mut out));
    assert_eq!(out, [0, 1, 2, 3]);
    // every rank of length 5 in order, against the permutations generated here
    let mut p: Vec<u16> = (0..5).collect();
    let mut rank = 0;
    loop {
        let bytes: Vec<u8> = p.iter().map(|&x| x as u8).collect();
        assert_eq!(lex_rank(&bytes).0, rank);
        let mut out = [0u8; 5];
        lex_unrank(rank, &mut out);
        assert_eq!(out[..], bytes[..]);
        rank += 1;
        if !next_permutation(&mut p) {
            break;
        }
    }
    assert_eq!(rank, 120);
}

/// Neighbour indices on every state of 2x3 and 3x2 for every goal, exhaustively.
#[test]
fn neighbours_exhaustive_small() {
    for (rows, cols) in [(2, 3), (3, 2), (2, 2)] {
        for goal in all_goals(shape(rows, cols)) {
            let index = StateIndex::new(&goal).unwrap();
            for i in 0..index.len() {
                check_neighbours(&index, i);
            }
        }
    }
}

fn check_neighbours(index: &StateIndex, i: u64) {
    let board = index.board(i);
    let expected: Vec<(Dir, u64)> = Dir::ALL
        .iter()
        .filter_map(|&dir| board.moved(dir).map(|b| (dir, index.index(&b).expect("a neighbour is solvable"))))
        .collect();
    let mut got = Vec::new();
    index.for_each_neighbor(&index.unrank(i), i, |dir, j| got.push((dir, j)));
    assert_eq!(got, expected, "neighbours of {board} (index {i}) on {}", index.shape());
    // the same from the index alone (rank-change tables, src/moves.rs)
    let mut fast = Vec::new();
    index.for_each_neighbor_index(i, |dir, j| fast.push((dir, j)));
    assert_eq!(fast, expected, "neighbours from the index of {board} (index {i}) on {}", index.shape());
}

/// Neighbours from the index alone against unranking, moving and ranking again, on every state of
/// every shape up to ten cells, for every named goal and a custom one.
#[test]
fn index_neighbours_exhaustive_up_to_ten_cells() {
    for (rows, cols) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3), (2, 5), (5, 2)] {
        for goal in all_goals(shape(rows, cols)) {
            let index = StateIndex::new(&goal).unwrap();
            let (mut slow, mut fast) = (Vec::with_capacity(4), Vec::with_capacity(4));
            for i in 0..index.len() {
                slow.clear();
                fast.clear();
                index.for_each_neighbor(&index.unrank(i), i, |dir, j| slow.push((dir, j)));
                index.for_each_neighbor_index(i, |dir, j| fast.push((dir, j)));
                assert_eq!(fast, slow, "index {i} of {} goal {goal}", index.shape());
            }
        }
    }
}

/// A table shape, a goal of that shape (any arrangement), and its index.
fn shape_and_goal() -> impl Strategy<Value = Board> {
    prop::sample::select(TABLE_SHAPES.to_vec()).prop_flat_map(|(rows, cols)| {
        Just((0..(rows * cols) as u16).collect::<Vec<u16>>())
            .prop_shuffle()
            .prop_map(move |cells| Board::new(shape(rows, cols), cells).unwrap())
    })
}

fn goal_and_index() -> impl Strategy<Value = (Board, u64)> {
    shape_and_goal().prop_flat_map(|goal| {
        let len = FACT[goal.shape().cells()] / 2;
        (Just(goal), 0..len)
    })
}

/// A 15-cell goal (any arrangement) and an index of its table, the last ones of the table and of
/// a blank block among them.
fn fifteen_cell_goal_and_index() -> impl Strategy<Value = (Board, u64)> {
    let len = FACT[15] / 2;
    let goal = prop::sample::select(vec![(3usize, 5usize), (5, 3)]).prop_flat_map(|(rows, cols)| {
        Just((0..(rows * cols) as u16).collect::<Vec<u16>>())
            .prop_shuffle()
            .prop_map(move |cells| Board::new(shape(rows, cols), cells).unwrap())
    });
    let edges = prop::sample::select(vec![0, len - 1, len / 15 - 1, len / 15, 7 * (len / 15) - 1]);
    (goal, prop_oneof![4 => 0..len, 1 => edges])
}

fn goal_and_arrangement() -> impl Strategy<Value = (Board, Board)> {
    shape_and_goal().prop_flat_map(|goal| {
        let shape = goal.shape();
        let arrangement = Just((0..shape.cells() as u16).collect::<Vec<u16>>())
            .prop_shuffle()
            .prop_map(move |cells| Board::new(shape, cells).unwrap());
        (Just(goal), arrangement)
    })
}

fn permutation(max_len: usize) -> impl Strategy<Value = Vec<u8>> {
    (1..=max_len).prop_flat_map(|m| Just((0..m as u8).collect::<Vec<u8>>()).prop_shuffle())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn board_at_index_round_trips((goal, i) in goal_and_index()) {
        let index = StateIndex::new(&goal).unwrap();
        let board = index.board(i);
        prop_assert_eq!(board.shape(), goal.shape());
        prop_assert!(board.is_solvable_to(&goal));
        prop_assert_eq!(index.index(&board), Some(i));
        // swapping two tiles flips the parity: that arrangement has no index
        prop_assert_eq!(index.index(&swap_two_tiles(&board)), None);
    }

    #[test]
    fn arrangement_has_index_iff_solvable((goal, board) in goal_and_arrangement()) {
        let index = StateIndex::new(&goal).unwrap();
        match index.index(&board) {
            Some(i) => {
                prop_assert!(board.is_solvable_to(&goal));
                prop_assert!(i < index.len());
                prop_assert_eq!(index.board(i), board);
            }
            None => prop_assert!(!board.is_solvable_to(&goal)),
        }
    }

    #[test]
    fn neighbours_match_moved((goal, i) in goal_and_index()) {
        check_neighbours(&StateIndex::new(&goal).unwrap(), i);
    }

    /// The 15-cell index (3x5, 5x3: offsets past 32 bits, the rank-change arithmetic in 64 bits
    /// and the parities made word by word) against unranking, moving and ranking again.
    #[test]
    #[ignore = "slow (about 48 s): CI runs it; cargo test -- --include-ignored --skip big::"]
    fn fifteen_cell_neighbours_match_moved((goal, i) in fifteen_cell_goal_and_index()) {
        let index = StateIndex::new(&goal).unwrap();
        let board = index.board(i);
        prop_assert_eq!(index.index(&board), Some(i));
        check_neighbours(&index, i);
    }

    #[test]
    fn lex_rank_matches_reference(perm in permutation(12)) {
        let (rank, odd) = lex_rank(&perm);
        prop_assert_eq!(rank, reference_lex_rank(&perm));
        prop_assert!(rank < FACT[perm.len()]);
        prop_assert_eq!(odd, reference_odd(&perm));
        let mut out = vec![0u8; perm.len()];
        prop_assert_eq!(lex_unrank(rank, &mut out), odd);
        prop_assert_eq!(out, perm);
    }

    #[test]
    fn lex_unrank_round_trips((m, rank) in (1usize..=12).prop_flat_map(|m| (Just(m), 0..FACT[m]))) {
        let mut out = vec![0u8; m];
        let odd = lex_unrank(rank, &mut out);
        let mut sorted = out.clone();
        sorted.sort_unstable();
        prop_assert_eq!(sorted, (0..m as u8).collect::<Vec<u8>>());
        prop_assert_eq!(odd, reference_odd(&out));
        prop_assert_eq!(reference_lex_rank(&out), rank);
        prop_assert_eq!(lex_rank(&out), (rank, odd));
    }
}

/// `for_each_cells` (each state's tiles from the last one's) gives the boards of `board(i)` (a full
/// unrank each): every index of the shapes up to nine cells for every goal kind, and ranges
/// crossing blank blocks on the 12-cell shapes.
#[test]
fn for_each_cells_walks_the_same_boards_as_unrank() {
    let check = |index: &StateIndex, range: std::ops::Range<u64>| {
        let mut next = range.start;
        index.for_each_cells(range.clone(), |i, cells| {
            assert_eq!(i, next, "in order");
            assert_eq!(cells, index.board(i).cells(), "index {i} of {}", index.shape());
            next += 1;
        });
        assert_eq!(next, range.end);
    };
    for (r, c) in TABLE_SHAPES {
        let s = shape(r, c);
        for goal in all_goals(s) {
            let index = StateIndex::new(&goal).unwrap();
            let n = index.len();
            if s.cells() <= 9 {
                check(&index, 0..n);
                check(&index, 1..n - 1);
            } else {
                let block = index.block_len();
                for start in [0, block - 1_000, 5 * block - 3, n - 2_000] {
                    check(&index, start..start + 2_000);
                }
            }
        }
    }
    let index = StateIndex::new(&Goal::BlankLast.board(shape(3, 3)).unwrap()).unwrap();
    check(&index, 7..7);
}

/// `for_each_sum` (the sum of a cost per tile and cell, each state's from its prefix's) walks the
/// parts in index order and gives each board's sum: every part of the shapes up to nine cells for
/// every goal kind, and every 101st board of two parts of the 12-cell shapes, with costs
/// that differ by tile and by cell.
#[test]
fn for_each_sum_gives_every_board_its_sum_in_index_order() {
    let check = |index: &StateIndex, part: u64, every: u64| {
        let n = index.shape().cells();
        let cost: Vec<u32> = (0..n * n).map(|k| ((k / n) * 7 + (k % n) * 3 + (k % n) * (k / n)) as u32 % 13).collect();
        let range = index.part_range(part);
        let mut i = range.start;
        index.for_each_sum(part, &cost, |sum| {
            if !i.is_multiple_of(every) {
                i += 1;
                return;
            }
            let cells = index.board(i).cells().to_vec();
            let want: u32 =
                cells.iter().enumerate().filter(|&(_, &t)| t != 0).map(|(c, &t)| cost[c * n + t as usize]).sum();
            assert_eq!(sum, want, "index {i} of {} ({})", index.shape(), index.board(i));
            i += 1;
        });
        assert_eq!(i, range.end, "part {part} of {}", index.shape());
    };
    for (r, c) in TABLE_SHAPES {
        let s = shape(r, c);
        for goal in all_goals(s) {
            let index = StateIndex::new(&goal).unwrap();
            let parts = index.parts();
            assert_eq!(index.part_range(parts - 1).end, index.len());
            if s.cells() <= 9 {
                (0..parts).for_each(|p| check(&index, p, 1));
            } else {
                for p in [0, parts / 2 + 1] {
                    check(&index, p, 101);
                }
            }
        }
    }
}
