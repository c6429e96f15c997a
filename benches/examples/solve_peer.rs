//! `grader solve --many` against another solver, side by side: the public
//! cage-fill backtracking solver birkenfeld/kenken-rs (its `kenken` binary), on the
//! same Tatham puzzles, per grid size 4 to 9, whole process against whole process.
//!
//! ```sh
//! cargo build --release -p kenken-grader
//! cargo run --release -p kenken-benches --example solve_peer -- PEER_BINARY \
//!     [--count N] [--runs 5] [--level du] [--sizes 4-9] [--jobs N] [--grader PATH]
//! ```
//!
//! The peer is not part of this project: build it from its own repository,
//! outside this one (`cargo build --release` there), and give the path of its
//! `kenken` binary. It reads one puzzle per file, in its own format (a letter grid,
//! a digit for a given cell, then `a: 12*` clue lines), any number of files per
//! process, and proves each puzzle unique (it counts every solution).
//!
//! Per size, `--count` puzzles are made once with `sgt-keen --generate COUNT
//! <size><level>` (Debian's `sgt-puzzles`) and kept in the system's temporary
//! directory, so that later runs time the same puzzles. By default 10 000 for 4×4
//! to 6×6, 1 000 for 7×7 and 200 for 8×8 and 9×9: starting a process takes each
//! program about 1 ms, as long as solving a hundred or more small puzzles, and a
//! batch is meant for many puzzles; at 8×8 and 9×9 the peer already takes seconds
//! on 200. Each is written in the
//! peer's format (one file each) and as a line of a game-ID file for `grader solve
//! --many`. Both are first run once and checked (every puzzle solved, every one
//! unique), then timed `--runs` times, alternately, from spawning the process to
//! its exit, output discarded; the table gives the best and the median of each and
//! the ratios (the peer's time over ours). `--jobs` is passed to the grader
//! (default: its own, every core); the peer runs on one thread. When the run
//! has every size from 4×4 to 7×7, a last row times a mixed batch: the first 200
//! puzzles of each of them, 800 in one process.

use kenken_formats::tatham;
use kenken_model::{Op, Puzzle};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

/// The peer's cage letters: any ASCII character but digits (its given cells), `:`
/// and space (its clue lines' separator).
const LETTERS: &[u8] =
    b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!#$%&()*+,-./;<=>?@[]^_{|}~";

const USAGE: &str = "\
usage: cargo run --release -p kenken-benches --example solve_peer -- PEER_BINARY \
[--count N] [--runs R] [--level du] [--sizes 4-9] [--jobs N] [--grader PATH]

PEER_BINARY is the `kenken` binary of birkenfeld/kenken-rs, built from its own
repository outside this project. The grader binary must be built first:
  cargo build --release -p kenken-grader";

struct Settings {
    peer: PathBuf,
    grader: PathBuf,
    /// `--count`; `None`: [`default_count`].
    count: Option<usize>,
    runs: usize,
    level: String,
    sizes: Vec<usize>,
    jobs: Option<String>,
}

fn main() -> ExitCode {
    let settings = match settings() {
        Ok(s) => s,
        Err(message) => {
            eprintln!("solve_peer: {message}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&settings) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("solve_peer: {message}");
            ExitCode::FAILURE
        }
    }
}

fn settings() -> Result<Settings, String> {
    let mut args = std::env::args().skip(1);
    let mut peer = None;
    let mut settings = Settings {
        peer: PathBuf::new(),
        grader: default_grader(),
        count: None,
        runs: 5,
        level: "du".to_string(),
        sizes: (4..=9).collect(),
        jobs: None,
    };
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--count" => settings.count = Some(number(&value("--count")?)?),
            "--runs" => settings.runs = number(&value("--runs")?)?,
            "--level" => settings.level = value("--level")?,
            "--jobs" => settings.jobs = Some(value("--jobs")?),
            "--grader" => settings.grader = PathBuf::from(value("--grader")?),
            "--sizes" => {
                let text = value("--sizes")?;
                let (a, b) = text.split_once('-').unwrap_or((&text, &text));
                let (a, b) = (number(a)?, number(b)?);
                if !(4..=9).contains(&a) || !(a..=9).contains(&b) {
                    return Err(format!("--sizes {text}: sizes from 4 to 9, like 4-9"));
                }
                settings.sizes = (a..=b).collect();
            }
            "-h" | "--help" => return Err("the usage:".to_string()),
            _ if arg.starts_with('-') => return Err(format!("unknown option {arg}")),
            _ if peer.is_none() => peer = Some(PathBuf::from(arg)),
            _ => return Err(format!("one peer binary only (also got {arg})")),
        }
    }
    settings.peer = peer.ok_or("no peer binary given")?;
    if !settings.peer.is_file() {
        return Err(format!(
            "the peer binary {} does not exist (or is not a file)",
            settings.peer.display()
        ));
    }
    if !settings.grader.is_file() {
        return Err(format!(
            "the grader binary {} does not exist: build it first (or pass --grader)",
            settings.grader.display()
        ));
    }
    if settings.count == Some(0) || settings.runs == 0 {
        return Err("--count and --runs must be at least 1".to_string());
    }
    Ok(settings)
}

/// Puzzles per size when `--count` is not given (see the module documentation).
fn default_count(size: usize) -> usize {
    if size <= 6 {
        10_000
    } else if size == 7 {
        1000
    } else {
        200
    }
}

fn number(text: &str) -> Result<usize, String> {
    text.parse()
        .map_err(|_| format!("{text:?} is not a whole number"))
}

/// `target/release/grader`, beside this example's `target/release/examples/`.
fn default_grader() -> PathBuf {
    std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.join("grader")))
        .unwrap_or_else(|| PathBuf::from("target/release/grader"))
}

/// The puzzles of one row of the table: the game-ID file for `grader solve
/// --many` and the peer's files.
struct Batch {
    /// `4x4`, …, or `4x4-7x7` for the mixed batch.
    label: String,
    ids: PathBuf,
    peer_files: Vec<PathBuf>,
}

fn run(settings: &Settings) -> Result<(), String> {
    let dir = std::env::temp_dir().join("kenken-solve-peer");
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    let mut batches = Vec::new();
    for &size in &settings.sizes {
        let batch = prepare(&dir, size, settings)?;
        check(&batch, settings)?;
        batches.push(batch);
    }
    if let Some(batch) = mixed(&dir, &batches, settings)? {
        check(&batch, settings)?;
        batches.push(batch);
    }
    println!(
        "Tatham level `{}`; whole process, {} runs each, alternating",
        settings.level, settings.runs
    );
    println!(
        "grader: {} solve --many FILE --quiet{}",
        settings.grader.display(),
        settings
            .jobs
            .as_ref()
            .map_or(String::new(), |j| format!(" --jobs {j}"))
    );
    println!("peer:   {} FILE…", settings.peer.display());
    println!();
    println!(
        "{:>7} {:>7} | {:>11} {:>11} | {:>11} {:>11} | {:>10} {:>10}",
        "size",
        "puzzles",
        "peer best",
        "peer median",
        "ours best",
        "ours median",
        "best x",
        "median x"
    );
    let mut slowest_ratio = f64::INFINITY;
    for batch in &batches {
        let (mut peer, mut ours) = (Vec::new(), Vec::new());
        for _ in 0..settings.runs {
            peer.push(time(&mut peer_command(batch, settings))?);
            ours.push(time(&mut grader_command(batch, settings))?);
        }
        let (peer_best, peer_median) = best_and_median(&mut peer);
        let (ours_best, ours_median) = best_and_median(&mut ours);
        let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
        let ms = |d: Duration| format!("{:.2} ms", d.as_secs_f64() * 1e3);
        println!(
            "{:>7} {:>7} | {:>11} {:>11} | {:>11} {:>11} | {:>9.1}x {:>9.1}x",
            batch.label,
            batch.peer_files.len(),
            ms(peer_best),
            ms(peer_median),
            ms(ours_best),
            ms(ours_median),
            ratio(peer_best, ours_best),
            ratio(peer_median, ours_median),
        );
        slowest_ratio = slowest_ratio.min(ratio(peer_median, ours_median));
    }
    println!();
    println!("lowest ratio of medians: {slowest_ratio:.1}x");
    Ok(())
}

/// Makes (or finds, from an earlier run) the puzzles of one size.
fn prepare(dir: &Path, size: usize, settings: &Settings) -> Result<Batch, String> {
    let count = settings.count.unwrap_or_else(|| default_count(size));
    let name = format!("{size}{}-{count}", settings.level);
    let ids = dir.join(format!("{name}.txt"));
    if !ids.is_file() {
        eprintln!(
            "solve_peer: generating {count} puzzles {size}{} with sgt-keen…",
            settings.level
        );
        let keen = sgt_keen()?;
        let out = Command::new(&keen)
            .args(["--generate", &count.to_string()])
            .arg(format!("{size}{}", settings.level))
            .output()
            .map_err(|e| format!("cannot run {}: {e}", keen.display()))?;
        if !out.status.success() {
            return Err(format!(
                "{} --generate failed: {}",
                keen.display(),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        // Written whole once made, so that a run cut short leaves no partial file.
        let partial = dir.join(format!("{name}.partial"));
        std::fs::write(&partial, text)
            .and_then(|()| std::fs::rename(&partial, &ids))
            .map_err(|e| format!("cannot write {}: {e}", ids.display()))?;
    }
    let text =
        std::fs::read_to_string(&ids).map_err(|e| format!("cannot read {}: {e}", ids.display()))?;
    let peer_dir = dir.join(&name);
    std::fs::create_dir_all(&peer_dir)
        .map_err(|e| format!("cannot make {}: {e}", peer_dir.display()))?;
    let mut peer_files = Vec::new();
    for (i, id) in text.lines().filter(|l| !l.trim().is_empty()).enumerate() {
        let puzzle = tatham::read(id.trim()).map_err(|e| format!("{}: {e}", ids.display()))?;
        let path = peer_dir.join(format!("{i}.ken"));
        std::fs::write(&path, peer_format(&puzzle)?)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        peer_files.push(path);
    }
    if peer_files.len() != count {
        return Err(format!(
            "{} holds {} puzzles, not {count}",
            ids.display(),
            peer_files.len(),
        ));
    }
    Ok(Batch {
        label: format!("{size}x{size}"),
        ids,
        peer_files,
    })
}

/// Puzzles of each size in the mixed batch.
const MIXED_PER_SIZE: usize = 200;

/// The mixed batch, when the run has every size from 4×4 to 7×7: the first
/// [`MIXED_PER_SIZE`] puzzles of each, one process for all of them, the way a
/// publisher's batch of small puzzles comes.
fn mixed(dir: &Path, batches: &[Batch], settings: &Settings) -> Result<Option<Batch>, String> {
    let mut ids = String::new();
    let mut peer_files = Vec::new();
    for size in 4..=7 {
        let Some(batch) = batches.iter().find(|b| b.label == format!("{size}x{size}")) else {
            return Ok(None);
        };
        if batch.peer_files.len() < MIXED_PER_SIZE {
            return Ok(None);
        }
        let text = std::fs::read_to_string(&batch.ids)
            .map_err(|e| format!("cannot read {}: {e}", batch.ids.display()))?;
        for line in text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .take(MIXED_PER_SIZE)
        {
            ids.push_str(line);
            ids.push('\n');
        }
        peer_files.extend_from_slice(&batch.peer_files[..MIXED_PER_SIZE]);
    }
    let path = dir.join(format!("mixed{}-{}.txt", settings.level, peer_files.len()));
    std::fs::write(&path, ids).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(Some(Batch {
        label: "4x4-7x7".to_string(),
        ids: path,
        peer_files,
    }))
}

fn sgt_keen() -> Result<PathBuf, String> {
    let installed = Path::new("/usr/games/sgt-keen");
    if installed.is_file() {
        return Ok(installed.to_path_buf());
    }
    let on_path = Command::new("sgt-keen").arg("--version").output();
    if on_path.is_ok() {
        return Ok(PathBuf::from("sgt-keen"));
    }
    Err("sgt-keen is needed to make the puzzles: apt-get install sgt-puzzles".to_string())
}

/// A puzzle in the peer's format: the grid with a letter per cage and a digit per
/// given cell, a blank line, then `letter: <clue><op>` per cage.
fn peer_format(puzzle: &Puzzle) -> Result<String, String> {
    let n = puzzle.size().get();
    let mut grid = vec![b'?'; n * n];
    let mut clues = String::new();
    let mut letters = LETTERS.iter();
    for cage in puzzle.cages() {
        let mark = if cage.cells.len() == 1 {
            u8::try_from(cage.clue)
                .ok()
                .filter(|d| (1..=9).contains(d))
                .map(|d| b'0' + d)
                .ok_or_else(|| format!("a given of {} is not one digit", cage.clue))?
        } else {
            let letter = *letters
                .next()
                .ok_or("more cages than the peer has letters")?;
            let op = match cage.op {
                Op::Add => '+',
                Op::Sub => '-',
                Op::Mul => '*',
                Op::Div => '/',
                Op::Given => return Err("a given of several cells".to_string()),
                Op::Hidden => return Err("the peer has no hidden operations".to_string()),
            };
            clues.push_str(&format!("{}: {}{op}\n", char::from(letter), cage.clue));
            letter
        };
        for cell in &cage.cells {
            grid[cell.index()] = mark;
        }
    }
    let mut text = String::new();
    for row in grid.chunks(n) {
        text.push_str(std::str::from_utf8(row).map_err(|e| e.to_string())?);
        text.push('\n');
    }
    text.push('\n');
    text.push_str(&clues);
    Ok(text)
}

fn peer_command(batch: &Batch, settings: &Settings) -> Command {
    let mut command = Command::new(&settings.peer);
    command.args(&batch.peer_files);
    command
}

fn grader_command(batch: &Batch, settings: &Settings) -> Command {
    let mut command = Command::new(&settings.grader);
    command
        .arg("solve")
        .arg("--many")
        .arg(&batch.ids)
        .arg("--quiet");
    if let Some(jobs) = &settings.jobs {
        command.args(["--jobs", jobs]);
    }
    command
}

/// Runs both once and checks that every puzzle is solved and unique.
fn check(batch: &Batch, settings: &Settings) -> Result<(), String> {
    let out = peer_command(batch, settings)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", settings.peer.display()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let solved = text.lines().filter(|l| l.contains(" steps ")).count();
    if !out.status.success() || text.contains("***") || solved != batch.peer_files.len() {
        return Err(format!(
            "the peer did not solve every {0} puzzle once: {solved} of {1}\n{2}",
            batch.label,
            batch.peer_files.len(),
            text.lines()
                .filter(|l| l.contains("***"))
                .take(5)
                .collect::<Vec<_>>()
                .join("\n")
        ));
    }
    let out = grader_command(batch, settings)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", settings.grader.display()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let unique = text.lines().filter(|l| l.ends_with("\tunique")).count();
    if !out.status.success() || unique != batch.peer_files.len() {
        return Err(format!(
            "grader solve --many did not find every {0} puzzle unique: {unique} of {1}\n{2}",
            batch.label,
            batch.peer_files.len(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(())
}

/// The wall time of a whole process, output discarded.
fn time(command: &mut Command) -> Result<Duration, String> {
    command.stdout(Stdio::null()).stderr(Stdio::null());
    let started = Instant::now();
    let status = command
        .status()
        .map_err(|e| format!("cannot run {command:?}: {e}"))?;
    let took = started.elapsed();
    if !status.success() {
        return Err(format!("{command:?} failed: {status}"));
    }
    Ok(took)
}

fn best_and_median(times: &mut [Duration]) -> (Duration, Duration) {
    times.sort();
    (times[0], times[times.len() / 2])
}
