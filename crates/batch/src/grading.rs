//! Grading many puzzles: the runs a mode asks for ([`GradeSettings`], [`Runs`]),
//! the work on one puzzle ([`Grading`]), what it found ([`Graded`]), its row
//! ([`GradeRow`], written as TSV or NDJSON by [`GradeRows`]) and the tally of a
//! batch ([`Tally`]).

use crate::pipeline::{self, Job, Rows};
use crate::text::{millis, relaxed_warning, tsv_field};
use crate::RowFormat;
use kenken_formats::Imported;
use kenken_model::{Exhausted, Limits};
use kenken_techniques::{Grader, Options, Rating, Status, Summary, TechniqueKind};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::time::{Duration, Instant};

/// Which ladders to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Mode {
    /// Normal: the whole ladder.
    N,
    /// Cage combinations only (with propagation).
    C,
    /// Both.
    B,
}

impl Mode {
    /// The mode's name: `n`, `c`, `b`.
    pub fn name(self) -> &'static str {
        match self {
            Mode::N => "n",
            Mode::C => "c",
            Mode::B => "b",
        }
    }

    /// The mode named `n`, `c` or `b`.
    pub fn from_name(name: &str) -> Option<Mode> {
        [Mode::N, Mode::C, Mode::B]
            .into_iter()
            .find(|m| m.name() == name)
    }
}

/// The largest number of cages a cage-combination step may combine, by default:
/// the ladder's own ([`Options::default`]).
pub const DEFAULT_MAX_DEPTH: u8 = 8;

/// The most memory one puzzle's grading may hold, by default.
pub const DEFAULT_MAX_MEMORY: usize = 512 << 20;

/// How to grade each puzzle: the options of `grader batch` (`--mode`, `--disable`,
/// `--enable`, `--max-depth`, `--timeout`, `--max-memory`, `--max-work`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GradeSettings {
    pub mode: Mode,
    /// Techniques switched off (in both runs).
    pub disable: Vec<TechniqueKind>,
    /// Techniques off by default switched on (in mode n's run).
    pub enable: Vec<TechniqueKind>,
    /// 2 to 8.
    pub max_depth: u8,
    /// Per puzzle, counted from when its grading starts.
    pub timeout: Option<Duration>,
    /// Bytes one puzzle's grading may hold.
    pub max_memory: usize,
    /// Elementary checks one run may make.
    pub max_work: u64,
}

impl Default for GradeSettings {
    fn default() -> GradeSettings {
        GradeSettings {
            mode: Mode::N,
            disable: Vec::new(),
            enable: Vec::new(),
            max_depth: DEFAULT_MAX_DEPTH,
            timeout: None,
            max_memory: DEFAULT_MAX_MEMORY,
            max_work: Limits::DEFAULT_WORK,
        }
    }
}

impl GradeSettings {
    /// The mode-n and mode-c runs of the mode, with these switches.
    pub fn runs(&self) -> Runs {
        let with_switches = |mut options: Options| {
            for &t in &self.disable {
                options.disable(t);
            }
            options.max_depth = usize::from(self.max_depth);
            options
        };
        let mut normal = Options::default();
        for &t in &self.enable {
            normal.enable(t);
        }
        Runs {
            normal: (self.mode != Mode::C).then(|| with_switches(normal)),
            cc: (self.mode != Mode::N).then(|| with_switches(Options::cage_combinations_only())),
            timeout: self.timeout,
            limits: Limits {
                deadline: None,
                memory: self.max_memory,
                work: self.max_work,
            },
        }
    }
}

/// The options of the runs a mode asks for, and the limits of a puzzle's grading.
#[derive(Clone, Copy, Debug)]
pub struct Runs {
    /// Mode n's run (modes n and b).
    pub normal: Option<Options>,
    /// Mode c's run (modes c and b).
    pub cc: Option<Options>,
    /// The timeout: see [`Runs::starting_now`].
    pub timeout: Option<Duration>,
    /// The memory and work limits, and once started the deadline.
    pub limits: Limits,
}

impl Runs {
    /// The runs of one puzzle whose clock starts now: with a timeout, the whole
    /// grading (the tables, the solution count and both runs, which may run side by
    /// side) shares the deadline now + timeout.
    pub fn starting_now(&self) -> Runs {
        Runs {
            limits: self.limits.until(self.timeout.map(|t| Instant::now() + t)),
            ..*self
        }
    }

    /// The run whose steps a one-puzzle report shows: mode n's, or mode c's in
    /// mode c.
    pub fn shown(&self) -> Options {
        self.normal.or(self.cc).unwrap_or_default()
    }
}

/// A positive, finite number of seconds.
pub fn timeout_from_secs(secs: f64) -> Result<Duration, String> {
    positive_seconds(secs, &secs)
}

/// A positive number of seconds, written as a number (`--timeout`).
pub fn parse_timeout(s: &str) -> Result<Duration, String> {
    let secs: f64 = s
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    positive_seconds(secs, &s)
}

/// `secs` as a duration, when positive and finite; `written` is how the error
/// quotes it.
fn positive_seconds(secs: f64, written: &dyn std::fmt::Display) -> Result<Duration, String> {
    if secs.is_finite() && secs > 0.0 {
        Duration::try_from_secs_f64(secs).map_err(|e| e.to_string())
    } else {
        Err(format!(
            "the timeout must be a positive number of seconds, not {written}"
        ))
    }
}

/// A byte count of at least 1 MiB: a number with an optional `K`, `M` or `G`
/// suffix (powers of 1024; `KiB`, `MiB`, `GiB` and `B` also accepted)
/// (`--max-memory`).
pub fn parse_size(s: &str) -> Result<usize, String> {
    let t = s.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(digits);
    let shift = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        _ => return Err(format!("`{s}` is not a size (a number with K, M or G)")),
    };
    let number: usize = number
        .parse()
        .map_err(|_| format!("`{s}` is not a size (a number with K, M or G)"))?;
    let bytes = number
        .checked_mul(1 << shift)
        .ok_or_else(|| format!("`{s}` is too large"))?;
    check_memory(bytes)
}

/// A memory limit of at least 1 MiB.
pub fn check_memory(bytes: usize) -> Result<usize, String> {
    if bytes < 1 << 20 {
        return Err(format!(
            "the memory limit must be at least 1M, not {}",
            kenken_model::budget::Bytes(bytes)
        ));
    }
    Ok(bytes)
}

/// Whether a status is a finding about the puzzle (solved, or stuck, ambiguous or
/// impossible for the techniques enabled), rather than a run that stopped early.
pub fn is_finding(status: Status) -> bool {
    matches!(
        status,
        Status::Solved | Status::Stuck | Status::Ambiguous | Status::Impossible
    )
}

/// Why a run stopped before its finding (`None` for a finding): the text of a
/// row's `Error` column.
pub fn not_finished(status: Status) -> Option<Cow<'static, str>> {
    if is_finding(status) {
        None
    } else if status == Status::TimedOut {
        Some("--timeout passed".into())
    } else {
        Some(format!("stopped before the end ({status})").into())
    }
}

// ---- the work ----

/// Grading a puzzle: the runs its mode asks for.
#[derive(Clone, Debug)]
pub struct Grading {
    pub runs: Runs,
}

impl Grading {
    pub fn new(settings: &GradeSettings) -> Grading {
        Grading {
            runs: settings.runs(),
        }
    }
}

impl pipeline::Work for Grading {
    type Outcome = Graded;

    fn work(&self, imported: Imported) -> Graded {
        let runs = self.runs.starting_now();
        let warning = relaxed_warning(&imported);
        // The runs' deadline bounds the solution count too, which only runs when a
        // run does not solve the puzzle (to tell stuck, ambiguous and impossible
        // apart).
        let grader = match Grader::deferred_owned(imported.puzzle, runs.limits) {
            Ok(g) => g,
            // The tables alone exhaust the limits: every run ends there.
            Err(why) => {
                let stopped = |o: Option<Options>| o.map(|_| Summary::stopped_by(why));
                return Graded::Graded {
                    normal: stopped(runs.normal),
                    cc: stopped(runs.cc),
                    warning,
                };
            }
        };
        let run = |options: Option<Options>| options.map(|o| grader.rate(o));
        // Mode b's two runs are independent: let an idle worker take one, so a slow
        // puzzle at the end of a batch does not leave the other cores waiting.
        let (normal, cc) = rayon::join(|| run(runs.normal), || run(runs.cc));
        Graded::Graded {
            normal,
            cc,
            warning,
        }
    }
}

/// What grading found for one puzzle of a batch.
#[derive(Clone, Debug)]
pub enum Graded {
    /// Graded: the mode-n and mode-c runs the mode asks for, and a warning when the
    /// puzzle was read leniently.
    Graded {
        normal: Option<Summary>,
        cc: Option<Summary>,
        warning: Option<String>,
    },
    /// The puzzle cannot be read, or is not a valid puzzle: why.
    Invalid(String),
    /// The grader failed on it (a bug): the message.
    Internal(String),
}

impl pipeline::Outcome for Graded {
    fn invalid(reason: String) -> Graded {
        Graded::Invalid(reason)
    }

    fn internal(message: String) -> Graded {
        Graded::Internal(message)
    }

    fn failure(&self) -> Option<&str> {
        match self {
            Graded::Invalid(e) | Graded::Internal(e) => Some(e),
            Graded::Graded { .. } => None,
        }
    }

    fn warning(&self) -> Option<&str> {
        match self {
            Graded::Graded { warning, .. } => warning.as_deref(),
            _ => None,
        }
    }
}

impl Graded {
    /// The status of the run that gives the row's status: a run that stopped
    /// early (`timeout`) when either did, else the mode-n run (mode c: the mode-c
    /// run).
    fn run_status(&self) -> Option<Status> {
        let (normal, cc) = self.runs();
        let stopped = [normal, cc]
            .into_iter()
            .flatten()
            .map(|r| r.status)
            .find(|&s| !is_finding(s));
        stopped.or(normal.or(cc).map(|r| r.status))
    }

    /// The row's status: its run's ([`Graded::run_status`]), or `invalid` or
    /// `error`.
    pub fn status(&self) -> &'static str {
        match self {
            Graded::Graded { .. } => self.run_status().map_or("invalid", Status::as_str),
            Graded::Invalid(_) => "invalid",
            Graded::Internal(_) => "error",
        }
    }

    /// Success: the mode-n run (mode c: the mode-c run) solved it.
    pub fn success(&self) -> bool {
        match self {
            Graded::Graded { normal, cc, .. } => {
                normal.or(*cc).is_some_and(|r| r.status == Status::Solved)
            }
            _ => false,
        }
    }

    /// The `Error` column: why the puzzle was not graded, or why grading stopped
    /// early; empty for a finding (solved, stuck, ambiguous, impossible), which the
    /// status says.
    pub fn error(&self) -> Option<Cow<'_, str>> {
        match self {
            Graded::Invalid(e) | Graded::Internal(e) => Some(e.as_str().into()),
            Graded::Graded { normal, cc, .. } => {
                // What stopped a run (the memory or work limit, with its figure).
                let stopped = [normal, cc]
                    .into_iter()
                    .flatten()
                    .find_map(|r| r.stopped.filter(|_| !is_finding(r.status)));
                match stopped {
                    Some(Exhausted::Time) | None => self.run_status().and_then(not_finished),
                    Some(why) => Some(format!("stopped: {why}").into()),
                }
            }
        }
    }

    /// The mode-n and mode-c runs' summaries (none when not graded).
    pub fn runs(&self) -> (Option<Summary>, Option<Summary>) {
        match self {
            Graded::Graded { normal, cc, .. } => (*normal, *cc),
            _ => (None, None),
        }
    }
}

// ---- rows ----

/// A graded puzzle's row, as `grader batch --format ndjson` writes it: the fields of
/// a mode that was not run are left out.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GradeRow<'a> {
    pub index: usize,
    pub puzzle: &'a str,
    pub status: &'a str,
    pub success: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cc_steps: Option<usize>,
    /// When timed: the grading time in milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ms: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<Cow<'a, str>>,
}

impl<'a> GradeRow<'a> {
    /// The row of the job at `index`, shown as `puzzle`.
    pub fn new(
        index: usize,
        puzzle: &'a str,
        outcome: &'a Graded,
        took: Option<Duration>,
    ) -> GradeRow<'a> {
        let (normal, cc) = outcome.runs();
        GradeRow {
            index,
            puzzle,
            status: outcome.status(),
            success: outcome.success(),
            max: normal.map(|r| r.max.as_f64()),
            total: normal.map(|r| r.total.as_f64()),
            steps: normal.map(|r| r.ladder_steps),
            depth: cc.map(|r| r.depth),
            cc_steps: cc.map(|r| r.ladder_steps),
            ms: took.map(millis),
            error: outcome.error(),
        }
    }
}

/// Writes one NDJSON row.
pub fn write_ndjson(out: &mut dyn Write, row: &GradeRow<'_>) -> io::Result<()> {
    serde_json::to_writer(&mut *out, row)?;
    out.write_all(b"\n")
}

/// The reference's TSV header for a mode, plus `Ms` (when timed) and our `Error`
/// and `Status` columns.
pub fn write_tsv_header(out: &mut dyn Write, mode: Mode, times: bool) -> io::Result<()> {
    let columns = match mode {
        Mode::N => "Max\tTotal",
        Mode::C => "Max Depth\tSteps",
        Mode::B => "Max\tTotal\tMax Depth\tSteps",
    };
    let ms = if times { "\tMs" } else { "" };
    writeln!(
        out,
        "Puzzle #\tPuzzle String\tSuccess\t{columns}{ms}\tError\tStatus"
    )
}

/// One TSV row: ratings in the reference's style (one decimal at most), empty cells
/// where a puzzle could not be graded, then `Error` and `Status`.
pub fn write_tsv(
    out: &mut dyn Write,
    mode: Mode,
    index: usize,
    puzzle: &str,
    outcome: &Graded,
    took: Option<Duration>,
) -> io::Result<()> {
    let (normal, cc) = outcome.runs();
    write!(
        out,
        "{index}\t{}\t{}",
        tsv_field(puzzle),
        u8::from(outcome.success())
    )?;
    if mode != Mode::C {
        match normal {
            Some(r) => write!(out, "\t{}\t{}", r.max, r.total)?,
            None => out.write_all(b"\t\t")?,
        }
    }
    if mode != Mode::N {
        match cc {
            Some(r) => write!(out, "\t{}\t{}", r.depth, r.ladder_steps)?,
            None => out.write_all(b"\t\t")?,
        }
    }
    if let Some(took) = took {
        write!(out, "\t{}", millis(took))?;
    }
    let error = outcome.error();
    writeln!(
        out,
        "\t{}\t{}",
        tsv_field(error.as_deref().unwrap_or("")),
        outcome.status()
    )
}

/// The rows of a grading batch, and the tally of what they hold.
#[derive(Debug)]
pub struct GradeRows {
    pub mode: Mode,
    pub format: RowFormat,
    pub times: bool,
    pub tally: Tally,
}

impl GradeRows {
    pub fn new(mode: Mode, format: RowFormat, times: bool) -> GradeRows {
        GradeRows {
            mode,
            format,
            times,
            tally: Tally::default(),
        }
    }
}

impl Rows<Graded> for GradeRows {
    fn header(&mut self, out: &mut dyn Write) -> io::Result<()> {
        match self.format {
            RowFormat::Tsv => write_tsv_header(out, self.mode, self.times),
            RowFormat::Ndjson => Ok(()),
        }
    }

    fn row(
        &mut self,
        out: &mut dyn Write,
        job: &Job,
        shown: &str,
        outcome: &Graded,
        took: Option<Duration>,
    ) -> io::Result<()> {
        self.tally.add(outcome);
        match self.format {
            RowFormat::Tsv => write_tsv(out, self.mode, job.index, shown, outcome, took),
            RowFormat::Ndjson => write_ndjson(out, &GradeRow::new(job.index, shown, outcome, took)),
        }
    }
}

// ---- the tally ----

/// Every status a row can have.
const ROW_STATUSES: [&str; 8] = [
    "solved",
    "stuck",
    "impossible",
    "ambiguous",
    "timeout",
    "limit",
    "invalid",
    "error",
];

/// A [`Tally`] as plain data.
#[derive(Serialize, Deserialize)]
struct TallyData {
    puzzles: usize,
    by_max: Vec<(u32, usize)>,
    by_depth: Vec<(usize, usize)>,
    unsolved_n: Vec<(String, usize)>,
    unsolved_c: Vec<(String, usize)>,
    not_graded: Vec<(String, usize)>,
    stopped: Vec<(String, usize)>,
}

/// How many puzzles got each max rating (mode n) and each max depth (mode c); the
/// puzzles a run did not solve are counted by status instead.
#[derive(Clone, Default, Debug, PartialEq, Eq)]
pub struct Tally {
    puzzles: usize,
    by_max: BTreeMap<Rating, usize>,
    by_depth: BTreeMap<usize, usize>,
    unsolved_n: BTreeMap<&'static str, usize>,
    unsolved_c: BTreeMap<&'static str, usize>,
    not_graded: BTreeMap<&'static str, usize>,
    /// Puzzles whose grading stopped early, by status (`timeout`).
    stopped: BTreeMap<&'static str, usize>,
}

impl Tally {
    pub fn add(&mut self, outcome: &Graded) {
        self.puzzles += 1;
        let (normal, cc) = outcome.runs();
        if normal.is_none() && cc.is_none() {
            *self.not_graded.entry(outcome.status()).or_default() += 1;
        }
        if let Some(status) = outcome.run_status().filter(|&s| !is_finding(s)) {
            *self.stopped.entry(status.as_str()).or_default() += 1;
        }
        if let Some(r) = normal {
            match r.status {
                Status::Solved => *self.by_max.entry(r.max).or_default() += 1,
                s => *self.unsolved_n.entry(s.as_str()).or_default() += 1,
            }
        }
        if let Some(r) = cc {
            match r.status {
                Status::Solved => *self.by_depth.entry(r.depth).or_default() += 1,
                s => *self.unsolved_c.entry(s.as_str()).or_default() += 1,
            }
        }
    }

    /// Adds another tally's counts (the tally of another part of the same batch).
    pub fn merge(&mut self, other: &Tally) {
        fn add<K: Ord + Clone>(to: &mut BTreeMap<K, usize>, from: &BTreeMap<K, usize>) {
            for (k, n) in from {
                *to.entry(k.clone()).or_default() += n;
            }
        }
        self.puzzles += other.puzzles;
        add(&mut self.by_max, &other.by_max);
        add(&mut self.by_depth, &other.by_depth);
        add(&mut self.unsolved_n, &other.unsolved_n);
        add(&mut self.unsolved_c, &other.unsolved_c);
        add(&mut self.not_graded, &other.not_graded);
        add(&mut self.stopped, &other.stopped);
    }

    /// The puzzles counted.
    pub fn puzzles(&self) -> usize {
        self.puzzles
    }

    /// How many puzzles' grading stopped early (in either run), by status.
    pub fn stopped(&self) -> &BTreeMap<&'static str, usize> {
        &self.stopped
    }

    /// How many rows have this status without a grade (`invalid`, `error`).
    pub fn not_graded(&self, status: &str) -> usize {
        self.not_graded.get(status).copied().unwrap_or(0)
    }

    /// The tally as JSON, to send to another process (see [`Tally::from_json`]).
    pub fn to_json(&self) -> String {
        fn pairs<K: Clone, L>(map: &BTreeMap<K, usize>, key: impl Fn(K) -> L) -> Vec<(L, usize)> {
            map.iter().map(|(k, &n)| (key(k.clone()), n)).collect()
        }
        let named = |s: &'static str| s.to_string();
        let data = TallyData {
            puzzles: self.puzzles,
            by_max: pairs(&self.by_max, |r| r.0),
            by_depth: pairs(&self.by_depth, |d| d),
            unsolved_n: pairs(&self.unsolved_n, named),
            unsolved_c: pairs(&self.unsolved_c, named),
            not_graded: pairs(&self.not_graded, named),
            stopped: pairs(&self.stopped, named),
        };
        serde_json::to_string(&data).expect("a tally serialises")
    }

    /// A tally [`Tally::to_json`] wrote.
    pub fn from_json(json: &str) -> Result<Tally, String> {
        let data: TallyData = serde_json::from_str(json).map_err(|e| e.to_string())?;
        let statuses = |pairs: Vec<(String, usize)>| {
            pairs
                .into_iter()
                .map(|(name, n)| {
                    ROW_STATUSES
                        .into_iter()
                        .find(|&s| s == name)
                        .map(|s| (s, n))
                        .ok_or_else(|| format!("unknown status {name:?} in a tally"))
                })
                .collect::<Result<BTreeMap<_, _>, String>>()
        };
        Ok(Tally {
            puzzles: data.puzzles,
            by_max: data
                .by_max
                .into_iter()
                .map(|(r, n)| (Rating(r), n))
                .collect(),
            by_depth: data.by_depth.into_iter().collect(),
            unsolved_n: statuses(data.unsolved_n)?,
            unsolved_c: statuses(data.unsolved_c)?,
            not_graded: statuses(data.not_graded)?,
            stopped: statuses(data.stopped)?,
        })
    }

    /// Tab-separated tables: `Max` → count (modes n, b), then `Max Depth` → count
    /// (modes c, b); then unsolved puzzles by status, rows in error and the total.
    pub fn write(&self, out: &mut dyn Write, mode: Mode) -> io::Result<()> {
        if mode != Mode::C {
            writeln!(out, "Max\tCount")?;
            for (max, n) in &self.by_max {
                writeln!(out, "{max}\t{n}")?;
            }
            for (status, n) in &self.unsolved_n {
                writeln!(out, "{status}\t{n}")?;
            }
        }
        if mode == Mode::B {
            writeln!(out)?;
        }
        if mode != Mode::N {
            writeln!(out, "Max Depth\tCount")?;
            for (depth, n) in &self.by_depth {
                writeln!(out, "{depth}\t{n}")?;
            }
            for (status, n) in &self.unsolved_c {
                writeln!(out, "{status}\t{n}")?;
            }
        }
        for (status, n) in &self.not_graded {
            writeln!(out, "{status}\t{n}")?;
        }
        writeln!(out, "Puzzles\t{}", self.puzzles)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_depth_default_is_the_ladders() {
        assert_eq!(usize::from(DEFAULT_MAX_DEPTH), Options::default().max_depth);
        assert_eq!(
            usize::from(DEFAULT_MAX_DEPTH),
            Options::cage_combinations_only().max_depth
        );
    }

    #[test]
    fn findings_have_no_error() {
        for status in [
            Status::Solved,
            Status::Stuck,
            Status::Ambiguous,
            Status::Impossible,
            Status::TimedOut,
        ] {
            assert_eq!(not_finished(status).is_none(), is_finding(status));
        }
        assert_eq!(not_finished(Status::TimedOut).unwrap(), "--timeout passed");
    }

    #[test]
    fn sizes_and_timeouts_read() {
        assert_eq!(parse_size("2G"), Ok(2 << 30));
        assert_eq!(parse_size("512 MiB"), Ok(512 << 20));
        assert!(parse_size("12").unwrap_err().contains("at least 1M"));
        assert!(parse_size("lots").is_err());
        assert_eq!(parse_timeout("0.5"), Ok(Duration::from_millis(500)));
        assert_eq!(
            parse_timeout("-1").unwrap_err(),
            "the timeout must be a positive number of seconds, not -1"
        );
        assert!(timeout_from_secs(f64::NAN).is_err());
    }

    #[test]
    fn tallies_travel_as_json_and_merge() {
        let solved = Summary {
            status: Status::Solved,
            max: Rating(15),
            stopped: None,
            ..Summary::stopped_by(Exhausted::Time)
        };
        let stopped = Summary::stopped_by(Exhausted::Time);
        let graded = |normal: Summary| Graded::Graded {
            normal: Some(normal),
            cc: Some(solved),
            warning: None,
        };
        let mut a = Tally::default();
        a.add(&graded(solved));
        a.add(&Graded::Invalid("no".into()));
        let mut b = Tally::default();
        b.add(&graded(stopped));
        let mut whole = a.clone();
        whole.add(&graded(stopped));
        let mut merged = Tally::from_json(&a.to_json()).unwrap();
        merged.merge(&Tally::from_json(&b.to_json()).unwrap());
        assert_eq!(merged, whole);
        assert_eq!(merged.puzzles(), 3);
        assert_eq!(merged.not_graded("invalid"), 1);
        assert_eq!(merged.stopped().get("timeout"), Some(&1));
        let mut text = Vec::new();
        merged.write(&mut text, Mode::B).unwrap();
        assert!(String::from_utf8(text).unwrap().contains("1.5\t1\n"));
    }

    #[test]
    fn modes_are_named() {
        for mode in [Mode::N, Mode::C, Mode::B] {
            assert_eq!(Mode::from_name(mode.name()), Some(mode));
        }
        assert_eq!(Mode::from_name("x"), None);
    }
}
