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

First the headline measures over every state (the error is h* - h, the true distance minus the
estimate: positive where h underestimates): the mean absolute error mean |h* - h|, the root mean
square error, the signed mean h* - h (errors of both signs cancel in it), the shares of states
with h < h*, h > h* and h = h*, the overestimates (none for an admissible heuristic) and the
largest, the inconsistent edges (two states one move apart whose estimates differ by more than 1:
none for a consistent heuristic) and the largest |h(a) - h(b)|, and the policy accuracy: the share
of states not at the goal where moving to the child with the smallest h is an optimal move (a tie
among k children of which j are optimal counts j/k, a random tie-break's expected accuracy).

Then for each depth h* (from the table): the number of states, the mean estimate h, h* itself,
the share of states where h = h*, the signed mean h* - h, the mean absolute error, the RMSE, the
states where h overestimates, the edges and the inconsistent ones (an edge is counted at its
shallower end, between depth d and d + 1 on the row of d), and the policy accuracy. Then the whole
table, and whether the heuristic is admissible and consistent on it.

--csv prints one row per depth and a last row `total`, columns
depth,states,mean_h,mean_exact,exact_share,mean_error,overestimates,max_overestimate,edges,inconsistent_edges,
mae,rmse,under_share,over_share,worst_overestimate,max_edge_difference,policy_accuracy
(mean_error is h* - h; policy_accuracy is empty at depth 0, where no move is graded).

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
    mae: f64,
    rmse: f64,
    under_share: f64,
    over_share: f64,
    worst_overestimate: f64,
    max_edge_difference: f64,
    /// null at depth 0 (no move to grade)
    policy_accuracy: Option<f64>,
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
            mae: r.mean_abs_error(),
            rmse: r.rmse(),
            under_share: r.under_share(),
            over_share: r.over_share(),
            worst_overestimate: r.worst_overestimate,
            max_edge_difference: r.max_edge_difference,
            policy_accuracy: policy(r),
        }
    }
}

/// The policy accuracy where a move was graded.
fn policy(r: &DepthGrade) -> Option<f64> {
    (r.policy_states > 0).then(|| r.policy_accuracy())
}

/// The headline measures over every state, one per line.
fn headline(out: &mut dyn Write, t: &DepthGrade) -> std::io::Result<()> {
    let pct = |x: f64| format!("{:.2}%", 100.0 * x);
    writeln!(out, "over all {} states (error = h* - h: positive where h underestimates)", thousands(t.states))?;
    writeln!(out, "  mean absolute error  {:.3}", t.mean_abs_error())?;
    writeln!(out, "  RMSE                 {:.3}", t.rmse())?;
    writeln!(out, "  signed mean h* - h   {:+.3}", t.mean_error())?;
    writeln!(
        out,
        "  h < h*, h > h*, h = h*  {}, {}, {}",
        pct(t.under_share()),
        pct(t.over_share()),
        pct(t.exact_share())
    )?;
    writeln!(out, "  overestimates        {} (worst h - h* = {})", thousands(t.overestimates), t.worst_overestimate)?;
    writeln!(
        out,
        "  inconsistent edges   {} of {} (largest |h(a) - h(b)| = {})",
        thousands(t.inconsistent_edges),
        thousands(t.edges),
        t.max_edge_difference
    )?;
    writeln!(
        out,
        "  policy accuracy      {} of {} states not at the goal (ties: j optimal of k count j/k)",
        policy(t).map_or_else(|| "-".to_string(), pct),
        thousands(t.policy_states)
    )
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
            "depth,states,mean_h,mean_exact,exact_share,mean_error,overestimates,max_overestimate,edges,inconsistent_edges,\
             mae,rmse,under_share,over_share,worst_overestimate,max_edge_difference,policy_accuracy"
        )?;
        let rows =
            g.by_depth.iter().enumerate().map(|(d, r)| (d.to_string(), r)).chain([("total".to_string(), &g.total)]);
        for (label, r) in rows {
            writeln!(
                out,
                "{label},{},{:.6},{:.6},{:.6},{:.6},{},{},{},{},{:.6},{:.6},{:.6},{:.6},{},{},{}",
                r.states,
                r.mean_h(),
                r.mean_exact(),
                r.exact_share(),
                r.mean_error(),
                r.overestimates,
                r.max_overestimate,
                r.edges,
                r.inconsistent_edges,
                r.mean_abs_error(),
                r.rmse(),
                r.under_share(),
                r.over_share(),
                r.worst_overestimate,
                r.max_edge_difference,
                policy(r).map_or_else(String::new, |p| format!("{p:.6}"))
            )?;
        }
        out.flush()?;
        return Ok(ExitCode::SUCCESS);
    }
    let hd = table.header();
    writeln!(out, "{} against {}: {} table, goal {}", h.name(), opened.path.display(), hd.shape, hd.goal)?;
    writeln!(out)?;
    headline(&mut out, &g.total)?;
    writeln!(out)?;
    let w = thousands(g.total.states).len().max(6);
    let we = thousands(g.total.edges).len().max(5);
    writeln!(
        out,
        "{:>5}  {:>w$}  {:>7}  {:>5}  {:>7}  {:>7}  {:>6}  {:>6}  {:>w$}  {:>we$}  {:>we$}  {:>7}",
        "depth", "states", "mean h", "h*", "exact", "h*-h", "MAE", "RMSE", "over h*", "edges", "incons.", "policy"
    )?;
    let line = |out: &mut dyn Write, label: &str, r: &DepthGrade| {
        writeln!(
            out,
            "{label:>5}  {:>w$}  {:>7.3}  {:>5.2}  {:>6.2}%  {:>+7.3}  {:>6.3}  {:>6.3}  {:>w$}  {:>we$}  {:>we$}  {:>7}",
            thousands(r.states),
            r.mean_h(),
            r.mean_exact(),
            100.0 * r.exact_share(),
            r.mean_error(),
            r.mean_abs_error(),
            r.rmse(),
            thousands(r.overestimates),
            thousands(r.edges),
            thousands(r.inconsistent_edges),
            policy(r).map_or_else(|| "-".to_string(), |p| format!("{:.2}%", 100.0 * p))
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
