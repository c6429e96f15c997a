//! The tally of a grading batch (`grader batch --summary`): how many puzzles got
//! each max rating and depth, and the rest by status.

use crate::grading::{is_finding, Graded};
use crate::settings::Mode;
use kenken_techniques::{Rating, Status};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{self, Write};

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
    use crate::grading::GradeRuns;
    use kenken_model::Exhausted;
    use kenken_techniques::Summary;

    #[test]
    fn tallies_travel_as_json_and_merge() {
        let solved = Summary {
            status: Status::Solved,
            max: Rating(15),
            stopped: None,
            ..Summary::stopped_by(Exhausted::Time)
        };
        let stopped = Summary::stopped_by(Exhausted::Time);
        let graded = |normal: Summary| Graded::Found {
            found: GradeRuns {
                normal: Some(normal),
                cc: Some(solved),
            },
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
}
