//! Properties over the puzzle corpus (`puzzles/*.json`), checked on every puzzle of
//! the Tatham and reference files rather than on examples:
//!
//! * every puzzle has one solution, the whole ladder solves it, and no step removes
//!   the solution's digit or cage combination (checked step by step);
//! * the ladder is consistent: a puzzle's max rating lies within the rating range of
//!   the first ladder level (technique, with every easier one) that solves it;
//! * (`--ignored`, run by `.ci/run`) mode c alone solves every puzzle, every step
//!   checked the same way;
//! * the hand-made edge cases have the number of solutions `puzzles/edge-cases.md`
//!   says, and the ladder ends accordingly;
//! * a grader whose solution count waits until needed ([`Grader::deferred`], what a
//!   batch uses) grades like one that counts first, and ends up with the same
//!   verdict and solution.
//!
//! Puzzles are graded on every core (each one single-threaded), largest grids first so
//! the threads finish together.

use kenken_model::{Limits, Puzzle};
use kenken_search::Verdict;
use kenken_techniques::{Grader, Options, Rating, Status, TechniqueKind};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Files that are not Tatham puzzles with one solution: the edge cases (checked
/// against their own table), the sample (a copy of puzzles from other files) and
/// the Tatham puzzles read with their operations hidden (checked on their own).
const NOT_TATHAM: [&str; 3] = ["edge-cases.json", "sample.json", HIDDEN_OPS];

/// Tatham puzzles that stay unique with every operation hidden, as batch entries
/// `{"puzzle": ID, "hide_ops": true}`.
const HIDDEN_OPS: &str = "hidden-ops.json";

/// One puzzle of the corpus.
pub(super) struct Entry {
    /// `tatham-6x6-hard.json#17` (1-based, as in `ratings/`).
    pub(super) label: String,
    pub(super) puzzle: Puzzle,
    /// What grading it may use.
    pub(super) limits: Limits,
}

fn puzzles_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../puzzles")
}

/// The strings of a corpus file with their place in it: a JSON list (`#17`), or the
/// reference's test grids, an object of category → list (`#Hardest/1`).
fn strings(path: &Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(path).unwrap();
    let value: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: not JSON: {e}", path.display()));
    let list = |v: &serde_json::Value, prefix: &str| -> Vec<(String, String)> {
        v.as_array()
            .expect("a list of puzzle strings")
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let s = s.as_str().expect("a puzzle string").to_string();
                (format!("#{prefix}{}", i + 1), s)
            })
            .collect()
    };
    match &value {
        serde_json::Value::Object(map) => map
            .iter()
            .flat_map(|(category, v)| list(v, &format!("{category}/")))
            .collect(),
        other => list(other, ""),
    }
}

fn read(label: &str, text: &str) -> Puzzle {
    kenken_formats::read_any(text, None)
        .unwrap_or_else(|e| panic!("{label}: {e}"))
        .puzzle
}

/// The Tatham and reference puzzles, largest grids first.
pub(super) fn tatham_corpus() -> Vec<Entry> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(puzzles_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .filter(|p| !NOT_TATHAM.contains(&p.file_name().unwrap().to_str().unwrap()))
        .collect();
    files.sort();
    let mut entries: Vec<Entry> = files
        .iter()
        .flat_map(|f| {
            let name = f.file_name().unwrap().to_str().unwrap().to_string();
            strings(f).into_iter().map(move |(place, s)| {
                let label = format!("{name}{place}");
                let puzzle = read(&label, &s);
                Entry {
                    label,
                    puzzle,
                    limits: Limits::new(),
                }
            })
        })
        .collect();
    assert!(entries.len() > 1000, "the corpus is missing");
    entries.sort_by_key(|e| std::cmp::Reverse(e.puzzle.size().get()));
    entries
}

/// Runs `check` on every entry on all cores; returns the problems found, in corpus
/// order.
pub(super) fn for_each_parallel(
    entries: &[Entry],
    check: impl Fn(&Entry) -> Option<String> + Sync,
) -> Vec<String> {
    let next = AtomicUsize::new(0);
    let problems = Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(entry) = entries.get(i) else { break };
                if let Some(p) = check(entry) {
                    problems.lock().unwrap().push(p);
                }
            });
        }
    });
    let mut problems = problems.into_inner().unwrap();
    problems.sort();
    problems
}

pub(super) fn report(what: &str, problems: &[String], checked: usize, started: Instant) {
    eprintln!(
        "{what}: {checked} puzzles in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let shown: Vec<&str> = problems.iter().take(30).map(String::as_str).collect();
    assert!(
        problems.is_empty(),
        "{what}: {} of {checked} puzzles fail:\n{}",
        problems.len(),
        shown.join("\n")
    );
}

/// None when the entry has one solution, no step of the whole ladder removes the
/// solution's digit or cage combination, and the ladder ends with one of `ends`;
/// else what is wrong.
fn unique_and_sound(e: &Entry, ends: &[Status]) -> Option<String> {
    let grader = match Grader::with_limits(&e.puzzle, e.limits) {
        Ok(grader) => grader,
        Err(stopped) => return Some(format!("{}: {stopped:?}", e.label)),
    };
    if grader.verdict() != Verdict::Unique {
        return Some(format!("{}: {:?}", e.label, grader.verdict()));
    }
    let grade = grader.grade(Options::default(), true);
    if let Some(i) = grade.unsound_step {
        return Some(format!(
            "{}: step {} removes the solution: {}",
            e.label,
            i + 1,
            grade.steps[i].text(e.puzzle.size())
        ));
    }
    (!ends.contains(&grade.status)).then(|| format!("{}: {}", e.label, grade.status))
}

#[test]
fn every_tatham_puzzle_is_unique_solved_and_every_step_sound() {
    let started = Instant::now();
    let entries = tatham_corpus();
    let problems = for_each_parallel(&entries, |e| unique_and_sound(e, &[Status::Solved]));
    report("unique, solved, sound", &problems, entries.len(), started);
}

/// What grading a puzzle of [`hidden_ops_corpus`] may use here: 2^27 checks a
/// run, a 64th of the default (with which `ratings/hidden-ops.tsv` is made, every
/// row to the end, in about nine minutes of work): the hardest puzzles' steps
/// are checked up to there in seconds.
const HIDDEN_OPS_LIMITS: Limits = Limits {
    work: 1 << 27,
    ..Limits::new()
};

/// The Tatham puzzles of `hidden-ops.json`, read with every operation hidden,
/// largest grids first.
pub(super) fn hidden_ops_corpus() -> Vec<Entry> {
    let text = std::fs::read_to_string(puzzles_dir().join(HIDDEN_OPS)).unwrap();
    let list: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    let mut entries: Vec<Entry> = list
        .iter()
        .enumerate()
        .map(|(i, entry)| {
            let label = format!("{HIDDEN_OPS}#{}", i + 1);
            assert_eq!(entry["hide_ops"], true, "{label}");
            let id = entry["puzzle"].as_str().expect("a puzzle string");
            let puzzle = read(&label, id).with_hidden_ops();
            Entry {
                label,
                puzzle,
                limits: HIDDEN_OPS_LIMITS,
            }
        })
        .collect();
    assert!(entries.len() >= 200, "{} puzzles", entries.len());
    entries.sort_by_key(|e| std::cmp::Reverse(e.puzzle.size().get()));
    entries
}

/// The hidden-operation corpus: every puzzle is unique with its operations hidden,
/// and no step of the ladder, on the union tables of its cages, removes the
/// solution's digit or cage combination. Each run may do 2^27 checks
/// ([`HIDDEN_OPS_LIMITS`]), so the hardest 8×8s and 9×9s end with status `limit`;
/// their steps up to there are checked all the same. A few go through
/// every level of cage combinations and end `stuck`: the ladder does not solve
/// them.
#[test]
fn every_hidden_operation_puzzle_is_unique_and_every_step_sound() {
    let started = Instant::now();
    let entries = hidden_ops_corpus();
    let problems = for_each_parallel(&entries, |e| {
        unique_and_sound(e, &[Status::Solved, Status::Limit, Status::Stuck])
    });
    report("hidden operations", &problems, entries.len(), started);
}

/// What a grade says, without the grid reached (compared between graders).
fn summary(g: &kenken_techniques::Grade) -> (Status, Rating, Rating, usize, usize, usize) {
    (
        g.status,
        g.max,
        g.total,
        g.depth,
        g.ladder_steps,
        g.steps.len(),
    )
}

/// The deferred grader against the eager one on a puzzle: the same grades in both
/// modes (run in either order), the same ratings without a step log
/// ([`Grader::rate`]), then the same verdict and solution.
fn deferred_agrees(e: &Entry) -> Option<String> {
    let eager = Grader::new(&e.puzzle).unwrap();
    let modes = [Options::default(), Options::cage_combinations_only()];
    for order in [[0, 1], [1, 0]] {
        let deferred = Grader::deferred(&e.puzzle, kenken_model::Limits::new()).unwrap();
        for &m in &order {
            let (want, got) = (
                eager.grade(modes[m], false),
                deferred.grade(modes[m], false),
            );
            if summary(&want) != summary(&got) || want.grid != got.grid {
                return Some(format!(
                    "{}: mode {m}: eager {:?}, deferred {:?}",
                    e.label,
                    summary(&want),
                    summary(&got)
                ));
            }
            // Ratings without a step log are the same.
            let rated = deferred.rate(modes[m]);
            if rated != want.summary() {
                return Some(format!(
                    "{}: mode {m}: graded {:?}, rated {rated:?}",
                    e.label,
                    want.summary()
                ));
            }
        }
        if (deferred.verdict(), deferred.solution()) != (eager.verdict(), eager.solution()) {
            return Some(format!(
                "{}: eager {:?}, deferred {:?}",
                e.label,
                eager.verdict(),
                deferred.verdict()
            ));
        }
    }
    None
}

#[test]
fn a_deferred_solution_count_changes_no_grade() {
    let started = Instant::now();
    // Every 8th Tatham puzzle (all sizes and levels) and every edge case (ambiguous,
    // impossible and stuck ones among them).
    let mut entries: Vec<Entry> = tatham_corpus().into_iter().step_by(8).collect();
    for (place, s) in strings(&puzzles_dir().join("edge-cases.json")) {
        let label = format!("edge-cases.json{place}");
        let puzzle = read(&label, &s);
        entries.push(Entry {
            label,
            puzzle,
            limits: Limits::new(),
        });
    }
    let problems = for_each_parallel(&entries, deferred_agrees);
    report("deferred count", &problems, entries.len(), started);
}

/// The kinds of the default ladder, in registry order.
fn default_kinds() -> Vec<TechniqueKind> {
    TechniqueKind::all().filter(|k| k.row().enabled).collect()
}

/// The ladder levels: level k enables the first k+1 kinds of the default ladder.
fn level_options(k: usize) -> Options {
    let mut options = Options::default();
    for &kind in &default_kinds()[k + 1..] {
        options.disable(kind);
    }
    options
}

/// Ladder consistency for one puzzle: with k the first level that solves it, the
/// full ladder's max M and that level's max R satisfy
/// `floor(k) <= M <= R <= ceiling(k)`. (The full ladder only reaches a technique
/// when every easier one is stuck, so it should follow level k's path exactly.)
fn ladder_consistency(e: &Entry) -> Option<String> {
    let grader = Grader::new(&e.puzzle).unwrap();
    let full = grader.grade(Options::default(), false);
    if !full.solved() {
        return Some(format!(
            "{}: the whole ladder ends {}",
            e.label, full.status
        ));
    }
    let kinds = default_kinds();
    let last = kinds.len() - 1;
    let (k, level) = (0..last)
        .map(|k| (k, grader.grade(level_options(k), false)))
        .find(|(_, g)| g.solved())
        .unwrap_or((last, full.clone()));
    let kind = kinds[k];
    // The ratings of the rung that level k completes (a level holds the earlier
    // rows of its rung too: region sums come before region parity).
    let floor = kind.row().rating.range().0;
    let ceiling = kinds[..=k]
        .iter()
        .filter(|k| k.row().rung == kind.row().rung)
        .map(|k| k.row().rating.range().1)
        .try_fold(floor, |m, c| c.map(|c| m.max(c)));
    let within =
        floor <= full.max && full.max <= level.max && ceiling.into_iter().all(|c| level.max <= c);
    (!within).then(|| {
        format!(
            "{}: first solved with techniques up to {} (ratings {floor}..{}), whose run \
             has max {}; the whole ladder's max is {}",
            e.label,
            kind.id(),
            ceiling.map_or("".into(), |c| c.to_string()),
            level.max,
            full.max
        )
    })
}

#[test]
fn max_rating_stays_within_the_first_level_that_solves_each_puzzle() {
    let started = Instant::now();
    let entries = tatham_corpus();
    let problems = for_each_parallel(&entries, ladder_consistency);
    report("ladder consistency", &problems, entries.len(), started);
}

/// Mode c (propagation and cage combinations only) on the whole corpus, every step
/// checked. Left out of the regular run because of one puzzle: the reference's 9×9
/// `Hardest` test grid takes most of it in mode c (a few seconds in a release
/// build, minutes in a debug one).
#[test]
#[ignore = "slow in a debug build, most of it one puzzle: run by .ci/run"]
fn mode_c_solves_every_puzzle_with_sound_steps() {
    let started = Instant::now();
    let entries = tatham_corpus();
    let problems = for_each_parallel(&entries, |e| {
        let grader = Grader::new(&e.puzzle).unwrap();
        let grade = grader.grade(Options::cage_combinations_only(), true);
        if let Some(i) = grade.unsound_step {
            return Some(format!(
                "{}: mode c step {} removes the solution: {}",
                e.label,
                i + 1,
                grade.steps[i].text(e.puzzle.size())
            ));
        }
        (!grade.solved()).then(|| format!("{}: mode c ends {}", e.label, grade.status))
    });
    report("mode c: solved, sound", &problems, entries.len(), started);
}

/// The `| # | solutions | what |` rows of `puzzles/edge-cases.md`.
fn edge_case_table() -> Vec<(usize, String)> {
    let doc = std::fs::read_to_string(puzzles_dir().join("edge-cases.md")).unwrap();
    doc.lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let n = cells.get(1)?.parse().ok()?;
            Some((n, cells.get(2)?.to_string()))
        })
        .collect()
}

#[test]
fn edge_cases_have_the_documented_number_of_solutions() {
    let strings = strings(&puzzles_dir().join("edge-cases.json"));
    let table = edge_case_table();
    assert_eq!(
        table.iter().map(|(n, _)| *n).collect::<Vec<_>>(),
        (1..=strings.len()).collect::<Vec<_>>(),
        "puzzles/edge-cases.md must have one row per puzzle, in order"
    );
    let entries: Vec<(Entry, String)> = strings
        .iter()
        .zip(table)
        .map(|((place, s), (_, want))| {
            let label = format!("edge-cases.json{place}");
            let puzzle = read(&label, s);
            let limits = Limits::new();
            (
                Entry {
                    label,
                    puzzle,
                    limits,
                },
                want,
            )
        })
        .collect();
    for (e, want) in &entries {
        let grader = Grader::new(&e.puzzle).unwrap();
        let (verdict, ends) = match want.as_str() {
            "unique" => (Verdict::Unique, [Status::Solved, Status::Stuck]),
            "ambiguous" => (Verdict::Ambiguous, [Status::Ambiguous; 2]),
            "impossible" => (Verdict::Impossible, [Status::Impossible; 2]),
            other => panic!("{}: unknown verdict {other:?} in the table", e.label),
        };
        assert_eq!(grader.verdict(), verdict, "{}", e.label);
        let grade = grader.grade(Options::default(), true);
        assert!(
            ends.contains(&grade.status),
            "{}: {}",
            e.label,
            grade.status
        );
        assert_eq!(grade.unsound_step, None, "{}", e.label);
    }
}
