//! `ratings/summary.md`: the scale at a glance, from the rows themselves.

use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The corpus file of Tatham puzzles graded with their operations hidden (the
/// same puzzles' rows with them shown are in their Tatham files).
const HIDDEN_OPS: &str = "hidden-ops";

/// Tatham's difficulty levels in order, as the corpus file names spell them.
const LEVELS: [&str; 5] = ["easy", "normal", "hard", "extreme", "unreasonable"];

/// The numbers of one group of rows.
#[derive(Default)]
struct Stats {
    puzzles: usize,
    /// Mode-n runs that solved the puzzle (the others are left out of the means).
    solved: usize,
    max_sum: f64,
    max_max: f64,
    /// Rows graded (mode c's depth is averaged over all of them: a mode-b row
    /// does not say whether mode c solved the puzzle).
    graded: usize,
    depth_sum: f64,
    depth_max: f64,
    /// Rows that stopped at a limit (status `limit` or `timeout`): not solved,
    /// and their depth is only that reached.
    stopped: usize,
    errors: usize,
}

impl Stats {
    /// Adds one mode-b row: `#, puzzle, success, max, total, depth, steps, error,
    /// status`.
    fn add(&mut self, fields: &[&str]) {
        self.puzzles += 1;
        if stopped(fields) {
            self.stopped += 1;
            return;
        }
        if !fields.get(7).unwrap_or(&"").is_empty() {
            self.errors += 1;
            return;
        }
        if fields[2] == "1" {
            let max: f64 = fields[3].parse().unwrap();
            self.solved += 1;
            self.max_sum += max;
            self.max_max = self.max_max.max(max);
        }
        let depth: f64 = fields[5].parse().unwrap();
        self.graded += 1;
        self.depth_sum += depth;
        self.depth_max = self.depth_max.max(depth);
    }

    fn mean_max(&self) -> String {
        mean(self.max_sum, self.solved)
    }

    fn mean_depth(&self) -> String {
        mean(self.depth_sum, self.graded)
    }

    fn row(&self) -> String {
        format!(
            "{} | {} | {} | {} | {} | {}",
            self.puzzles,
            self.solved,
            self.mean_max(),
            number(self.max_max, self.solved),
            self.mean_depth(),
            number(self.depth_max, self.graded),
        )
    }
}

fn mean(sum: f64, n: usize) -> String {
    if n == 0 {
        "–".into()
    } else {
        format!("{:.2}", sum / n as f64)
    }
}

fn number(x: f64, n: usize) -> String {
    if n == 0 {
        "–".into()
    } else {
        format!("{x}")
    }
}

/// `tatham-6x6-hard` → (6, "hard", ""); `tatham-9x9-unreasonable-mult` →
/// (9, "unreasonable", "mult").
fn tatham_name(name: &str) -> Option<(usize, &str, &str)> {
    let rest = name.strip_prefix("tatham-")?;
    let (size, rest) = rest.split_once('-')?;
    let (a, b) = size.split_once('x')?;
    if a != b {
        return None;
    }
    let (level, variant) = rest.split_once('-').unwrap_or((rest, ""));
    LEVELS
        .contains(&level)
        .then(|| Some((a.parse().ok()?, level, variant)))
        .flatten()
}

/// The grid size of a TSV row's puzzle (0 when it cannot be read).
fn puzzle_size(field: &str) -> usize {
    kenken_formats::read_any(&unescape(field), None).map_or(0, |i| i.puzzle.size().get())
}

/// Undoes the batch's TSV escapes (`\n`, `\t`, `\r`, `\\`).
fn unescape(field: &str) -> String {
    let mut out = String::with_capacity(field.len());
    let mut chars = field.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

fn level_label(level: &str, variant: &str) -> String {
    if variant.is_empty() {
        level.to_string()
    } else {
        format!("{level} ({variant})")
    }
}

pub fn render(files: &BTreeMap<String, String>) -> String {
    // (size, level order, variant) -> stats, for the Tatham files.
    let mut tatham: BTreeMap<(usize, usize, String), Stats> = BTreeMap::new();
    // (file, size) -> stats, for the others.
    let mut other: BTreeMap<(String, usize), Stats> = BTreeMap::new();
    for (name, tsv) in files {
        let rows = tsv
            .lines()
            .skip(1)
            .map(|l| l.split('\t').collect::<Vec<_>>());
        match tatham_name(name) {
            Some((size, level, variant)) => {
                let order = LEVELS.iter().position(|l| *l == level).unwrap();
                let stats = tatham
                    .entry((size, order, variant.to_string()))
                    .or_default();
                rows.for_each(|f| stats.add(&f));
            }
            None => {
                for f in rows {
                    let size = puzzle_size(f[1]);
                    other.entry((name.clone(), size)).or_default().add(&f);
                }
            }
        }
    }
    let mut s = String::new();
    s.push_str(
        "# Ratings summary\n\n\
         Generated from `ratings/*.tsv` by `scripts/update-ratings.sh` (do not edit by \
         hand). *Max* is the mode-n max rating (the hardest step), averaged over the \
         puzzles mode n solved; *depth* is the mode-c max depth (the most cages one \
         cage-combination step combined; 1 when none was needed).\n\n",
    );
    let sizes: Vec<usize> = {
        let mut v: Vec<usize> = tatham.keys().map(|k| k.0).collect();
        v.dedup();
        v
    };
    let plain: Vec<usize> = (0..LEVELS.len())
        .filter(|&l| tatham.keys().any(|k| k.1 == l && k.2.is_empty()))
        .collect();
    for (title, cell) in [
        (
            "Mean max rating (highest) by size and Tatham level",
            (|st: &Stats| format!("{} ({})", st.mean_max(), number(st.max_max, st.solved)))
                as fn(&Stats) -> String,
        ),
        ("Mean max depth (highest) by size and Tatham level", |st| {
            format!("{} ({})", st.mean_depth(), number(st.depth_max, st.graded))
        }),
    ] {
        let _ = writeln!(s, "## {title}\n");
        let header: Vec<&str> = plain.iter().map(|&l| LEVELS[l]).collect();
        let _ = writeln!(s, "| size | {} |", header.join(" | "));
        let _ = writeln!(s, "|---|{}", "---|".repeat(plain.len()));
        for &size in &sizes {
            let cells: Vec<String> = plain
                .iter()
                .map(|&l| {
                    tatham
                        .get(&(size, l, String::new()))
                        .map_or("".to_string(), cell)
                })
                .collect();
            let _ = writeln!(s, "| {size}×{size} | {} |", cells.join(" | "));
        }
        s.push('\n');
    }
    s.push_str("## Every Tatham file\n\n");
    s.push_str(
        "| size | level | puzzles | solved | mean max | highest max | mean depth | highest depth |\n\
         |---|---|---|---|---|---|---|---|\n",
    );
    for ((size, level, variant), st) in &tatham {
        let _ = writeln!(
            s,
            "| {size}×{size} | {} | {} |",
            level_label(LEVELS[*level], variant),
            st.row()
        );
    }
    s.push_str("\n## The other files, by grid size\n\n");
    s.push_str(
        "| file | size | puzzles | solved | mean max | highest max | mean depth | highest depth |\n\
         |---|---|---|---|---|---|---|---|\n",
    );
    for ((name, size), st) in &other {
        let size = if *size == 0 {
            "?".to_string()
        } else {
            format!("{size}×{size}")
        };
        let _ = writeln!(s, "| {name} | {size} | {} |", st.row());
    }
    hidden_ops_section(files, &mut s);
    let all = || tatham.values().chain(other.values());
    let stopped: usize = all().map(|s| s.stopped).sum();
    if stopped > 0 {
        let _ = writeln!(
            s,
            "\n{stopped} row(s) stopped at a limit (status `limit` or `timeout`): they \
             count as not solved and are left out of the depth means."
        );
    }
    let errors: usize = all().map(|s| s.errors).sum();
    if errors > 0 {
        let _ = writeln!(s, "\n{errors} row(s) hold an error and are left out.");
    }
    s
}

/// Whether a row stopped at a limit (status `limit` or `timeout`).
fn stopped(fields: &[&str]) -> bool {
    matches!(fields.get(8), Some(&("limit" | "timeout")))
}

/// One mode-b row's numbers: solved, max, total, and depth when the row did not
/// stop at a limit (None for a row in error).
type RowNumbers = (bool, f64, f64, Option<f64>);

fn row_numbers(fields: &[&str]) -> Option<RowNumbers> {
    let stopped = stopped(fields);
    if !stopped && !fields.get(7).unwrap_or(&"").is_empty() {
        return None;
    }
    Some((
        fields[2] == "1" && !stopped,
        fields[3].parse().ok()?,
        fields[4].parse().ok()?,
        (!stopped).then(|| fields[5].parse().ok()).flatten(),
    ))
}

/// Puzzles graded twice, with their operations shown and hidden.
#[derive(Default)]
struct Shift {
    puzzles: usize,
    solved_shown: usize,
    solved_hidden: usize,
    /// Solved both ways (the max and total means are over these).
    both: usize,
    max: (f64, f64),
    total: (f64, f64),
    harder: usize,
    easier: usize,
    /// Graded both ways to the end (the depth mean is over these).
    graded: usize,
    depth: (f64, f64),
}

impl Shift {
    fn add(&mut self, shown: RowNumbers, hidden: RowNumbers) {
        self.puzzles += 1;
        self.solved_shown += usize::from(shown.0);
        self.solved_hidden += usize::from(hidden.0);
        if let (Some(a), Some(b)) = (shown.3, hidden.3) {
            self.graded += 1;
            self.depth.0 += a;
            self.depth.1 += b;
        }
        if shown.0 && hidden.0 {
            self.both += 1;
            self.max.0 += shown.1;
            self.max.1 += hidden.1;
            self.total.0 += shown.2;
            self.total.1 += hidden.2;
            self.harder += usize::from(hidden.1 > shown.1);
            self.easier += usize::from(hidden.1 < shown.1);
        }
    }

    fn row(&self, label: &str) -> String {
        let pair = |(a, b): (f64, f64), n: usize| format!("{} → {}", mean(a, n), mean(b, n));
        format!(
            "| {label} | {} | {} → {} | {} | {} / {} | {} | {} |",
            self.puzzles,
            self.solved_shown,
            self.solved_hidden,
            pair(self.max, self.both),
            self.harder,
            self.easier,
            pair(self.total, self.both),
            pair(self.depth, self.graded),
        )
    }
}

/// How the same Tatham puzzles rate with their operations hidden: each row of
/// `hidden-ops` against its puzzle's row in a Tatham file, by grid size.
fn hidden_ops_section(files: &BTreeMap<String, String>, s: &mut String) {
    let Some(hidden) = files.get(HIDDEN_OPS) else {
        return;
    };
    let shown: BTreeMap<&str, Vec<&str>> = files
        .iter()
        .filter(|(name, _)| tatham_name(name).is_some())
        .flat_map(|(_, tsv)| tsv.lines().skip(1))
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .map(|f| (f[1], f))
        .collect();
    let mut by_size: BTreeMap<usize, Shift> = BTreeMap::new();
    let mut all = Shift::default();
    let mut unmatched = 0;
    for fields in hidden
        .lines()
        .skip(1)
        .map(|l| l.split('\t').collect::<Vec<_>>())
    {
        let pair = shown
            .get(fields[1])
            .and_then(|shown| Some((row_numbers(shown)?, row_numbers(&fields)?)));
        let Some((shown, hidden)) = pair else {
            unmatched += 1;
            continue;
        };
        by_size
            .entry(puzzle_size(fields[1]))
            .or_default()
            .add(shown, hidden);
        all.add(shown, hidden);
    }
    let _ = writeln!(
        s,
        "\n## Operations hidden\n\n\
         `{HIDDEN_OPS}` holds Tatham puzzles that stay unique with their operations \
         hidden (each cage shows only its number). Each is graded there with its \
         operations hidden and in its Tatham file with them shown; the means of max \
         and total are over the puzzles mode n solved both ways, those of depth over \
         the puzzles graded to the end both ways. A puzzle the ladder does not solve \
         with its operations hidden (status `stuck`, or a limit reached) counts as not \
         solved hidden.\n\n\
         | size | puzzles | solved (shown → hidden) | mean max (shown → hidden) | \
         max higher / lower hidden | mean total (shown → hidden) | mean depth (shown → hidden) |\n\
         |---|---|---|---|---|---|---|"
    );
    for (size, shift) in &by_size {
        let _ = writeln!(s, "{}", shift.row(&format!("{size}×{size}")));
    }
    let _ = writeln!(s, "{}", all.row("all"));
    if unmatched > 0 {
        let _ = writeln!(
            s,
            "\n{unmatched} row(s) without a Tatham row, or in error, are left out."
        );
    }
}
