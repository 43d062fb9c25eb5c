//! Additive pattern databases: a partition of the tiles into disjoint groups, one pattern table
//! per group ([`crate::table::pattern`]), and their sum as an admissible estimate (Korf & Felner,
//! "Disjoint pattern database heuristics", 2002). A group's table counts only the moves of its
//! own tiles, and every move moves one tile, so the sum over disjoint groups never exceeds the
//! true distance.
//!
//! On a square board whose goal maps onto itself under the transpose (the blank on the main
//! diagonal), the board reflected about the diagonal, with its tiles relabelled, is exactly as far
//! from the goal; its sum is a second admissible estimate from the same tables, and the larger of
//! the two is used (Felner, Korf & Hanan 2004).
//!
//! [`Partition`] names the groups: the partitions of the papers by name (4x4: `5-5-5`, `6-6-3`,
//! `7-8`; 5x5: `6-6-6-6`), `auto` for any board, or explicit groups of tile labels
//! (`1,2,3/4,5,6,7/...`). [`PatternSet`] holds the loaded tables and evaluates boards.

use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::index::pattern::PatternIndex;
use crate::index::zero::{one_region, ZeroIndex};
use crate::puzzle::board::{Board, Shape};
use crate::puzzle::goal::Goal;
use crate::table::format::Encoding;
use crate::table::pattern::{build_peak_bytes, PatternTable, ZeroWalk};

/// A named partition: the board shape, its name, and the groups as cells of a goal with the
/// blank in the top-left corner (cell 0).
struct Named {
    rows: usize,
    cols: usize,
    name: &'static str,
    about: &'static str,
    cells: &'static [&'static [u8]],
}

const NAMED: &[Named] = &[
    Named {
        rows: 3,
        cols: 3,
        name: "4-4",
        about: "two groups of four, for trying the machinery on the 8-puzzle",
        cells: &[&[1, 2, 4, 5], &[3, 6, 7, 8]],
    },
    Named {
        rows: 3,
        cols: 4,
        name: "6-5",
        about: "a 2x3 block and the rest",
        cells: &[&[1, 2, 3, 5, 6, 7], &[4, 8, 9, 10, 11]],
    },
    Named {
        rows: 4,
        cols: 4,
        name: "5-5-5",
        about: "three compact groups of five: small tables (3 x 524,160 entries)",
        cells: &[&[1, 2, 4, 5, 8], &[3, 6, 7, 10, 11], &[9, 12, 13, 14, 15]],
    },
    Named {
        rows: 4,
        cols: 4,
        name: "6-6-3",
        about: "the left and right halves' six tiles and the bottom row's three (1.7 s to build)",
        cells: &[&[1, 4, 5, 8, 9, 12], &[2, 3, 6, 7, 10, 11], &[13, 14, 15]],
    },
    Named {
        rows: 4,
        cols: 4,
        name: "7-8",
        about:
            "the top seven and the bottom eight (Korf & Felner): 549 MiB of tables, about 100 s and 4.4 GiB to build",
        cells: &[&[1, 2, 3, 4, 5, 6, 7], &[8, 9, 10, 11, 12, 13, 14, 15]],
    },
    Named {
        rows: 5,
        cols: 5,
        name: "6-6-6-6",
        about: "Korf & Felner's four groups of six, two of them mirror images of a third: 243 MiB of tables, each about 33 s and 2.4 GiB to build",
        cells: &[&[1, 5, 6, 10, 11, 12], &[2, 3, 4, 7, 8, 9], &[13, 14, 18, 19, 23, 24], &[15, 16, 17, 20, 21, 22]],
    },
];

/// A named catalogue: several partitions of one board (each as in [`Named`]), whose estimate is
/// the largest of their sums.
struct Catalogue {
    rows: usize,
    cols: usize,
    name: &'static str,
    about: &'static str,
    /// Meant to be built zero-aware (`--zero`): its classic tables are larger to build and weaker.
    zero: bool,
    parts: &'static [&'static [&'static [u8]]],
}

/// Clausecker & Reinefeld's `small-t` partitions, which `improved-t` extends.
const SMALL_T: [&[&[u8]]; 7] = [
    &[&[1, 5, 6, 10, 11, 12], &[2, 3, 4, 7, 8, 9], &[13, 14, 18, 19, 23, 24], &[15, 16, 17, 20, 21, 22]],
    &[&[1, 2, 5, 6, 10, 11], &[3, 4, 7, 8, 9, 12], &[13, 14, 18, 19, 23, 24], &[15, 16, 17, 20, 21, 22]],
    &[&[1, 5, 6, 10, 11, 12], &[2, 3, 4, 7, 8, 9], &[13, 14, 15, 16, 17, 18], &[19, 20, 21, 22, 23, 24]],
    &[&[1, 2, 5, 6, 10, 11], &[3, 4, 7, 8, 9, 12], &[13, 14, 15, 16, 17, 18], &[19, 20, 21, 22, 23, 24]],
    &[&[1, 5, 6, 10, 15, 20], &[2, 3, 4, 7, 8, 9], &[11, 12, 16, 17, 21, 22], &[13, 14, 18, 19, 23, 24]],
    &[&[1, 2, 5, 6, 10, 11], &[3, 4, 9, 14, 19, 24], &[7, 8, 12, 13, 18, 23], &[15, 16, 17, 20, 21, 22]],
    &[&[1, 5, 6, 10, 15, 20], &[2, 3, 4, 7, 8, 9], &[11, 12, 13, 16, 17, 18], &[14, 19, 21, 22, 23, 24]],
];

const CATALOGUES: &[Catalogue] = &[
    Catalogue {
        rows: 4,
        cols: 4,
        name: "6-6-3+5-5-5",
        about: "the largest of 6-6-3's and 5-5-5's sums (each with the reflection): small tables, built on the spot in about 2 s",
        zero: false,
        parts: &[
            &[&[1, 4, 5, 8, 9, 12], &[2, 3, 6, 7, 10, 11], &[13, 14, 15]],
            &[&[1, 2, 4, 5, 8], &[3, 6, 7, 10, 11], &[9, 12, 13, 14, 15]],
        ],
    },
    Catalogue {
        rows: 4,
        cols: 4,
        name: "double-7-8",
        about: "the largest of two 7-8 partitions' sums (each with the reflection): Korf & Felner's top seven and bottom eight, and the top row, left column and tile 5 against the bottom-right eight; zero-aware, 373 MiB, about 4 min to build",
        zero: true,
        parts: &[&[&[1, 2, 3, 4, 5, 6, 7], &[8, 9, 10, 11, 12, 13, 14, 15]], &[&[1, 2, 3, 4, 5, 8, 12], &[6, 7, 9, 10, 11, 13, 14, 15]]],
    },
    Catalogue {
        rows: 5,
        cols: 5,
        name: "small-t",
        about: "Clausecker & Reinefeld's catalogue: 7 partitions of four groups of six, 14 distinct groups (with the reflected lookup, the 28 of the paper) in 11 tables; zero-aware, about 6.5 min to build",
        zero: true,
        parts: &SMALL_T,
    },
    Catalogue {
        rows: 5,
        cols: 5,
        name: "improved-t",
        about: "Clausecker & Reinefeld's larger catalogue: small-t's 7 partitions and 7 more, 20 distinct groups in 15 tables (4 more than small-t's); zero-aware",
        zero: true,
        parts: &[
            SMALL_T[0],
            SMALL_T[1],
            SMALL_T[2],
            SMALL_T[3],
            SMALL_T[4],
            SMALL_T[5],
            SMALL_T[6],
            &[&[1, 5, 6, 10, 15, 20], &[2, 3, 7, 8, 13, 18], &[4, 9, 14, 19, 23, 24], &[11, 12, 16, 17, 21, 22]],
            &[&[1, 5, 6, 10, 11, 12], &[2, 3, 7, 8, 13, 18], &[4, 9, 14, 19, 23, 24], &[15, 16, 17, 20, 21, 22]],
            &[&[1, 2, 5, 6, 10, 15], &[3, 4, 7, 8, 9, 14], &[11, 12, 13, 16, 17, 18], &[19, 20, 21, 22, 23, 24]],
            &[&[1, 2, 5, 6, 10, 15], &[3, 4, 9, 14, 19, 24], &[7, 8, 12, 13, 18, 23], &[11, 16, 17, 20, 21, 22]],
            &[&[1, 2, 5, 6, 10, 15], &[3, 4, 7, 8, 9, 12], &[11, 16, 17, 20, 21, 22], &[13, 14, 18, 19, 23, 24]],
            &[&[1, 2, 5, 6, 10, 11], &[3, 4, 7, 8, 9, 14], &[12, 13, 18, 19, 23, 24], &[15, 16, 17, 20, 21, 22]],
            &[&[1, 2, 5, 6, 10, 15], &[3, 4, 7, 8, 9, 14], &[11, 16, 17, 20, 21, 22], &[12, 13, 18, 19, 23, 24]],
        ],
    },
];

/// The most partitions of a catalogue (with the reflected lookup, twice as many sums).
pub const MAX_PARTS: usize = 16;

/// The most (placement, free cell) slots, a byte each in the build's working array, of a group
/// whose table builds in about a second: the size of `auto`'s groups, and of the tables `solve`
/// builds on the spot when they are missing.
pub const SMALL_GROUP_SLOTS: u64 = 64 << 20;

/// The working memory (bytes, one a slot) a table of `--pattern auto` may take to build on a
/// board past 25 cells: 5-tile groups on 6x6 (1.3 GiB, about 13 s each on 2 cores); on 7x7 a
/// 5-tile group would take 9.2 GiB and several minutes, so 4 tiles.
pub const AUTO_BUILD_BYTES: u64 = 4 << 30;

/// The cells of `shape` two rows at a time in a snake: rows 0 and 1 column by column left to
/// right (top cell first), rows 2 and 3 right to left, and so on (a last single row alone).
fn snake(shape: Shape) -> Vec<usize> {
    let (rows, cols) = (shape.rows(), shape.cols());
    let mut out = Vec::with_capacity(rows * cols);
    for (band, top) in (0..rows).step_by(2).enumerate() {
        let band_rows = (rows - top).min(2);
        for j in 0..cols {
            let c = if band % 2 == 0 { j } else { cols - 1 - j };
            for r in top..top + band_rows {
                out.push(r * cols + c);
            }
        }
    }
    out
}

/// A partition of a board's tiles into disjoint groups, or a catalogue of several partitions
/// (the estimate is then the largest of their sums).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partition {
    /// The board shape.
    pub shape: Shape,
    /// The partition's name (`7-8`, `small-t`), or its groups written out (`1,2,3/4,5,6`).
    pub name: String,
    /// The distinct groups' tiles, each ascending: one table each. In a single partition they
    /// are disjoint; a catalogue's partitions may share groups.
    pub groups: Vec<Vec<u16>>,
    /// The partitions, each as indices into `groups` (one partition: all of them, in order).
    pub parts: Vec<Vec<usize>>,
    /// Where each group's entries are: its own table, or another group's through a symmetry of
    /// the board ([`Partition::sources`]).
    sources: Vec<Source>,
}

/// Where a group's entries are found: in the table of group `table` (itself, or another group
/// that a symmetry of the board maps onto it), with the board's cells and the group's tiles
/// carried into that table's frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// The group whose table holds the entries.
    pub table: usize,
    /// `cells[c]`: the cell of the table's frame that board cell `c` maps to.
    pub cells: Vec<u8>,
    /// `slots[i]`: the table's slot (place in its tile order) of this group's `i`-th tile.
    pub slots: Vec<u8>,
}

impl Source {
    /// A group's own table.
    fn own(group: usize, cells: usize, k: usize) -> Source {
        Source { table: group, cells: (0..cells as u8).collect(), slots: (0..k as u8).collect() }
    }
}

impl Partition {
    /// The partition `text` for `goal`: a name from [`Partition::names`] (or `auto`), or groups
    /// of tile labels separated by `/`, tiles by `,` (`1,2,3/4,5,6,7`). Named partitions are laid
    /// out for a goal with the blank in a corner (mirrored to the goal's corner) and take the
    /// tiles of `goal` on those cells.
    ///
    /// Groups need not cover every tile (the rest count nothing) but must be disjoint.
    ///
    /// # Errors
    /// [`Error::BadOption`] for an unknown name, a name for another board, a goal whose blank is
    /// not in a corner (for names), a tile that is not a number or not on the board, a tile in
    /// two groups, an empty group or one too large ([`PatternIndex::new`]).
    pub fn parse(goal: &Board, text: &str) -> Result<Partition, Error> {
        let mut p = Partition::parse_unshared(goal, text)?;
        p.share(goal);
        Ok(p)
    }

    /// [`Partition::parse`] with every group on its own table.
    fn parse_unshared(goal: &Board, text: &str) -> Result<Partition, Error> {
        let shape = goal.shape();
        if shape.cells() > crate::index::pattern::MAX_PATTERN_CELLS {
            return Err(Error::BadShape(format!(
                "{shape}: pattern tables go up to {} cells, and this board has {}",
                crate::index::pattern::MAX_PATTERN_CELLS,
                shape.cells()
            )));
        }
        let text = text.trim();
        if text.is_empty() {
            return Err(Error::BadOption(
                "an empty --pattern: give a name (see `table build --pattern list`) or groups like 1,2,3/4,5,6".into(),
            ));
        }
        if text.contains('+') {
            return Partition::joined(goal, text);
        }
        if let Some(cat) =
            CATALOGUES.iter().find(|c| c.name == text && c.rows == shape.rows() && c.cols == shape.cols())
        {
            let map = corner_map(goal).ok_or_else(|| not_corner(goal))?;
            let parts =
                cat.parts.iter().map(|part| Partition::checked(goal, cat.name.to_string(), laid_out(goal, &map, part)));
            return Partition::join_all(parts, cat.name.to_string());
        }
        if text.contains([',', '/']) || text.parse::<u16>().is_ok() {
            return Partition::explicit(goal, text);
        }
        if text == "auto" {
            return Ok(Partition::auto(goal));
        }
        let Some(named) = NAMED.iter().find(|p| p.name == text && p.rows == shape.rows() && p.cols == shape.cols())
        else {
            let known = Partition::names(shape);
            let others: Vec<String> =
                every_name().filter(|p| p.0 == text).map(|p| format!("{}x{}", p.1, p.2)).collect();
            let hint = if !others.is_empty() {
                format!("`{text}` is a partition of {}, not {shape}", others.join(", "))
            } else {
                format!("no partition is named `{text}`")
            };
            let names = if known.is_empty() { "auto".to_string() } else { format!("{}, auto", known.join(", ")) };
            return Err(Error::BadOption(format!(
                "{hint}; for {shape} give one of {names}, or groups of tiles like 1,2,3/4,5,6 (`table build --pattern list`)"
            )));
        };
        let map = corner_map(goal).ok_or_else(|| not_corner(goal))?;
        Partition::checked(goal, named.name.to_string(), laid_out(goal, &map, named.cells))
    }

    /// Several partitions joined by `+`: `7-8+1,2,3,4,5,6/...`.
    fn joined(goal: &Board, text: &str) -> Result<Partition, Error> {
        let parts = text.split('+').map(|piece| {
            if piece.trim().is_empty() {
                return Err(Error::BadOption(format!(
                    "--pattern {text} has an empty partition: join partitions with a single + (like 7-8+1,2,3,4,5,6/7,8,9,10,11,12,13,14,15)"
                )));
            }
            Partition::parse_unshared(goal, piece)
        });
        Partition::join_all(parts, text.split('+').map(str::trim).collect::<Vec<_>>().join("+"))
    }

    /// The catalogue of `parts` (at least one), named `name`.
    fn join_all(mut parts: impl Iterator<Item = Result<Partition, Error>>, name: String) -> Result<Partition, Error> {
        let mut all = parts.next().expect("a catalogue has partitions")?;
        for p in parts {
            all = all.join(p?)?;
        }
        all.name = name;
        Ok(all)
    }

    /// This catalogue with `other`'s partitions added (a group in both is kept once).
    fn join(mut self, other: Partition) -> Result<Partition, Error> {
        for part in other.parts {
            if self.parts.len() == MAX_PARTS {
                return Err(Error::BadOption(format!(
                    "--pattern {}: a catalogue has at most {MAX_PARTS} partitions",
                    self.name
                )));
            }
            let mapped = part
                .iter()
                .map(|&g| {
                    let tiles = &other.groups[g];
                    match self.groups.iter().position(|h| h == tiles) {
                        Some(i) => i,
                        None => {
                            self.groups.push(tiles.clone());
                            let g = self.groups.len() - 1;
                            self.sources.push(Source::own(g, self.shape.cells(), tiles.len()));
                            g
                        }
                    }
                })
                .collect();
            if !self.parts.contains(&mapped) {
                self.parts.push(mapped);
            }
        }
        Ok(self)
    }

    /// Where each group's entries are (one per group, in order).
    pub fn sources(&self) -> &[Source] {
        &self.sources
    }

    /// The groups that have tables of their own, in order: the tables to build and load.
    pub fn own_tables(&self) -> Vec<usize> {
        (0..self.groups.len()).filter(|&g| self.sources[g].table == g).collect()
    }

    /// This partition with every group on its own table (no sharing by symmetry).
    pub fn unshared(mut self) -> Partition {
        self.sources = own_sources(self.shape, &self.groups);
        self
    }

    /// Lets a group take its entries from an earlier group's table when a symmetry of the board
    /// (the square's eight, a rectangle's four) carries the earlier group's goal cells onto its
    /// own. Only groups whose goal placement leaves the free cells in one region serve others:
    /// then a table's entries depend on the placement (and the blank's region) alone, never on
    /// where the goal puts the blank, so they are the same under the symmetry.
    fn share(&mut self, goal: &Board) {
        let shape = self.shape;
        let n = shape.cells();
        let mut goal_cell = vec![0usize; n];
        for (c, &t) in goal.cells().iter().enumerate() {
            goal_cell[t as usize] = c;
        }
        let syms = symmetries(shape);
        let cells_of = |g: &[u16]| -> u64 { g.iter().fold(0u64, |m, &t| m | 1 << goal_cell[t as usize]) };
        for g in 0..self.groups.len() {
            let target = cells_of(&self.groups[g]);
            'found: for h in 0..g {
                if self.sources[h].table != h || self.groups[h].len() != self.groups[g].len() {
                    continue;
                }
                let here = cells_of(&self.groups[h]);
                if !one_region(shape, here) {
                    continue;
                }
                for sym in &syms[1..] {
                    let image = (0..n).filter(|&c| here >> c & 1 == 1).fold(0u64, |m, c| m | 1 << sym[c]);
                    if image != target {
                        continue;
                    }
                    // board cell c of group g's frame is cell inverse[c] of group h's
                    let mut inverse = vec![0u8; n];
                    for (c, &to) in sym.iter().enumerate() {
                        inverse[to] = c as u8;
                    }
                    let slots = self.groups[g]
                        .iter()
                        .map(|&t| {
                            let home = inverse[goal_cell[t as usize]] as usize;
                            self.groups[h].iter().position(|&u| goal_cell[u as usize] == home).expect("the image") as u8
                        })
                        .collect();
                    self.sources[g] = Source { table: h, cells: inverse, slots };
                    break 'found;
                }
            }
        }
    }

    /// Whether this is a catalogue of several partitions.
    pub fn is_catalogue(&self) -> bool {
        self.parts.len() > 1
    }

    /// Groups given as tiles: `1,2,3/4,5,6`.
    fn explicit(goal: &Board, text: &str) -> Result<Partition, Error> {
        let mut groups = Vec::new();
        for part in text.split('/') {
            let mut g = Vec::new();
            for tok in part.split([',', ' ']).filter(|t| !t.is_empty()) {
                let t: u16 = tok.parse().map_err(|_| {
                    Error::BadOption(format!(
                        "`{tok}` in --pattern {text} is not a tile number (groups look like 1,2,3/4,5,6)"
                    ))
                })?;
                g.push(t);
            }
            if g.is_empty() {
                return Err(Error::BadOption(format!("--pattern {text} has an empty group")));
            }
            g.sort_unstable();
            groups.push(g);
        }
        let name = groups
            .iter()
            .map(|g| g.iter().map(u16::to_string).collect::<Vec<_>>().join(","))
            .collect::<Vec<_>>()
            .join("/");
        Partition::checked(goal, name, groups)
    }

    /// Up to 25 cells: consecutive tiles of the goal in row-major order, in groups as large as
    /// keep each table's build to about a second (built on the spot when missing). Past 25
    /// cells (6x6 and larger, where no named partition is): compact groups as large as a build
    /// within [`AUTO_BUILD_BYTES`] allows (5 tiles on 6x6, 4 on 7x7 and up), the cells taken
    /// two rows at a time in a snake (left to right along rows 0 and 1 column by column, back
    /// right to left along rows 2 and 3, ...), so each group is a blob of neighbouring cells,
    /// whose tiles interact the most; built once by `table build --pattern auto`.
    fn auto(goal: &Board) -> Partition {
        let shape = goal.shape();
        let n = shape.cells();
        let budget = if n > 25 { AUTO_BUILD_BYTES } else { SMALL_GROUP_SLOTS };
        let mut k = 1;
        while k + 1 + 3 <= n {
            let Ok(index) = PatternIndex::new(shape, &(1..=(k as u16 + 1)).collect::<Vec<_>>()) else { break };
            if index.len().saturating_mul((n - k - 1) as u64) > budget {
                break;
            }
            k += 1;
        }
        let tiles: Vec<u16> = if n > 25 {
            snake(shape).into_iter().map(|c| goal.cells()[c]).filter(|&t| t != 0).collect()
        } else {
            goal.cells().iter().copied().filter(|&t| t != 0).collect()
        };
        let groups: Vec<Vec<u16>> = tiles
            .chunks(k)
            .map(|c| {
                let mut g = c.to_vec();
                g.sort_unstable();
                g
            })
            .collect();
        let parts = vec![(0..groups.len()).collect()];
        let sources = own_sources(shape, &groups);
        Partition { shape, name: "auto".into(), groups, parts, sources }
    }

    fn checked(goal: &Board, name: String, groups: Vec<Vec<u16>>) -> Result<Partition, Error> {
        let shape = goal.shape();
        let mut seen = vec![false; shape.cells()];
        for g in &groups {
            PatternIndex::new(shape, g)?;
            for &t in g {
                if std::mem::replace(&mut seen[t as usize], true) {
                    return Err(Error::BadOption(format!(
                        "tile {t} is in two groups of --pattern {name}: groups must be disjoint"
                    )));
                }
            }
        }
        let parts = vec![(0..groups.len()).collect()];
        let sources = own_sources(shape, &groups);
        Ok(Partition { shape, name, groups, parts, sources })
    }

    /// Whether this is a catalogue meant to be built zero-aware (`double-7-8`, `small-t`,
    /// `improved-t`): the command that builds its missing tables says `--zero`.
    pub fn meant_zero_aware(&self) -> bool {
        CATALOGUES
            .iter()
            .any(|c| c.zero && c.name == self.name && c.rows == self.shape.rows() && c.cols == self.shape.cols())
    }

    /// The names of the partitions and catalogues of `shape` (besides `auto`).
    pub fn names(shape: Shape) -> Vec<&'static str> {
        every_name().filter(|p| p.1 == shape.rows() && p.2 == shape.cols()).map(|p| p.0).collect()
    }

    /// Every named partition for the listing: (shape, name, what it is, groups for the goal with
    /// the blank first).
    pub fn catalogue() -> Vec<(Shape, &'static str, &'static str, Partition)> {
        every_name()
            .filter_map(|(name, rows, cols, about)| {
                let shape = Shape::new(rows, cols).ok()?;
                let goal = Goal::BlankFirst.board(shape).ok()?;
                let part = Partition::parse(&goal, name).ok()?;
                Some((shape, name, about, part))
            })
            .collect()
    }

    /// The bytes a build of each group needs at its peak (the working array and the table),
    /// classic or with `zero` `Some(bits)` zero-aware ([`build_peak_bytes`]). (One for each
    /// group of [`Partition::own_tables`].)
    ///
    /// # Errors
    /// [`Error::BadShape`] for a zero-aware group too large to index.
    pub fn build_bytes(&self, zero: Option<bool>) -> Result<Vec<u64>, Error> {
        self.own_tables()
            .iter()
            .map(|&g| {
                let index =
                    PatternIndex::new(self.shape, &self.groups[g]).expect("checked when the partition was made");
                build_peak_bytes(&index, zero)
            })
            .collect()
    }

    /// The table whose build (classic, or zero-aware in bits or bytes) needs the most memory,
    /// when that is more than nine tenths of `memory` (a build that would swap, or be killed):
    /// its group (an index into `groups`) and the bytes it needs. Front ends refuse such a build
    /// before any work.
    ///
    /// # Errors
    /// As [`Partition::build_bytes`].
    pub fn too_big_to_build(&self, memory: u64, zero: Option<bool>) -> Result<Option<(usize, u64)>, Error> {
        let own = self.own_tables();
        let needs = self.build_bytes(zero)?;
        let Some((i, &peak)) = needs.iter().enumerate().max_by_key(|(_, &b)| b) else { return Ok(None) };
        Ok((peak > memory / 10 * 9).then_some((own[i], peak)))
    }
}

/// The symmetries of `shape` as maps of cells, the identity first: the square's eight, a
/// rectangle's four.
fn symmetries(shape: Shape) -> Vec<Vec<usize>> {
    let (rows, cols) = (shape.rows(), shape.cols());
    let mut out = Vec::new();
    for t in 0..8u8 {
        let transpose = t & 4 != 0;
        if transpose && rows != cols {
            continue;
        }
        out.push(
            (0..shape.cells())
                .map(|c| {
                    let (mut r, mut k) = (c / cols, c % cols);
                    if transpose {
                        (r, k) = (k, r);
                    }
                    if t & 1 != 0 {
                        r = rows - 1 - r;
                    }
                    if t & 2 != 0 {
                        k = cols - 1 - k;
                    }
                    r * cols + k
                })
                .collect(),
        );
    }
    out
}

/// Every named partition and catalogue: (name, rows, columns, what it is).
fn every_name() -> impl Iterator<Item = (&'static str, usize, usize, &'static str)> {
    NAMED
        .iter()
        .map(|p| (p.name, p.rows, p.cols, p.about))
        .chain(CATALOGUES.iter().map(|c| (c.name, c.rows, c.cols, c.about)))
}

/// Every group on its own table.
fn own_sources(shape: Shape, groups: &[Vec<u16>]) -> Vec<Source> {
    groups.iter().enumerate().map(|(g, t)| Source::own(g, shape.cells(), t.len())).collect()
}

/// The groups of a named layout, `cells` of the blank-top-left goal, as the tiles `goal` has on
/// the cells `map` gives them.
fn laid_out(goal: &Board, map: &[usize], cells: &[&[u8]]) -> Vec<Vec<u16>> {
    cells
        .iter()
        .map(|cells| {
            let mut g: Vec<u16> = cells.iter().map(|&c| goal.cells()[map[c as usize]]).collect();
            g.sort_unstable();
            g
        })
        .collect()
}

fn not_corner(goal: &Board) -> Error {
    Error::BadOption(format!(
        "the named partitions are laid out for a goal with the blank in a corner, and this goal's blank is on cell {}: give the groups as tiles instead (like 1,2,3/4,5,6)",
        goal.blank()
    ))
}

/// For a goal with the blank in a corner: `map[c]`, the goal's cell that plays the part of cell
/// `c` of the blank-top-left layout (a mirror of rows, columns or both).
fn corner_map(goal: &Board) -> Option<Vec<usize>> {
    let shape = goal.shape();
    let (rows, cols) = (shape.rows(), shape.cols());
    let (br, bc) = (goal.blank() / cols, goal.blank() % cols);
    let flip_r = match br {
        0 => false,
        r if r == rows - 1 => true,
        _ => return None,
    };
    let flip_c = match bc {
        0 => false,
        c if c == cols - 1 => true,
        _ => return None,
    };
    Some(
        (0..shape.cells())
            .map(|c| {
                let (r, col) = (c / cols, c % cols);
                let r = if flip_r { rows - 1 - r } else { r };
                let col = if flip_c { cols - 1 - col } else { col };
                r * cols + col
            })
            .collect(),
    )
}

/// The file name `table build --pattern` gives a group's table:
/// `4x4-blank-first-tiles-1-2-3-4-5-6-7.table`.
pub fn pattern_file_name(shape: Shape, goal: &Goal, tiles: &[u16]) -> PathBuf {
    group_file_name(shape, goal, "", tiles)
}

/// The conventional file name of a group's zero-aware table ([`pattern_file_name`] with `zero`
/// before `tiles`): `5x5-blank-first-zero-tiles-1-5-6-10-11-12.table`.
pub fn zero_pattern_file_name(shape: Shape, goal: &Goal, tiles: &[u16]) -> PathBuf {
    group_file_name(shape, goal, "zero-", tiles)
}

fn group_file_name(shape: Shape, goal: &Goal, kind: &str, tiles: &[u16]) -> PathBuf {
    let tiles: Vec<String> = tiles.iter().map(u16::to_string).collect();
    PathBuf::from(format!("{shape}-{}-{kind}tiles-{}.table", goal.slug(), tiles.join("-")))
}

/// One group's table, loaded for searching: its index and its entries in memory.
#[derive(Debug)]
pub struct GroupTable {
    index: PatternIndex,
    entries: Entries,
    /// A zero-aware table's index and whether its entries are bits ([`Encoding::ZeroBit`]).
    zero: Option<(ZeroIndex, bool)>,
    /// The group's goal cells and the goal's blank (for walking a 1-bit table down).
    goal_cells: Vec<u8>,
    goal_blank: u8,
}

/// Where a group's entries live.
#[derive(Debug)]
enum Entries {
    /// A private copy, on huge pages where the system allows: the fastest random lookups.
    Owned(Vec<u8>),
    /// The file's own mapping: processes on one machine that map the same file share one copy
    /// in the page cache (a Dask worker per core, say), at some cost in TLB misses.
    Mapped(Box<PatternTable<memmap2::Mmap>>),
}

impl GroupTable {
    /// Takes the entries of an opened pattern table, checking its payload checksum (once: a
    /// flipped byte would silently make solutions non-optimal). The entries are copied into
    /// memory backed by huge pages where the system allows, for the search's random lookups.
    ///
    /// # Errors
    /// [`Error::ChecksumMismatch`].
    pub fn from_table<D: AsRef<[u8]>>(table: &PatternTable<D>) -> Result<GroupTable, Error> {
        table.check_payload_crc()?;
        let payload = table.payload();
        let mut entries: Vec<u8> = Vec::with_capacity(payload.len());
        crate::memory::advise_huge_pages_for_load(entries.as_mut_ptr(), payload.len());
        entries.extend_from_slice(payload);
        GroupTable::with_entries(table, Entries::Owned(entries))
    }

    fn with_entries<D: AsRef<[u8]>>(table: &PatternTable<D>, entries: Entries) -> Result<GroupTable, Error> {
        let zero = table.zero_index().map(|z| (z.clone(), table.header().encoding == Encoding::ZeroBit));
        let goal_cells = table.index().cells_of(table.goal())?;
        let goal_blank = table.goal().blank() as u8;
        Ok(GroupTable { index: table.index().clone(), entries, zero, goal_cells, goal_blank })
    }

    /// Keeps an opened table file's mapping instead of copying it, after checking its payload
    /// checksum: every process that maps the same file shares one copy of it in memory.
    ///
    /// # Errors
    /// [`Error::ChecksumMismatch`].
    pub fn mapped(table: PatternTable<memmap2::Mmap>) -> Result<GroupTable, Error> {
        table.check_payload_crc()?;
        let mut group = GroupTable::with_entries(&table, Entries::Owned(Vec::new()))?;
        group.entries = Entries::Mapped(Box::new(table));
        Ok(group)
    }

    /// A zero-aware table's index, and whether its entries are bits; `None` for a classic table.
    pub fn zero(&self) -> Option<(&ZeroIndex, bool)> {
        self.zero.as_ref().map(|(z, b)| (z, *b))
    }

    /// The entry for the group on `cells` (in its tile order) with the blank on `blank`: the
    /// placement's for a classic table, the blank region's for a zero-aware one (a 1-bit table
    /// walked down to the goal; a walk that fails, which a checksummed table never makes, gives
    /// 0, which is still admissible).
    pub fn value(&self, cells: &[u8], blank: u8) -> u32 {
        match &self.zero {
            None => self.entries()[self.index.rank(cells) as usize] as u32,
            Some((z, false)) => self.entries()[z.index(cells, blank) as usize] as u32,
            Some((z, true)) => {
                let walk =
                    ZeroWalk { index: z, bits: self.entries(), goal: &self.goal_cells, goal_blank: self.goal_blank };
                walk.value(cells, blank).unwrap_or(0)
            }
        }
    }

    /// Whether the entries are the file's mapping (shared between processes) rather than a copy.
    pub fn is_mapped(&self) -> bool {
        matches!(self.entries, Entries::Mapped(_))
    }

    /// The placement index.
    pub fn index(&self) -> &PatternIndex {
        &self.index
    }

    /// The entries, one per placement.
    pub fn entries(&self) -> &[u8] {
        match &self.entries {
            Entries::Owned(v) => v,
            Entries::Mapped(t) => t.payload(),
        }
    }
}

/// The loaded tables of a partition, for one goal: an admissible estimate of any board.
#[derive(Debug)]
pub struct PatternSet {
    goal: Board,
    partition: Partition,
    tables: Vec<GroupTable>,
    /// `table_of[g]`: the place in `tables` of the table group `g` is looked up in.
    table_of: Vec<usize>,
    /// The transpose's relabelling `sigma[t]` when the reflected lookup applies.
    sigma: Option<Vec<u16>>,
}

impl PatternSet {
    /// The set of `partition`'s tables for `goal`, one for each group of
    /// [`Partition::own_tables`] in that order (the others are looked up in them through a
    /// symmetry); `reflect` asks for the reflected lookup too, used when the board is square and
    /// the goal's blank is on the diagonal.
    ///
    /// # Errors
    /// [`Error::BadOption`] when a table is not for the partition's group or shape, or `goal`
    /// is of another shape.
    pub fn new(
        goal: &Board,
        partition: Partition,
        tables: Vec<GroupTable>,
        reflect: bool,
    ) -> Result<PatternSet, Error> {
        let shape = goal.shape();
        let own = partition.own_tables();
        if partition.shape != shape || tables.len() != own.len() {
            return Err(Error::BadOption(format!(
                "{} tables for a partition whose groups need {}",
                tables.len(),
                own.len()
            )));
        }
        for (&g, table) in own.iter().zip(&tables) {
            if table.index.tiles() != &partition.groups[g][..] || table.index.shape() != shape {
                return Err(Error::BadOption(format!("the table for group {g} is for other tiles")));
            }
        }
        let table_of = partition
            .sources
            .iter()
            .map(|src| own.iter().position(|&g| g == src.table).expect("a source has its own table"))
            .collect();
        let sigma = if reflect { transpose_relabelling(goal) } else { None };
        Ok(PatternSet { goal: goal.clone(), partition, tables, table_of, sigma })
    }

    /// The classic tables of `partition` for `goal`, built in memory (one per group of
    /// [`Partition::own_tables`]), as a set.
    ///
    /// # Errors
    /// Those of [`crate::table::build_pattern`] and [`PatternSet::new`].
    pub fn build(goal: &Board, partition: Partition, reflect: bool) -> Result<PatternSet, Error> {
        let tables = partition
            .own_tables()
            .iter()
            .map(|&g| {
                GroupTable::from_table(&crate::table::pattern::build_pattern(goal, &partition.groups[g], |_| {})?)
            })
            .collect::<Result<Vec<_>, _>>()?;
        PatternSet::new(goal, partition, tables, reflect)
    }

    /// The table group `g` is looked up in, and how ([`Partition::sources`]).
    pub fn lookup(&self, g: usize) -> (&GroupTable, &Source) {
        (&self.tables[self.table_of[g]], &self.partition.sources[g])
    }

    /// The cells, in the table's frame and slot order, of group `g` on the board whose tiles
    /// are on `cell_of`, or on its reflection; and the blank's cell there.
    fn frame<const T: bool>(&self, g: usize, cell_of: &[u8]) -> ([u8; crate::index::pattern::MAX_GROUP], u8) {
        let side = self.goal.shape().rows();
        let src = &self.partition.sources[g];
        let place = |c: u8| -> u8 {
            let c = c as usize;
            let c = if T { (c % side) * side + c / side } else { c };
            src.cells[c]
        };
        let mut buf = [0u8; crate::index::pattern::MAX_GROUP];
        for (i, &tile) in self.partition.groups[g].iter().enumerate() {
            // tile `tile` of the reflected board stands where the reflection put the original
            // tile `sigma` sends to it, which is `sigma[tile]`: transposing twice is the
            // identity, so `sigma` is its own inverse
            let t = if T { self.sigma.as_ref().map_or(tile, |s| s[tile as usize]) } else { tile };
            buf[src.slots[i] as usize] = place(cell_of[t as usize]);
        }
        (buf, place(cell_of[0]))
    }

    /// The goal.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// The partition.
    pub fn partition(&self) -> &Partition {
        &self.partition
    }

    /// The groups' tables, in the partition's order.
    pub fn tables(&self) -> &[GroupTable] {
        &self.tables
    }

    /// The transpose's relabelling of tiles when the reflected lookup is on: the reflected board
    /// has tile `sigma[t]` on the transposed cell of tile `t`.
    pub fn reflection(&self) -> Option<&[u16]> {
        self.sigma.as_deref()
    }

    /// The estimate of `board` without the reflected lookup: the sum of the groups' entries, or
    /// for a catalogue the largest of its partitions' sums.
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] for a board of another shape.
    pub fn sum(&self, board: &Board) -> Result<u32, Error> {
        if board.shape() != self.goal.shape() {
            return Err(Error::ShapeMismatch { board: board.shape(), table: self.goal.shape() });
        }
        Ok(self.estimate_cells_with(board.cells(), false))
    }

    /// The largest of the partitions' sums of `values` (one per group).
    fn best_part(&self, values: &[u32]) -> u32 {
        self.partition.parts.iter().map(|part| part.iter().map(|&g| values[g]).sum()).max().unwrap_or(0)
    }

    /// [`PatternSet::estimate`] of the board whose cells, row-major, are `cells` (0 the blank).
    pub fn estimate_cells<T: crate::heuristic::Tile>(&self, cells: &[T]) -> u32 {
        self.estimate_cells_with(cells, true)
    }

    /// [`PatternSet::estimate_cells`], with the reflected lookup only when `reflect` and the set
    /// has it.
    fn estimate_cells_with<T: crate::heuristic::Tile>(&self, cells: &[T], reflect: bool) -> u32 {
        let n = cells.len();
        let mut cell_of = vec![0u8; n];
        for (c, &t) in cells.iter().enumerate() {
            cell_of[t.into()] = c as u8;
        }
        let groups = self.partition.groups.len();
        let value = |g: usize, (buf, blank): ([u8; crate::index::pattern::MAX_GROUP], u8)| -> u32 {
            let t = &self.tables[self.table_of[g]];
            t.value(&buf[..t.index.k()], blank)
        };
        let values: Vec<u32> = (0..groups).map(|g| value(g, self.frame::<false>(g, &cell_of))).collect();
        let h = self.best_part(&values);
        if reflect && self.sigma.is_some() {
            let values: Vec<u32> = (0..groups).map(|g| value(g, self.frame::<true>(g, &cell_of))).collect();
            h.max(self.best_part(&values))
        } else {
            h
        }
    }

    /// The estimates of many boards at once: `cells` holds `out.len()` boards end to end (each
    /// row-major, 0 the blank, a valid arrangement of this set's shape); `reflect` false leaves
    /// out the reflected lookup even when the set has it (the plain sum). The lookups of a block
    /// of boards are all issued before any is read, so the tables' cache misses overlap: several
    /// times faster than one [`PatternSet::estimate_cells`] after another on tables larger than
    /// the cache.
    ///
    /// # Panics
    /// If `cells.len()` is not `out.len()` times the shape's cells, or a tile is out of range.
    pub fn estimate_many(&self, cells: &[u8], reflect: bool, out: &mut [u32]) {
        const BLOCK: usize = 16;
        let n = self.goal.shape().cells();
        assert_eq!(cells.len(), out.len() * n, "{} cells for {} boards of {n}", cells.len(), out.len());
        if self.tables.iter().any(|t| t.zero.is_some()) {
            // zero-aware tables are looked up one board at a time
            for (board, answer) in cells.chunks_exact(n).zip(out.iter_mut()) {
                *answer = self.estimate_cells_with(board, reflect);
            }
            return;
        }
        let reflected = reflect && self.sigma.is_some();
        let groups = self.partition.groups.len();
        let per_board = if reflected { 2 * groups } else { groups };
        let mut ranks = vec![0usize; BLOCK * per_board];
        let entries: Vec<&[u8]> = self.table_of.iter().map(|&t| self.tables[t].entries()).collect();
        let mut values = vec![0u32; groups];
        for (boards, answers) in cells.chunks(BLOCK * n).zip(out.chunks_mut(BLOCK)) {
            for (b, board) in boards.chunks_exact(n).enumerate() {
                let mut cell_of = [0u8; crate::index::pattern::MAX_PATTERN_CELLS];
                for (c, &t) in board.iter().enumerate() {
                    cell_of[t as usize] = c as u8;
                }
                let slots = &mut ranks[b * per_board..(b + 1) * per_board];
                for g in 0..groups {
                    let index = &self.tables[self.table_of[g]].index;
                    let (buf, _) = self.frame::<false>(g, &cell_of);
                    let r = index.rank(&buf[..index.k()]) as usize;
                    crate::memory::prefetch(&entries[g][r]);
                    slots[g] = r;
                    if reflected {
                        let (buf, _) = self.frame::<true>(g, &cell_of);
                        let r = index.rank(&buf[..index.k()]) as usize;
                        crate::memory::prefetch(&entries[g][r]);
                        slots[groups + g] = r;
                    }
                }
            }
            for (b, answer) in answers.iter_mut().enumerate() {
                let slots = &ranks[b * per_board..(b + 1) * per_board];
                let mut best = |first: usize| -> u32 {
                    for (g, e) in entries.iter().enumerate() {
                        values[g] = e[slots[first + g]] as u32;
                    }
                    self.best_part(&values)
                };
                let h = best(0);
                *answer = if reflected { h.max(best(groups)) } else { h };
            }
        }
    }

    /// The estimate of `board`: the sum, or with the reflected lookup the larger of the board's
    /// and its reflection's sums.
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] for a board of another shape.
    pub fn estimate(&self, board: &Board) -> Result<u32, Error> {
        if board.shape() != self.goal.shape() {
            return Err(Error::ShapeMismatch { board: board.shape(), table: self.goal.shape() });
        }
        Ok(self.estimate_cells(board.cells()))
    }
}

/// The relabelling that makes the transposed goal the goal again: `sigma[t]` is the goal's tile
/// on the transposed goal cell of `t`. `None` unless the board is square and the goal's blank is
/// on the main diagonal.
pub fn transpose_relabelling(goal: &Board) -> Option<Vec<u16>> {
    let shape = goal.shape();
    let n = shape.rows();
    if shape.cols() != n || goal.blank() / n != goal.blank() % n {
        return None;
    }
    let mut cell_of = vec![0usize; shape.cells()];
    for (c, &t) in goal.cells().iter().enumerate() {
        cell_of[t as usize] = c;
    }
    Some(
        (0..shape.cells())
            .map(|t| {
                let c = cell_of[t];
                goal.cells()[(c % n) * n + c / n]
            })
            .collect(),
    )
}

/// `board` reflected about the main diagonal with its tiles relabelled by `sigma`: exactly as
/// far from the goal as `board` when `sigma` is [`transpose_relabelling`] of the goal.
pub fn reflect(board: &Board, sigma: &[u16]) -> Board {
    let n = board.shape().rows();
    let mut cells = vec![0u16; board.shape().cells()];
    for (c, &t) in board.cells().iter().enumerate() {
        cells[(c % n) * n + c / n] = sigma[t as usize];
    }
    Board::new(board.shape(), cells).expect("a relabelled transpose is a permutation")
}

/// Where the tables of `partition` for `goal` live (one for each group of [`Partition::own_tables`]): in `dir`, under
/// [`pattern_file_name`].
pub fn pattern_paths(dir: &Path, goal: &Goal, partition: &Partition) -> Vec<PathBuf> {
    partition
        .own_tables()
        .iter()
        .map(|&g| dir.join(pattern_file_name(partition.shape, goal, &partition.groups[g])))
        .collect()
}
