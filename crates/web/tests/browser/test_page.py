"""The page in a real browser, on both its back ends (`grader serve`'s HTTP API
and the static site's engine in a Web Worker): loading a puzzle, stepping through
its solution, entering digits and pencil marks with mouse and keyboard, check,
hints at every level, K6C export, and pictures of three fixed positions compared
with committed screenshots (the same on both back ends).

Set UPDATE_SCREENSHOTS=1 to rewrite the committed screenshots after an intended
change (and look at them before committing)."""

import base64
import os
from pathlib import Path

import pytest

EXPECTED = Path(__file__).parent / "expected"
UPDATE = os.environ.get("UPDATE_SCREENSHOTS") == "1"

# The 6x6 of `docs/formats.md` (its solution's first row is 4 6 1 2 5 3) and a 4x4.
SIX = "6:a_a_aa_a_a_9a3ba__aa_a__aa__aa_a_,s2a9m6s3m18a5s2s3a6d3a7s2m12m20m24d2"
FOUR = "4:_a_5a_bac_a__,d2m12a5m8s2d2s1"


def load(page, text):
    """Loads a puzzle and waits until the page shows it (not the one before)."""
    page.fill("#puzzle-text", text)
    page.click("#load")
    page.wait_for_function("(text) => state.puzzle === text", arg=text.strip())
    page.wait_for_selector("#workspace:not([hidden])")
    page.wait_for_function("() => document.querySelector('#step-picture svg') !== null")


def board_drawn(page):
    page.wait_for_function(
        "() => Number(document.querySelector('#board-picture').dataset.seq || 0) === state.boardSeq"
    )


def click_cell(page, index):
    """Clicks the middle of a cell, as a person would."""
    box = page.locator("#overlay").bounding_box()
    f = page.evaluate("state.info.frame")
    row, col = divmod(index, f["n"])
    scale = box["width"] / f["width"]
    x = box["x"] + (f["left"] + (col + 0.5) * f["cell"]) * scale
    y = box["y"] + (f["top"] + (row + 0.5) * f["cell"]) * scale
    page.mouse.click(x, y)


def result(page):
    return page.locator("#result").inner_text()


def test_page_is_small_and_paints_fast(page, backend):
    page.wait_for_function("() => performance.getEntriesByName('first-contentful-paint').length > 0")
    timing = page.evaluate(
        """() => {
            const nav = performance.getEntriesByType('navigation')[0];
            const paint = performance.getEntriesByName('first-contentful-paint')[0];
            return { paint: paint ? paint.startTime : null, load: nav.loadEventEnd, size: nav.transferSize };
        }"""
    )
    print(f"first contentful paint {timing['paint']:.0f} ms, load {timing['load']:.0f} ms")
    assert timing["paint"] is not None and timing["paint"] < 1000
    assert page.title() == "KenKen grader"
    if backend == "http":
        # The file's puzzles are offered (the list fills, then shows, after the paint).
        page.wait_for_selector("#file-picker:not([hidden])")
        assert page.locator("#file-list option").count() == 20
        assert page.locator("#new-puzzle").is_hidden()
    else:
        # No file to pick from; a new puzzle is made in the worker.
        assert page.locator("#new-puzzle").is_visible()
        assert page.locator("#file-picker").is_hidden()


def test_paste_a_tatham_id_and_step_to_the_end(page):
    load(page, FOUR)
    count = page.evaluate("state.info.steps.length")
    assert count > 5
    assert page.locator("#step-count").inner_text() == f"Step 1 of {count}"
    assert page.locator("#step-back").is_disabled()
    for k in range(2, count + 1):
        page.click("#step-forward")
        page.wait_for_function(f"() => document.querySelector('#step-picture').dataset.step === '{k}'")
        assert page.locator("#step-count").inner_text().startswith(f"Step {k} of {count}")
        assert page.locator("#step-explanation").inner_text() != ""
    assert page.locator("#step-forward").is_disabled()
    assert "the grid is solved" in page.locator("#step-count").inner_text()
    # Back one step by the keyboard.
    page.locator("#board").focus()
    page.keyboard.press("[")
    page.wait_for_function(f"() => document.querySelector('#step-picture').dataset.step === '{count - 1}'")
    assert "Rating 1 " in page.locator("#rating-summary").inner_text()


def test_a_wrong_digit_is_flagged_by_check(page):
    load(page, SIX)
    click_cell(page, 0)
    page.keyboard.press("5")  # A1 is 4
    board_drawn(page)
    click_cell(page, 1)
    page.click("#keypad button.digit >> text='6'")  # right, entered with the keypad
    board_drawn(page)
    page.click("#check")
    page.wait_for_selector("#overlay rect.conflict")
    assert result(page) == "A1: the 5 entered there is wrong."
    assert page.locator("#overlay rect.conflict").count() == 1
    # Fixed, it checks out.
    click_cell(page, 0)
    page.keyboard.press("4")
    board_drawn(page)
    page.click("#check")
    page.wait_for_function("() => document.querySelector('#result').textContent.startsWith('All consistent')")
    assert result(page) == "All consistent so far (2 of 36 cells filled)."


def enter_partial_position(page):
    """A1 = 4, A2 = 6 and pencil marks 1 2 in F6 (Shift+digit), 3 in F5 (pencil mode)."""
    click_cell(page, 0)
    page.keyboard.press("4")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("6")
    click_cell(page, 35)
    page.keyboard.press("Shift+Digit1")
    page.keyboard.press("Shift+Digit2")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("p")
    page.keyboard.press("3")
    page.keyboard.press("p")
    board_drawn(page)
    assert page.evaluate("state.cells[0]") == 4
    assert page.evaluate("state.cells[1]") == 6
    assert page.evaluate("state.cells[35]") == [1, 2]
    assert page.evaluate("state.cells[34]") == [3]


def test_hints_at_every_level_from_a_partial_position(page):
    load(page, SIX)
    enter_partial_position(page)
    # F6 and F5 leave out their digits: the hint names the first wrong entry.
    page.click("button.hint[data-level=nudge]")
    page.wait_for_function("() => document.querySelector('#result').textContent !== ''")
    assert "Fix it first." in result(page)
    page.keyboard.press("Control+z")
    page.keyboard.press("Control+z")
    page.keyboard.press("Control+z")
    board_drawn(page)
    assert page.evaluate("state.cells[35]") == 0
    seen = {}
    for level in ["nudge", "technique", "cells", "full"]:
        page.click(f"button.hint[data-level={level}]")
        page.wait_for_function("() => document.querySelector('#result').textContent !== ''")
        seen[level] = result(page)
    assert "Technique:" not in seen["nudge"] and seen["nudge"]
    assert seen["technique"].startswith(seen["nudge"]) and "Technique:" in seen["technique"]
    assert "Cells:" in seen["cells"] and "Cells:" not in seen["technique"]
    assert "Step:" in seen["full"]
    assert page.locator("#hint-picture svg").count() == 1
    page.click("#apply-hint")
    board_drawn(page)
    page.click("#check")
    page.wait_for_function("() => document.querySelector('#result').textContent.startsWith('All consistent')")


# A 9x9 whose step 6 (naked singles included) is a cage comparison removing 5
# combinations of cage A5.
NINE = (
    "9:a__bb__a_b__a_b__a4_4a_a_6a_11a_4a_6a_6a3_aba_3a_3a_a_3aba_baa_aa_a4,"
    "m18s2d2a16d2a8s1s3m216s3s2a13s4m24s4d2m8a11s4m126m6m18d3a9d4a9d2a15a7m64a12s2d2s4m108a8m8"
)


def show_step(page, k):
    page.fill("#step-range", str(k))
    page.wait_for_function(f"() => document.querySelector('#step-picture').dataset.step === '{k}'")


def test_why_a_cage_comparison_removes_a_combination(page):
    load(page, NINE)
    show_step(page, 6)
    why = page.locator("#step-why")
    assert why.is_visible()
    assert "Cage A5 (A5, A6, A7) loses 5 of its 22 combinations:" in why.inner_text()
    buttons = why.locator("button.why-button")
    assert buttons.count() == 5
    assert why.locator("li").first.inner_text().startswith("1, 9, 6")
    panel = page.locator("#step-why-proof")
    assert panel.is_hidden()
    # The first removed combination's "Why?", pressed from the keyboard.
    buttons.first.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#step-why-proof[data-proof='6:1'] svg")
    assert buttons.first.get_attribute("aria-expanded") == "true"
    text = panel.locator("p").inner_text()
    assert text.startswith("If A5, A6, A7 were 1, 9, 6, cage A1 (18×) could only be"), text
    picture = panel.locator("svg")
    assert picture.count() == 1 and picture.bounding_box()["width"] > 100
    # Another combination's proof takes its place; pressed again, it closes.
    buttons.nth(1).click()
    page.wait_for_selector("#step-why-proof[data-proof='6:2'] svg")
    assert panel.locator("p").inner_text().startswith("If A5, A6, A7 were 3, 9, 4,")
    assert buttons.first.get_attribute("aria-expanded") == "false"
    buttons.nth(1).click()
    assert panel.is_hidden()
    # Another step without removed combinations lists none.
    show_step(page, 5)
    page.wait_for_function("() => document.querySelector('#step-why').hidden")


# `puzzles/generated-rare.json` #8: step 17's proofs lean on combinations of
# cage C3 that step 6 cut (and of another cage, cut at five other steps).
RARE_8 = "6:_3b_4a_3a_b_4a_3a__b_a5_aa_b_b,s3s2a6a14s1m24s1s1a1a9a18s1d3s1s2"


def test_why_links_the_steps_that_cut_what_a_proof_leans_on(page):
    load(page, RARE_8)
    show_step(page, 17)
    page.locator("#step-why button.why-button").first.click()
    page.wait_for_selector("#step-why-proof[data-proof='17:1'] svg")
    panel = page.locator("#step-why-proof")
    premises = panel.locator(".premises")
    assert "Cage C3: (5, 4) out at step 6" in premises.inner_text()
    # The picture lists them too (each line of it carries its words).
    assert panel.locator("svg [data-text='Cage C3 (1−): (5, 4) out at step 6.']").count() == 1
    links = premises.locator("button.step-link")
    assert links.count() == 6
    first = links.first
    assert first.inner_text() == "step 6"
    assert first.get_attribute("aria-label") == "Show step 6, which cut combinations of cage C3"
    # Pressed from the keyboard, it shows step 6, which cut cage C3's, and
    # moves the focus to it.
    first.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('#step-picture').dataset.step === '6'")
    assert page.locator("#step-count").inner_text().startswith("Step 6 of")
    assert "cage C3 reduced" in page.locator("#step-text").inner_text()
    assert page.evaluate("document.activeElement.id") == "step-text"
    assert page.locator("#step-range").input_value() == "6"
    # A link of the other cage, by mouse.
    show_step(page, 17)
    page.locator("#step-why button.why-button").first.click()
    page.wait_for_selector("#step-why-proof[data-proof='17:1'] svg")
    page.locator("#step-why-proof button.step-link[data-step='14']").click()
    page.wait_for_function("() => document.querySelector('#step-picture').dataset.step === '14'")


def test_why_a_region_step_and_a_long_list(page):
    load(page, SIX)
    # Step 7 is a region parity: one proof, one "Why?", for the whole step.
    show_step(page, 7)
    why = page.locator("#step-why")
    assert why.locator("li").count() == 4
    assert why.locator("button.why-button").count() == 1
    why.locator("button.why-button").click()
    page.wait_for_selector("#step-why-proof[data-proof='7:1'] svg")
    assert page.locator("#step-why-proof p").inner_text().startswith("Every row holds 1 to 6 once")
    # Step 7 of the 9x9, a region sum, removes 20 combinations: 8 are listed,
    # then all on demand; its one "Why?" stays.
    load(page, NINE)
    show_step(page, 7)
    assert why.locator("li:visible").count() == 8
    more = why.locator("button.why-more")
    assert more.inner_text() == "Show all 20"
    more.click()
    assert why.locator("li:visible").count() == 20
    assert more.count() == 0
    assert why.locator("button.why-button").count() == 1


def test_why_in_the_full_hint(page):
    load(page, NINE)
    # Hints written into the grid until the next one removes combinations with
    # a proof; its "Why?" tells the proof (in words: the hint is not a step of
    # the log, whose proofs /api/proof draws).
    for _ in range(10):
        page.click("button.hint[data-level=full]")
        page.wait_for_selector("#hint-extra:not([hidden])")
        if page.evaluate("!!(state.lastHint && state.lastHint.proof)"):
            break
        page.click("#apply-hint")
        board_drawn(page)
    else:
        pytest.fail("no hint with a proof")
    why = page.locator("#hint-why")
    assert why.is_visible()
    assert "loses" in why.inner_text()
    button = why.locator("button.why-button").first
    button.click()
    page.wait_for_selector("#hint-why-proof[data-proof='1']")
    expected = page.evaluate("state.lastHint.proof[0].text")
    assert page.locator("#hint-why-proof p").inner_text() == expected


def test_export_k6c_and_its_limits(page):
    load(page, SIX)
    click_cell(page, 0)
    page.keyboard.press("4")
    board_drawn(page)
    page.click("#export")
    page.wait_for_selector("#export-box:not([hidden])")
    k6c = page.locator("#export-text").input_value()
    assert k6c.startswith("K6C")
    # Pasted back, the position comes with it.
    load(page, k6c)
    assert page.evaluate("state.cells[0]") == 4
    load(page, FOUR)
    page.click("#export")
    page.wait_for_selector("#result.error")
    assert "cannot hold this puzzle" in result(page) and "4x4" in result(page)
    assert page.locator("#export-text").input_value().startswith(". . . .")


@pytest.mark.backends("http")
def test_pick_from_the_file_and_bad_input(page):
    page.select_option("#file-list", index=4)
    page.click("#file-open")
    page.wait_for_selector("#workspace:not([hidden])")
    assert page.evaluate("state.info.size") == 5
    page.fill("#puzzle-text", "7:not a puzzle")
    page.click("#load")
    page.wait_for_selector("#load-message.error")
    assert "cannot be read" in page.locator("#load-message").inner_text()


def compare_screenshot(page, name, png, tmp_path):
    path = EXPECTED / f"{name}.png"
    if UPDATE:
        path.write_bytes(png)
        return
    assert path.exists(), f"{path} is missing: run with UPDATE_SCREENSHOTS=1 and look at it"
    found = page.evaluate(
        """async ([a, b]) => {
            const load = (b64) => new Promise((done, fail) => {
                const img = new Image();
                img.onload = () => done(img);
                img.onerror = fail;
                img.src = 'data:image/png;base64,' + b64;
            });
            const [x, y] = await Promise.all([load(a), load(b)]);
            if (x.width !== y.width || x.height !== y.height)
                return { size: [x.width, x.height, y.width, y.height] };
            const pixels = (img) => {
                const c = document.createElement('canvas');
                c.width = img.width; c.height = img.height;
                const g = c.getContext('2d');
                g.drawImage(img, 0, 0);
                return g.getImageData(0, 0, img.width, img.height).data;
            };
            const p = pixels(x), q = pixels(y);
            let differ = 0, sum = 0;
            for (let i = 0; i < p.length; i += 4) {
                const d = Math.max(Math.abs(p[i] - q[i]), Math.abs(p[i + 1] - q[i + 1]), Math.abs(p[i + 2] - q[i + 2]));
                sum += d;
                if (d > 48) differ++;
            }
            return { differ, total: p.length / 4, mean: sum / (p.length / 4) };
        }""",
        [base64.b64encode(png).decode(), base64.b64encode(path.read_bytes()).decode()],
    )
    actual = tmp_path / f"{name}.png"
    actual.write_bytes(png)
    assert "size" not in found, f"{name}: size {found} differs (this run's picture: {actual})"
    # A small tolerance: anti-aliasing may differ by a pixel here and there.
    assert found["differ"] <= 0.003 * found["total"] and found["mean"] < 1.5, (
        f"{name}: {found} (this run's picture: {actual})"
    )


def test_screenshots_of_three_positions(page, tmp_path):
    load(page, SIX)
    compare_screenshot(page, "empty-board", page.locator("#board").screenshot(), tmp_path)
    enter_partial_position(page)
    click_cell(page, 7)
    page.keyboard.press("2")
    board_drawn(page)
    page.click("#check")
    page.wait_for_selector("#overlay rect.conflict")
    compare_screenshot(page, "position-checked", page.locator("#board").screenshot(), tmp_path)
    page.fill("#step-range", "7")
    page.wait_for_function("() => document.querySelector('#step-picture').dataset.step === '7'")
    compare_screenshot(page, "step-7", page.locator("#step-picture").screenshot(), tmp_path)
