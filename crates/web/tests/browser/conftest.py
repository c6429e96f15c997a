"""Fixtures of the browser tests: the page on its two back ends, `grader serve`
on a free port (the HTTP API) and the static site (the engine in a Web Worker)
on a static file server, and Debian's chromium driven headless by playwright
(never a browser that playwright downloads).

A test that takes the `page` fixture runs on both back ends (`test_x[http]`,
`test_x[worker]`); `@pytest.mark.backends("http")` keeps it to one. The static
site is the one `bash scripts/build-site.sh target/site` writes (or $KENKEN_SITE);
every request the page makes, its worker's included, must stay on the page's
own origin."""

import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[4]
GRADER = Path(os.environ.get("GRADER", ROOT / "target" / "release" / "grader"))
SITE = Path(os.environ.get("KENKEN_SITE", ROOT / "target" / "site"))
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
BACKENDS = ["http", "worker"]


def pytest_configure(config):
    config.addinivalue_line("markers", "backends(*names): the back ends a page test runs on")


def pytest_generate_tests(metafunc):
    if "backend" in metafunc.fixturenames:
        marker = metafunc.definition.get_closest_marker("backends")
        metafunc.parametrize("backend", list(marker.args) if marker else BACKENDS, scope="session")


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


def serve_static(directory):
    """Python's static file server on a free port over `directory`: the process
    and the address."""
    process = subprocess.Popen(
        [sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", str(directory)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    line = process.stdout.readline()
    found = re.search(r"port (\d+)", line)
    if not found:
        process.kill()
        pytest.fail(f"http.server printed {line!r}")
    return process, f"http://127.0.0.1:{found.group(1)}/"


@pytest.fixture(scope="session")
def site():
    """The static site's address on a static file server."""
    if not (SITE / "index.html").exists():
        pytest.fail(f"{SITE} holds no site: build it with `bash scripts/build-site.sh {SITE}` first")
    process, url = serve_static(SITE)
    try:
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(scope="session")
def base_url(request, backend):
    """The page's address on the back end under test."""
    return request.getfixturevalue("server" if backend == "http" else "site")


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def watch(context, origin):
    """The page's errors and the requests that left `origin`, as they come."""
    seen = {"errors": [], "elsewhere": []}

    def request(r):
        if not r.url.startswith(("data:", "blob:")) and urlsplit(r.url).netloc != origin:
            seen["elsewhere"].append(r.url)

    context.on("request", request)
    return seen


@pytest.fixture
def page(browser, base_url):
    context = browser.new_context(viewport={"width": 1280, "height": 1000}, device_scale_factor=1)
    seen = watch(context, urlsplit(base_url).netloc)
    page = context.new_page()
    page.on("pageerror", lambda e: seen["errors"].append(str(e)))
    page.goto(base_url)
    yield page
    context.close()
    assert not seen["errors"], f"errors in the page's script: {seen['errors']}"
    assert not seen["elsewhere"], f"requests that left the page's origin: {seen['elsewhere']}"
