"""Endgame practice on the served board (issue 68), in a real browser, by clicking: a board
with the endgame tables of 3 pieces (built here: the practice played has 3) defends with
them; the tables' winning moves solve a practice, a move that throws the win away fails it,
and a board without tables says so. The moves to click come from `poolshark analyze` and
`egdb probe` with the same tables.
"""

import re
import subprocess

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from test_board import (  # noqa: F401 (fixtures)
    POOLSHARK, answered, at_size, browser, errors_shown, new_driver, page, server, stop_server, wait,
)
from test_kept import shoot
from test_puzzles import play_hub

TABLES = "target/test-egdb3"


def poolshark(*args):
    return subprocess.run([POOLSHARK, *args], capture_output=True, text=True, check=True).stdout


@pytest.fixture(scope="module")
def egdb_server():
    # Resumable: a finished build is loaded, not solved again.
    poolshark("egdb", "build", "--pieces", "3", "--dir", TABLES)
    proc = subprocess.Popen([POOLSHARK, "serve", "--port", "0", "--egdb", TABLES], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    m = re.search(r"(http://127\.0\.0\.1:\d+/)", proc.stdout.readline())
    assert m, proc.stderr.read()
    yield m.group(1)
    stop_server(proc)


@pytest.fixture
def tserver(egdb_server):
    """The board with tables (test_static_page.py has its own: the static page)."""
    return egdb_server


@pytest.fixture
def tpage(browser, egdb_server):
    browser.get(egdb_server + "style.css")
    browser.execute_script("localStorage.clear(); sessionStorage.clear()")
    browser.get(egdb_server)
    wait(browser, lambda d: d.find_element(By.ID, "fen").text != "", "the first state")
    return browser


def start(drv, pid):
    Select(drv.find_element(By.ID, "practice-id")).select_by_value(pid)
    answered(drv, drv.find_element(By.ID, "practice-start").click, "the practice")
    wait(drv, lambda d: d.find_element(By.ID, "practice-info").is_displayed(), "the practice shown")


def task(drv):
    return drv.find_element(By.ID, "practice-task").text


def fen(drv):
    return drv.find_element(By.ID, "fen").text


def test_a_practice_played_with_the_tables_moves_is_solved(tpage):
    start(tpage, "two-kings-corner")
    assert "win against the tables' defence" in task(tpage), task(tpage)
    # The engine, analysis and the review are greyed while it is played (the board refuses them).
    for button in ("engine-move", "analyze", "review-run", "play-here"):
        assert not tpage.find_element(By.ID, button).is_enabled(), button
    play_the_tables_moves(tpage)
    shoot(tpage, "practice-solved.png")
    assert not errors_shown(tpage), errors_shown(tpage)


def play_the_tables_moves(drv):
    """Click the tables' winning move (`poolshark analyze` with the 3-piece tables) at each
    turn of the person's until the practice is solved."""
    person = fen(drv)[0]
    for _ in range(40):
        if "done!" in task(drv) or "gone" in task(drv):
            break
        f = fen(drv)
        if f[0] != person:
            wait(drv, lambda d: fen(d) != f, "the tables' reply")
            continue
        best = re.search(r"^bestmove (\S+)", poolshark("analyze", "--fen", f, "--egdb", TABLES, "--nodes", "100000"),
                         re.M).group(1)
        answered(drv, lambda: play_hub(drv, best), f"the answer to {best}")
        wait(drv, lambda d: fen(d) != f, "the move played")
    wait(drv, lambda d: "done!" in task(d), "the practice solved")


def test_a_practice_at_a_phones_size(browser, tserver):
    """The practice panel, the board and the tables' verdict at a phone's size, solved by
    clicking."""
    with at_size(browser, tserver, (390, 844)) as drv:
        start(drv, "king-stops-man")
        wait(drv, lambda d: d.find_element(By.ID, "egdb").text.startswith("database:"), "the tables' verdict")
        shoot(drv, "practice-phone.png")
        start(drv, "two-kings-corner")
        play_the_tables_moves(drv)
        shoot(drv, "practice-phone-solved.png")
        drv.execute_script("document.getElementById('practice-info').scrollIntoView()")
        shoot(drv, "practice-phone-solved-panel.png")
        assert not errors_shown(drv), errors_shown(drv)


def test_a_move_that_throws_the_win_away_fails_the_practice(tpage):
    start(tpage, "two-kings-corner")
    f = fen(tpage)
    bad = None
    for line in poolshark("moves", "--fen", f).splitlines():
        hub = line.split()[0]
        after = re.search(r"^FEN: (\S+)", poolshark("show", "--fen", f, "--moves", hub), re.M).group(1)
        probe = subprocess.run([POOLSHARK, "egdb", "probe", "--fen", after, "--dir", TABLES],
                               capture_output=True, text=True).stdout
        if "wdl50=loss" not in probe:
            bad = hub
            break
    assert bad, "a move that lets the king out"
    answered(tpage, lambda: play_hub(tpage, bad), "the bad move")
    wait(tpage, lambda d: "the win is gone" in task(d), "the practice failed")
    shoot(tpage, "practice-failed.png")


def test_a_board_without_tables_says_so(browser, tmp_path):
    empty = tmp_path / "no-tables"
    empty.mkdir()
    proc = subprocess.Popen([POOLSHARK, "serve", "--port", "0", "--egdb", str(empty)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        url = re.search(r"(http://127\.0\.0\.1:\d+/)", proc.stdout.readline()).group(1)
        browser.get(url)
        wait(browser, lambda d: d.find_element(By.ID, "fen").text != "", "the first state")
        browser.find_element(By.ID, "practice-start").click()
        wait(browser, lambda d: any("needs the endgame tables" in e for e in errors_shown(d)), "the refusal")
        assert not browser.find_element(By.ID, "practice-info").is_displayed()
    finally:
        stop_server(proc)


def test_each_moves_verdict_is_listed_and_a_click_plays_it(tpage):
    """Issue 69, item 5: under the tables' verdict, each legal move with its verdict for the
    side that plays it, as lichess's tablebase panel: the quickest win first, agreeing with
    `egdb probe` after the move; a click plays it. While a practice is played the list is
    empty: it would give the answer."""
    from test_board import set_fen
    set_fen(tpage, "W:WK14,K22:BK29")
    wait(tpage, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#egdb-moves .egdb-move")) > 0, "the moves' verdicts")
    rows = tpage.execute_script(
        "return [...document.querySelectorAll('#egdb-moves .egdb-move')].map("
        "b => [b.dataset.hub, b.classList.contains('win') ? 'win' : b.classList.contains('loss') ? 'loss' : 'draw',"
        " b.querySelector('.egdb-move-result').textContent])")
    legal = poolshark("moves", "--fen", "W:WK14,K22:BK29").split("\n")
    assert len(rows) == len([m for m in legal if m.strip()]), rows
    assert rows[0][1] == "win" and rows[0][2].startswith("wins in "), rows
    for hub, result, _ in rows[:3] + rows[-2:]:
        after = poolshark("show", "--fen", "W:WK14,K22:BK29", "--moves", hub)
        after_fen = re.search(r"FEN: (\S+)", after).group(1)
        probe = subprocess.run([POOLSHARK, "egdb", "probe", "--fen", after_fen, "--dir", TABLES],
                               capture_output=True, text=True).stdout
        wdl = re.search(r"wdl=(\S)", probe).group(1)
        assert {"L": "win", "D": "draw", "W": "loss"}[wdl] == result, (hub, result, probe)
    first = tpage.find_element(By.CSS_SELECTOR, "#egdb-moves .egdb-move")
    ActionChains(tpage).move_to_element(first).perform()
    wait(tpage, lambda d: d.execute_script(
        "const g = document.querySelector('#board .hover-arrow'); return g && g.dataset.path")
         == first.get_attribute("data-path").replace(",", "-"), "the hovered move's arrow")
    shoot(tpage, "egdb-moves.png")
    before = fen(tpage)
    answered(tpage, first.click, "the move played")
    wait(tpage, lambda d: fen(d) != before and fen(d).startswith("B"), "Black to move after it")
    start(tpage, "two-kings-corner")
    wait(tpage, lambda d: d.find_element(By.ID, "egdb").text.startswith("database:"), "the verdict")
    assert tpage.find_elements(By.CSS_SELECTOR, "#egdb-moves .egdb-move") == [], "no answers in a practice"
