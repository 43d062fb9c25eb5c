//! `table solve --batch`: many boards, one per line, solved in parallel across boards.

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use rayon::prelude::*;
use serde::Serialize;
use slidetable::puzzle::board::moves_letters;
use slidetable::search::{Algorithm, Found, Options, ASTAR_IDA_BYTES};
use slidetable::solver::{default_max_memory, Solver};
use slidetable::{Board, Error, Goal};

use super::solve::{PatternTablesJson, SolveArgs};
use super::{exit_code, print_notice, thousands, UsageError, EXIT_GAVE_UP};

#[derive(Serialize)]
struct Line {
    line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    solution: Option<String>,
    /// A proven lower bound on the optimum (the length itself for an optimal search).
    #[serde(skip_serializing_if = "Option::is_none")]
    lower_bound: Option<u32>,
    /// The length over the lower bound, rounded up.
    #[serde(skip_serializing_if = "Option::is_none")]
    within: Option<f64>,
    /// The limit that stopped a bounded search before its proof.
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    generated: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    expanded: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    seconds: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    unsolvable: Option<bool>,
    /// A search stopped by a limit (--max-nodes, --max-memory, --time-limit) before any
    /// solution: why, with what to do.
    #[serde(skip_serializing_if = "Option::is_none")]
    gave_up: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

#[derive(Serialize)]
struct Totals {
    boards: usize,
    solved: usize,
    unsolvable: usize,
    gave_up: usize,
    errors: usize,
    generated: u64,
    expanded: u64,
    search_seconds: f64,
    wall_seconds: f64,
    algorithm: &'static str,
    heuristic: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pattern_tables: Option<PatternTablesJson>,
}

pub fn run(args: &SolveArgs) -> Result<ExitCode> {
    if !args.input.tiles.is_empty() {
        bail!(UsageError(
            "--batch reads boards from --file or standard input, one per line, not from arguments".into()
        ));
    }
    let shipped = match &args.instances {
        Some(name) => Some(slidetable::lab::instances::instances(name)?),
        None => None,
    };
    let text = match (&shipped, &args.input.file) {
        (Some((_, set)), _) => set.iter().map(|i| i.board.to_numbers() + "\n").collect(),
        (None, Some(p)) if p.as_os_str() != "-" => {
            std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?
        }
        _ => io::read_to_string(io::stdin().lock()).context("reading boards from standard input")?,
    };
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let Some(&(_, first)) = lines.first() else {
        bail!(UsageError("--batch: no boards in the input (one board per line; # starts a comment)".into()));
    };
    let shape = match (args.board.shape_arg()?, &shipped) {
        (Some(s), _) => s,
        (None, Some((_, set))) => set[0].board.shape(),
        (None, None) => match Board::square_shape_of(first) {
            Some(s) => s,
            None => bail!(UsageError(format!(
                "--batch: `{first}` is not a square number of tiles: give the shape with --board RxC"
            ))),
        },
    };
    let goal = match (&args.board.goal, shipped) {
        (Some(g), _) => Goal::parse(shape, g)?,
        (None, Some((goal, _))) => goal,
        (None, None) => Goal::BlankLast,
    };
    // a usage mistake is said before any table is looked for or built
    let algorithm = args.algorithm()?;
    // no perfect table: a batch reports no exact distances
    let solver = Solver::with_table(&goal, shape, &args.config(), None, print_notice)?;
    // the default's time limit goes with the default only
    let time_limit = args.time_limit().or(if algorithm.is_none() { solver.default_time_limit() } else { None });
    let algorithm = algorithm.unwrap_or_else(|| solver.default_algorithm());
    // -H table without a table is one error, not one per line
    solver.guide()?;
    super::solve::hint_bit_tables(&solver, algorithm);
    // --threads boards side by side, each on one thread: no more than there are boards that search
    // (a malformed or unsolvable line takes no memory)
    let searching = lines
        .iter()
        .filter(|(_, text)| Board::parse(shape, text).is_ok_and(|b| b.is_solvable_to(solver.goal_board())))
        .count();
    let (side_by_side, each) = memory_shares(algorithm, args.threads(), searching, args.max_memory);
    // a share smaller than the whole (one of a byte can be all of it; A*+IDA*'s budget is never shared)
    let shared = algorithm != Algorithm::AStarIda && each < args.max_memory.unwrap_or_else(default_max_memory);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(side_by_side)
        .build()
        .with_context(|| format!("starting {side_by_side} threads for the batch"))?;
    let options = Options {
        algorithm,
        max_nodes: args.max_nodes,
        max_bytes: Some(each),
        order: args.order(),
        threads: 1,
        watch: None,
        prune: solver.pruner(),
        checkpoint: None,
        time_limit,
        anytime: false,
    };
    // a bounded search's lines give its proof: the lower bound, beside the length
    let bounded = matches!(algorithm, Algorithm::Within(_) | Algorithm::Reduce | Algorithm::Beam(_));
    let started = Instant::now();
    let solve_one = |&(line, text): &(usize, &str)| -> (usize, Result<Option<Found>, Error>) {
        let board = match Board::parse(shape, text) {
            Ok(b) => b,
            Err(e) => return (line, Err(e)),
        };
        // the solution is checked before it is reported
        (line, solver.solve(&board, &options))
    };
    let results: Vec<(usize, Result<Option<Found>, Error>)> =
        pool.install(|| lines.par_iter().with_max_len(1).map(solve_one).collect());
    let wall = started.elapsed().as_secs_f64();

    let mut out = io::stdout().lock();
    let guide = solver.guide()?;
    let (heuristic, details) = match algorithm {
        Algorithm::Bfs => ("none", None),
        _ => (guide.name(), solver.guide_details()),
    };
    if !args.json {
        // what every line was searched with: the search (its weight, factor or width), the
        // heuristic and its tables
        let search = match algorithm {
            Algorithm::Weighted(w) => format!("weighted (w = {w})"),
            Algorithm::Within(w) => format!("within a factor {w} of optimal"),
            Algorithm::Beam(b) => format!("beam ({b} boards a depth)"),
            a => a.name().to_string(),
        };
        match &details {
            Some(d) => writeln!(out, "# {search} with {heuristic} ({d})")?,
            // breadth-first search: no heuristic
            None if heuristic == "none" => writeln!(out, "# {search} (no heuristic)")?,
            None => writeln!(out, "# {search} with {heuristic}")?,
        }
        if bounded {
            writeln!(out, "# line\tmoves\tlower_bound\twithin\tstopped\tgenerated\tseconds\tsolution")?;
        } else {
            writeln!(out, "# line\tmoves\tgenerated\tseconds\tsolution")?;
        }
    }
    let mut t = Totals {
        boards: results.len(),
        solved: 0,
        unsolvable: 0,
        gave_up: 0,
        errors: 0,
        generated: 0,
        expanded: 0,
        search_seconds: 0.0,
        wall_seconds: wall,
        algorithm: algorithm.name(),
        heuristic,
        pattern_tables: details.clone().map(PatternTablesJson::from),
    };
    // the exit status: the first error's (2 for a malformed line), else 4 when a search gave up
    let mut status = None;
    for (line, result) in results {
        let mut l = Line {
            line,
            moves: None,
            solution: None,
            lower_bound: None,
            within: None,
            stopped: None,
            generated: None,
            expanded: None,
            seconds: None,
            unsolvable: None,
            gave_up: None,
            error: None,
        };
        match result {
            Ok(Some(found)) => {
                t.solved += 1;
                t.generated += found.stats.generated;
                t.expanded += found.stats.expanded;
                t.search_seconds += found.stats.elapsed.as_secs_f64();
                l.moves = Some(found.moves.len());
                l.solution = Some(moves_letters(&found.moves));
                l.lower_bound = found.lower_bound;
                l.within = found.within().map(|r| (r * 10_000.0).ceil() / 10_000.0);
                l.stopped = found.stopped.clone();
                l.generated = Some(found.stats.generated);
                l.expanded = Some(found.stats.expanded);
                l.seconds = Some(found.stats.elapsed.as_secs_f64());
            }
            Ok(None) => {
                t.unsolvable += 1;
                l.unsolvable = Some(true);
            }
            Err(e @ (Error::SearchLimit { .. } | Error::DeadEnds { .. })) => {
                t.gave_up += 1;
                if let Error::SearchLimit { generated, .. } | Error::DeadEnds { generated, .. } = &e {
                    l.generated = Some(*generated);
                }
                // a batch takes no checkpoint, so none is offered
                let mut said = e.limit_message(heuristic, false).unwrap_or_else(|| e.to_string());
                if shared && said.contains("memory limit") {
                    said += &format!(
                        " (each of the {side_by_side} boards searched at once has that share of the memory; \
                         fewer `--threads` give each more)"
                    );
                }
                eprintln!("table: line {line}: {said}");
                l.gave_up = Some(said);
            }
            Err(e) => {
                t.errors += 1;
                eprintln!("table: line {line}: {e}");
                l.error = Some(e.to_string());
                status = status.or(Some(exit_code(&anyhow::Error::from(e))));
            }
        }
        if args.json {
            serde_json::to_writer(&mut out, &l)?;
            writeln!(out)?;
        } else if let Some(m) = l.moves {
            let solution = l.solution.as_deref().filter(|s| !s.is_empty()).unwrap_or("-");
            // the proof, and the limit that stopped a board's search before it (`-`: none)
            let bound = match (bounded, l.lower_bound, l.within) {
                (true, Some(lb), Some(r)) => format!("{lb}\t{r}\t"),
                (true, Some(lb), None) => format!("{lb}\t-\t"),
                (true, None, _) => "-\t-\t".into(),
                (false, ..) => String::new(),
            };
            let bound = match (bounded, &l.stopped) {
                (true, Some(why)) => format!("{bound}{why}\t"),
                (true, None) => format!("{bound}-\t"),
                (false, _) => bound,
            };
            writeln!(
                out,
                "{line}\t{m}\t{bound}{}\t{:.4}\t{solution}",
                l.generated.unwrap_or(0),
                l.seconds.unwrap_or(0.0)
            )?;
        } else if l.unsolvable.is_some() {
            writeln!(out, "{line}\tunsolvable")?;
        } else if l.gave_up.is_some() {
            // the nodes it generated before the limit (the reason is on standard error)
            writeln!(out, "{line}\tgave up\t{}", l.generated.unwrap_or(0))?;
        } else {
            writeln!(out, "{line}\terror")?;
        }
    }
    if args.json {
        serde_json::to_writer(&mut out, &serde_json::json!({ "totals": t }))?;
        writeln!(out)?;
    } else {
        // rounded to the nearest node, as the published means are (not cut down)
        let mean = if t.solved > 0 { (t.generated + t.solved as u64 / 2) / t.solved as u64 } else { 0 };
        writeln!(
            out,
            "# total: {} board{}, {} solved, {} unsolvable, {} gave up, {} error{}; {} nodes generated by the solved (mean {}); search {:.3} s summed, wall {:.3} s; {:.1} M nodes/s",
            t.boards,
            if t.boards == 1 { "" } else { "s" },
            t.solved,
            t.unsolvable,
            t.gave_up,
            t.errors,
            if t.errors == 1 { "" } else { "s" },
            thousands(t.generated),
            thousands(mean),
            t.search_seconds,
            t.wall_seconds,
            t.generated as f64 / t.wall_seconds.max(1e-9) / 1e6
        )?;
    }
    Ok(match status {
        Some(code) => ExitCode::from(code),
        None if t.gave_up > 0 => ExitCode::from(EXIT_GAVE_UP),
        None => ExitCode::SUCCESS,
    })
}

/// How many boards a batch searches at once, and the memory each may take, for `threads` asked,
/// `searching` boards that search and the `--max-memory` given. Most searches share the limit
/// (three quarters of the available memory by default) among the boards at once, each at least a
/// byte. A\*+IDA\*'s is its A\* part's budget, which decides the search and its node counts: each
/// board gets the whole of it, as on its own, and no more boards run at once than their budgets
/// fit in the default limit.
fn memory_shares(algorithm: Algorithm, threads: usize, searching: usize, given: Option<u64>) -> (usize, u64) {
    let at_once = threads.min(searching).max(1);
    if algorithm == Algorithm::AStarIda {
        let budget = given.unwrap_or(ASTAR_IDA_BYTES).max(1);
        let fit = usize::try_from(default_max_memory() / budget).unwrap_or(usize::MAX).max(1);
        return (at_once.min(fit), budget);
    }
    let total = given.unwrap_or_else(default_max_memory);
    (at_once, (total / at_once as u64).max(1))
}
