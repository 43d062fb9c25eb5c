//! `table heuristic`: a heuristic graded against the exact distances of every state of a table.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use anyhow::{anyhow, Result};
use clap::Args;
use slidetable::heuristic::Heuristic;
use slidetable::lab::grade::{grade_with_progress, DepthGrade};

use super::{open_table, thousands, TableArgs, UsageError};

pub const LONG_ABOUT: &str = "\
Grade a heuristic against the exact distances: every state and every move of a table.

NAME is hamming (h1, misplaced tiles), manhattan (h2), linear-conflict (lc) or nilsson (P+3S, not
admissible).

For each depth h* (the true distance, from the table): the number of states, the mean estimate
h, h* itself, the share of states where h = h*, the mean error h* - h, the states where h
overestimates (h > h*: none for an admissible heuristic), and the inconsistent moves: edges between
two states one move apart whose estimates differ by more than 1 (none for a consistent heuristic;
an edge is counted at its shallower end, between depth d and d + 1 on the row of d). Then the
whole table, and whether the heuristic is admissible and consistent on it.

--csv prints one row per depth and a last row `total`, columns
depth,states,mean_h,mean_exact,exact_share,mean_error,overestimates,max_overestimate,edges,inconsistent_edges.

A missing eight.table (or other 3x3 table) is built on the spot.

Examples:
  table heuristic manhattan
  table heuristic nilsson --goal snail
  table heuristic linear-conflict --board 2x4 --csv
  table heuristic manhattan --json";

/// Arguments of `table heuristic`.
#[derive(Args, Debug)]
pub struct HeuristicArgs {
    /// hamming, manhattan, linear-conflict or nilsson (also h1, h2, lc, misplaced, p+3s).
    #[arg(value_name = "NAME")]
    name: String,
    #[command(flatten)]
    table: TableArgs,
    /// CSV: one row per depth, then a row `total`.
    #[arg(long, conflicts_with = "json")]
    csv: bool,
    /// JSON: one object with the rows by depth, the totals and the verdicts.
    #[arg(long)]
    json: bool,
}

#[derive(serde::Serialize)]
struct GradeJson {
    heuristic: &'static str,
    rows: usize,
    cols: usize,
    goal: Vec<u16>,
    admissible: bool,
    consistent: bool,
    h_at_goal: u32,
    by_depth: Vec<RowJson>,
    total: RowJson,
    seconds: f64,
}

#[derive(serde::Serialize)]
struct RowJson {
    states: u64,
    mean_h: f64,
    mean_exact: f64,
    exact_share: f64,
    mean_error: f64,
    overestimates: u64,
    max_overestimate: u32,
    edges: u64,
    inconsistent_edges: u64,
}

impl From<&DepthGrade> for RowJson {
    fn from(r: &DepthGrade) -> RowJson {
        RowJson {
            states: r.states,
            mean_h: r.mean_h(),
            mean_exact: r.mean_exact(),
            exact_share: r.exact_share(),
            mean_error: r.mean_error(),
            overestimates: r.overestimates,
            max_overestimate: r.max_overestimate,
            edges: r.edges,
            inconsistent_edges: r.inconsistent_edges,
        }
    }
}

pub fn run(args: HeuristicArgs) -> Result<ExitCode> {
    let h = Heuristic::from_name(&args.name).ok_or_else(|| {
        anyhow!(UsageError(format!(
            "unknown heuristic `{}`: use hamming, manhattan, linear-conflict or nilsson",
            args.name
        )))
    })?;
    let opened = open_table(&args.table, None, true)?;
    let table = &opened.table;
    let start = std::time::Instant::now();
    // a bar where grading takes long enough to wonder (the 10- and 12-cell tables)
    let steps = 2 * table.index().len();
    let bar = (std::io::stderr().is_terminal() && steps > 1 << 22).then(|| {
        let bar = indicatif::ProgressBar::new(steps);
        bar.set_style(
            indicatif::ProgressStyle::with_template(&format!(
                "{{spinner}} grading {}  {{bar:30}} {{percent:>3}}%  about {{eta}} left",
                h.name()
            ))
            .expect("a valid template"),
        );
        bar
    });
    let g = grade_with_progress(table, h, |k| {
        if let Some(bar) = &bar {
            bar.inc(k);
        }
    })?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let secs = start.elapsed().as_secs_f64();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if args.json {
        let hd = table.header();
        let j = GradeJson {
            heuristic: h.name(),
            rows: hd.shape.rows(),
            cols: hd.shape.cols(),
            goal: hd.goal.cells().to_vec(),
            admissible: g.total.overestimates == 0,
            consistent: g.total.inconsistent_edges == 0 && g.at_goal == 0,
            h_at_goal: g.at_goal,
            by_depth: g.by_depth.iter().map(RowJson::from).collect(),
            total: RowJson::from(&g.total),
            seconds: secs,
        };
        serde_json::to_writer(&mut out, &j)?;
        writeln!(out)?;
        out.flush()?;
        return Ok(ExitCode::SUCCESS);
    }
    if args.csv {
        writeln!(
            out,
            "depth,states,mean_h,mean_exact,exact_share,mean_error,overestimates,max_overestimate,edges,inconsistent_edges"
        )?;
        let rows =
            g.by_depth.iter().enumerate().map(|(d, r)| (d.to_string(), r)).chain([("total".to_string(), &g.total)]);
        for (label, r) in rows {
            writeln!(
                out,
                "{label},{},{:.6},{:.6},{:.6},{:.6},{},{},{},{}",
                r.states,
                r.mean_h(),
                r.mean_exact(),
                r.exact_share(),
                r.mean_error(),
                r.overestimates,
                r.max_overestimate,
                r.edges,
                r.inconsistent_edges
            )?;
        }
        out.flush()?;
        return Ok(ExitCode::SUCCESS);
    }
    let hd = table.header();
    writeln!(out, "{} against {}: {} table, goal {}", h.name(), opened.path.display(), hd.shape, hd.goal)?;
    writeln!(out)?;
    let w = thousands(g.total.states).len().max(6);
    let we = thousands(g.total.edges).len().max(5);
    writeln!(
        out,
        "{:>5}  {:>w$}  {:>7}  {:>5}  {:>7}  {:>7}  {:>w$}  {:>we$}  {:>we$}",
        "depth", "states", "mean h", "h*", "exact", "h*-h", "over h*", "edges", "incons."
    )?;
    let line = |out: &mut dyn Write, label: &str, r: &DepthGrade| {
        writeln!(
            out,
            "{label:>5}  {:>w$}  {:>7.3}  {:>5.2}  {:>6.2}%  {:>7.3}  {:>w$}  {:>we$}  {:>we$}",
            thousands(r.states),
            r.mean_h(),
            r.mean_exact(),
            100.0 * r.exact_share(),
            r.mean_error(),
            thousands(r.overestimates),
            thousands(r.edges),
            thousands(r.inconsistent_edges)
        )
    };
    for (d, r) in g.by_depth.iter().enumerate() {
        line(&mut out, &d.to_string(), r)?;
    }
    line(&mut out, "all", &g.total)?;
    writeln!(out)?;
    let t = &g.total;
    if t.overestimates == 0 {
        writeln!(out, "admissible on this table: yes (h <= h* on all {} states)", thousands(t.states))?;
    } else {
        writeln!(
            out,
            "admissible on this table: no ({} states overestimated, by up to {} moves)",
            thousands(t.overestimates),
            t.max_overestimate
        )?;
    }
    if t.inconsistent_edges == 0 && g.at_goal == 0 {
        writeln!(
            out,
            "consistent on this table: yes (|h(a) - h(b)| <= 1 on all {} edges, h(goal) = 0)",
            thousands(t.edges)
        )?;
    } else {
        writeln!(
            out,
            "consistent on this table: no ({} of {} edges change h by more than 1; h(goal) = {})",
            thousands(t.inconsistent_edges),
            thousands(t.edges),
            g.at_goal
        )?;
    }
    if secs < 1.0 {
        writeln!(out, "graded in {:.1} ms", secs * 1e3)?;
    } else {
        writeln!(out, "graded in {secs:.1} s")?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
