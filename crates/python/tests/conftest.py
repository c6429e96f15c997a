"""Shared fixtures: the repository, the `grader` binary the bindings are compared
with, sample inputs, and one 2-worker LocalCluster for the Dask tests."""

from __future__ import annotations

import glob
import json
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


@pytest.fixture(scope="session")
def grader() -> str:
    """The release `grader` binary ($GRADER, or target/release/grader, built when
    missing)."""
    path = os.environ.get("GRADER")
    if path:
        return path
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    binary = target / "release" / "grader"
    if not binary.exists():
        subprocess.run(
            ["cargo", "build", "--release", "-p", "kenken-grader"], cwd=REPO, check=True
        )
    return str(binary)


def run_grader(grader: str, *args: str, input: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([grader, *args], input=input, capture_output=True)


@pytest.fixture(scope="session")
def corpus() -> list[str]:
    """The Tatham puzzles of the corpus, 4x4 to 9x9, in file order."""
    ids: list[str] = []
    for f in sorted(glob.glob(str(REPO / "puzzles" / "tatham-[4-9]x[4-9]-*.json"))):
        ids.extend(json.load(open(f)))
    return ids


#: Lines that are not puzzles, or not valid ones, mixed into the samples: each
#: must get the same row as in `grader batch`.
JUNK = [
    '"not a puzzle"',
    "{not json",
    '{"puzzle": 5}',
    '{"no": "puzzle"}',
    "12",
    '"17:_a,a1"',
    '"4:_a_5a_bac_a__,d2s1a5m8s2d2s1"',
    json.dumps("# 3\n+ 6 A1 A2 A3\n+ 6 B1 B2 B3\n+ 6 C1 C2 C3"),
    json.dumps("x" * 500),
    '"\\ud800"',
    "",
]


def sample_lines(corpus: list[str], n: int) -> list[str]:
    """`n` NDJSON entries: the corpus repeated, with a junk line every 997."""
    lines: list[str] = []
    i = 0
    while len(lines) < n:
        if len(lines) % 997 == 500:
            lines.append(JUNK[(len(lines) // 997) % len(JUNK)])
        else:
            lines.append(json.dumps({"puzzle": corpus[i % len(corpus)]}) if i % 3 == 0 else json.dumps(corpus[i % len(corpus)]))
            i += 1
    return lines


@pytest.fixture(scope="session")
def sample_10k(tmp_path_factory: pytest.TempPathFactory, corpus: list[str]) -> Path:
    """10 000 NDJSON entries (a blank line counts for none)."""
    path = tmp_path_factory.mktemp("samples") / "sample-10k.ndjson"
    path.write_text("\n".join(sample_lines(corpus, 10_000)) + "\n")
    return path


@pytest.fixture(scope="session")
def client():
    """A LocalCluster of 2 worker processes, one thread each."""
    distributed = pytest.importorskip("distributed")
    import logging

    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=logging.ERROR,
    ) as cluster, distributed.Client(cluster) as c:
        yield c
