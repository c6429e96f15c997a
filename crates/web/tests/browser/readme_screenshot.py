"""Makes the README's screenshot of the page (docs/images/serve-page.png): the
6x6 of `docs/formats.md` with two digits entered, a hint at the "cells" level shown
on the grid, and step 7 of the solution.

    python3 crates/web/tests/browser/readme_screenshot.py"""

import subprocess

from playwright.sync_api import sync_playwright

from conftest import CHROMIUM, CHROMIUM_ARGS, GRADER, ROOT
from test_page import SIX, board_drawn, click_cell, load


def main():
    server = subprocess.Popen(
        [str(GRADER), "serve", "--port", "0", str(ROOT / "puzzles" / "sample.json")],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    url = server.stdout.readline().strip()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            page.goto(url)
            load(page, SIX)
            click_cell(page, 0)
            page.keyboard.press("4")
            page.keyboard.press("ArrowRight")
            page.keyboard.press("6")
            board_drawn(page)
            page.click("button.hint[data-level=cells]")
            page.wait_for_function("() => document.querySelector('#result').textContent !== ''")
            page.fill("#step-range", "7")
            page.wait_for_function("() => document.querySelector('#step-picture').dataset.step === '7'")
            page.screenshot(path=str(ROOT / "docs" / "images" / "serve-page.png"), full_page=True)
            browser.close()
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
