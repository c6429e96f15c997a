//! Puzzles per second per core in each rating band: `grader generate`'s search
//! beside the baseline "generate Tatham puzzles (`sgt-keen --generate N <size>du`)
//! and keep those in the band", both measured in this run on one core.
//!
//! ```sh
//! cargo run --release -p kenken-benches --example generate_vs_tatham            # quick: 6x6, 7x7, 9x9
//! cargo run --release -p kenken-benches --example generate_vs_tatham -- --full  # 4x4-9x9, 20 000 to 2 000 Tatham puzzles
//! ```
//!
//! Options: `--sizes 6,9`, `--secs S` (our CPU time per band and size), `--tatham N`
//! (baseline puzzles per size), `--five-secs S` (also run each size at 5.0 or more
//! for S CPU seconds, a band the baseline never reaches; 0 by default, 1 800 with
//! `--full` on the 9×9 only). The baseline's time is sgt-keen's generation plus
//! our grading of what it made; ours is the whole generator run (search,
//! uniqueness, grading) on a one-thread pool. Both are CPU time (from `/proc`,
//! wall-clock time where there is none), so other work on a shared machine slows
//! neither side's figure: the machine's other processes take turns on the cores,
//! and only the time this work ran counts.
//!
//! With `--hide-ops`, both sides make puzzles whose operations are hidden: ours
//! with `--hide-ops`, the baseline's by reading each Tatham puzzle with its
//! operations hidden and keeping it when the ladder solves it (so it is unique)
//! within the band.
//!
//! Both sides count distinct puzzles: a puzzle the baseline makes twice, or a
//! turn or reflection of one it made, counts once (sgt-keen repeats about one
//! 4×4 in five among those rated 4.4), as `grader generate` hands each on once.

use kenken_formats::tatham;
use kenken_generator::{canonical_key, generate, Event, Request, RunLimits, ShapeStats};
use kenken_model::Puzzle;
use kenken_techniques::{Grader, Options, Rating, Status};
use std::collections::HashSet;
use std::process::Command;
use std::time::{Duration, Instant};

/// The allocator of the `grader` binary, so that our side is timed as `grader
/// generate` runs.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const SGT_KEEN: &str = "/usr/games/sgt-keen";

/// The bands of the table: (label, min, max) in tenths.
const BANDS: [(&str, u32, Option<u32>); 5] = [
    ("4.0", 40, Some(40)),
    ("4.2", 42, Some(42)),
    ("4.4", 44, Some(44)),
    ("4.6", 46, Some(46)),
    ("4.8+", 48, None),
];

struct Settings {
    sizes: Vec<usize>,
    secs: f64,
    tatham: Option<usize>,
    /// Our CPU seconds at 5.0 or more, and at which sizes.
    five_secs: f64,
    five_sizes: Vec<usize>,
    /// Puzzles whose operations are hidden, on both sides.
    hide_ops: bool,
}

fn settings() -> Settings {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let full = args.iter().any(|a| a == "--full");
    let mut s = if full {
        Settings {
            sizes: (4..=9).collect(),
            secs: 30.0,
            tatham: None,
            five_secs: 1800.0,
            five_sizes: vec![9],
            hide_ops: args.iter().any(|a| a == "--hide-ops"),
        }
    } else {
        Settings {
            sizes: vec![6, 7, 9],
            secs: 4.0,
            tatham: Some(0),
            five_secs: 0.0,
            five_sizes: vec![9],
            hide_ops: args.iter().any(|a| a == "--hide-ops"),
        }
    };
    let value = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    if let Some(v) = value("--sizes") {
        s.sizes = v
            .split(',')
            .map(|x| x.parse().expect("--sizes 6,9"))
            .collect();
    }
    if let Some(v) = value("--secs") {
        s.secs = v.parse().expect("--secs S");
    }
    if let Some(v) = value("--tatham") {
        s.tatham = Some(v.parse().expect("--tatham N"));
    }
    if let Some(v) = value("--five-secs") {
        s.five_secs = v.parse().expect("--five-secs S");
        if value("--five-sizes").is_none() && !full {
            s.five_sizes = s.sizes.clone();
        }
    }
    if let Some(v) = value("--five-sizes") {
        s.five_sizes = v
            .split(',')
            .map(|x| x.parse().expect("--five-sizes 8,9"))
            .collect();
    }
    s
}

/// The baseline's puzzle count per size: enough that its rare bands (4.4 and up,
/// one puzzle in a thousand on a 4×4) hold a few puzzles, within about half a
/// minute of sgt-keen on an idle core per size (a 9×9 takes it 35 ms); a tenth of
/// it for the quick run.
fn tatham_count(size: usize, quick: bool) -> usize {
    let full = match size {
        ..=5 => 20_000,
        6 => 10_000,
        7 => 5_000,
        _ => 2_000,
    };
    if quick {
        full / 10
    } else {
        full
    }
}

/// CPU seconds used so far by this process and by its children that were
/// waited for (utime, stime, cutime, cstime of `/proc/self/stat`, in clock ticks
/// of 1/100 s); None where there is no such file.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name, which is in parentheses.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    // Fields 14-17 of the file are 12-15 here (state is field 3).
    let ticks: u64 = fields
        .get(11..15)?
        .iter()
        .map(|f| f.parse::<u64>().ok())
        .sum::<Option<u64>>()?;
    Some(ticks as f64 / 100.0)
}

/// A stopwatch of CPU time (wall-clock time without `/proc`).
struct Clock {
    cpu: Option<f64>,
    wall: Instant,
}

impl Clock {
    fn start() -> Clock {
        Clock {
            cpu: cpu_seconds(),
            wall: Instant::now(),
        }
    }

    fn seconds(&self) -> f64 {
        match (self.cpu, cpu_seconds()) {
            (Some(a), Some(b)) => (b - a).max(0.01),
            _ => self.wall.elapsed().as_secs_f64(),
        }
    }
}

/// Generates with sgt-keen and grades: (puzzles, seconds, max ratings, each
/// with whether it is the first of its puzzle: not a repeat, nor a turn or
/// reflection of a puzzle met before).
fn baseline(size: usize, count: usize, hide_ops: bool) -> (Vec<Puzzle>, f64, Vec<(Rating, bool)>) {
    let clock = Clock::start();
    let out = Command::new(SGT_KEEN)
        .args([
            "--generate",
            &count.to_string(),
            &format!("{size}du#bench-{size}"),
        ])
        .output()
        .expect("cannot run sgt-keen");
    let text = String::from_utf8_lossy(&out.stdout);
    let puzzles: Vec<Puzzle> = text
        .lines()
        .filter_map(|l| tatham::read(l.trim()).ok())
        .map(|p| if hide_ops { p.with_hidden_ops() } else { p })
        .collect();
    let mut seen = HashSet::new();
    let ratings = puzzles
        .iter()
        .map(|p| {
            let s = Grader::deferred(p, Default::default())
                .unwrap()
                .rate(Options::default());
            let solved = if s.status == Status::Solved {
                s.max
            } else {
                Rating::ZERO
            };
            (solved, seen.insert(canonical_key(p)))
        })
        .collect();
    (puzzles, clock.seconds(), ratings)
}

/// Our run on one thread until it has used `secs` of CPU time (checked as
/// attempts end and while the run waits on one; at most four times `secs` of
/// wall-clock time, at most 1 000 puzzles): (found, CPU seconds, puzzles).
fn ours(
    size: usize,
    min: u32,
    max: Option<u32>,
    secs: f64,
    hide_ops: bool,
) -> (usize, f64, Vec<Puzzle>) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let mut request = Request::new(size, Rating(min), max.map(Rating));
    // The baseline's puzzles get mode n's ratings only; so do ours.
    request.mode_c_depth = false;
    request.hide_ops = hide_ops;
    let start = Instant::now();
    let clock = Clock::start();
    let limits = RunLimits {
        count: 1000,
        max_tries: None,
        deadline: Some(start + Duration::from_secs_f64(4.0 * secs)),
    };
    let mut puzzles = Vec::new();
    pool.install(|| {
        generate(&request, 1, &limits, |e| {
            if let Event::Found(g) = e {
                puzzles.push(g.puzzle.clone());
            }
            clock.seconds() < secs
        })
    })
    .unwrap();
    (puzzles.len(), clock.seconds(), puzzles)
}

fn rate(n: usize, secs: f64) -> String {
    if n == 0 {
        "0".to_string()
    } else {
        let r = n as f64 / secs;
        if r >= 0.1 {
            format!("{r:.2}")
        } else {
            format!("{:.1}/h", r * 3600.0)
        }
    }
}

fn main() {
    let s = settings();
    let quick = s.tatham == Some(0);
    let hidden = if s.hide_ops {
        ", operations hidden"
    } else {
        ""
    };
    println!("# Puzzles per CPU second, one core{hidden}: baseline (sgt-keen --generate <N>du, graded, kept in band) vs ours (grader generate)\n");
    println!("| size | baseline puzzles | baseline CPU time (gen + grade) | band | baseline distinct (all) | baseline /s | ours found | ours CPU time | ours /s | ours / baseline |");
    println!("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|");
    let mut shapes = Vec::new();
    for &size in &s.sizes {
        let count = match s.tatham {
            Some(0) | None => tatham_count(size, quick),
            Some(n) => n,
        };
        let (theirs, base_secs, ratings) = baseline(size, count, s.hide_ops);
        let mut mine_all = Vec::new();
        for (label, min, max) in BANDS {
            let in_band: Vec<bool> = ratings
                .iter()
                .filter(|(r, _)| r.0 >= min && max.is_none_or(|m| r.0 <= m))
                .map(|&(_, first)| first)
                .collect();
            let kept = in_band.iter().filter(|&&first| first).count();
            let (found, secs, puzzles) = ours(size, min, max, s.secs, s.hide_ops);
            mine_all.extend(puzzles);
            let ratio = if kept == 0 {
                if found > 0 {
                    "baseline none".to_string()
                } else {
                    "-".to_string()
                }
            } else {
                format!("{:.1}x", (found as f64 / secs) / (kept as f64 / base_secs))
            };
            println!(
                "| {size}x{size} | {} | {base_secs:.1} s | {label} | {kept} ({}) | {} | {found} | {secs:.1} s | {} | {ratio} |",
                theirs.len(),
                in_band.len(),
                rate(kept, base_secs),
                rate(found, secs),
            );
        }
        shapes.push((size, ShapeStats::of(&mine_all), ShapeStats::of(&theirs)));
    }
    if s.five_secs > 0.0 {
        println!("\n# Rated 5.0 or more (the baseline has none): ours, one core\n");
        println!("| size | found | CPU time | per hour |");
        println!("|---|---:|---:|---:|");
        for &size in &s.five_sizes {
            let (found, secs, puzzles) = ours(size, 50, None, s.five_secs, s.hide_ops);
            println!(
                "| {size}x{size} | {found} | {secs:.0} s | {:.1} |",
                found as f64 * 3600.0 / secs
            );
            for p in &puzzles {
                let written = if p.has_hidden_ops() {
                    kenken_formats::text::write(p)
                } else {
                    tatham::write(p)
                };
                println!("  {}", written.unwrap().replace('\n', " / "));
            }
        }
    }
    println!(
        "\n# Cage sizes and operations (ours: every puzzle above; Tatham's: the baseline's)\n"
    );
    println!("| size | who | mix | size distance | op distance |");
    println!("|---|---|---|---:|---:|");
    for (size, mine, theirs) in shapes {
        println!(
            "| {size}x{size} | ours | {mine} | {:.2} | {:.2} |",
            mine.size_distance(&theirs),
            mine.op_distance(&theirs)
        );
        println!("| {size}x{size} | Tatham | {theirs} | | |");
    }
}
