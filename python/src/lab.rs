//! The laboratory's calls: the shipped benchmark instances and Russell & Norvig's experiment.

use numpy::prelude::*;
use numpy::{PyArray1, PyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use slidetable::heuristic::Heuristic;
use slidetable::lab::experiment::{self as exp, Column, Guidance, Plan, Preset, Row};
use slidetable::search::Algorithm;

use crate::table::Table;
use crate::{error, interruptible};

/// (goal name, ids, optimal lengths, published nodes or -1, boards (n, cells) as uint8).
#[pyfunction]
#[allow(clippy::type_complexity)]
pub fn instances<'py>(
    py: Python<'py>,
    name: &str,
) -> PyResult<(
    String,
    Bound<'py, PyArray1<u32>>,
    Bound<'py, PyArray1<u32>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray2<u8>>,
)> {
    let (goal, set) = slidetable::lab::instances::instances(name).map_err(error)?;
    let cells = set.first().map_or(0, |i| i.board.cells().len());
    let ids = set.iter().map(|i| i.id).collect();
    let optimal = set.iter().map(|i| i.optimal).collect();
    let nodes = set.iter().map(|i| i.published_nodes.map_or(-1, |n| n as i64)).collect();
    let boards: Vec<u8> = set.iter().flat_map(|i| i.board.cells().iter().map(|&t| t as u8)).collect();
    Ok((
        goal.to_string(),
        PyArray1::from_vec(py, ids),
        PyArray1::from_vec(py, optimal),
        PyArray1::from_vec(py, nodes),
        PyArray1::from_vec(py, boards).reshape([set.len(), cells])?,
    ))
}

fn column(algorithm: &str, guide: &str) -> PyResult<Column> {
    let algorithm = match algorithm.to_ascii_lowercase().as_str() {
        "astar" | "a*" => Algorithm::AStar,
        "idastar" | "ida*" => Algorithm::IdaStar,
        other => return Err(PyValueError::new_err(format!("unknown algorithm `{other}`: use astar or idastar"))),
    };
    let guide = match guide.to_ascii_lowercase().as_str() {
        "table" | "exact" => Guidance::Table,
        "none" | "ids" => Guidance::Uninformed,
        name => Guidance::Heuristic(Heuristic::from_name(name).ok_or_else(|| {
            PyValueError::new_err(format!(
                "unknown heuristic `{name}`: use misplaced, manhattan, linear-conflict, nilsson, table or none"
            ))
        })?),
    };
    if guide == Guidance::Uninformed && algorithm != Algorithm::IdaStar {
        return Err(PyValueError::new_err("an uninformed column (IDS) runs with idastar"));
    }
    Ok(Column { algorithm, guide })
}

/// Russell & Norvig's experiment on `table`: one dict per depth with each column's figures.
/// `preset` (`rn`, `hazan-ra`) sets the columns and the counting as `table experiment --preset`.
#[pyfunction]
#[pyo3(signature = (table, depths, count, seed, columns, preset=None, ids_max_depth=14, progress=None))]
#[allow(clippy::too_many_arguments)]
pub fn experiment<'py>(
    py: Python<'py>,
    table: &Table,
    depths: Vec<u8>,
    count: usize,
    seed: u64,
    columns: Vec<(String, String)>,
    preset: Option<&str>,
    ids_max_depth: u8,
    progress: Option<Py<PyAny>>,
) -> PyResult<(Vec<String>, Vec<Bound<'py, PyDict>>)> {
    if count == 0 {
        return Err(PyValueError::new_err("count must be at least 1"));
    }
    let max = table.table.header().max_depth;
    if let Some(&d) = depths.iter().find(|&&d| d > max) {
        return Err(PyValueError::new_err(format!(
            "no states at depth {d}: the deepest states of this table are at depth {max}"
        )));
    }
    let mut plan = match preset {
        Some(name) => {
            let p = Preset::from_name(name).ok_or_else(|| {
                PyValueError::new_err(format!("unknown preset `{name}`: use {}", Preset::NAMES.join(" or ")))
            })?;
            p.plan(depths, count, seed)
        }
        None => {
            let cols = columns.iter().map(|(a, g)| column(a, g)).collect::<PyResult<Vec<_>>>()?;
            if cols.is_empty() {
                return Err(PyValueError::new_err("no columns: give at least one (algorithm, heuristic) pair"));
            }
            Plan::new(depths, count, seed, cols)
        }
    };
    plan.ids_max_depth = ids_max_depth;
    let labels = plan.columns.iter().map(Column::label).collect();
    let report = |py: Python<'_>, depth: u8| -> PyResult<()> {
        if let Some(f) = &progress {
            f.call1(py, (depth,))?;
        }
        Ok(())
    };
    let rows: Vec<Row> =
        interruptible(py, &|| {}, report, |note| exp::run(&table.table, &plan, |row| note(row.depth)))?
            .map_err(error)?;
    let mut out = Vec::with_capacity(rows.len());
    for row in &rows {
        let d = PyDict::new(py);
        d.set_item("depth", row.depth)?;
        d.set_item("problems", row.problems)?;
        let cells = PyDict::new(py);
        for (c, cell) in plan.columns.iter().zip(&row.cells) {
            let v = PyDict::new(py);
            match cell {
                Some(cell) => {
                    v.set_item("mean_generated", cell.mean_generated)?;
                    v.set_item("min_generated", cell.min_generated)?;
                    v.set_item("max_generated", cell.max_generated)?;
                    v.set_item("mean_expanded", cell.mean_expanded)?;
                    v.set_item("b_star", cell.b_star)?;
                    v.set_item("suboptimal", cell.suboptimal)?;
                }
                None => v.set_item("skipped", true)?,
            }
            v.set_item("published", exp::published(c, row.depth))?;
            cells.set_item(c.label(), v)?;
        }
        d.set_item("columns", cells)?;
        out.push(d);
    }
    Ok((labels, out))
}
