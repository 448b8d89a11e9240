"""The move tree on the board (issue 38, parts 1 and 2), in a real browser as a person uses
it: variations played on the board beside a loaded game, the move list that shows them,
the keys and the buttons that walk, promote and delete them, and a game saved and loaded
again with every line, mark, score, comment and tag.

The page, server and helpers are test_board.py's.
"""

import re

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from test_board import (  # noqa: F401 (fixtures)
    at_size,
    answered, browser, click_square, errors_shown, load_pdn, move_list, page, pieces, retry_stale, server,
    shot, states, wait,
)

# A game of 20 plies, legal move by move (`poolshark moves` chose each).
GAME = ('[GameType "23"]\n1. 9-13 22-17 2. 13x22 26x17 3. 6-9 24-20 4. 12-16 28-24 '
        '5. 2-6 30-26 6. 9-13 23-18 7. 13x22x15 24-19 8. 15x24 26-23 9. 24-28 23-18 '
        '10. 6-9 18-14 *\n')
MAIN = ["9-13", "22-17", "13x22", "26x17", "6-9", "24-20", "12-16", "28-24", "2-6", "30-26",
        "9-13", "23-18", "13x22x15", "24-19", "15x24", "26-23", "24-28", "23-18", "6-9", "18-14"]

# Tags out of the roster's order, a comment before the game and after a move, a variation
# with a mark, a NAG and a comment before it, and the planted blunder of tests/annotate.rs
# (Black's 12-16 at ply 9).
STUDY = ('[Annotator "Ann"]\n[Event "club night"]\n[Site "Leeds"]\n[Date "2024.05.01"]\n'
         '[Round "3"]\n[White "Bob"]\n[Black "Cy"]\n[Result "*"]\n[GameType "23"]\n'
         '{A sharp opening.} 1. 11-15 23-19 (1... 22-18 2. 15x22 25x18 {even}) 2. 8-11 '
         '22-17 3. 9-13 17-14 $14 4. 10x17 21x14 5. 12-16 19x12 6. 6-9 *\n')


@retry_stale
def main_rows(drv):
    """The main line's moves, row by row, as the list shows them."""
    return [[m.text for m in r.find_elements(By.CSS_SELECTOR, ".move")]
            for r in drv.find_elements(By.CSS_SELECTOR, "#moves > .move-row")]


def main_moves(drv):
    return [m for row in main_rows(drv) for m in row]


@retry_stale
def variations(drv):
    """Each variation's text as shown, outermost first, a nested one on its own."""
    out = []
    for v in drv.find_elements(By.CSS_SELECTOR, "#moves .variation"):
        words = [e.text for e in v.find_elements(By.XPATH, "./*")
                 if "variation" not in (e.get_attribute("class") or "")]
        out.append(" ".join(w for w in words if w))
    return out


@retry_stale
def current(drv):
    return drv.find_element(By.CSS_SELECTOR, "#moves .current").text


def fen(drv):
    return drv.find_element(By.ID, "fen").text


def goto_text(drv, text, where="#moves"):
    """Click the first move that reads `text` in the move list (or the part `where`)."""
    def click():
        for m in drv.find_elements(By.CSS_SELECTOR, where + " .move"):
            if m.text == text:
                m.click()
                return
        raise AssertionError(f"no move {text!r} in {move_list(drv)}")
    answered(drv, click, f"the position after {text}")


def play(drv, a, b):
    answered(drv, lambda: (click_square(drv, a), click_square(drv, b)), f"the move {a}-{b}")


def key(drv, k):
    answered(drv, lambda: webdriver.ActionChains(drv).send_keys(k).perform(), f"the key {k}")


def load(drv, text):
    load_pdn(drv, text)
    wait(drv, lambda d: d.find_elements(By.CSS_SELECTOR, "#moves .move-row"), "the loaded game")


def test_a_variation_at_move_10_keeps_the_main_line_and_its_moves_clickable(page):
    load(page, GAME)
    wait(page, lambda d: main_moves(d) == MAIN, "the loaded game")
    # Back to move 10 (White's 30-26 is ply 10): another move there is a variation.
    goto_text(page, "2-6")
    play(page, 23, 19)
    wait(page, lambda d: current(d) == "23-19", "the variation's move shown")
    assert main_moves(page) == MAIN, "the main line is whole"
    assert variations(page) == ["( 5… 23-19 )"]
    p = pieces(page)
    assert p.get(19) == "w" and 23 not in p and p.get(30) == "w"
    # Every main-line move is still a click away, the ones after the branch too.
    for ply in (10, 14, 20):
        goto_text(page, MAIN[ply - 1], "#moves > .move-row")
        assert page.find_element(By.CSS_SELECTOR, "#moves .current").get_attribute("data-ply") == str(ply)
        assert main_moves(page) == MAIN
    # The game's end, as loaded: White's man on 14.
    assert pieces(page).get(14) == "w" and 18 not in pieces(page)
    # The variation's move is clickable too, and shows its position again.
    goto_text(page, "23-19", "#moves .variation")
    assert pieces(page).get(19) == "w" and pieces(page).get(30) == "w"


def test_keys_walk_the_line_and_choose_among_variations(page):
    load(page, '[GameType "23"]\n1. 11-15 23-19 (1... 22-18 2. 15x22) (1... 24-20) 2. 8-11 *\n')
    goto_text(page, "23-19")
    key(page, Keys.ARROW_DOWN)
    assert current(page) == "22-18"
    key(page, Keys.ARROW_DOWN)
    assert current(page) == "24-20"
    key(page, Keys.ARROW_DOWN)
    assert current(page) == "23-19", "Down wraps round to the main line"
    key(page, Keys.ARROW_UP)
    assert current(page) == "24-20"
    key(page, Keys.ARROW_UP)
    assert current(page) == "22-18"
    # Right and Left walk the line shown; going back keeps it, so Right goes down it again.
    key(page, Keys.ARROW_RIGHT)
    assert current(page) == "15x22"
    key(page, Keys.ARROW_LEFT)
    key(page, Keys.ARROW_LEFT)
    assert current(page) == "11-15"
    key(page, Keys.ARROW_RIGHT)
    assert current(page) == "22-18", "the line chosen, not the main line"
    # At the branch's position, Down steps into the next move's variations.
    key(page, Keys.ARROW_LEFT)
    key(page, Keys.ARROW_DOWN)
    assert current(page) == "22-18"
    assert main_moves(page) == ["11-15", "23-19", "8-11"]


def test_promote_make_main_and_delete_a_variation(page):
    load(page, '[GameType "23"]\n1. 11-15 23-19 (1... 22-18 2. 15x22) (1... 24-20) 2. 8-11 *\n')
    goto_text(page, "15x22")
    # Make the line shown the main line: the old one becomes its first variation.
    answered(page, page.find_element(By.ID, "var-main").click, "make main line")
    assert main_moves(page) == ["11-15", "22-18", "15x22"]
    assert variations(page) == ["( 1… 23-19 2. 8-11 )", "( 1… 24-20 )"]
    assert current(page) == "15x22"
    assert page.find_element(By.ID, "var-main").get_attribute("disabled")
    # One step up from the last variation; then its menu (right click) deletes it.
    goto_text(page, "24-20")
    answered(page, page.find_element(By.ID, "var-promote").click, "promote")
    assert variations(page) == ["( 1… 24-20 )", "( 1… 23-19 2. 8-11 )"]
    target = [m for m in page.find_elements(By.CSS_SELECTOR, "#moves .move") if m.text == "23-19"][0]
    webdriver.ActionChains(page).context_click(target).perform()
    wait(page, lambda d: d.find_element(By.ID, "tree-menu").is_displayed(), "the move's menu")
    answered(page, page.find_element(By.ID, "menu-delete").click, "delete from here")
    assert variations(page) == ["( 1… 24-20 )"]
    assert not page.find_element(By.ID, "tree-menu").is_displayed()
    assert current(page) == "24-20", "deleting another line leaves the move shown"
    # Deleting the line shown goes to the position before it.
    answered(page, page.find_element(By.ID, "var-delete").click, "delete the line shown")
    assert variations(page) == []
    assert current(page) == "11-15"


def test_a_reload_keeps_the_variations_and_a_bad_pdn_changes_nothing(page):
    load(page, '[GameType "23"]\n1. 11-15 23-19 (1... 22-18 2. 15x22) 2. 8-11 *\n')
    goto_text(page, "23-19")
    play(page, 9, 13)
    lines = variations(page)
    assert lines == ["( 1… 22-18 2. 15x22 )", "( 2. 9-13 )"], lines
    page.refresh()
    wait(page, lambda d: variations(d) == lines, "the tree after the reload")
    assert main_moves(page) == ["11-15", "23-19", "8-11"]
    assert current(page) == "9-13"
    # A PDN that does not read: the error names the game, line and column, and the game
    # on the board stays.
    load_pdn(page, '[GameType "23"]\n1. 11-15 23-19\n2. 8-11 (2. 9-14 22-18 (2... 22-17 3. 14-23)) *\n')
    wait(page, lambda d: errors_shown(d), "the error")
    assert "game 1, line 3, column 39: move 3. '14-23' (ply 5): illegal move" in errors_shown(page)[0]
    assert variations(page) == lines and current(page) == "9-13"


def saved_pdn(drv):
    box = drv.find_element(By.ID, "pdn-input")
    box.clear()
    drv.find_element(By.ID, "pdn-save").click()
    wait(drv, lambda d: "GameType" in d.find_element(By.ID, "pdn-input").get_attribute("value"),
         "the saved PDN")
    return box.get_attribute("value")


@retry_stale
def marks_and_scores(drv):
    """Each move's text (marks included) and its title (the mark's name and the score), in
    the list's order. The review's best move is the board's, not saved: left out."""
    return [(m.text, re.sub(r"; best [^ ]+", "", m.get_attribute("title") or ""))
            for m in drv.find_elements(By.CSS_SELECTOR, "#moves .move")]


def test_load_review_variation_save_and_load_again_gives_everything_back(page, tmp_path):
    load(page, STUDY)
    page.find_element(By.ID, "review-run").click()
    wait(page, lambda d: d.find_element(By.ID, "review-status").text.startswith("reviewed"),
         "the review's end")
    moves = main_moves(page)
    assert moves[8] == "12-16??", moves
    points = len(page.find_elements(By.CSS_SELECTOR, "#graph circle.graph-point"))
    assert points == 11
    # A variation at White's second move, played on the board: the marks stay.
    goto_text(page, "8-11")
    play(page, 21, 17)
    play(page, 9, 13)
    assert main_moves(page) == moves
    assert "( 2… 21-17 3. 9-13 )" in variations(page)
    before = marks_and_scores(page)
    assert any(t.startswith("blunder") for _, t in before), before
    assert sum(" · Black " in t or t.startswith("Black ") for _, t in before) == 11, before
    text = saved_pdn(page)
    for tag in ('[Event "club night"]', '[Site "Leeds"]', '[Date "2024.05.01"]', '[Round "3"]',
                '[White "Bob"]', '[Black "Cy"]', '[Annotator "Ann"]', '[GameType "23"]'):
        assert tag in text, text
    assert text.index("[Event") < text.index("[Annotator"), "the roster first"
    flat = " ".join(text.split())
    assert "{A sharp opening.}" in flat and "{even}" in flat and "$14" in flat, text
    assert "12-16?? {[%eval" in flat and "(2... 21-17 3. 9-13)" in flat, text
    # A new board (a fresh connection), and the saved file loaded into it.
    path = tmp_path / "study.pdn"
    path.write_text(text)
    page.find_element(By.ID, "new-game").click()
    wait(page, lambda d: main_moves(d) == [], "a new game")
    answered(page, lambda: page.find_element(By.ID, "pdn-file").send_keys(str(path)), "the file")
    wait(page, lambda d: main_moves(d) == moves, "the saved game")
    assert marks_and_scores(page) == before
    assert len(page.find_elements(By.CSS_SELECTOR, "#graph circle.graph-point")) == points
    comments = [c.text for c in page.find_elements(By.CSS_SELECTOR, "#moves .comment")]
    assert comments == ["A sharp opening.", "even"], comments
    assert saved_pdn(page) == text, "saved again, the same text"


# A game with marks and NAGs of its own, and a blunder (15-18) it marks `!?` (issue 58).
MARKED = '[GameType "23"]\n1. 11-15?? {a comment} 23-19?! 2. 8-11 $4 22-17 3. 15-18!? *\n'


def test_a_review_keeps_the_marks_a_loaded_game_came_with(page):
    load(page, MARKED)
    marked = ["11-15??", "23-19?!", "8-11??", "22-17", "15-18!?"]
    wait(page, lambda d: main_moves(d) == marked, "the loaded game")
    page.find_element(By.ID, "review-run").click()
    wait(page, lambda d: d.find_element(By.ID, "review-status").text.startswith("reviewed"),
         "the review's end")
    assert main_moves(page) == marked
    flat = " ".join(saved_pdn(page).split())
    for note in ("11-15?? {[%eval", "23-19?! {[%eval", "8-11?? {[%eval", "15-18!? {[%eval"):
        assert note in flat, (note, flat)
    # The review's own verdict at the blunder, beside the mark the game keeps.
    goto_text(page, "15-18!?")
    text = page.find_element(By.ID, "teach-text").text
    assert "15-18??" in text and "The game's own mark, !?, stays on the move." in text, text


def test_a_review_past_the_whole_bound_is_refused_and_nothing_runs(page):
    load(page, MARKED)
    wait(page, lambda d: len(main_moves(d)) == 5, "the loaded game")
    Select(page.find_element(By.ID, "review-kind")).select_by_value("nodes")
    box = page.find_element(By.ID, "review-value")
    box.clear()
    box.send_keys("1000000000")
    page.find_element(By.ID, "review-run").click()
    wait(page, lambda d: any("in all: give at most 166666666" in e for e in errors_shown(d)),
         "the refusal")
    assert page.find_element(By.ID, "review-status").text == ""
    assert page.find_element(By.ID, "review-run").is_enabled()


def kept(drv):
    """Whether the page has kept the PDN of the game as it stands (js/store.js)."""
    return drv.execute_script(
        "const v = JSON.parse(localStorage.getItem('poolshark-board') || 'null');"
        "return !!(v && v.pdn && v.pdn_sig === v.tree_sig);")


def test_a_reload_after_a_review_keeps_marks_scores_comments_and_tags(page):
    load(page, STUDY)
    page.find_element(By.ID, "review-run").click()
    wait(page, lambda d: d.find_element(By.ID, "review-status").text.startswith("reviewed"),
         "the review's end")
    goto_text(page, "8-11")
    play(page, 21, 17)
    moves, lines, before = main_moves(page), variations(page), marks_and_scores(page)
    assert moves[8] == "12-16??" and "( 2… 21-17 )" in lines, (moves, lines)
    wait(page, kept, "the game's PDN kept")
    page.refresh()
    wait(page, lambda d: main_moves(d) == moves and variations(d) == lines,
         "the game after the reload")
    assert marks_and_scores(page) == before
    assert current(page) == "21-17"
    comments = [c.text for c in page.find_elements(By.CSS_SELECTOR, "#moves .comment")]
    assert comments == ["A sharp opening.", "even"], comments
    assert len(page.find_elements(By.CSS_SELECTOR, "#graph circle.graph-point")) == 11
    flat = " ".join(saved_pdn(page).split())
    assert '[Event "club night"]' in flat and '[Annotator "Ann"]' in flat, flat
    assert "12-16?? {[%eval" in flat and "(2... 21-17)" in flat, flat
    # A new game has no notes: a reload gives back its moves alone, as before.
    page.find_element(By.ID, "new-game").click()
    wait(page, lambda d: main_moves(d) == [], "a new game")
    play(page, 11, 15)
    page.refresh()
    wait(page, lambda d: main_moves(d) == ["11-15"], "the new game after the reload")
    assert not page.find_elements(By.CSS_SELECTOR, "#moves .comment")


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)])
def test_screenshots_of_a_game_with_variations(browser, server, size):
    with at_size(browser, server, size):
        load(browser, STUDY)
        browser.find_element(By.ID, "review-run").click()
        wait(browser, lambda d: d.find_element(By.ID, "review-status").text.startswith("reviewed"),
             "the review's end")
        # A variation at White's second move, and one inside it at Black's third.
        goto_text(browser, "8-11")
        play(browser, 21, 17)
        play(browser, 9, 13)
        play(browser, 25, 21)
        goto_text(browser, "21-17", "#moves .variation")
        play(browser, 12, 16)
        play(browser, 19, 12)
        goto_text(browser, "9-13", "#moves .variation")
        width = browser.execute_script("return document.documentElement.clientWidth")
        assert browser.execute_script("return document.documentElement.scrollWidth") <= width, \
            "the page scrolls sideways"
        name = "desktop" if size[0] > 700 else "phone"
        browser.execute_script("window.scrollTo(0, 0)")
        shot(browser, f"board-tree-{name}.png")
        if name == "phone":
            browser.execute_script("document.getElementById('moves').scrollIntoView()")
            shot(browser, "board-tree-phone-moves.png")
