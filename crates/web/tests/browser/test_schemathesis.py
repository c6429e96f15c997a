"""A bounded schemathesis pass over `grader serve`'s API, from the OpenAPI
document it serves: every check (`--checks all`), 40 cases an operation, a fixed
seed. It must find nothing.

schemathesis runs in a folder of its own (where it keeps its state) with a copy
of schemathesis.toml beside this file, which it reads from there: the file says
why 422 is an expected answer to some schema-valid requests."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import schemathesis  # noqa: F401  (installed: the CLI below is its)

HERE = Path(__file__).resolve().parent
ROOT = Path(__file__).resolve().parents[4]
GRADER = Path(os.environ.get("GRADER", ROOT / "target" / "release" / "grader"))


@pytest.fixture(scope="module")
def api():
    """A server of its own, with the sample puzzles as its FILE, computing each
    request for at most 5 s: within the 10 s that schemathesis's
    max_response_time check (one of `--checks all`) allows, which a request
    computed up to the default limit (10 s) would pass by a few milliseconds. A
    puzzle that takes longer (the 9x9 of an example with every operation hidden,
    which schemathesis puts together from the examples of different fields)
    is then answered with what was found within the limit, as the document
    says."""
    if not GRADER.exists():
        pytest.fail(f"{GRADER} is missing: build it with `cargo build --release` first")
    process = subprocess.Popen(
        [str(GRADER), "serve", "--port", "0", "--timeout", "5", str(ROOT / "puzzles" / "sample.json")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        url = process.stdout.readline().strip()
        if not url.startswith("http://127.0.0.1:"):
            process.kill()
            pytest.fail(f"grader serve printed {url!r}; stderr: {process.stderr.read()}")
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_schemathesis_finds_nothing(api, tmp_path):
    shutil.copy(HERE / "schemathesis.toml", tmp_path)
    run = subprocess.run(
        [
            sys.executable, "-m", "schemathesis.cli", "run", f"{api}api/openapi.json",
            "--checks", "all", "-n", "40", "--seed", "1",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    report = run.stdout + run.stderr
    assert run.returncode == 0, report
    assert " passed" in report, report
