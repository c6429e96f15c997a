"""What the page adds for everyone and what the static site adds, on both back
ends unless marked: the keyboard alone, the ARIA grid a screen reader reads,
dark mode, the position kept across reloads, the link that carries the puzzle,
New puzzle and Cancel (the worker), and the axe-core check of the page in
its main states (no serious or critical violation)."""

import json
from pathlib import Path
from urllib.parse import quote

import pytest

from test_page import FOUR, NINE, RARE_8, SIX, board_drawn, click_cell, load, result, show_step

AXE = Path(__file__).parent / "node_modules" / "axe-core" / "axe.min.js"


def focused(page):
    """The focused element: its id, role, ARIA label and whether its focus is
    drawn (an outline)."""
    return page.evaluate(
        """() => {
            const e = document.activeElement;
            const style = getComputedStyle(e);
            return { id: e.id, role: e.getAttribute('role'), label: e.getAttribute('aria-label'),
                     text: e.textContent, outline: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2 };
        }"""
    )


def tab_to(page, test, key="Tab", limit=80):
    """Presses Tab (or `key`) until the focused element passes `test`."""
    for _ in range(limit):
        page.keyboard.press(key)
        if test(focused(page)):
            return focused(page)
    pytest.fail(f"{key} never reached the element")


def test_everything_by_keyboard_alone_with_visible_focus(page):
    # The puzzle typed and loaded without the mouse.
    where = tab_to(page, lambda f: f["id"] == "puzzle-text")
    assert where["outline"], "the text box's focus is not drawn"
    page.keyboard.insert_text(SIX)
    page.keyboard.press("Control+Enter")
    page.wait_for_function("(text) => state.puzzle === text", arg=SIX)
    page.wait_for_function("() => document.querySelector('#step-picture svg') !== null")
    # The focus is on the grid's first cell; the arrows move it, digits write.
    cell = focused(page)
    assert cell["role"] == "gridcell" and cell["label"] == "A1: blank"
    page.keyboard.press("4")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("5")  # A2 is 6: wrong
    board_drawn(page)
    assert focused(page)["label"] == "A2: 5"
    assert page.locator("#announce").inner_text() == "A2: 5"
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Shift+Digit1")
    page.keyboard.press("Shift+Digit3")
    board_drawn(page)
    assert focused(page)["label"] == "B2: pencil marks 1, 3"
    # Check, by Tab and Enter: the wrong entry is told, and the cell says so.
    where = tab_to(page, lambda f: f["id"] == "check")
    assert where["outline"], "the button's focus is not drawn"
    page.keyboard.press("Enter")
    page.wait_for_selector("#overlay .cross")
    assert result(page).startswith("A2: the 5 entered there is wrong.")
    assert page.locator("[role=gridcell][aria-label='A2: 5, wrong']").count() == 1
    # A hint at every level, each by its button from the keyboard.
    tab_to(page, lambda f: f["role"] == "gridcell", key="Shift+Tab")
    page.keyboard.press("Control+z")
    page.keyboard.press("Control+z")
    page.keyboard.press("Control+z")
    board_drawn(page)
    for level in ["Nudge", "Technique", "Cells", "Full step"]:
        tab_to(page, lambda f, level=level: f["text"] == level)
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.querySelector('#result').textContent !== ''")
    assert "Step:" in result(page)
    tab_to(page, lambda f: f["id"] == "apply-hint")
    page.keyboard.press("Enter")
    board_drawn(page)
    # Steps by ] and [, and a "Why?" opened by Enter.
    page.keyboard.press("Escape")
    for _ in range(6):
        page.keyboard.press("]")
    page.wait_for_function("() => document.querySelector('#step-picture').dataset.step === '7'")
    why = tab_to(page, lambda f: f["text"] == "Why?")
    assert why["outline"]
    page.keyboard.press("Enter")
    page.wait_for_selector("#step-why-proof[data-proof='7:1'] svg")


def test_the_grid_tells_a_screen_reader_each_cell(page):
    load(page, SIX)
    grid = page.locator("[role=grid]")
    assert grid.locator("[role=row]").count() == 6
    cells = grid.locator("[role=row] > [role=gridcell]")
    assert cells.count() == 36
    # A hint's cells are named as such.
    page.click("button.hint[data-level=cells]")
    page.wait_for_function("() => state.marks.hint.length > 0")
    hinted = page.evaluate("state.marks.hint")
    assert cells.nth(hinted[0]).get_attribute("aria-label").endswith(", in the hint")
    click_cell(page, 35)
    page.keyboard.press("Shift+Digit1")
    page.keyboard.press("Shift+Digit2")
    click_cell(page, 0)
    page.keyboard.press("4")
    board_drawn(page)
    assert cells.nth(0).get_attribute("aria-label") == "A1: 4"
    assert cells.nth(35).get_attribute("aria-label") == "F6: pencil marks 1, 2"
    assert cells.nth(7).get_attribute("aria-label") == "B2: blank"
    # The selected cell is the grid's one stop in the tab order.
    assert cells.nth(0).get_attribute("aria-selected") == "true"
    assert page.evaluate("[...document.querySelectorAll('[role=gridcell]')].filter((c) => c.tabIndex === 0).length") == 1


def test_dark_mode_follows_the_system(page, base_url):
    page.emulate_media(color_scheme="dark")
    page.goto(base_url)
    load(page, SIX)
    colours = page.evaluate(
        """() => ({ body: getComputedStyle(document.body).backgroundColor,
                    ink: getComputedStyle(document.body).color,
                    picture: getComputedStyle(document.querySelector('#step-picture svg')).filter })"""
    )
    assert colours["body"] == "rgb(18, 20, 23)", colours
    assert colours["ink"] == "rgb(230, 230, 230)", colours
    assert colours["picture"].startswith("invert("), colours
    page.emulate_media(color_scheme="light")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(255, 255, 255)"


def test_the_position_is_kept_across_a_reload(page):
    load(page, SIX)
    click_cell(page, 0)
    page.keyboard.press("4")
    click_cell(page, 35)
    page.keyboard.press("Shift+Digit1")
    board_drawn(page)
    page.reload()
    page.wait_for_function("(text) => state.puzzle === text", arg=SIX)
    page.wait_for_function("() => state.cells[35] && state.cells[35].length === 1")
    assert page.evaluate("state.cells[0]") == 4
    assert page.evaluate("state.selected") == 35
    board_drawn(page)
    assert page.evaluate("state.cells[35]") == [1]


def test_a_link_carries_the_puzzle(page, base_url):
    load(page, FOUR)
    assert page.url.endswith("#p=" + quote(FOUR, safe=""))
    # Followed in a fresh page (nothing kept), the link opens the puzzle, and
    # with h=1 its operations hidden.
    fresh = page.context.browser.new_context()
    other = fresh.new_page()
    try:
        other.goto(base_url + "#p=" + quote(SIX, safe=""))
        other.wait_for_function("(text) => state.puzzle === text", arg=SIX)
        other.wait_for_function("() => document.querySelector('#step-picture svg') !== null")
        assert other.evaluate("state.hideOps") is False
        other.goto(base_url + "#p=" + quote(FOUR, safe="") + "&h=1")
        other.wait_for_function("() => state.hideOps === true")
        assert other.locator("#hide-ops").is_checked()
    finally:
        fresh.close()
    # The Link button gives the whole address.
    page.click("#link")
    page.wait_for_selector("#export-box:not([hidden])")
    assert page.locator("#export-text").input_value() == base_url + "#p=" + quote(FOUR, safe="")


@pytest.mark.backends("worker")
def test_new_puzzle_is_made_in_the_worker_unique_and_rated(page):
    page.select_option("#new-size", "5")
    page.select_option("#new-band", "3-3.9")
    page.click("#new-go")
    page.wait_for_function("() => state.info !== null && state.info.size === 5", timeout=60000)
    page.wait_for_function("() => document.querySelector('#step-picture svg') !== null")
    info = page.evaluate("state.info")
    assert info["verdict"] == "unique"
    assert 3 <= info["max"] <= 3.9 and info["status"] == "solved"
    assert page.locator("#puzzle-text").input_value() == page.evaluate("state.puzzle")


# Puzzle #165 of puzzles/hidden-ops.json: graded with its operations hidden, it
# keeps the engine busy for seconds (over 6 s in the native grader), so that a
# cancel always finds it running.
SLOW_HIDDEN = (
    "8:_a3_3a__a_a_3a_5a_8a_7b_a_b_aa_a__a_a_aa__aa_3a_a3_a7__,"
    "d3d4a11m10s1a11m42d3d4d2s3s5m21s1s2m2m12a8m48s3d4s1a13a8a13d2m60m42s5a6"
)


@pytest.mark.backends("worker")
def test_cancel_stops_a_long_computation_at_once_and_the_page_never_freezes(page):
    load(page, FOUR)
    # Set without a change event, which would load the four hidden.
    page.evaluate("document.querySelector('#hide-ops').checked = true")
    page.fill("#puzzle-text", SLOW_HIDDEN)
    page.click("#load")
    page.wait_for_selector("#busy:not([hidden])")
    # While the worker computes, the page's thread answers at once.
    lag = page.evaluate(
        """async () => {
            let worst = 0;
            for (let i = 0; i < 20; i++) {
                const t = performance.now();
                await new Promise((r) => setTimeout(r, 10));
                worst = Math.max(worst, performance.now() - t - 10);
            }
            return worst;
        }"""
    )
    assert lag < 100, f"the page's thread was held {lag:.0f} ms"
    assert page.locator("#busy").is_visible(), "the grading ended before it could be cancelled"
    page.click("#cancel")
    page.wait_for_function("() => document.querySelector('#load-message').textContent.startsWith('Cancelled')", timeout=2000)
    assert page.locator("#busy").is_hidden()
    page.evaluate("document.querySelector('#hide-ops').checked = false")
    # A fresh engine answers the next request; the puzzle shown is still there.
    assert page.evaluate("state.puzzle") == FOUR
    show_step(page, 2)
    load(page, SIX)


def axe_violations(page):
    """axe-core's violations of the page as it stands, serious and critical
    ones, as (rule, impact, elements) triples."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `npm ci --prefix crates/web/tests/browser` first")
    page.add_script_tag(content=AXE.read_text())
    found = page.evaluate(
        """async () => (await axe.run(document, {
            runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
        })).violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) }))"""
    )
    print(json.dumps(found))
    return [(v["id"], v["impact"], v["nodes"]) for v in found if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_serious_violation_in_the_main_states(browser, base_url, backend, scheme):
    # axe's script is put into the page, which the page's own policy forbids.
    context = browser.new_context(viewport={"width": 1280, "height": 1000}, bypass_csp=True, color_scheme=scheme)
    page = context.new_page()
    try:
        page.goto(base_url)
        states = {"empty": axe_violations(page)}
        load(page, NINE)
        states["loaded"] = axe_violations(page)
        click_cell(page, 0)
        page.keyboard.press("5")
        board_drawn(page)
        page.click("#check")
        page.wait_for_selector("#overlay .cross")
        states["checked"] = axe_violations(page)
        page.keyboard.press("Control+z")
        board_drawn(page)
        page.click("button.hint[data-level=full]")
        page.wait_for_selector("#hint-extra:not([hidden])")
        states["full hint"] = axe_violations(page)
        show_step(page, 6)
        page.locator("#step-why button.why-button").first.click()
        page.wait_for_selector("#step-why-proof[data-proof='6:1'] svg")
        states["proof"] = axe_violations(page)
        load(page, RARE_8)
        show_step(page, 17)
        page.locator("#step-why button.why-button").first.click()
        page.wait_for_selector("#step-why-proof[data-proof='17:1'] .premises")
        states["proof with cut combinations"] = axe_violations(page)
        page.click("#export")
        page.wait_for_selector("#export-box:not([hidden])")
        states["export"] = axe_violations(page)
    finally:
        context.close()
    bad = {state: found for state, found in states.items() if found}
    assert not bad, f"serious or critical violations ({backend}, {scheme}): {bad}"
