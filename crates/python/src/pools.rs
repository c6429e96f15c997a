//! The rayon pools the package works on: one per worker count, kept for the life
//! of the process, so that each worker's caches (cage tables, its allocator's
//! pages) stay warm from one call to the next.

use pyo3::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The pool of `jobs` threads.
pub fn pool(jobs: usize) -> PyResult<Arc<ThreadPool>> {
    static POOLS: OnceLock<Mutex<HashMap<usize, Arc<ThreadPool>>>> = OnceLock::new();
    let mut pools = POOLS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(pool) = pools.get(&jobs) {
        return Ok(Arc::clone(pool));
    }
    let pool = ThreadPoolBuilder::new()
        .num_threads(jobs)
        .thread_name(|i| format!("kenken-{i}"))
        .build()
        .map_err(|e| {
            pyo3::exceptions::PyRuntimeError::new_err(format!(
                "cannot start the worker threads: {e}"
            ))
        })?;
    let pool = Arc::new(pool);
    pools.insert(jobs, Arc::clone(&pool));
    Ok(pool)
}
