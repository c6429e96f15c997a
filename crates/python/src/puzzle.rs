//! `kenken.read` and the `Puzzle` it returns.

use crate::errors::{options_error, warn, FormatError};
use crate::options;
use kenken_batch::text::{clip, clip_message, relaxed_warning};
use kenken_batch::HideOps;
use kenken_formats::{read_any, text, write, Format, Imported};
use kenken_model::{Op, Puzzle as Grid};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyType};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

/// A KenKen puzzle, read from a puzzle string by `kenken.read` (or made by
/// `kenken.generate`). Immutable; equal when the grids and cages are equal;
/// pickled (with every protocol) and copied as its text, format and `hide_ops`.
#[pyclass(module = "kenken", name = "Puzzle", frozen)]
pub struct Puzzle {
    pub imported: Imported,
    /// The text it was read from.
    pub source: String,
    /// How it was read: with every operation hidden, or as the text gives them.
    pub hide: HideOps,
}

/// One cage: its operation, its clue and its cells. Equal when all four are
/// equal (and hashed on them); pickled (with every protocol) and copied as the
/// four, read back by `Cage(op, clue, cells, positions)`.
#[pyclass(module = "kenken", name = "Cage", frozen, get_all, eq, hash)]
#[derive(PartialEq, Eq, Hash)]
pub struct Cage {
    /// `+`, `-`, `*`, `/`, or `!` for a single given cell (as the text format
    /// writes them); None when the operation is hidden.
    op: Option<&'static str>,
    clue: u64,
    /// The cells by name, row letter and column number (`B3`), in reading order.
    cells: Vec<String>,
    /// The cells as 0-based (row, column) pairs, in reading order.
    positions: Vec<(usize, usize)>,
}

#[pymethods]
impl Cage {
    /// `Cage(op, clue, cells, positions)`, as a puzzle's `cages` give them:
    /// `op` one of `+ - * / !` or None, `cells` as many names as `positions`.
    #[new]
    fn new(
        op: Option<&str>,
        clue: u64,
        cells: Vec<String>,
        positions: Vec<(usize, usize)>,
    ) -> PyResult<Cage> {
        let op = match op {
            None => None,
            Some(given) => {
                let symbols = op_symbols();
                let known = symbols.into_iter().find(|&known| known == given);
                Some(known.ok_or_else(|| {
                    options_error(format!(
                        "op must be one of {}, or None, not {given:?}",
                        symbols.join(" ")
                    ))
                })?)
            }
        };
        if cells.len() != positions.len() {
            return Err(options_error(format!(
                "a cage has as many cells ({}) as positions ({})",
                cells.len(),
                positions.len()
            )));
        }
        Ok(Cage {
            op,
            clue,
            cells,
            positions,
        })
    }

    /// Pickled and copied as its four fields (a `__reduce__`, which every
    /// protocol and `copy` use).
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(
        Bound<'py, PyType>,
        (Option<&'static str>, u64, Vec<String>, Vec<(usize, usize)>),
    )> {
        let c = slf.get();
        Ok((
            slf.get_type(),
            (c.op, c.clue, c.cells.clone(), c.positions.clone()),
        ))
    }

    fn __repr__(&self) -> String {
        // Ops and cell names are plain ASCII: quoted as Python quotes them.
        let op = match self.op {
            Some(op) => format!("'{op}'"),
            None => "None".to_string(),
        };
        format!(
            "Cage(op={op}, clue={}, cells=[{}])",
            self.clue,
            self.cells
                .iter()
                .map(|c| format!("'{c}'"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

/// The operations as a cage's `op` gives them (the text format's symbols).
fn op_symbols() -> [&'static str; 5] {
    [Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Given]
        .map(|op| text::op_symbol(op).expect("a shown operation has a symbol"))
}

impl Puzzle {
    pub fn grid(&self) -> &Grid {
        &self.imported.puzzle
    }

    /// Reads `text` (with every operation hidden when `hide` says so); a problem
    /// is a `FormatError` with the batch rows' message.
    pub fn parse(
        py: Python<'_>,
        text: &str,
        format: Option<Format>,
        hide: HideOps,
    ) -> PyResult<Puzzle> {
        let imported = read_any(text, format)
            .map_err(|e| FormatError::new_err(clip_message(e.to_string())))?;
        if let Some(warning) = relaxed_warning(&imported) {
            warn(py, &warning)?;
        }
        Ok(Puzzle {
            imported: imported.hiding_ops(hide.hide_ops),
            source: text.to_string(),
            hide,
        })
    }

    fn written(&self, format: Format) -> PyResult<String> {
        write(self.grid(), format, self.imported.progress.as_deref())
            .map_err(|e| FormatError::new_err(e.to_string()))
    }
}

#[pymethods]
impl Puzzle {
    /// `kenken.Puzzle(text, format=None, hide_ops=False)` is `kenken.read(text,
    /// format, hide_ops=hide_ops)`.
    #[new]
    #[pyo3(signature = (text, format = None, hide_ops = None))]
    fn new(
        py: Python<'_>,
        text: &Bound<'_, PyAny>,
        format: Option<&Bound<'_, PyAny>>,
        hide_ops: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Puzzle> {
        let options = PyDict::new(py);
        if let Some(hide_ops) = hide_ops {
            options.set_item("hide_ops", hide_ops)?;
        }
        read(py, text, format, Some(&options))
    }

    /// Pickled as its text and format (and `True` after them when it was read
    /// with `hide_ops`), read back by `Puzzle(text, format, hide_ops)`: a
    /// `__reduce__` rather than `__getnewargs__`, which only protocols 2 and
    /// later use, so that every protocol (and `copy`) works.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyType>, Bound<'py, PyAny>)> {
        let py = slf.py();
        let p = slf.get();
        let (text, format) = (p.source.clone(), p.imported.format.name());
        let args = if p.hide.hide_ops {
            (text, format, true).into_pyobject(py)?.into_any()
        } else {
            (text, format).into_pyobject(py)?.into_any()
        };
        Ok((slf.get_type(), args))
    }

    /// The empty grid as SVG, which Jupyter shows in place of the puzzle's repr
    /// (what `render_svg(p)` draws).
    fn _repr_svg_(&self) -> String {
        kenken_render::Picture::new(self.grid()).svg()
    }

    /// The grid's side: 3 to 16.
    #[getter]
    fn size(&self) -> usize {
        self.grid().size().get()
    }

    /// The cages, in the order the puzzle string gave them.
    #[getter]
    fn cages(&self) -> Vec<Cage> {
        let size = self.grid().size();
        self.grid()
            .cages()
            .iter()
            .map(|cage| Cage {
                op: text::op_symbol(cage.op),
                clue: cage.clue,
                cells: cage.cells.iter().map(|&c| size.cell_label(c)).collect(),
                positions: cage
                    .cells
                    .iter()
                    .map(|&c| (size.row(c), size.col(c)))
                    .collect(),
            })
            .collect()
    }

    /// KenDoku boxes as (rows, columns), or None for plain KenKen.
    #[getter]
    fn boxes(&self) -> Option<(usize, usize)> {
        self.grid().boxes()
    }

    /// The text the puzzle was read from.
    #[getter]
    fn source(&self) -> &str {
        &self.source
    }

    /// The format it was read as: `tatham`, `k6c`, `d6c`, `text`, `letter-grid`.
    #[getter]
    fn format(&self) -> &'static str {
        self.imported.format.name()
    }

    /// Whether any cage's operation is hidden (its `op` is None): read with
    /// `hide_ops`, or written with `?` cages in the text format.
    #[getter]
    fn has_hidden_ops(&self) -> bool {
        self.grid().has_hidden_ops()
    }

    /// Simon Tatham's Keen game ID (`4:_a_5a_bac_a__,d2m12a5m8s2d2s1`).
    fn to_tatham(&self) -> PyResult<String> {
        self.written(Format::Tatham)
    }

    /// SudokuWiki's packed K6C string (6×6 KenKen only).
    fn to_k6c(&self) -> PyResult<String> {
        self.written(Format::K6c)
    }

    /// SudokuWiki's packed D6C string (6×6 KenDoku only).
    fn to_d6c(&self) -> PyResult<String> {
        self.written(Format::D6c)
    }

    /// The line-per-cage text format (`# 4` then `/ 2 A1 B1`, …).
    fn to_text(&self) -> PyResult<String> {
        self.written(Format::Text)
    }

    /// SudokuWiki's unpacked `KenKen6x6.aspx?bd=` URL (6×6 only).
    fn to_sudokuwiki(&self) -> PyResult<String> {
        self.written(Format::SudokuWiki)
    }

    fn __str__(&self) -> &str {
        &self.source
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let text = PyString::new(py, &clip(&self.source));
        let hidden = if self.hide.hide_ops {
            ", hide_ops=True"
        } else {
            ""
        };
        Ok(format!("kenken.read({}{hidden})", text.repr()?))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Puzzle>()
            .is_ok_and(|o| o.get().grid() == self.grid())
    }

    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        self.written(Format::Text)
            .unwrap_or_else(|_| self.source.clone())
            .hash(&mut h);
        h.finish()
    }
}

/// Reads a puzzle string in any supported format: a Tatham Keen game ID or
/// web-player URL, SudokuWiki K6C/D6C, the `# <size>` text format or a letter grid
/// (detected from the text unless `format` names one of `tatham`, `k6c`, `d6c`,
/// `text`, `letter-grid`). A cage the text gives without its operation (`? 12 A1
/// A2` in the text format) keeps it hidden (its `op` is None); `hide_ops=True`
/// hides every cage's operation, as `grader --hide-ops` does.
///
/// Raises FormatError (a ValueError) when the text is not a valid puzzle, with the
/// message `grader` gives (a str holding a lone surrogate, which no format can
/// hold, is one), OptionsError for an unknown `format` or a `hide_ops` that is not
/// a bool, TypeError for anything but a str or an unknown keyword; a game ID that
/// only the lenient reading accepts is read with a KenkenWarning naming the rules
/// relaxed.
#[pyfunction]
#[pyo3(signature = (text, format = None, **options))]
pub fn read(
    py: Python<'_>,
    text: &Bound<'_, PyAny>,
    format: Option<&Bound<'_, PyAny>>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Puzzle> {
    let hide = options::only_hide_ops("read", options)?;
    let text = match str_arg(text, "text")? {
        Some(t) => t,
        None => return Err(FormatError::new_err(NOT_UNICODE)),
    };
    let format = match format {
        None => None,
        Some(f) => {
            // A name holding a lone surrogate is no format's: its lossy text
            // gets the message of any unknown name.
            let name = match str_arg(f, "format")? {
                Some(name) => name,
                None => f.cast::<PyString>()?.to_string_lossy().into_owned(),
            };
            Some(
                name.parse::<Format>()
                    .map_err(|e| options_error(e.to_string()))?,
            )
        }
    };
    Puzzle::parse(py, &text, format, hide)
}

/// Why a str holding a lone surrogate (which UTF-8 cannot encode, so no format
/// can) is not a puzzle.
const NOT_UNICODE: &str = "the text is not valid Unicode (it holds a lone surrogate)";

/// A str argument as Rust text: None for a str holding a lone surrogate, a
/// TypeError for anything but a str.
fn str_arg(ob: &Bound<'_, PyAny>, name: &str) -> PyResult<Option<String>> {
    let Ok(s) = ob.cast::<PyString>() else {
        return Err(PyTypeError::new_err(format!(
            "{name} must be a str, not {}",
            ob.get_type().name()?
        )));
    };
    Ok(s.to_cow().ok().map(|text| text.into_owned()))
}

/// A puzzle argument: a string (read here) or a `Puzzle`.
pub enum PuzzleArg<'py> {
    Text(String),
    Puzzle(Bound<'py, Puzzle>),
}

impl<'py> FromPyObject<'_, 'py> for PuzzleArg<'py> {
    type Error = PyErr;

    fn extract(ob: Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(p) = ob.cast::<Puzzle>() {
            return Ok(PuzzleArg::Puzzle(p.to_owned()));
        }
        if let Ok(s) = ob.cast::<PyString>() {
            return match s.to_cow() {
                Ok(text) => Ok(PuzzleArg::Text(text.into_owned())),
                Err(_) => Err(FormatError::new_err(NOT_UNICODE)),
            };
        }
        Err(PyTypeError::new_err(format!(
            "a puzzle is a str or a kenken.Puzzle, not {}",
            ob.get_type().name()?
        )))
    }
}

impl PuzzleArg<'_> {
    /// The puzzle's text (as a row shows it) and the puzzle read from it, with
    /// every operation hidden when `hide` says so (a Puzzle read with `hide_ops`
    /// keeps them hidden).
    pub fn read(&self, py: Python<'_>, hide: HideOps) -> PyResult<ReadPuzzle> {
        match self {
            PuzzleArg::Text(text) => {
                let p = Puzzle::parse(py, text, None, hide)?;
                Ok(ReadPuzzle {
                    shown: p.source,
                    imported: p.imported,
                    hide_ops: hide.hide_ops,
                })
            }
            PuzzleArg::Puzzle(p) => {
                let p = p.get();
                Ok(ReadPuzzle {
                    shown: p.source.clone(),
                    imported: p.imported.clone().hiding_ops(hide.hide_ops),
                    hide_ops: hide.hide_ops || p.hide.hide_ops,
                })
            }
        }
    }
}

/// A puzzle argument read.
pub struct ReadPuzzle {
    /// Its text, as a row shows it.
    pub shown: String,
    pub imported: Imported,
    /// Whether every operation was hidden on reading (`hide_ops=True`, given
    /// now or when the Puzzle was read).
    pub hide_ops: bool,
}
