"""Measures the page of `grader serve` in headless chromium: first contentful
paint and load of the page, and the round trip of a step (the request, the
picture put in the page and the next frame drawn) and of the step API call alone, as medians.

    python3 crates/web/tests/browser/timings.py [PUZZLE]

It starts `grader serve` itself (target/release/grader, or $GRADER) and the
installed /usr/bin/chromium, like the tests."""

import json
import statistics
import subprocess
import sys
import time
import urllib.request

from playwright.sync_api import sync_playwright

from conftest import CHROMIUM, CHROMIUM_ARGS, GRADER

NINE = (
    "9:b3a_3a_10a_a_a_b_a_a_a_10a_3abbdbb_a_a_10a_3aa_b_aa_3a_10a_a_b3,"
    "a21m60a25s6a11s4a13a8a8a2a9a11a24a13a25s3a17a2a3s1a13s1a11a26a1m16a6a12a7a25s1m378m3"
)


def median_ms(samples):
    return statistics.median(samples) * 1000


def main():
    puzzle = sys.argv[1] if len(sys.argv) > 1 else NINE
    server = subprocess.Popen([str(GRADER), "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
    url = server.stdout.readline().strip()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            paints, loads = [], []
            for _ in range(10):
                page = browser.new_page()
                page.goto(url)
                page.wait_for_function("() => performance.getEntriesByName('first-contentful-paint').length > 0")
                t = page.evaluate(
                    """() => ({
                        paint: performance.getEntriesByName('first-contentful-paint')[0].startTime,
                        load: performance.getEntriesByType('navigation')[0].loadEventEnd })"""
                )
                paints.append(t["paint"])
                loads.append(t["load"])
                page.close()
            page = browser.new_page(viewport={"width": 1280, "height": 1000})
            page.goto(url)
            started = time.perf_counter()
            page.fill("#puzzle-text", puzzle)
            page.click("#load")
            page.wait_for_function("() => document.querySelector('#step-picture').dataset.step === '1'")
            first_load = time.perf_counter() - started
            count = page.evaluate("state.info.steps.length")
            rounds = []
            for k in range(2, min(count, 61) + 1):
                # Timed in the page: the request, the picture put in, and the
                # next frame drawn.
                ms = page.evaluate(
                    """async (k) => {
                        const t = performance.now();
                        await showStep(k);
                        await new Promise((done) => requestAnimationFrame(() => done()));
                        return performance.now() - t;
                    }""",
                    k,
                )
                rounds.append(ms / 1000)
            browser.close()
        calls = []
        body = json.dumps({"puzzle": puzzle, "n": count // 2}).encode()
        for _ in range(50):
            request = urllib.request.Request(
                url + "api/step", data=body, headers={"Content-Type": "application/json"}
            )
            started = time.perf_counter()
            urllib.request.urlopen(request).read()
            calls.append(time.perf_counter() - started)
    finally:
        server.terminate()
        server.wait()
    print(f"page: first contentful paint {statistics.median(paints):.0f} ms, load event {statistics.median(loads):.0f} ms (median of 10)")
    print(f"puzzle of {count} steps: pasted, graded and shown in {first_load * 1000:.0f} ms")
    print(f"step round trip in the page (request to picture drawn): median {median_ms(rounds):.1f} ms, max {max(rounds) * 1000:.1f} ms over {len(rounds)} steps")
    print(f"POST /api/step alone: median {median_ms(calls):.2f} ms, max {max(calls) * 1000:.2f} ms over {len(calls)} calls")


if __name__ == "__main__":
    main()
