"""A review that lasts and learning from it (issue 61: Build 4, Build 6, defects 3 and 8), in
a real browser as a person uses it: a reviewed game reloaded and saved keeps its teaching
panel and its summary; the summary follows the main line; one position gives one score in
the review, a retry's verdict and its answer; and "learn from your mistakes" steps through
one side's marked moves with a hint and a tally.

The page, server and helpers are test_board.py's.
"""

import os
import re

import pytest
from selenium.webdriver.common.by import By

from test_board import (  # noqa: F401 (fixtures)
    BLUNDER_PDN, BLUNDER_PLIES, answered, at_size, browser, click_square, current_ply, load_pdn,
    move_list, page, retry_stale, retry_text, review_arrow, review_game, server, shot, states,
    teach_text, wait,
)

# A game of 20 plies in which each side makes several marked moves (Black's 12-16?, 2-6?,
# 9-13?? and 6-9?? at the review's default strength): test_tree.py's.
from test_tree import GAME, MAIN  # noqa: E402

SHOTS = "shots-61/"
os.makedirs("target/shots-61", exist_ok=True)


@retry_stale
def summary(drv):
    """The review's status and its summary's rows, as shown."""
    table = drv.find_element(By.ID, "review-summary")
    rows = [r.text for r in table.find_elements(By.CSS_SELECTOR, "tr")] if table.is_displayed() else []
    return drv.find_element(By.ID, "review-status").text, rows


def marked(drv):
    """The main line's marked plies (from 1), each with whose move it is."""
    out = []
    for k, m in enumerate(move_list(drv), start=1):
        if re.search(r"(\?!|\?\?|\?)$", m):
            out.append((k, "black" if k % 2 == 1 else "white"))
    return out


def best_at(drv, k):
    """The review's best move at marked ply k, as the teaching panel says it, and its score."""
    answered(drv, lambda: drv.find_element(By.ID, f"ply-{k}").click(), f"ply {k}")
    wait(drv, lambda d: d.find_element(By.ID, "teach").is_displayed(), "the teaching panel")
    m = re.search(r"Best was (\S+): Black ([-+]?\d+\.\d\d)", teach_text(drv))
    assert m, teach_text(drv)
    return m.group(1), m.group(2)


def play_text(drv, move):
    """Click a move's first and last squares (`12-16`, `24x15x8`)."""
    parts = [int(p) for p in re.split(r"[-x]", move.rstrip("?!"))]
    click_square(drv, parts[0])
    click_square(drv, parts[-1])


def test_a_review_lasts_a_reload_and_a_saved_pdn(page):
    review_game(page, BLUNDER_PDN, BLUNDER_PLIES)
    moves = move_list(page)
    before = summary(page)
    assert before[0] == f"reviewed: {BLUNDER_PLIES} plies" and len(before[1]) == 3, before
    taught, arrow = taught_and_arrow(page, 9)
    line = page.find_element(By.ID, "teach-line").text
    # A reload: the game comes back with its review.
    page.refresh()
    wait(page, lambda d: move_list(d) == moves, "the game after the reload")
    wait(page, lambda d: summary(d) == before, "the summary after the reload")
    assert taught_and_arrow(page, 9) == (taught, arrow)
    assert page.find_element(By.ID, "teach-line").text == line
    # Saved: the best move as a variation with its score, tagged as the review's.
    page.find_element(By.ID, "pdn-save").click()
    wait(page, lambda d: "[%review best]" in d.find_element(By.ID, "pdn-input").get_attribute("value"),
         "the saved PDN")
    text = page.find_element(By.ID, "pdn-input").get_attribute("value")
    best = re.search(r"Best was (\S+):", taught).group(1)
    assert re.search(r"\(5\. " + re.escape(best) + r" \{\[%eval [-\d.]+\] \[%review best\]\}", text), text
    # A new game, then the saved text loaded: the same panel, the same summary; the review's
    # line is not a variation of the move list.
    answered(page, lambda: page.find_element(By.ID, "new-game").click(), "a new game")
    wait(page, lambda d: summary(d) == ("", []), "no summary for a new game")
    load_pdn(page, text)
    wait(page, lambda d: move_list(d) == moves, "the saved game")
    assert not page.find_elements(By.CSS_SELECTOR, "#moves .variation")
    assert summary(page) == before
    assert taught_and_arrow(page, 9) == (taught, arrow)


def taught_and_arrow(drv, ply):
    """What the panel teaches at the marked move `ply`, and the best move's arrow, drawn on
    the position before it; the marked move shown again after."""
    answered(drv, lambda: drv.find_element(By.ID, f"ply-{ply - 1}").click(), "the position before")
    wait(drv, lambda d: review_arrow(d) is not None, "the best move's arrow")
    arrow = review_arrow(drv)
    answered(drv, lambda: drv.find_element(By.ID, f"ply-{ply}").click(), "the marked move")
    wait(drv, lambda d: d.find_element(By.ID, "teach").is_displayed(), "the teaching panel")
    return teach_text(drv), arrow


def test_the_summary_follows_the_main_line(page):
    """Defect 3: moves deleted or a variation made the main line, the summary is of the main
    line as it stands."""
    review_game(page, BLUNDER_PDN, BLUNDER_PLIES)
    assert summary(page)[0] == f"reviewed: {BLUNDER_PLIES} plies"
    answered(page, lambda: page.find_element(By.ID, "ply-10").click(), "ply 10")
    page.execute_script("window.confirm = () => true")
    answered(page, lambda: page.find_element(By.ID, "var-delete").click(), "moves deleted")
    wait(page, lambda d: summary(d)[0] == "reviewed: 9 plies", "the summary of 9 plies")
    # 19x12 and 6-9 are gone, the blunder 12-16?? (ply 9) stays: Black's row counts it.
    rows = summary(page)[1]
    assert rows[1].split()[0] == "Black" and rows[1].split()[3] == "1", rows
    # Another first move made the main line: nothing of it is reviewed.
    answered(page, lambda: page.find_element(By.ID, "start").click(), "the start")
    answered(page, lambda: play_text(page, "9-13"), "another first move")
    answered(page, lambda: page.find_element(By.ID, "var-main").click(), "made the main line")
    wait(page, lambda d: summary(d) == ("", []), "no summary")
    assert not page.find_element(By.ID, "review-summary").is_displayed()


def score_of(text, pattern):
    m = re.search(pattern, text)
    assert m, (pattern, text)
    return m.group(1)


def test_one_position_one_score(page):
    """Defect 8: the review, a wrong retry's verdict and the answer give the best move's score
    from the one search, each for Black."""
    review_game(page, BLUNDER_PDN, BLUNDER_PLIES)
    best, score = best_at(page, 9)
    answered(page, lambda: page.find_element(By.ID, "retry-start").click(), "the position before")
    play_text(page, "12-16")
    wait(page, lambda d: retry_text(d).startswith("✗"), "the retry's verdict")
    verdict = retry_text(page)
    said = score_of(verdict, r"the best(?: move:)? Black ([-+]?\d+\.\d\d)")
    page.find_element(By.ID, "retry-answer").click()
    wait(page, lambda d: "The answer" in retry_text(d), "the answer")
    answer = score_of(retry_text(page), r"The answer: \S+?[,:] Black ([-+]?\d+\.\d\d)")
    assert (said, answer) == (score, score), (score, verdict, retry_text(page))
    # Which side the score is for, and not the answer itself before it is asked for.
    assert f"the best move: Black {score}" in verdict and best not in verdict, verdict


def learn_text(drv):
    return drv.find_element(By.ID, "learn-text").text


def hint_square(drv):
    rings = drv.find_elements(By.CSS_SELECTOR, "#board circle.hint")
    if not rings:
        return None
    return int(rings[0].find_element(By.XPATH, "..").get_attribute("data-square"))


def learn_through(drv, side, shoot=None):
    """Learn from `side`'s marked moves: a wrong try (the move played), then the hint, then
    the best at the first; the best at once at the second; two wrong tries at any third.
    Returns the tally shown."""
    plies = [k for k, s in marked(drv) if s == side]
    assert len(plies) >= 2, (side, move_list(drv))
    game = move_list(drv)
    played = {k: game[k - 1] for k in plies}
    bests = {k: best_at(drv, k)[0] for k in plies}
    from selenium.webdriver.support.ui import Select
    Select(drv.find_element(By.ID, "learn-side")).select_by_value(side)
    answered(drv, lambda: drv.find_element(By.ID, "learn-start").click(), "the first question")
    for i, k in enumerate(plies):
        ask = f"{i + 1} of {len(plies)}: find a better move."
        wait(drv, lambda d: ask in learn_text(d) and current_ply(d) == k - 1, f"question {i + 1}")
        assert "Find a better move than" in teach_text(drv)
        assert review_arrow(drv) is None and hint_square(drv) is None
        if i == 0 and shoot:
            shoot("question")
        if i == 0:
            play_text(drv, played[k])
            wait(drv, lambda d: "Hint" in learn_text(d), "the hint")
            assert hint_square(drv) == int(re.split(r"[-x]", bests[k])[0]), hint_square(drv)
            if shoot:
                shoot("hint")
            play_text(drv, bests[k])
            wait(drv, lambda d: "found, with a hint." in learn_text(d), "found with a hint")
        elif i == 1:
            play_text(drv, bests[k])
            wait(drv, lambda d: "found!" in learn_text(d), "found")
        else:
            play_text(drv, played[k])
            wait(drv, lambda d: "Hint" in learn_text(d), "the hint")
            play_text(drv, played[k])
            wait(drv, lambda d: "not found" in learn_text(d), "not found")
            wait(drv, lambda d: review_arrow(d) is not None, "the answer's arrow")
        assert move_list(drv) == game, "a question's moves are judged, not played"
        drv.find_element(By.ID, "learn-next").click()
    wait(drv, lambda d: "found" in learn_text(d) and " of " in learn_text(d) and "find" not in learn_text(d),
         "the tally")
    return learn_text(drv), len(plies)


def side_with_two(drv):
    for side in ("black", "white"):
        if len([k for k, s in marked(drv) if s == side]) >= 2:
            return side
    raise AssertionError(f"no side has two marked moves: {move_list(drv)}")


def test_learn_from_your_mistakes(page):
    review_game(page, GAME, len(MAIN))
    assert page.find_element(By.ID, "learn-start").is_displayed()
    side = side_with_two(page)
    tally, n = learn_through(page, side)
    found = 2
    assert tally.endswith(f"{found} of {n} found, 1 with a hint."), tally
    # The game is as it was.
    assert [m.rstrip("?!") for m in move_list(page)] == MAIN


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)])
def test_screenshots_of_learning_and_a_reloaded_review(browser, server, size):
    name = "desktop" if size[0] > 700 else "phone"
    with at_size(browser, server, size):
        review_game(browser, BLUNDER_PDN, BLUNDER_PLIES)
        browser.refresh()
        wait(browser, lambda d: summary(d)[0].startswith("reviewed"), "the review after the reload")
        answered(browser, lambda: browser.find_element(By.ID, "ply-9").click(), "the blunder")
        wait(browser, lambda d: d.find_element(By.ID, "teach").is_displayed(), "the teaching panel")
        browser.execute_script("document.getElementById('review').scrollIntoView()")
        shot(browser, f"{SHOTS}review-reloaded-{name}.png")

        def shoot(what):
            browser.execute_script("document.getElementById('learn').scrollIntoView({block: 'center'})")
            shot(browser, f"{SHOTS}learn-{what}-{name}.png")

        review_game(browser, GAME, len(MAIN))
        side = side_with_two(browser)
        learn_through(browser, side, shoot)
        shoot("tally")
        width = browser.execute_script("return document.documentElement.clientWidth")
        assert browser.execute_script("return document.documentElement.scrollWidth") <= width
