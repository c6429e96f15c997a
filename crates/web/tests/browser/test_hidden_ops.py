"""Hidden operations on the page: the "Hide operations" switch, a puzzle pasted
with `?` cages, steps, "Why?" proofs, hints, checks and export of a hidden
puzzle, a file entry that asks for hidden operations, and a server started with
--hide-ops. Each picture draws the clues without signs."""

import json
import subprocess

import pytest

from conftest import GRADER
from test_page import FOUR, SIX, board_drawn, click_cell, load, result, show_step

# Sample 3 with every operation hidden, in the text format: unique all the same.
HIDDEN_TEXT = "# 4\n? 2 A1 A2\n? 1 A3 B3\n? 2 A4 B4\n? 5 B1 B2\n? 12 C1 C2 D1\n? 5 C3 C4\n? 12 D2 D3 D4"
# FOUR's operations hidden: the puzzle has two solutions; the first row of the
# one that is not FOUR's is 1 2 3 4.
FOUR_HIDDEN = "# 4\n? 2 A1 B1\n? 12 A2 A3 B3\n? 5 A4 B4\n? 8 B2 C2 D2\n? 2 C1 D1\n? 2 C3 C4\n? 1 D3 D4"


def clue_glyphs(page, where="#board-picture"):
    """How many characters the picture's clues are drawn with (bold glyphs: the
    clues are the only bold text on a board)."""
    return page.evaluate(
        """(where) => Array.from(document.querySelectorAll(`${where} svg use`))
            .filter((u) => (u.getAttribute('xlink:href') || u.getAttribute('href') || '').startsWith('#b'))
            .length""",
        where,
    )


def digits_of_clues(text):
    """The characters of the clues of a puzzle in the text format, signs left out."""
    return sum(len(line.split()[1]) for line in text.splitlines()[1:])


def set_hide_ops(page, on):
    """Turns the switch and waits until the puzzle shown is loaded again."""
    box = page.locator("#hide-ops")
    if on:
        box.check()
    else:
        box.uncheck()
    page.wait_for_function("(on) => state.info.hide_ops === on && state.hideOps === on", arg=on)
    page.wait_for_function("() => document.querySelector('#step-picture svg') !== null")


def check_says(page, start):
    page.click("#check")
    page.wait_for_function(
        "(start) => document.querySelector('#result').textContent.startsWith(start)", arg=start
    )
    return result(page)


def nudge(page):
    page.click("button.hint[data-level=nudge]")
    page.wait_for_function("() => document.querySelector('#result').textContent !== ''")
    return result(page)


def test_the_switch_hides_the_operations_of_the_puzzle_shown(page):
    load(page, FOUR)
    assert not page.locator("#hide-ops").is_checked()
    assert "Status: solved by the ladder" in page.locator("#rating-summary").inner_text()
    assert page.locator("#as-text").is_hidden()
    shown = clue_glyphs(page)
    # A1 = 1: wrong in FOUR, right in a solution of FOUR with its operations hidden.
    click_cell(page, 0)
    page.keyboard.press("1")
    board_drawn(page)
    assert check_says(page, "A1:") == "A1: the 1 entered there is wrong."

    set_hide_ops(page, True)
    assert "every operation hidden" in page.locator("#load-message").inner_text()
    assert "Status: ambiguous" in page.locator("#rating-summary").inner_text()
    # The grid keeps what was entered; the board is drawn again, without signs.
    assert page.evaluate("state.cells[0]") == 1
    board_drawn(page)
    assert clue_glyphs(page) == digits_of_clues(FOUR_HIDDEN)
    assert shown == digits_of_clues(FOUR_HIDDEN) + 7
    # The puzzle as text, with its `?` cages (no Tatham ID can show them).
    assert page.locator("#as-text").is_visible()
    assert page.locator("#as-text-value").input_value() == FOUR_HIDDEN
    assert check_says(page, "Consistent") == (
        "Consistent with at least one solution (the puzzle has several)."
    )
    # A hint goes on from the 1 (with the operations shown, it is to be fixed).
    assert nudge(page).startswith("Look at")

    set_hide_ops(page, False)
    assert page.evaluate("state.cells[0]") == 1
    board_drawn(page)
    assert clue_glyphs(page) == shown
    assert page.locator("#as-text").is_hidden()
    assert check_says(page, "A1:") == "A1: the 1 entered there is wrong."
    assert nudge(page).endswith("Fix it first.")
    # Undo still reaches what was entered before the switch was turned.
    page.locator("#board").focus()
    page.keyboard.press("Control+z")
    board_drawn(page)
    assert page.evaluate("state.cells[0]") == 0


@pytest.mark.backends("http")
def test_the_switch_turned_while_a_puzzle_loads(page):
    # The answers to /api/load are held until both loads are asked for.
    held = []
    page.route("**/api/load", lambda route: held.append(route))
    page.fill("#puzzle-text", FOUR)
    page.click("#load")
    page.wait_for_function("() => state.pending !== null")
    page.locator("#hide-ops").check()
    for _ in range(200):
        if len(held) == 2:
            break
        page.wait_for_timeout(20)
    assert len(held) == 2
    for route in held:
        route.continue_()
    # The puzzle being loaded is loaded again, its operations hidden; the first
    # answer, come after, is left aside.
    page.wait_for_function("() => state.puzzle !== null && state.pending === null")
    assert page.evaluate("state.puzzle") == FOUR
    assert page.evaluate("state.hideOps") is True
    page.wait_for_function("() => document.querySelector('#step-picture svg') !== null")
    assert "Status: ambiguous" in page.locator("#rating-summary").inner_text()


def test_steps_proofs_hints_check_and_export_of_a_hidden_puzzle(page):
    page.locator("#hide-ops").check()  # before a puzzle is loaded: for the next one
    load(page, SIX)
    assert page.evaluate("state.hideOps") is True
    summary = page.locator("#rating-summary").inner_text()
    assert "Rating 4.2 — hardest step: Cage comparison" in summary, summary
    # Step 3, a cage comparison between hidden cages, with its "Why?"s.
    show_step(page, 3)
    assert "operation hidden" in page.locator("#step-explanation").inner_text()
    why = page.locator("#step-why")
    assert "Cage A1 (A1, A2) loses 2 of its 4 combinations:" in why.inner_text()
    buttons = why.locator("button.why-button")
    assert buttons.count() == 2
    buttons.nth(1).click()
    page.wait_for_selector("#step-why-proof[data-proof='3:2'] svg")
    expected = page.evaluate(
        """async () => (await api('/api/proof', { puzzle: state.puzzle, hide_ops: true, n: 3, k: 2 })).text"""
    )
    assert page.locator("#step-why-proof p").inner_text() == expected
    # Step 5, a region sum: one "Why?" for the whole step.
    show_step(page, 5)
    assert page.locator("#step-why button.why-button").count() == 1
    # A wrong digit is flagged (the hidden puzzle has the same one solution).
    click_cell(page, 0)
    page.keyboard.press("5")
    board_drawn(page)
    assert check_says(page, "A1:") == "A1: the 5 entered there is wrong."
    page.keyboard.press("Control+z")
    board_drawn(page)
    # The full hint is the log's first step, written into the grid.
    page.click("button.hint[data-level=full]")
    page.wait_for_selector("#hint-extra:not([hidden])")
    first = page.evaluate("state.info.steps[0].text")
    assert f"Step: {first}" in result(page)
    page.click("#apply-hint")
    board_drawn(page)
    assert check_says(page, "All consistent").startswith("All consistent so far")
    # K6C cannot show a hidden operation: the position comes as a grid.
    page.click("#export")
    page.wait_for_selector("#result.error")
    assert "cannot show a cage whose operation is hidden" in result(page)
    assert page.locator("#export-text").input_value().count("\n") == 5


def test_a_puzzle_pasted_with_hidden_cages(page):
    load(page, HIDDEN_TEXT)
    assert not page.locator("#hide-ops").is_checked()
    assert page.locator("#load-message").inner_text() == "4×4, read as text format."
    assert "Status: solved by the ladder" in page.locator("#rating-summary").inner_text()
    assert clue_glyphs(page) == digits_of_clues(HIDDEN_TEXT)
    # Its Tatham ID with the switch on is the same puzzle, drawn the same.
    pasted = page.evaluate("state.info")
    page.locator("#hide-ops").check()
    load(page, "4:a_a_aab_a__a_a__,s2s1d2a5m12a5m12")
    hidden = page.evaluate("state.info")
    assert hidden["text"] == HIDDEN_TEXT
    for field in ["svg", "steps", "max", "status"]:
        assert hidden[field] == pasted[field], field


def serve(*args):
    process = subprocess.Popen(
        [str(GRADER), "serve", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    url = process.stdout.readline().strip()
    if not url.startswith("http://127.0.0.1:"):
        process.kill()
        pytest.fail(f"grader serve printed {url!r}; stderr: {process.stderr.read()}")
    return process, url


@pytest.fixture(scope="module")
def hiding_file(tmp_path_factory):
    """A file of two puzzles, the second asking for its operations hidden."""
    path = tmp_path_factory.mktemp("hidden") / "puzzles.json"
    path.write_text(json.dumps([FOUR, {"puzzle": FOUR, "hide_ops": True}]))
    return path


def open_page(browser, url):
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    return context, page, errors


def open_from_file(page, index):
    page.wait_for_selector("#file-picker:not([hidden])")
    page.select_option("#file-list", index=index)
    page.click("#file-open")
    page.wait_for_function("() => state.info !== null")
    page.wait_for_function("() => document.querySelector('#step-picture svg') !== null")


def test_a_file_entry_that_asks_for_hidden_operations(browser, hiding_file):
    process, url = serve(str(hiding_file))
    context, page, errors = open_page(browser, url)
    try:
        open_from_file(page, 0)
        assert page.evaluate("state.hideOps") is False
        assert not page.locator("#hide-ops").is_checked()
        open_from_file(page, 1)
        page.wait_for_function("() => state.hideOps === true")
        assert page.locator("#hide-ops").is_checked()
        assert "Status: ambiguous" in page.locator("#rating-summary").inner_text()
    finally:
        context.close()
        process.terminate()
        process.wait(timeout=10)
    assert not errors, f"errors in the page's script: {errors}"


def test_a_server_that_hides_every_operation(browser):
    process, url = serve("--hide-ops")
    context, page, errors = open_page(browser, url)
    try:
        load(page, FOUR)
        # Started without a FILE, it offers none to pick from.
        assert page.locator("#file-picker").is_hidden()
        # The page asked for the operations shown; the server hid them: the
        # switch says so and cannot be turned off.
        assert page.evaluate("state.hideOps") is True
        box = page.locator("#hide-ops")
        assert box.is_checked() and box.is_disabled()
        assert "--hide-ops" in page.locator("label:has(#hide-ops)").get_attribute("title")
        assert "Status: ambiguous" in page.locator("#rating-summary").inner_text()
        assert clue_glyphs(page) == digits_of_clues(FOUR_HIDDEN)
        assert page.locator("#as-text-value").input_value() == FOUR_HIDDEN
    finally:
        context.close()
        process.terminate()
        process.wait(timeout=10)
    assert not errors, f"errors in the page's script: {errors}"
