//! The corpus regression: `grader batch --mode b` on every `puzzles/*.json` must
//! give exactly the committed `ratings/<name>.tsv`, and `ratings/summary.md` must be
//! what those rows tabulate to. Any change to a technique, its search order or its
//! rating shows up here as a list of the rows that moved, column by column.
//!
//! After an intended change, `scripts/update-ratings.sh` rewrites the files (it runs
//! these tests with `UPDATE_RATINGS=1`, which write instead of comparing); review
//! `git diff ratings/` before committing.
//!
//! The same rows are graded again with `--jobs 1` and compared with `--jobs 2`:
//! the rows must not depend on how the batch is split between threads.
//!
//! Every file is graded with the default limits, `hidden-ops.json` too: with its
//! operations hidden, each of its puzzles is graded to the end (solved, or `stuck`
//! where the ladder has no step left), the slowest 9×9s in up to 50 s, about nine
//! minutes of work in all. So it is a slow file ([`SLOW_FILES`]): the regular test
//! leaves it out (and reads its committed rows for the summary), and the ignored
//! test [`slow_ratings_match_the_committed_files`] (run by CI) compares it alone,
//! with no timed test beside it; the `--jobs 1` comparison leaves it out too (the
//! other files, thousands of puzzles of every size, check the split).

#[path = "ratings/summary.rs"]
mod summary;

use super::{stderr, stdout, GRADER};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The environment variable that turns the regression test into the rewriter.
const UPDATE: &str = "UPDATE_RATINGS";

/// The largest corpus or ratings file the repository accepts (the limit).
const MAX_FILE_BYTES: u64 = 1 << 20;

/// The corpus files (by stem) that take minutes to grade: only the ignored test
/// grades them.
const SLOW_FILES: [&str; 1] = ["hidden-ops"];

/// Changed rows shown per file before the rest are only counted.
const SHOWN_PER_FILE: usize = 12;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `puzzles/*.json`, sorted by name.
fn corpus_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("puzzles"))
        .expect("cannot list puzzles/")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no puzzles/*.json");
    files
}

fn stem(path: &Path) -> String {
    path.file_stem().unwrap().to_str().unwrap().to_string()
}

/// The batch's TSV for one corpus file.
fn batch_tsv(file: &Path, jobs: usize) -> String {
    let o = Command::new(GRADER)
        .arg("batch")
        .arg(file)
        .args(["--mode", "b", "--quiet", "--jobs", &jobs.to_string()])
        .output()
        .expect("cannot run the grader binary");
    let err = stderr(&o);
    assert!(!err.contains("panicked"), "{}: {err}", file.display());
    // Exit code 2 only says some row holds an error; the row itself is compared.
    assert!(
        matches!(o.status.code(), Some(0 | 2)),
        "{}: exit {:?}\n{err}",
        file.display(),
        o.status
    );
    stdout(&o)
}

/// The batch runs the tests compare, each over some of the corpus files.
#[derive(Clone, Copy, PartialEq)]
enum Run {
    /// Every file but [`SLOW_FILES`], `--jobs 2`.
    Regular,
    /// The same files, `--jobs 1`.
    RegularOneJob,
    /// [`SLOW_FILES`] alone, `--jobs 2`.
    Slow,
}

impl Run {
    fn jobs(self) -> usize {
        if self == Run::RegularOneJob {
            1
        } else {
            2
        }
    }

    /// Whether the run grades the corpus file with this stem.
    fn grades(self, stem: &str) -> bool {
        SLOW_FILES.contains(&stem) == (self == Run::Slow)
    }
}

/// The TSV (by file stem) of each corpus file a run grades, computed once per
/// test binary: the regression test and the jobs test share [`Run::Regular`]. The
/// files are graded by concurrent processes, so one slow file does not hold up
/// the rest.
fn graded(run: Run) -> &'static BTreeMap<String, String> {
    static REGULAR: OnceLock<BTreeMap<String, String>> = OnceLock::new();
    static REGULAR_ONE_JOB: OnceLock<BTreeMap<String, String>> = OnceLock::new();
    static SLOW: OnceLock<BTreeMap<String, String>> = OnceLock::new();
    let cell = match run {
        Run::Regular => &REGULAR,
        Run::RegularOneJob => &REGULAR_ONE_JOB,
        Run::Slow => &SLOW,
    };
    cell.get_or_init(|| {
        let files = corpus_files();
        std::thread::scope(|s| {
            let runs: Vec<_> = files
                .iter()
                .filter(|f| run.grades(&stem(f)))
                .map(|f| s.spawn(move || (stem(f), batch_tsv(f, run.jobs()))))
                .collect();
            runs.into_iter().map(|r| r.join().unwrap()).collect()
        })
    })
}

/// A TSV split into its header's column names and rows keyed by `Puzzle #`.
struct Table<'a> {
    columns: Vec<&'a str>,
    rows: BTreeMap<usize, Vec<&'a str>>,
}

fn table(tsv: &str) -> Table<'_> {
    let mut lines = tsv.lines();
    let columns = lines.next().unwrap_or("").split('\t').collect();
    let rows = lines
        .map(|l| {
            let fields: Vec<&str> = l.split('\t').collect();
            let index = fields[0].parse().unwrap_or(usize::MAX);
            (index, fields)
        })
        .collect();
    Table { columns, rows }
}

/// The puzzle column cut short for a message.
fn short(puzzle: &str) -> String {
    match puzzle.char_indices().nth(48) {
        Some((cut, _)) => format!("{}…", &puzzle[..cut]),
        None => puzzle.to_string(),
    }
}

/// What changed between a committed TSV and a fresh one, one line per row; empty
/// when they are the same.
fn diff(name: &str, old: &str, new: &str) -> String {
    if old == new {
        return String::new();
    }
    let (a, b) = (table(old), table(new));
    let mut lines = Vec::new();
    if a.columns != b.columns {
        lines.push(format!(
            "  header: {:?} -> {:?}",
            a.columns.join(" | "),
            b.columns.join(" | ")
        ));
    }
    let indices: std::collections::BTreeSet<usize> =
        a.rows.keys().chain(b.rows.keys()).copied().collect();
    for i in indices {
        match (a.rows.get(&i), b.rows.get(&i)) {
            (Some(x), Some(y)) if x == y => {}
            (Some(x), Some(y)) => {
                let changes: Vec<String> = b
                    .columns
                    .iter()
                    .enumerate()
                    .filter(|&(c, _)| x.get(c) != y.get(c))
                    .map(|(c, col)| {
                        format!(
                            "{col} {} -> {}",
                            x.get(c).unwrap_or(&"(none)"),
                            y.get(c).unwrap_or(&"(none)")
                        )
                    })
                    .collect();
                lines.push(format!(
                    "  row {i} {}: {}",
                    short(y.get(1).unwrap_or(&"")),
                    changes.join("; ")
                ));
            }
            (Some(x), None) => lines.push(format!(
                "  row {i} {}: no longer graded",
                short(x.get(1).unwrap_or(&""))
            )),
            (None, Some(y)) => lines.push(format!(
                "  row {i} {}: new row",
                short(y.get(1).unwrap_or(&""))
            )),
            (None, None) => {}
        }
    }
    if lines.is_empty() {
        // Same fields, different bytes (line endings, a trailing newline).
        lines.push("  the files differ in white space only".to_string());
    }
    let count = lines.len();
    let mut out = format!("ratings/{name}.tsv: {count} change(s)\n");
    for l in lines.iter().take(SHOWN_PER_FILE) {
        out.push_str(l);
        out.push('\n');
    }
    if count > SHOWN_PER_FILE {
        let _ = writeln!(out, "  … and {} more", count - SHOWN_PER_FILE);
    }
    out
}

/// Whether the test writes the files instead of comparing them.
fn updating() -> bool {
    std::env::var_os(UPDATE).is_some_and(|v| !v.is_empty() && v != "0")
}

/// Compares each fresh TSV with its committed file (or writes it, when
/// updating): what changed, as [`diff`] lists it.
fn compare_or_write(fresh: &BTreeMap<String, String>) -> String {
    let dir = root().join("ratings");
    let mut report = String::new();
    for (name, tsv) in fresh {
        let path = dir.join(format!("{name}.tsv"));
        if updating() {
            std::fs::write(&path, tsv).unwrap();
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(old) => report.push_str(&diff(name, &old, tsv)),
            Err(_) => {
                let _ = writeln!(report, "ratings/{name}.tsv: missing");
            }
        }
    }
    report
}

/// The message of a failed comparison.
fn changed(report: &str) -> String {
    format!(
        "the grader's ratings of the corpus changed:\n{report}\n\
         If the change is intended, run `scripts/update-ratings.sh`, review \
         `git diff ratings/` and commit it."
    )
}

#[test]
fn ratings_match_the_committed_files() {
    let fresh = graded(Run::Regular);
    let dir = root().join("ratings");
    let mut report = compare_or_write(fresh);
    // Ratings of corpus files that are gone.
    let stems: Vec<String> = corpus_files().iter().map(|f| stem(f)).collect();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "tsv") && !stems.contains(&stem(&path)) {
            if updating() {
                std::fs::remove_file(&path).unwrap();
            } else {
                let _ = writeln!(
                    report,
                    "{}: no puzzles/{}.json any more",
                    path.display(),
                    stem(&path)
                );
            }
        }
    }
    // The summary of every file: the slow ones as committed (their own test
    // compares them).
    let mut all = fresh.clone();
    for name in SLOW_FILES
        .iter()
        .filter(|name| stems.iter().any(|s| s == *name))
    {
        let path = dir.join(format!("{name}.tsv"));
        let committed =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        all.insert(name.to_string(), committed);
    }
    let summary_path = dir.join("summary.md");
    let summary = summary::render(&all);
    if updating() {
        std::fs::write(&summary_path, &summary).unwrap();
    } else {
        let old = std::fs::read_to_string(&summary_path).unwrap_or_default();
        if old != summary {
            report.push_str("ratings/summary.md: out of date\n");
            for line in old.lines().filter(|l| !summary.lines().any(|n| n == *l)) {
                let _ = writeln!(report, "  - {line}");
            }
            for line in summary.lines().filter(|l| !old.lines().any(|o| o == *l)) {
                let _ = writeln!(report, "  + {line}");
            }
        }
    }
    assert!(report.is_empty(), "{}", changed(&report));
}

/// [`SLOW_FILES`], graded and compared (or written) alone: `.ci/run` and
/// `scripts/update-ratings.sh` run it, the slow file being minutes of work.
#[test]
#[ignore = "minutes: hidden-ops.json graded to the end"]
fn slow_ratings_match_the_committed_files() {
    let report = compare_or_write(graded(Run::Slow));
    assert!(report.is_empty(), "{}", changed(&report));
}

#[test]
fn batch_rows_do_not_depend_on_jobs() {
    let (one, two) = (graded(Run::RegularOneJob), graded(Run::Regular));
    let report: String = one
        .iter()
        .map(|(name, tsv)| diff(name, tsv, &two[name]))
        .collect();
    assert!(
        report.is_empty(),
        "--jobs 1 (before the arrow) and --jobs 2 (after) disagree:\n{report}"
    );
}

#[test]
fn corpus_and_ratings_files_are_under_1_mb() {
    let mut files = corpus_files();
    files.extend(
        std::fs::read_dir(root().join("ratings"))
            .unwrap()
            .map(|e| e.unwrap().path()),
    );
    for f in files {
        let len = std::fs::metadata(&f).unwrap().len();
        assert!(len < MAX_FILE_BYTES, "{} is {len} bytes", f.display());
    }
}

#[test]
fn a_changed_row_is_reported_column_by_column() {
    let old = "Puzzle #\tPuzzle String\tSuccess\tMax\tTotal\tError\n\
               1\t4:abc\t1\t2\t12.5\t\n\
               2\t4:def\t1\t1\t3\t\n";
    let new = "Puzzle #\tPuzzle String\tSuccess\tMax\tTotal\tError\n\
               1\t4:abc\t1\t2.1\t12.6\t\n\
               2\t4:def\t1\t1\t3\t\n\
               3\t4:ghi\t0\t1.5\t4\t\n";
    assert_eq!(
        diff("x", old, new),
        "ratings/x.tsv: 2 change(s)\n  \
         row 1 4:abc: Max 2 -> 2.1; Total 12.5 -> 12.6\n  \
         row 3 4:ghi: new row\n"
    );
    assert_eq!(diff("x", old, old), "");
}
