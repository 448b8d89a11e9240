"""Annotating on the board and lines into the tree (issue 61, builds 1 and 2), in a real
browser as a person uses them: a comment and a mark written under the move list, the tags
edited and shown above it, all in the saved PDN and kept across a reload; an engine line,
a line clicked up to one of its moves, and the review's best line added to the tree as
variations.

The page, server and helpers are test_board.py's.
"""

import os

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from test_board import (  # noqa: F401 (fixtures)
    JUMP_PDN, at_size, answered, browser, click_square, errors_shown, load_pdn, move_list, new_game,
    page, retry_stale, review_game, server, wait,
)
from test_tree import goto_text, main_moves, variations

SHOTS = os.path.join(os.path.dirname(__file__), "..", "..", "target", "shots-61")


def shot(drv, name):
    os.makedirs(SHOTS, exist_ok=True)
    drv.save_screenshot(os.path.join(SHOTS, name))


def play(drv, *moves):
    """Play moves by clicking their squares (simple moves and single jumps)."""
    for m in moves:
        a, b = m.replace("x", "-").split("-")
        click_square(drv, int(a))
        answered(drv, lambda: click_square(drv, int(b)), f"the move {m}")


def saved_pdn(drv):
    """The game as the save button gives it (the PDN box holds it after)."""
    box = drv.find_element(By.ID, "pdn-input")
    drv.execute_script("arguments[0].value = ''", box)
    drv.find_element(By.ID, "pdn-save").click()
    wait(drv, lambda d: box.get_attribute("value") != "", "the saved PDN")
    return box.get_attribute("value")


@retry_stale
def comments(drv):
    return [c.text for c in drv.find_elements(By.CSS_SELECTOR, "#moves .comment")]


def mark_button(drv, mark):
    return drv.find_element(By.CSS_SELECTOR, f'#note-marks button[data-mark="{mark}"]')


@retry_stale
def active_marks(drv):
    return [b.get_attribute("data-mark") for b in drv.find_elements(By.CSS_SELECTOR, "#note-marks button.on")]


def write_comment(drv, text):
    box = drv.find_element(By.ID, "note-text")
    box.clear()
    box.send_keys(text)
    answered(drv, drv.find_element(By.ID, "note-save").click, "the comment saved")


def set_tags(drv, tags):
    if not drv.find_element(By.ID, "tags-form").is_displayed():
        drv.find_element(By.ID, "tags-edit").click()
    wait(drv, lambda d: d.find_element(By.ID, "tags-form").is_displayed(), "the tags fields")
    for k, v in tags.items():
        if k == "Result":
            Select(drv.find_element(By.ID, "tag-Result")).select_by_value(v)
            continue
        box = drv.find_element(By.ID, "tag-" + k)
        box.clear()
        box.send_keys(v)
    answered(drv, drv.find_element(By.ID, "tags-save").click, "the tags set")


def tags_text(drv):
    return drv.find_element(By.ID, "tags-text").text


def test_a_comment_and_a_mark_are_saved_and_kept_across_a_reload(page):
    new_game(page, "human")
    play(page, "11-15", "23-19", "8-11")
    goto_text(page, "23-19")
    assert page.find_element(By.ID, "note-title").text.endswith("23-19")
    write_comment(page, "White keeps the centre")
    answered(page, mark_button(page, "!?").click, "the mark set")
    wait(page, lambda d: "23-19!?" in move_list(d), "the mark in the move list")
    assert comments(page) == ["White keeps the centre"]
    assert active_marks(page) == ["!?"]
    # The active mark clicked again clears it; another replaces it.
    answered(page, mark_button(page, "!?").click, "the mark cleared")
    assert "23-19" in move_list(page) and active_marks(page) == []
    answered(page, mark_button(page, "?!").click, "another mark")
    answered(page, mark_button(page, "!").click, "the mark replaced")
    assert "23-19!" in move_list(page) and active_marks(page) == ["!"]
    pdn = saved_pdn(page)
    assert "1. 11-15 23-19! {White keeps the centre} 2. 8-11 *" in pdn, pdn
    # After a reload: the game, its comment and mark, the editor filled for the move shown.
    page.refresh()
    wait(page, lambda d: "23-19!" in move_list(d), "the mark after the reload")
    assert comments(page) == ["White keeps the centre"]
    goto_text(page, "23-19!")
    assert page.find_element(By.ID, "note-text").get_attribute("value") == "White keeps the centre"
    # Cleared with the button: gone from the list and the PDN.
    answered(page, page.find_element(By.ID, "note-clear").click, "the comment cleared")
    assert comments(page) == []
    assert "{" not in saved_pdn(page)
    assert not errors_shown(page)


def test_tags_are_edited_shown_above_the_moves_and_saved(page):
    new_game(page, "human")
    play(page, "11-15")
    set_tags(page, {"White": "Ann Lee", "Black": "Bob \"the Rock\" Day", "Event": "Club night",
                    "Date": "2026.12.07", "Round": "2"})
    wait(page, lambda d: tags_text(d) == 'Ann Lee vs Bob "the Rock" Day, Club night, round 2, 2026.12.07',
         "the tags line")
    assert not page.find_element(By.ID, "tags-form").is_displayed()
    pdn = saved_pdn(page)
    for tag in ['[Event "Club night"]', '[Round "2"]', '[White "Ann Lee"]',
                '[Black "Bob \\"the Rock\\" Day"]', '[Date "2026.12.07"]']:
        assert tag in pdn, pdn
    # The tags survive a reload; the fields open with them.
    page.refresh()
    wait(page, lambda d: tags_text(d).startswith("Ann Lee vs Bob"), "the tags after the reload")
    page.find_element(By.ID, "tags-edit").click()
    assert page.find_element(By.ID, "tag-White").get_attribute("value") == "Ann Lee"
    # A result set by hand: the game goes on, so any result stands until the main line changes.
    set_tags(page, {"Result": "1-0"})
    assert '[Result "1-0"]' in saved_pdn(page)
    assert not errors_shown(page)


def start_lines(drv, n):
    """Analysis with `n` lines at the position shown, stopped once they are all there."""
    Select(drv.find_element(By.ID, "multipv")).select_by_value(str(n))
    drv.find_element(By.ID, "analyze").click()

    def ready(d):
        rows = d.find_elements(By.CSS_SELECTOR, "#lines .line")
        return len(rows) == n and all(len(r.find_elements(By.CSS_SELECTOR, ".pv-move")) >= 3 for r in rows)
    wait(drv, ready, f"{n} lines of 3 moves")
    drv.find_element(By.ID, "analyze").click()
    wait(drv, lambda d: d.find_element(By.ID, "analyze").get_attribute("aria-pressed") == "false",
         "analysis off")


@retry_stale
def line_moves(drv, row):
    """The moves of analysis line `row` (from 0), without their numbers."""
    return [m.text.replace("…", ".").split(".")[-1].strip()
            for m in drv.find_elements(By.CSS_SELECTOR, "#lines .line")[row].find_elements(By.CSS_SELECTOR, ".pv-move")]


def moves_in(text):
    """The moves of a variation's text, without numbers and parentheses."""
    return [w for w in text.split() if "-" in w or "x" in w]


def test_an_engine_line_goes_into_the_tree_as_a_variation(page):
    new_game(page, "human")
    play(page, "12-16")
    answered(page, page.find_element(By.ID, "start").click, "the start")
    start_lines(page, 2)
    rows = [line_moves(page, r) for r in range(2)]
    k = 0 if rows[0][0] != "12-16" else 1
    line = rows[k]
    # A line clicked up to its second move: those two moves go in.
    page.find_elements(By.CSS_SELECTOR, "#lines .line")[k].find_elements(By.CSS_SELECTOR, ".pv-move")[1].click()
    wait(page, lambda d: d.find_element(By.ID, "pv-tools").is_displayed(), "the line shown")
    answered(page, page.find_element(By.ID, "pv-add").click, "the line's start added")
    assert main_moves(page) == ["12-16"]
    assert [moves_in(v) for v in variations(page)] == [line[:2]], variations(page)
    # The whole line: it follows the two moves there and adds the rest; the board stays.
    page.find_element(By.ID, "pv-close").click()
    answered(page, page.find_elements(By.CSS_SELECTOR, "#lines .line-add")[k].click, "the line added")
    assert [moves_in(v) for v in variations(page)] == [line], variations(page)
    assert page.find_element(By.CSS_SELECTOR, "#moves .current").text == "start"
    # In the saved PDN as a variation.
    pdn = saved_pdn(page)
    assert "(1. " + line[0] in pdn, pdn


def test_plus_tree_adds_the_line_looked_at_not_a_later_one(page):
    """Issue 69, item 8: "+ tree" took the line of the moment of the click, which could be a
    deeper one drawn after the person had read it. While the pointer is on a "+ tree" button
    the list is held (not drawn again), so the line added is the one shown; it catches up
    once the pointer leaves."""
    from selenium import webdriver
    from selenium.common.exceptions import StaleElementReferenceException
    new_game(page, "human")
    page.find_element(By.ID, "analyze").click()
    wait(page, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#lines .line .pv-move")) >= 3, "a line")
    # Onto the button (the list may be drawn again while the pointer travels: try again).
    for _ in range(20):
        try:
            webdriver.ActionChains(page).move_to_element(
                page.find_element(By.CSS_SELECTOR, "#lines .line-add")).perform()
            break
        except StaleElementReferenceException:
            continue
    add = page.find_element(By.CSS_SELECTOR, "#lines .line-add")
    page.execute_script("window.heldRow = document.querySelector('#lines .line')")
    looked_at = line_moves(page, 0)
    depth = int(page.find_element(By.ID, "info-depth").text)
    wait(page, lambda d: int(d.find_element(By.ID, "info-depth").text) >= depth + 2, "a deeper search")
    assert page.execute_script("return window.heldRow.isConnected"), "the list was drawn again under the pointer"
    answered(page, add.click, "the line added")
    assert [moves_in(v) for v in variations(page)] == [looked_at] or main_moves(page) == looked_at, \
        (looked_at, variations(page), main_moves(page))
    # The pointer gone, the list follows the search again.
    webdriver.ActionChains(page).move_to_element(page.find_element(By.TAG_NAME, "h1")).perform()
    depth = int(page.find_element(By.ID, "info-depth").text)
    wait(page, lambda d: not d.execute_script("return window.heldRow.isConnected")
         or int(d.find_element(By.ID, "info-depth").text) < depth, "the list drawn again")
    page.find_element(By.ID, "analyze").click()


def test_the_reviews_best_line_goes_into_the_tree(page):
    review_game(page, JUMP_PDN, 2)
    answered(page, lambda: page.find_element(By.ID, "ply-1").click(), "the marked move")
    wait(page, lambda d: d.find_element(By.ID, "teach-add").is_displayed(), "the best line's button")
    answered(page, page.find_element(By.ID, "teach-add").click, "the best line added")
    assert main_moves(page) == ["27x18??", "19x28"]
    v = variations(page)
    assert len(v) == 1 and "24x15x8" in v[0], v
    assert page.find_element(By.CSS_SELECTOR, "#moves .current").text == "27x18??"


@pytest.mark.parametrize("size,name", [((1280, 900), "desktop"), ((390, 844), "phone")])
def test_screenshots_of_the_editor_the_tags_and_an_added_line(browser, server, size, name):
    with at_size(browser, server, size):
        new_game(browser, "human")
        play(browser, "11-15", "23-19", "8-11", "22-17")
        set_tags(browser, {"White": "Ann Lee", "Black": "Bob Day", "Event": "Club night", "Date": "2026.12.07"})
        goto_text(browser, "23-19")
        start_lines(browser, 1)
        answered(browser, browser.find_element(By.CSS_SELECTOR, "#lines .line-add").click, "the line added")
        write_comment(browser, "The usual reply; the engine's line is added below.")
        answered(browser, mark_button(browser, "!?").click, "the mark set")
        wait(browser, lambda d: len(variations(d)) == 1 or "23-19!?" in move_list(d), "the tree")
        browser.execute_script("document.getElementById('tags-row').scrollIntoView()")
        shot(browser, f"annotate-{name}.png")
        browser.find_element(By.ID, "tags-edit").click()
        wait(browser, lambda d: d.find_element(By.ID, "tags-form").is_displayed(), "the tags fields")
        browser.execute_script("document.getElementById('tags-row').scrollIntoView()")
        shot(browser, f"tags-{name}.png")
