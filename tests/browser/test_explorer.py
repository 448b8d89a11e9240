"""Issue 69, item 4: the opening explorer on the board, as a person uses it: opened at the
start, it lists the book's moves, each legal with a score, and how the shipped games went; a
click plays a move and the list follows the new position; a position off the book and the
games says so.
"""

import subprocess

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from test_board import (  # noqa: F401  (fixtures)
    POOLSHARK, browser, page, server, wait, move_list, answered, load_pdn, at_size, errors_shown,
)
from test_study import shot  # issue 69's screenshots, in target/shots-69

def rows(drv):
    """The explorer's rows: (move, book score, games), read in one call."""
    return [tuple(r) for r in drv.execute_script(
        "return [...document.querySelectorAll('#explorer-moves tbody tr')].map("
        "tr => [...tr.cells].slice(0, 3).map(td => td.textContent))")]


def test_the_explorer_lists_the_book_at_the_start_and_follows_the_moves(page):
    page.find_element(By.ID, "explore").click()
    wait(page, lambda d: len(rows(d)) > 1, "the explorer's moves")
    first = rows(page)
    booked = [r for r in first if r[1] != "–"]
    assert len(booked) >= 2, first
    # Every move listed is legal at the start (PDN, as `poolshark moves` prints it second).
    out = subprocess.run([POOLSHARK, "moves"], capture_output=True, text=True, check=True).stdout
    pdn = {line.split()[1] for line in out.splitlines() if line.strip()}
    assert {r[0] for r in first} <= pdn, (first, pdn)
    games = sum(int(r[2]) for r in first)
    note = page.find_element(By.ID, "explorer-note").text
    assert f"({games} games)" in note and "self-play" in note, note
    page.execute_script("document.getElementById('explorer-panel').scrollIntoView()")
    # The move under the pointer drawn on the board as an arrow, gone when it leaves.
    first_row = page.find_elements(By.CSS_SELECTOR, "#explorer-moves tbody tr")[0]
    ActionChains(page).move_to_element(first_row).perform()
    hover = "const g = document.querySelector('#board .hover-arrow'); return g && g.dataset.path"
    wait(page, lambda d: d.execute_script(hover) == first_row.get_attribute("data-path").replace(",", "-"),
         "the hovered move's arrow")
    shot(page, "explorer-start.png")
    ActionChains(page).move_to_element(page.find_element(By.ID, "explore")).perform()
    wait(page, lambda d: d.execute_script(hover) is None, "the arrow gone")
    move = first[0][0]
    row = page.find_elements(By.CSS_SELECTOR, "#explorer-moves tbody tr")[0]
    answered(page, row.click, "the explorer's move played")
    # (The engine plays White by default, and may have answered already.)
    wait(page, lambda d: move_list(d)[:1] == [move], "the move in the list")
    wait(page, lambda d: rows(d) and rows(d) != first, "the explorer at the new position")
    # Off the book and the games: it says so.
    load_pdn(page, '[FEN "W:WK1,K2:BK32"]\n*\n')
    wait(page, lambda d: "none of the games" in d.find_element(By.ID, "explorer-note").text, "nothing known")
    assert rows(page) == []
    page.find_element(By.ID, "explore").click()
    assert not page.find_element(By.ID, "explorer").is_displayed()
    assert not errors_shown(page)


def test_the_explorer_at_a_phones_size(browser, server):
    with at_size(browser, server, (390, 844)):
        browser.find_element(By.ID, "explore").click()
        wait(browser, lambda d: len(rows(d)) > 1, "the explorer's moves")
        width = browser.execute_script("return document.documentElement.clientWidth")
        assert browser.execute_script("return document.documentElement.scrollWidth") <= width, \
            "the page scrolls sideways"
        browser.execute_script("document.getElementById('explorer-panel').scrollIntoView()")
        shot(browser, "explorer-phone.png")
