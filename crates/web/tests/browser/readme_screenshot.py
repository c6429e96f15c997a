"""Makes the README's screenshots of the page: docs/images/serve-page.png, the
page of `grader serve`, and docs/images/site-dark.png, the static site in dark
mode; each the 6x6 of `docs/formats.md` with two digits entered, a hint at the
"cells" level shown on the grid, and step 7 of the solution.

    bash scripts/build-site.sh target/site
    python3 crates/web/tests/browser/readme_screenshot.py"""

import subprocess

from playwright.sync_api import sync_playwright

from conftest import CHROMIUM, CHROMIUM_ARGS, GRADER, ROOT, SITE, serve_static
from test_page import SIX, board_drawn, click_cell, load


def screenshot(browser, url, path, scheme):
    page = browser.new_page(viewport={"width": 1200, "height": 900}, color_scheme=scheme)
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
    # The address bar is not in the picture; the focus ring of the last click
    # is not either.
    page.evaluate("document.activeElement.blur()")
    page.screenshot(path=str(path), full_page=True)
    page.close()


def main():
    server = subprocess.Popen(
        [str(GRADER), "serve", "--port", "0", str(ROOT / "puzzles" / "sample.json")],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    url = server.stdout.readline().strip()
    site, site_url = serve_static(SITE)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            screenshot(browser, url, ROOT / "docs" / "images" / "serve-page.png", "light")
            screenshot(browser, site_url, ROOT / "docs" / "images" / "site-dark.png", "dark")
            browser.close()
    finally:
        for process in (server, site):
            process.terminate()
            process.wait()


if __name__ == "__main__":
    main()
