//! Where a command takes one board from: tiles on the command line, a COS 226 puzzle file, or a
//! named preset from `data/presets.tsv`.

use std::path::PathBuf;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use slidetable::{Board, Goal, Shape};

use super::{BoardArgs, UsageError};

/// The named boards, compiled in from `data/presets.tsv`.
const PRESETS: &str = include_str!("presets.tsv");

/// A named board.
#[derive(Clone, Debug)]
pub struct Preset {
    /// Its name (`hard`).
    pub name: String,
    /// Its goal, as `--goal` takes it.
    pub goal: String,
    /// Its tiles, row-major.
    pub board: String,
    /// Its exact distance to the goal.
    pub distance: u32,
    /// Where it comes from.
    pub source: String,
}

/// Every preset, in file order.
pub fn presets() -> Vec<Preset> {
    PRESETS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Some(Preset {
                name: f.first()?.to_string(),
                goal: f.get(1)?.to_string(),
                board: f.get(2)?.to_string(),
                distance: f.get(3)?.parse().ok()?,
                source: f.get(4).unwrap_or(&"").to_string(),
            })
        })
        .collect()
}

/// The preset called `name` (case-insensitive).
pub fn preset(name: &str) -> Result<Preset> {
    presets().into_iter().find(|p| p.name.eq_ignore_ascii_case(name.trim())).ok_or_else(|| {
        let names: Vec<String> = presets().into_iter().map(|p| p.name).collect();
        anyhow!(UsageError(format!("no preset named `{name}`: the presets are {}", names.join(", "))))
    })
}

/// The presets as a table, for `--preset list`.
pub fn preset_list() -> String {
    let mut s = String::from("name            goal        distance  board              source\n");
    for p in presets() {
        s.push_str(&format!("{:<15} {:<11} {:>8}  {:<18} {}\n", p.name, p.goal, p.distance, p.board, p.source));
    }
    s
}

/// One board, from arguments, a file or a preset.
#[derive(Args, Debug, Clone, Default)]
pub struct BoardInput {
    /// The board: tiles row by row, 0 (or _ or .) for the blank; several arguments are joined.
    /// A square board's size is read from the number of tiles (16 tiles: 4x4); give --board for
    /// a rectangular one.
    #[arg(value_name = "TILE", num_args = 0..)]
    pub tiles: Vec<String>,
    /// Read the board from a puzzle file in COS 226 format: the size N, then N rows of N numbers,
    /// 0 the blank (a first line `R C` for a board of R rows and C columns); `-` reads standard
    /// input.
    #[arg(long, short = 'f', value_name = "FILE", conflicts_with = "preset")]
    pub file: Option<PathBuf>,
    /// A named board: easy, medium, hard, worst (Andes & Artiaga's C solver's presets, snail goal),
    /// prolog (the Prolog tutorial's example), hardest-a, hardest-b (the two 31-move 3x3 states), russell-norvig (goal
    /// blank-first). The preset's goal is used unless --goal is given. `--preset list` lists them.
    #[arg(long, value_name = "NAME")]
    pub preset: Option<String>,
}

/// A board read from a [`BoardInput`], with its goal.
pub struct Given {
    /// The board.
    pub board: Board,
    /// Its goal (from --goal, the preset, or blank-last).
    pub goal: Goal,
    /// The preset it came from.
    pub preset: Option<Preset>,
}

impl BoardInput {
    /// Whether a board was given at all (tiles, a file or a preset).
    pub fn given(&self) -> bool {
        !self.tiles.is_empty() || self.file.is_some() || self.preset.is_some()
    }

    /// Whether `--preset list` was asked for.
    pub fn wants_list(&self) -> bool {
        self.preset.as_deref().is_some_and(|p| p.eq_ignore_ascii_case("list"))
    }

    /// Reads the board and its goal. The shape comes from --board, the file, the preset, or the
    /// number of tiles (a square board), in that order; `fallback` (a table's shape) is used when
    /// none of them decides.
    pub fn read(&self, args: &BoardArgs, fallback: Option<Shape>) -> Result<Given> {
        let given_shape = args.shape()?;
        let sources = [!self.tiles.is_empty(), self.file.is_some(), self.preset.is_some()];
        match sources.iter().filter(|&&s| s).count() {
            0 => bail!(UsageError(
                "no board given: write its tiles row by row (`8 6 7 2 5 4 3 0 1`), or give --file FILE or --preset NAME"
                    .into()
            )),
            1 => {}
            _ => bail!(UsageError("give the board one way: as tiles, with --file, or with --preset".into())),
        }
        let (board, preset) = if let Some(path) = &self.file {
            let text = if path.as_os_str() == "-" {
                std::io::read_to_string(std::io::stdin().lock()).context("reading the puzzle from standard input")?
            } else {
                std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?
            };
            let board =
                Board::parse_cos226(&text).with_context(|| format!("reading the puzzle in {}", path.display()))?;
            if let Some(s) = given_shape.filter(|&s| s != board.shape()) {
                bail!(UsageError(format!("{} holds a {} board, but --board says {s}", path.display(), board.shape())));
            }
            (board, None)
        } else if let Some(name) = &self.preset {
            let p = preset(name)?;
            let board = Board::parse(Shape::EIGHT, &p.board).with_context(|| format!("preset {}", p.name))?;
            if let Some(s) = given_shape.filter(|&s| s != board.shape()) {
                bail!(UsageError(format!("preset {} is a {} board, but --board says {s}", p.name, board.shape())));
            }
            (board, Some(p))
        } else {
            let text = self.tiles.join(" ");
            let shape = match given_shape.or_else(|| Board::square_shape_of(&text)).or(fallback) {
                Some(s) => s,
                None => bail!(UsageError(format!(
                    "`{text}` is not a square number of tiles: give the shape with --board RxC (like --board 2x4)"
                ))),
            };
            (Board::parse(shape, &text)?, None)
        };
        let shape = board.shape();
        let goal = match (&args.goal, &preset) {
            (Some(g), _) => Goal::parse(shape, g)?,
            (None, Some(p)) => Goal::parse(shape, &p.goal)?,
            (None, None) => Goal::BlankLast,
        };
        Ok(Given { board, goal, preset })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_parses_and_has_its_distance() {
        let all = presets();
        assert!(all.len() >= 8);
        for p in all {
            let board = Board::parse(Shape::EIGHT, &p.board).unwrap();
            let goal = Goal::parse(Shape::EIGHT, &p.goal).unwrap().board(Shape::EIGHT).unwrap();
            let table = slidetable::build(&goal, |_| {}).unwrap();
            assert_eq!(table.distance(&board).unwrap(), Some(p.distance as u8), "preset {}", p.name);
        }
    }
}
