//! `gpukit._native`: one call, `command(args)`, that runs a `gpukit` command line
//! in-process (`gpukit::api::command`). The Python package (`python/gpukit/`) builds
//! its typed API on it, so every Python call is exactly the command it names.
#![forbid(unsafe_code)]

use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// Runs `gpukit ARGS...` and returns `(exit code, stdout bytes, error message)`.
/// The GIL is released while the command runs.
#[pyfunction]
fn command(py: Python<'_>, args: Vec<std::path::PathBuf>) -> (u8, Py<PyBytes>, String) {
    let outcome = py.detach(|| gpukit::api::command(args));
    (
        outcome.code,
        PyBytes::new(py, &outcome.stdout).unbind(),
        outcome.stderr,
    )
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(command, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
