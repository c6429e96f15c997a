//! SIGINT and SIGTERM end `batch` and `solve --many` between two rows: killed at
//! random points (before the first row, while a chunk is graded, while rows are
//! written to a slow pipe or to a file), NDJSON and TSV, the output holds whole
//! rows only, each one parsing, and the run exits 130 (SIGINT) or 143 (SIGTERM)
//! saying how many rows it wrote.

use super::GRADER;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// Rows of each run: a few chunks' worth on one thread, so that a run lasts
/// tens of milliseconds.
const ROWS: usize = 5000;
/// Kills for each of the eight ways (command, format, pipe or file).
const KILLS_EACH: usize = 26;

/// The input: ROWS 4×4 puzzles, NDJSON.
fn input() -> PathBuf {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../puzzles/tatham-4x4-easy.json");
    let puzzles: Vec<String> =
        serde_json::from_str(&std::fs::read_to_string(corpus).unwrap()).unwrap();
    let lines: String = (0..ROWS)
        .map(|i| {
            format!(
                "{}\n",
                serde_json::to_string(&puzzles[i % puzzles.len()]).unwrap()
            )
        })
        .collect();
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-interrupt.ndjson");
    std::fs::write(&path, lines).unwrap();
    path
}

/// A small deterministic generator of kill times.
struct Xorshift(u64);

impl Xorshift {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Sink {
    /// A pipe read slowly: the writer blocks mid-buffer.
    SlowPipe,
    File,
}

struct Run {
    status: ExitStatus,
    out: String,
    err: String,
}

/// Runs `args` on the input, sending `signal` after `delay` (none: to the end).
fn run(args: &[&str], sink: Sink, delay: Option<Duration>, signal: &str, file: &Path) -> Run {
    let mut command = Command::new(GRADER);
    command
        .args(args)
        .stdin(Stdio::null())
        .stderr(Stdio::piped());
    match sink {
        Sink::SlowPipe => command.stdout(Stdio::piped()),
        Sink::File => command.stdout(std::fs::File::create(file).unwrap()),
    };
    let mut child: Child = command.spawn().unwrap();
    let reader = child.stdout.take().map(|mut pipe| {
        thread::spawn(move || {
            let mut out = Vec::new();
            let mut buf = [0u8; 4096];
            loop {
                match pipe.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => out.extend_from_slice(&buf[..n]),
                }
                thread::sleep(Duration::from_micros(300));
            }
            out
        })
    });
    let mut err_pipe = child.stderr.take().unwrap();
    let errors = thread::spawn(move || {
        let mut err = String::new();
        let _ = err_pipe.read_to_string(&mut err);
        err
    });
    if let Some(delay) = delay {
        thread::sleep(delay);
        // The process may have ended already: then `kill` fails, and the run
        // must be whole.
        let _ = Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status();
    }
    let status = child.wait().unwrap();
    let out = match reader {
        Some(reader) => reader.join().unwrap(),
        None => std::fs::read(file).unwrap(),
    };
    Run {
        status,
        out: String::from_utf8(out).expect("the output is UTF-8"),
        err: errors.join().unwrap(),
    }
}

/// The rows of an output, each checked to be whole; panics with the output
/// otherwise.
fn whole_rows(out: &str, tsv: bool, context: &str) -> usize {
    if out.is_empty() {
        return 0;
    }
    assert!(
        out.ends_with('\n'),
        "{context}: a cut last row: {:?}",
        tail(out)
    );
    let mut lines = out.lines();
    let columns = if tsv {
        let header = lines.next().unwrap();
        assert!(header.starts_with("Puzzle #\t"), "{context}: {header:?}");
        header.split('\t').count()
    } else {
        0
    };
    let mut rows = 0;
    for (i, line) in lines.enumerate() {
        let index = if tsv {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), columns, "{context}: row {}: {line:?}", i + 1);
            let status = fields[columns - 1];
            assert!(
                ["solved", "unique"].contains(&status),
                "{context}: row {}: {line:?}",
                i + 1
            );
            fields[0].parse::<usize>().unwrap()
        } else {
            let row: serde_json::Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{context}: row {}: {e}: {line:?}", i + 1));
            assert!(row["status"].is_string(), "{context}: {line}");
            row["index"].as_u64().unwrap() as usize
        };
        assert_eq!(index, i + 1, "{context}: {line:?}");
        rows += 1;
    }
    rows
}

fn tail(text: &str) -> &str {
    let start = text.len().saturating_sub(200);
    text.get(start..).unwrap_or(text)
}

#[test]
fn a_signal_leaves_whole_rows_only() {
    let path = input();
    let input = path.to_str().unwrap();
    let file = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-interrupt.out");
    let mut random = Xorshift(0x9E37_79B9_7F4A_7C15);
    let (mut kills, mut cut_short, mut mid_output) = (0, 0, 0);
    let started = Instant::now();
    for command in [&["batch", "--mode", "n"][..], &["solve", "--many"]] {
        for format in ["ndjson", "tsv"] {
            for sink in [Sink::SlowPipe, Sink::File] {
                let mut args = command.to_vec();
                args.extend(["--jobs", "1", "--format", format, input]);
                let tsv = format == "tsv";
                // Uninterrupted, to learn how long a run takes and check it.
                let clock = Instant::now();
                let whole = run(&args, sink, None, "", &file);
                let length = clock.elapsed();
                assert!(whole.status.success(), "{args:?}: {}", whole.err);
                assert_eq!(whole_rows(&whole.out, tsv, "uninterrupted"), ROWS);
                for k in 0..KILLS_EACH {
                    let (signal, code) = if k % 2 == 0 {
                        ("-TERM", 143)
                    } else {
                        ("-INT", 130)
                    };
                    let micros = random.below(length.as_micros() as u64);
                    let delay = Duration::from_micros(micros);
                    let r = run(&args, sink, Some(delay), signal, &file);
                    let context = format!("{args:?} {sink:?} {signal} after {delay:?}");
                    let rows = whole_rows(&r.out, tsv, &context);
                    kills += 1;
                    match r.status.code() {
                        Some(0) => assert_eq!(rows, ROWS, "{context}: {}", r.err),
                        Some(c) => {
                            assert_eq!(c, code, "{context}: {}", r.err);
                            let said =
                                format!("stopped by SIG{} after {rows} row(s)", &signal[1..]);
                            assert!(
                                r.err.contains(&said),
                                "{context}: {:?} ({rows} rows)",
                                r.err
                            );
                            cut_short += 1;
                            if rows > 0 && rows < ROWS {
                                mid_output += 1;
                            }
                        }
                        // Killed before the run took its signals: nothing
                        // written yet.
                        None => assert_eq!(rows, 0, "{context}: {:?}", r.status),
                    }
                }
            }
        }
    }
    assert!(kills >= 200, "{kills}");
    // Most kills land within the run, many of them while rows are written.
    assert!(
        cut_short >= kills / 2,
        "{cut_short} of {kills} runs cut short"
    );
    assert!(
        mid_output >= kills / 5,
        "{mid_output} of {kills} runs cut mid-output"
    );
    eprintln!(
        "{kills} kills ({cut_short} cut short, {mid_output} mid-output) in {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

/// A second signal ends the run at once, with the signal's exit code, however
/// slowly the output is read.
#[test]
fn a_second_signal_ends_the_run_at_once() {
    let path = input();
    let mut child = Command::new(GRADER)
        .args(["batch", "--jobs", "1", "--format", "ndjson"])
        .arg(&path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The first byte says the rows are being written; nothing reads the rest,
    // so the writer blocks on the full pipe, mid-chunk (a chunk of rows is
    // several times the pipe's 64 KiB).
    let mut first = [0u8; 1];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    thread::sleep(Duration::from_millis(200));
    let pid = child.id().to_string();
    let kill = |signal: &str| Command::new("kill").args([signal, &pid]).status().unwrap();
    assert!(kill("-INT").success());
    thread::sleep(Duration::from_millis(100));
    assert_eq!(
        child.try_wait().unwrap(),
        None,
        "waits for the row being written"
    );
    assert!(kill("-INT").success());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
}
