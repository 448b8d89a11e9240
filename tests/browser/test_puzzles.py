"""Puzzles on the board (issue 68), in a real browser, by clicking: a puzzle played with its
solution is solved and raises the player's rating (kept across a reload); a move off it fails
the puzzle and lowers it; a reload brings back the puzzle and "back to my game" the game kept,
which the puzzle never replaced; a streak; the panel at a phone's size.

The solutions come from the set built into the board (puzzles/puzzles.tsv). The page, server
and helpers are test_board.py's; test_static_page.py runs these on the static page too.
"""

import json
import os

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from test_board import (  # noqa: F401 (fixtures)
    answered, at_size, browser, click_square, errors_shown, move_list, new_game, page, server,
    targets, wait,
)
from test_kept import shoot, storage, STORE

SET = os.path.join(os.path.dirname(__file__), "..", "..", "puzzles", "puzzles.tsv")


def solutions():
    """{id: (rating, fen, themes, [hub moves])} of the built-in set."""
    out = {}
    with open(SET, encoding="utf-8") as f:
        for line in f:
            pid, rating, fen, themes, moves = line.rstrip("\n").split("\t")
            out[pid] = (int(rating), fen, themes.split(","), moves.split())
    return out


def shown_id(drv):
    wait(drv, lambda d: d.find_element(By.ID, "puzzle-info").is_displayed(), "a puzzle")
    text = drv.find_element(By.ID, "puzzle-result").text
    return text.split()[1].rstrip(",")


def task(drv):
    return drv.find_element(By.ID, "puzzle-task").text


def rating(drv):
    return int(drv.find_element(By.ID, "puzzle-player").text.split()[2])


def play_hub(drv, hub):
    """Click the move `hub` (Hub notation: from, to, then the pieces taken)."""
    squares = [int(x) for x in hub.replace("x", "-").split("-")]
    click_square(drv, squares[0])
    click_square(drv, squares[1])
    chooser = drv.find_element(By.ID, "chooser")
    if chooser.is_displayed():
        drv.find_element(By.CSS_SELECTOR, f'#chooser-options .choice[data-hub="{hub}"]').click()


def next_puzzle(drv, theme=""):
    Select(drv.find_element(By.ID, "puzzle-theme")).select_by_value(theme)
    answered(drv, drv.find_element(By.ID, "puzzle-next").click, "the puzzle")
    return shown_id(drv)


def solve(drv, moves):
    for k in range(0, len(moves), 2):
        before = len(move_list(drv))
        answered(drv, lambda: play_hub(drv, moves[k]), f"the answer to {moves[k]}")
        want = before + (2 if k + 1 < len(moves) else 1)
        wait(drv, lambda d: len(move_list(d)) == want, "the move and the reply listed")


def test_a_puzzle_solved_by_clicking_raises_the_rating(page):
    sets = solutions()
    pid = next_puzzle(page)
    assert pid in sets, pid
    rated, fen, themes, moves = sets[pid]
    assert "to move: find" in task(page), task(page)
    assert rating(page) == 1500
    solve(page, moves)
    wait(page, lambda d: task(d) == "Solved!", "solved")
    assert rating(page) > 1500, page.find_element(By.ID, "puzzle-player").text
    assert "(+" in page.find_element(By.ID, "puzzle-result").text
    page.find_element(By.ID, "puzzle-show").click()
    sol = page.find_element(By.ID, "puzzle-solution")
    assert sol.is_displayed() and sol.text == "Solution: " + " ".join(moves), sol.text
    shoot(page, "puzzle-solved.png")
    # The rating is kept per browser: a reload hands it to the board again.
    kept = json.loads(storage(page)["poolshark-puzzle-player"])
    assert kept["rating"] == rating(page) and kept["rd"] < 350
    assert not errors_shown(page), errors_shown(page)


def test_a_move_off_the_solution_fails_the_puzzle(page):
    sets = solutions()
    pid = next_puzzle(page)
    moves = sets[pid][3]
    first = moves[0]
    # Any other legal move of the solver: a piece with a target that is not the solution's.
    wrong = None
    for n in range(1, 33):
        click_square(page, n)
        for t in targets(page):
            hub_from, hub_to = [int(x) for x in first.replace("x", "-").split("-")[:2]]
            if (n, t) != (hub_from, hub_to):
                wrong = (n, t)
                break
        if wrong:
            break
    assert wrong, "no other move"
    answered(page, lambda: click_square(page, wrong[1]), "the wrong move")
    if page.find_element(By.ID, "chooser").is_displayed():
        answered(page, page.find_element(By.ID, "choice-0").click, "the wrong move")
    wait(page, lambda d: task(d).startswith("Not the move"), "failed")
    assert rating(page) < 1500
    shoot(page, "puzzle-failed.png")
    # The solution is offered, and the position is free: analysis is allowed again.
    assert page.find_element(By.ID, "puzzle-show").is_displayed()
    assert not errors_shown(page), errors_shown(page)
    # A reload brings the puzzle back, and failing it again moves the rating no more.
    failed_at = rating(page)
    page.refresh()
    assert shown_id(page) == pid
    wait(page, lambda d: "to move: find" in task(d), "the puzzle again")
    click_square(page, wrong[0])
    answered(page, lambda: click_square(page, wrong[1]), "the wrong move again")
    if page.find_element(By.ID, "chooser").is_displayed():
        answered(page, page.find_element(By.ID, "choice-0").click, "the wrong move again")
    wait(page, lambda d: task(d).startswith("Not the move"), "failed again")
    assert rating(page) == failed_at


def test_a_puzzle_never_replaces_the_kept_game(page, server):
    new_game(page, "human")
    for hub in ("11-15", "23-19"):
        answered(page, lambda: play_hub(page, hub), hub)
    wait(page, lambda d: move_list(d) == ["11-15", "23-19"], "the game")
    wait(page, lambda d: "23-19" in (json.loads(storage(d)[STORE]).get("pdn") or ""), "the game kept")
    pid = next_puzzle(page)
    moves = solutions()[pid][3]
    answered(page, lambda: play_hub(page, moves[0]), "a move of the puzzle")
    # The kept record is still the game.
    kept = json.loads(storage(page)[STORE])
    assert kept["path"] == ["11-15", "23-19"], kept
    # A reload: the game comes back, then the same puzzle from its start.
    page.refresh()
    wait(page, lambda d: d.find_element(By.ID, "puzzle-info").is_displayed(), "the puzzle again")
    assert shown_id(page) == pid
    wait(page, lambda d: task(d).endswith("move") or "to move" in task(d), "playing again")
    assert json.loads(storage(page)[STORE])["path"] == ["11-15", "23-19"]
    # Back to the game kept.
    page.find_element(By.ID, "puzzle-leave").click()
    wait(page, lambda d: move_list(d) == ["11-15", "23-19"], "the kept game back")
    assert not page.find_element(By.ID, "puzzle-info").is_displayed()
    assert not errors_shown(page), errors_shown(page)


def test_a_streak_counts_the_puzzles_solved(page):
    sets = solutions()
    answered(page, page.find_element(By.ID, "puzzle-streak").click, "the streak's first puzzle")
    pid = shown_id(page)
    assert "streak 0" in page.find_element(By.ID, "puzzle-player").text
    solve(page, sets[pid][3])
    wait(page, lambda d: "streak 1" in d.find_element(By.ID, "puzzle-player").text, "streak 1")
    assert page.find_element(By.ID, "puzzle-next").text == "next in the streak"
    nxt = next_puzzle(page)
    assert nxt != pid
    assert "streak 1" in page.find_element(By.ID, "puzzle-player").text
    assert rating(page) == 1500, "a streak is not rated"


def test_a_puzzle_at_a_phones_size(browser, server):
    with at_size(browser, server, (390, 844)) as drv:
        wait(drv, lambda d: "connected" == d.find_element(By.ID, "conn").get_attribute("class").split()[-1],
             "the page to connect")
        pid = next_puzzle(drv, "shot")
        assert "shot" in solutions()[pid][2]
        drv.find_element(By.ID, "puzzle-panel").location_once_scrolled_into_view
        shoot(drv, "puzzle-phone.png")
        moves = solutions()[pid][3]
        drv.execute_script("window.scrollTo(0, 0)")
        solve(drv, moves)
        wait(drv, lambda d: task(d) == "Solved!", "solved at a phone's size")
        shoot(drv, "puzzle-phone-solved.png")


def test_a_puzzle_opens_for_analysis_in_a_new_tab(page):
    sets = solutions()
    pid = next_puzzle(page)
    moves = sets[pid][3]
    solve(page, moves)
    wait(page, lambda d: task(d) == "Solved!", "solved")
    here = page.current_window_handle
    before = set(page.window_handles)
    page.find_element(By.ID, "puzzle-analyse").click()
    wait(page, lambda d: len(d.window_handles) == len(before) + 1, "the new tab")
    page.switch_to.window((set(page.window_handles) - before).pop())
    wait(page, lambda d: len(move_list(d)) == len(moves), "the puzzle's game in the new tab")
    assert not page.find_element(By.ID, "puzzle-info").is_displayed(), "a study board, no puzzle"
    fen = page.find_element(By.ID, "fen").text
    assert fen, "a position"
    shoot(page, "puzzle-analysed.png")
    page.close()
    page.switch_to.window(here)
    assert task(page) == "Solved!"


def test_a_new_game_after_a_puzzle_puts_the_kept_game_aside(page):
    """New game during a puzzle replaces what is on the board, the puzzle; the game kept
    before it, out of sight, is put aside and offered, never overwritten."""
    new_game(page, "human")
    for hub in ("11-15", "23-19"):
        answered(page, lambda: play_hub(page, hub), hub)
    wait(page, lambda d: "23-19" in (json.loads(storage(d)[STORE]).get("pdn") or ""), "the game kept")
    next_puzzle(page)
    new_game(page, "human")
    wait(page, lambda d: "put aside, not lost" in d.find_element(By.ID, "kept-note").text, "the note")
    aside = [v for k, v in storage(page).items() if k.startswith("poolshark-board-aside-")]
    assert len(aside) == 1 and "23-19" in json.loads(aside[0])["pdn"], aside
    shoot(page, "puzzle-left-kept-aside.png")
