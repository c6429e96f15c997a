"""Fixtures of the browser tests: `grader serve` on a free port, and Debian's
chromium driven headless by playwright (never a browser that playwright
downloads)."""

import os
import subprocess
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[4]
GRADER = Path(os.environ.get("GRADER", ROOT / "target" / "release" / "grader"))
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def server():
    """The page's address, with the sample puzzles as its FILE."""
    if not GRADER.exists():
        pytest.fail(f"{GRADER} is missing: build it with `cargo build --release` first")
    process = subprocess.Popen(
        [str(GRADER), "serve", "--port", "0", str(ROOT / "puzzles" / "sample.json")],
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


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 1000}, device_scale_factor=1)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server)
    yield page
    context.close()
    assert not errors, f"errors in the page's script: {errors}"
