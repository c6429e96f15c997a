#!/usr/bin/env bash
# Rewrites ratings/<name>.tsv for every puzzles/<name>.json (the release grader's
# `batch --mode b` rows) and ratings/summary.md (mean and highest max rating and
# max depth per size and Tatham level), after an intended change to the ratings.
#
# It runs the regression tests that normally compare those files, with
# UPDATE_RATINGS=1 so that they write them instead (one implementation of the rows and
# the summary for both): first the slow one (hidden-ops.json, minutes), then the
# regular one, whose summary reads the slow file's rows. Review `git diff ratings/`
# before committing the result.
set -euo pipefail
cd "$(dirname "$0")/.."

UPDATE_RATINGS=1 cargo test --release -p kenken-grader --test cli -- \
  --ignored --exact ratings::slow_ratings_match_the_committed_files
UPDATE_RATINGS=1 cargo test --release -p kenken-grader --test cli -- \
  --exact ratings::ratings_match_the_committed_files
git status --short ratings/
