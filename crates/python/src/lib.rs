//! The `kenken` Python package's native module, `kenken._kenken`: the libraries
//! of the workspace behind a small Python API. The package's Python side
//! (`python/kenken`) re-exports it, defines the exceptions, and runs batches on
//! Dask (`kenken.dask`).
//!
//! Everything that takes more than a moment runs with the GIL released, on rayon
//! pools kept for the life of the process; rows come from `kenken-batch`, so they
//! are the ones `grader` writes.

mod errors;
mod generate;
mod given;
mod grade;
mod options;
mod pools;
mod puzzle;
mod render;
mod shards;

use pyo3::prelude::*;

// As in `grader`: the many small, short-lived buffers of grading are served
// faster than by the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[pymodule]
fn _kenken(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<puzzle::Puzzle>()?;
    m.add_class::<puzzle::Cage>()?;
    m.add_class::<grade::RowStream>()?;
    m.add_function(wrap_pyfunction!(puzzle::read, m)?)?;
    m.add_function(wrap_pyfunction!(grade::grade, m)?)?;
    m.add_function(wrap_pyfunction!(grade::grade_many, m)?)?;
    m.add_function(wrap_pyfunction!(grade::solve, m)?)?;
    m.add_function(wrap_pyfunction!(grade::steps, m)?)?;
    m.add_function(wrap_pyfunction!(generate::generate, m)?)?;
    m.add_function(wrap_pyfunction!(render::render_svg, m)?)?;
    m.add_function(wrap_pyfunction!(techniques, m)?)?;
    m.add_class::<shards::BatchReader>()?;
    m.add_function(wrap_pyfunction!(shards::check_grade_options, m)?)?;
    m.add_function(wrap_pyfunction!(shards::grade_shard, m)?)?;
    m.add_function(wrap_pyfunction!(shards::tsv_header, m)?)?;
    m.add_function(wrap_pyfunction!(shards::summary, m)?)?;
    m.add_function(wrap_pyfunction!(shards::check_generation, m)?)?;
    m.add_function(wrap_pyfunction!(shards::attempt_range, m)?)?;
    m.add_function(wrap_pyfunction!(shards::generated_line, m)?)?;
    m.add_function(wrap_pyfunction!(shards::closest_text_of, m)?)?;
    m.add_function(wrap_pyfunction!(shards::attempts_text_of, m)?)?;
    m.add_function(wrap_pyfunction!(shards::band_text_of, m)?)?;
    Ok(())
}

/// The techniques of the ladder, easiest first, as `grader techniques` lists them:
/// dicts with `id` (what `disable`, `enable`, `require` and `forbid` take), `name`,
/// `rating` (its rating rule), `enabled` (whether the ladder uses it unless told
/// otherwise) and `summary`.
#[pyfunction]
fn techniques(py: Python<'_>) -> PyResult<Vec<Bound<'_, pyo3::types::PyDict>>> {
    kenken_techniques::listing()
        .into_iter()
        .map(|(kind, name, rule)| {
            let d = pyo3::types::PyDict::new(py);
            d.set_item("id", kind.id())?;
            d.set_item("name", name)?;
            d.set_item("rating", rule)?;
            d.set_item("enabled", kind.row().enabled)?;
            d.set_item("summary", kind.row().summary)?;
            Ok(d)
        })
        .collect()
}
