//! The package's exceptions and warnings, defined in Python (`kenken/errors.py`,
//! where they can inherit from `ValueError` as well) and raised from here with the
//! messages of the libraries and of `grader`.

use pyo3::prelude::*;
use std::ffi::CString;

pyo3::import_exception!(kenken.errors, FormatError);
pyo3::import_exception!(kenken.errors, OptionsError);
pyo3::import_exception!(kenken.errors, GenerateError);
pyo3::import_exception!(kenken.errors, IncompleteError);
pyo3::import_exception!(kenken.errors, RenderError);
pyo3::import_exception!(kenken.errors, BatchInputError);
pyo3::import_exception!(kenken.errors, KenkenWarning);

/// A bad option: `OptionsError` with `message`.
pub fn options_error(message: impl Into<String>) -> PyErr {
    OptionsError::new_err(message.into())
}

/// Issues a `KenkenWarning` (a puzzle read leniently), shown where the caller's
/// Python code called in.
pub fn warn(py: Python<'_>, message: &str) -> PyResult<()> {
    let text = CString::new(message.replace('\0', " ")).expect("no NUL left");
    let category = py.get_type::<KenkenWarning>();
    PyErr::warn(py, category.as_any(), &text, 1)
}
