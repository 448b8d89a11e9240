"""The board page in a real browser: headless Chromium driven by Selenium.

Each test starts from a fresh page (a new WebSocket, so a new game on the server) of one
`poolshark serve --port 0`, and acts only as a person would: clicks on squares, buttons and
the move list, typing into the FEN and PDN boxes. What it checks is what the page shows: the
pieces on the squares (`data-piece`), the move list, the status line, the message area.

The waits are there so a hung page fails instead of blocking; none of them measures speed.
"""

import contextlib
import os
import re
import subprocess
import tempfile

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

POOLSHARK = os.environ.get("POOLSHARK", "target/ci/poolshark")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
SCREENSHOT = os.environ.get("SCREENSHOT", "target/board.png")
WAIT = int(os.environ.get("BROWSER_WAIT", "60"))  # seconds before a wait gives up: a hang guard, not a speed limit

# R15: the man on 26 can reach 1 two ways, over 22 and 14 (via 17 and 10) or over 23 and 15
# (via 19 and 10); both take 6 last and crown on 1. Checked with `poolshark moves`.
R15_FEN = "W:W26:B6,8,14,15,21,22,23"


def start_server():
    proc = subprocess.Popen([POOLSHARK, "serve", "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    m = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
    if not m:
        proc.kill()
        raise AssertionError(f"no address from poolshark serve: {line!r} {proc.stderr.read()}")
    return proc, m.group(1)


def stop_server(proc):
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="module")
def server():
    proc, url = start_server()
    yield url
    stop_server(proc)


def new_driver():
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1100,1000", "--hide-scrollbars"):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)


@pytest.fixture(scope="module")
def browser():
    drv = new_driver()
    yield drv
    drv.quit()


def severe(drv):
    """The console's errors, less the favicon request of the style.css page that `page` opens
    first: that page is no HTML, so the browser asks for /favicon.ico (the board's own page
    names an icon of its own and never does), and the 404 may reach the log after `page` has
    read it, in the test that comes next (seen with Chromium 156.0.8078.114)."""
    return [e for e in drv.get_log("browser")
            if e.get("level") == "SEVERE"
            and not (e.get("source") == "network" and "/favicon.ico " in e.get("message", ""))]


@pytest.fixture
def page(browser, server):
    """A fresh page, connected. After the test: no JavaScript error in the console."""
    # The page keeps its game in localStorage, and a tab its id and its puzzle in
    # sessionStorage (a puzzle left by an earlier test would come back and refuse analysis):
    # start each test with none, from a page of the
    # same origin that runs no script.
    browser.get(server + "style.css")
    browser.execute_script("localStorage.clear(); sessionStorage.clear()")
    browser.get_log("browser")  # drop what earlier tests left (its favicon 404 may come later: severe)
    browser.get(server)
    wait(browser, lambda d: "connected" == d.find_element(By.ID, "conn").get_attribute("class").split()[-1],
         "the page to connect")
    wait(browser, lambda d: d.find_element(By.ID, "fen").text != "", "the first state")
    yield browser
    errors = severe(browser)
    assert not errors, f"JavaScript errors in the console: {errors}"


def wait(drv, cond, what):
    def safe(d):
        try:
            return cond(d)
        except StaleElementReferenceException:
            return False
    return WebDriverWait(drv, WAIT, poll_frequency=0.25).until(safe, f"timed out waiting for {what}")


# ---------- reading the page ----------

def retry_stale(read):
    """A read of the board, retried when a state message redrew it under us."""
    def wrapped(*args):
        for _ in range(50):
            try:
                return read(*args)
            except StaleElementReferenceException:
                continue
        return read(*args)
    return wrapped


def states(drv):
    """How many state messages the page has received."""
    return int(drv.find_element(By.ID, "board").get_attribute("data-states") or 0)


def answered(drv, action, what):
    """Do `action` and wait for the server's next state."""
    before = states(drv)
    action()
    wait(drv, lambda d: states(d) > before, what)


def square(drv, n):
    return drv.find_element(By.CSS_SELECTOR, f'#board g[data-square="{n}"]')


# The readers below read the page in one script call, not an element at a time: a page that
# redraws twice a second (an engine game) made a read of 80 moves, one round trip each, go
# stale every time on a loaded machine, and a wait on it ran for minutes.

def pieces(drv):
    """{square: piece} as drawn: b/w men, B/W kings."""
    drawn = drv.execute_script(
        "return Array.from(document.querySelectorAll('#board g[data-piece]'),"
        " g => [g.getAttribute('data-square'), g.getAttribute('data-piece')])")
    return {int(sq): piece for sq, piece in drawn}


def targets(drv):
    return sorted(int(sq) for sq in drv.execute_script(
        "return Array.from(document.querySelectorAll('#board g[data-target]'),"
        " g => g.getAttribute('data-square'))"))


def move_list(drv):
    """The moves listed, as shown (a hidden list reads as its text all the same)."""
    return drv.execute_script(
        "return Array.from(document.querySelectorAll('#moves .move:not(.start)'),"
        " e => e.innerText.trim())")


def status(drv):
    return drv.find_element(By.ID, "status").text


def errors_shown(drv):
    return [e.text for e in drv.find_elements(By.CSS_SELECTOR, "#messages .msg.error")]


@retry_stale
def click_square(drv, n):
    square(drv, n).click()


def set_level_depth(drv, depth):
    Select(drv.find_element(By.ID, "level-kind")).select_by_value("depth")
    box = drv.find_element(By.ID, "level-value")
    box.clear()
    box.send_keys(str(depth))
    drv.find_element(By.ID, "level-set").click()
    wait(drv, lambda d: f"depth {depth}" in d.find_element(By.ID, "players").text, "the new level")


def new_game(drv, mode):
    Select(drv.find_element(By.ID, "mode")).select_by_value(mode)
    answered(drv, drv.find_element(By.ID, "new-game").click, "the new game")


def set_fen(drv, fen):
    box = drv.find_element(By.ID, "fen-input")
    box.clear()
    box.send_keys(fen)
    drv.find_element(By.ID, "fen-set").click()


def play_any_move(drv, colour):
    """Click pieces of `colour` until one shows targets, then click its first target."""
    for n, p in sorted(pieces(drv).items()):
        if p.lower() != colour:
            continue
        click_square(drv, n)
        ts = targets(drv)
        if ts:
            click_square(drv, ts[0])
            if drv.find_element(By.ID, "chooser").is_displayed():
                drv.find_element(By.ID, "choice-0").click()
            return n, ts[0]
    raise AssertionError(f"no {colour} piece shows a target: {pieces(drv)}")


@contextlib.contextmanager
def at_size(browser, server, size):
    """A fresh page (no saved game) in a window of `size`, for screenshots; the usual size
    again after."""
    browser.set_window_size(*size)
    try:
        browser.get(server + "style.css")
        browser.execute_script("localStorage.clear(); sessionStorage.clear()")
        browser.get(server)
        wait(browser, lambda d: d.find_element(By.ID, "fen").text != "", "the first state")
        yield browser
    finally:
        browser.set_window_size(1100, 1000)


# ---------- the tests ----------

def test_the_board_names_its_own_icon(page):
    # `severe` lets a 404 for /favicon.ico pass; the board's page must not cause one.
    href = page.execute_script(
        "const l = document.querySelector('link[rel~=\"icon\"]'); return l && l.getAttribute('href');")
    assert href, "the page names no icon, so the browser asks the server for /favicon.ico"


def test_play_a_short_game_against_the_engine_and_take_back(page):
    set_level_depth(page, 3)
    new_game(page, "black")
    wait(page, lambda d: status(d).startswith("Black to move") and move_list(d) == [], "a new game")
    start = pieces(page)
    assert sorted(start) == list(range(1, 13)) + list(range(21, 33))

    for k in range(1, 4):
        before = pieces(page)
        src, dst = play_any_move(page, "b")
        # The engine (White) replies by itself: two more plies in the list, Black to move.
        wait(page, lambda d: len(move_list(d)) == 2 * k and status(d).startswith("Black to move"),
             f"the engine's reply to move {k}")
        after = pieces(page)
        # Our move is in the list as clicked (the engine's reply may have taken that man).
        mine = move_list(page)[2 * k - 2]
        assert re.split(r"[-x]", mine)[0] == str(src) and re.split(r"[-x]", mine)[-1] == str(dst), mine
        white_before = {n for n, p in before.items() if p in "wW"}
        white_after = {n for n, p in after.items() if p in "wW"}
        assert white_before != white_after, "the engine's move changed no white piece"

    history = move_list(page)
    assert len(history) == 6 and all(re.fullmatch(r"\d+(-|x)\d+(x\d+)*", m) for m in history)

    # Take back against the engine goes to our last turn: both its reply and our move.
    shown = pieces(page)
    page.find_element(By.ID, "undo").click()
    wait(page, lambda d: "current" in d.find_element(By.ID, "ply-4").get_attribute("class"),
         "the take-back")
    assert status(page).startswith("Black to move"), status(page)
    assert pieces(page) != shown
    # Forward twice restores the position.
    page.find_element(By.ID, "redo").click()
    wait(page, lambda d: "current" in d.find_element(By.ID, "ply-5").get_attribute("class"),
         "the move forward")
    page.find_element(By.ID, "redo").click()
    wait(page, lambda d: "current" in d.find_element(By.ID, "ply-6").get_attribute("class"),
         "the move forward")
    assert pieces(page) == shown


def test_take_back_between_two_players(page):
    new_game(page, "human")
    wait(page, lambda d: move_list(d) == [] and status(d).startswith("Black to move"), "a new game")
    click_square(page, 11)
    assert targets(page) == [15, 16]
    click_square(page, 15)
    wait(page, lambda d: move_list(d) == ["11-15"], "the move 11-15")
    assert pieces(page).get(15) == "b" and 11 not in pieces(page)
    page.find_element(By.ID, "undo").click()
    wait(page, lambda d: pieces(d).get(11) == "b", "the take-back")
    assert 15 not in pieces(page)
    assert status(page).startswith("Black to move")
    assert page.find_element(By.ID, "redo").is_enabled()
    # The right arrow key goes forward again.
    page.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    wait(page, lambda d: pieces(d).get(15) == "b", "the move forward")


def test_choose_between_two_capture_paths(page):
    # A bad FEN gets the server's error in the message area, and changes nothing.
    fen_before = page.find_element(By.ID, "fen").text
    set_fen(page, "W:W99:B1")
    wait(page, lambda d: errors_shown(d), "the error message")
    assert page.find_element(By.ID, "fen").text == fen_before

    set_fen(page, R15_FEN)
    wait(page, lambda d: pieces(d) == {26: "w", 6: "b", 8: "b", 14: "b", 15: "b", 21: "b",
                                       22: "b", 23: "b"}, "the R15 position")
    assert not errors_shown(page)
    click_square(page, 26)
    assert 1 in targets(page)
    click_square(page, 1)
    chooser = page.find_element(By.ID, "chooser")
    assert chooser.is_displayed()
    options = page.find_elements(By.CSS_SELECTOR, "#chooser-options .choice")
    assert len(options) == 2
    taken = [o.get_attribute("data-captured") for o in options]
    assert taken == ["6,14,22", "6,15,23"]
    assert "14" in options[0].text and "22" in options[0].text
    assert "15" in options[1].text and "23" in options[1].text
    # The pieces each option takes are marked on the board.
    marked = lambda d: sorted(int(g.get_attribute("data-square"))
                              for g in d.find_elements(By.CSS_SELECTOR, "#board g[data-taken]"))
    assert marked(page) == [6, 14, 22]
    page.save_screenshot(os.path.join(os.path.dirname(SCREENSHOT) or ".", "board-chooser.png"))
    page.find_element(By.ID, "choice-1").click()
    # The capture is shown jump by jump; the position after it once it is done.
    wait(page, lambda d: 26 not in pieces(d)
         and d.find_element(By.ID, "board").get_attribute("data-anim-step") == "", "the capture")
    after = pieces(page)
    # The second path took 6, 15 and 23; 14 and 22 stay; the man crowned on 1 (R14).
    assert after == {1: "W", 8: "b", 14: "b", 21: "b", 22: "b"}, after
    assert not page.find_element(By.ID, "chooser").is_displayed()
    assert len(move_list(page)) == 1


PDN_GAME = """[Event "browser test"]
[GameType "23"]
[Result "*"]
1. 11-15 23-19 2. 8-11 22-17 3. 9-13 *
"""


def test_load_pdn_and_go_to_a_move(page):
    box = page.find_element(By.ID, "pdn-input")
    box.clear()
    box.send_keys(PDN_GAME)
    page.find_element(By.ID, "pdn-load").click()
    wait(page, lambda d: move_list(d) == ["11-15", "23-19", "8-11", "22-17", "9-13"], "the loaded game")
    rows = [r.text.split() for r in page.find_elements(By.CSS_SELECTOR, "#moves .move-row")]
    assert rows == [["1.", "11-15", "23-19"], ["2.", "8-11", "22-17"], ["3.", "9-13"]]
    # Clicking a move shows the position after it.
    page.find_element(By.ID, "ply-2").click()
    wait(page, lambda d: "current" in d.find_element(By.ID, "ply-2").get_attribute("class"), "goto 2")
    p = pieces(page)
    assert p.get(15) == "b" and p.get(19) == "w" and 11 not in p and 23 not in p
    assert status(page).startswith("Black to move")

    # The file input loads a game too.
    with tempfile.NamedTemporaryFile("w", suffix=".pdn", delete=False) as f:
        f.write('[GameType "23"]\n1. 10-14 24-20 *\n')
        path = f.name
    try:
        page.find_element(By.ID, "pdn-file").send_keys(os.path.abspath(path))
        wait(page, lambda d: move_list(d) == ["10-14", "24-20"], "the game from the file")
    finally:
        os.unlink(path)

    # Save asks the server for the PDN and shows it in the box.
    box.clear()
    page.find_element(By.ID, "pdn-save").click()
    wait(page, lambda d: "10-14" in d.find_element(By.ID, "pdn-input").get_attribute("value"),
         "the saved PDN")
    assert '[GameType "23"]' in box.get_attribute("value")


def test_analysis_and_screenshot(page):
    box = page.find_element(By.ID, "pdn-input")
    box.clear()
    box.send_keys('[GameType "23"]\n1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17-14 4. 10x17 21x14 *\n')
    page.find_element(By.ID, "pdn-load").click()
    wait(page, lambda d: len(move_list(d)) == 8, "the loaded game")
    page.find_element(By.ID, "analyze").click()
    wait(page, lambda d: d.find_element(By.ID, "info-depth").text not in ("–", "")
         and d.find_element(By.ID, "info-pv").text != "", "live analysis")
    score = page.find_element(By.ID, "info-score").text
    assert re.fullmatch(r"Black [+-]?\d+\.\d\d", score), score
    click_square(page, 15)
    assert targets(page) == [18]
    os.makedirs(os.path.dirname(SCREENSHOT) or ".", exist_ok=True)
    page.save_screenshot(SCREENSHOT)
    page.find_element(By.ID, "analyze").click()
    wait(page, lambda d: d.find_element(By.ID, "analyze").get_attribute("aria-pressed") == "false",
         "analysis to stop")


def test_disconnected_is_shown():
    proc, url = start_server()
    drv = new_driver()
    try:
        drv.get(url)
        wait(drv, lambda d: d.find_element(By.ID, "fen").text != "", "the first state")
        stop_server(proc)
        wait(drv, lambda d: "disconnected" in d.find_element(By.ID, "conn").text, "disconnected")
        assert status(drv) == "disconnected"
        # A closed socket is not a JavaScript error.
        assert not [e for e in severe(drv) if "/js/" in e.get("message", "")]
    finally:
        drv.quit()
        if proc.poll() is None:
            stop_server(proc)


# ---------- issue 22 ----------

def shot(drv, name):
    os.makedirs(os.path.dirname(SCREENSHOT) or ".", exist_ok=True)
    drv.save_screenshot(os.path.join(os.path.dirname(SCREENSHOT) or ".", name))


def centre_y(drv, n):
    r = square(drv, n).find_element(By.TAG_NAME, "rect").rect
    return r["y"] + r["height"] / 2


def load_pdn(drv, text):
    box = drv.find_element(By.ID, "pdn-input")
    box.clear()
    box.send_keys(text)
    drv.find_element(By.ID, "pdn-load").click()


def current_ply(drv):
    return int(drv.find_element(By.CSS_SELECTOR, "#moves .current").get_attribute("data-ply"))


def test_first_load_puts_the_players_side_at_the_bottom(page):
    assert Select(page.find_element(By.ID, "mode")).first_selected_option.get_attribute("value") == "black"
    # Black's men start on 1-12: with Black at the bottom, square 1 is below square 32.
    assert centre_y(page, 1) > centre_y(page, 32)


def test_analysis_stays_on_after_new_game_setup_and_load(page):
    page.find_element(By.ID, "analyze").click()
    pressed = lambda d: d.find_element(By.ID, "analyze").get_attribute("aria-pressed") == "true"
    wait(page, pressed, "analysis on")
    for act in (lambda: new_game(page, "human"), lambda: set_fen(page, "W:WK3,18:BK29,5"),
                lambda: load_pdn(page, PDN_GAME)):
        answered(page, act, "the new position")
        wait(page, lambda d: d.find_element(By.ID, "info-depth").text not in ("–", ""), "analysis")
        assert pressed(page)
    page.find_element(By.ID, "analyze").click()


def test_a_typed_strength_is_used_by_new_game(page):
    Select(page.find_element(By.ID, "level-kind")).select_by_value("depth")
    box = page.find_element(By.ID, "level-value")
    box.clear()
    box.send_keys("2")
    new_game(page, "human")  # no "set" pressed
    wait(page, lambda d: "depth 2" in d.find_element(By.ID, "players").text, "the typed level")


def test_the_status_line_counts_moves_and_home_end_step_to_the_ends(page):
    load_pdn(page, PDN_GAME)
    wait(page, lambda d: len(move_list(d)) == 5, "the loaded game")
    page.find_element(By.ID, "ply-2").click()
    wait(page, lambda d: current_ply(d) == 2, "goto 2")
    assert "at move 1 of 3" in status(page), status(page)
    page.find_element(By.ID, "ply-3").click()
    wait(page, lambda d: current_ply(d) == 3, "goto 3")
    assert "at move 2 of 3" in status(page), status(page)
    body = page.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.HOME)
    wait(page, lambda d: current_ply(d) == 0, "Home")
    body.send_keys(Keys.END)
    wait(page, lambda d: current_ply(d) == 5, "End")
    body.send_keys(Keys.ARROW_LEFT)
    wait(page, lambda d: current_ply(d) == 4, "Left")


def test_escape_closes_the_capture_chooser(page):
    set_fen(page, R15_FEN)
    wait(page, lambda d: pieces(d).get(26) == "w", "the R15 position")
    click_square(page, 26)
    click_square(page, 1)
    assert page.find_element(By.ID, "chooser").is_displayed()
    page.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
    wait(page, lambda d: not d.find_element(By.ID, "chooser").is_displayed(), "the chooser to close")


def test_setup_palette_and_a_clear_message_for_an_empty_board(page):
    page.find_element(By.ID, "setup").click()
    page.find_element(By.ID, "setup-clear").click()
    page.find_element(By.ID, "setup-done").click()
    wait(page, lambda d: errors_shown(d), "the message")
    assert "at least one piece of each colour" in errors_shown(page)[0]
    assert "FEN" not in errors_shown(page)[0]
    page.find_element(By.CSS_SELECTOR, '#palette .pal[data-piece="W"]').click()
    click_square(page, 18)
    page.find_element(By.CSS_SELECTOR, '#palette .pal[data-piece="b"]').click()
    click_square(page, 5)
    click_square(page, 9)
    assert pieces(page) == {18: "W", 5: "b", 9: "b"}
    shot(page, "board-setup.png")
    answered(page, page.find_element(By.ID, "setup-done").click, "the set-up position")
    assert pieces(page) == {18: "W", 5: "b", 9: "b"}
    assert not errors_shown(page)


def test_a_capture_is_shown_jump_by_jump_and_its_men_marked(page):
    set_fen(page, R15_FEN)
    wait(page, lambda d: pieces(d).get(26) == "w", "the R15 position")
    page.execute_script("window.boardAnimMs = 1500")
    click_square(page, 26)
    click_square(page, 1)
    page.find_element(By.ID, "choice-1").click()  # 26x19x10x1 over 23, 15 and 6
    step = lambda d: d.find_element(By.ID, "board").get_attribute("data-anim-step")
    wait(page, lambda d: step(d) == "1", "the first jump")
    # After the first jump the man stands on 19 and only 23 is gone.
    p = pieces(page)
    assert p.get(19) == "w" and 23 not in p and 15 in p and 6 in p, p
    shot(page, "board-capture-step.png")
    wait(page, lambda d: step(d) == "", "the capture's end")
    marked = sorted(int(g.get_attribute("data-square"))
                    for g in page.find_elements(By.CSS_SELECTOR, "#board g[data-captured-last]"))
    assert marked == [6, 15, 23]
    assert page.find_element(By.CSS_SELECTOR, '#board g[data-last="to"]').get_attribute("data-square") == "1"


def test_a_win_by_capturing_everything_says_so(page):
    set_fen(page, "W:W14:B9")
    wait(page, lambda d: pieces(d).get(14) == "w", "the position")
    click_square(page, 14)
    click_square(page, 5)
    wait(page, lambda d: "Game over" in status(d), "the end")
    assert "no pieces left" in status(page), status(page)
    assert "draw" not in page.find_element(By.ID, "info-score").text


def test_analysis_line_numbers_preview_arrow_and_black_scores(page):
    load_pdn(page, PDN_GAME)  # White to move after 3. 9-13
    wait(page, lambda d: len(move_list(d)) == 5, "the loaded game")
    page.find_element(By.ID, "analyze").click()
    wait(page, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#info-pv .pv-move")) >= 3, "a line")
    # While it searches: its score, and its first move as the arrow (read at one moment).
    score, first_move, arrow_from = page.execute_script(
        "const a = document.querySelector('#board .best-arrow');"
        "return [document.getElementById('info-score').textContent,"
        " document.querySelector('#info-pv .pv-move').textContent, a && a.dataset.from]")
    assert re.fullmatch(r"Black [+-]?\d+\.\d\d", score), score
    assert arrow_from == re.split(r"[-x]", first_move.split("…")[1].strip())[0], (first_move, arrow_from)
    page.find_element(By.ID, "analyze").click()  # stop, so the line stays put
    wait(page, lambda d: d.find_element(By.ID, "analyze").get_attribute("aria-pressed") == "false", "stop")
    # Stopped (issue 69): no score and no arrow claim the position; the last lines stay, greyed.
    wait(page, lambda d: d.find_element(By.ID, "info-score").text == "–", "the score gone")
    assert not page.find_elements(By.CSS_SELECTOR, "#board .best-arrow")
    assert page.find_element(By.ID, "lines-stopped").is_displayed()
    moves = page.find_elements(By.CSS_SELECTOR, "#info-pv .pv-move")
    # White moves first in the line: "3… 23-18", then "4. ..." before Black's move.
    assert re.fullmatch(r"3…\s*\d+[-x]\d+", moves[0].text), moves[0].text
    assert re.fullmatch(r"4\.\s*\d+[-x]\d+(x\d+)*", moves[1].text), moves[1].text
    # No move is split over two lines.
    for m in moves:
        assert page.execute_script("return arguments[0].getClientRects().length", m) == 1
    before = pieces(page)
    moves[1].click()
    wait(page, lambda d: status(d).startswith("Showing"), "the line shown")
    assert pieces(page) != before
    page.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
    wait(page, lambda d: not status(d).startswith("Showing"), "back to the game")
    assert pieces(page) == before


def test_the_hovered_analysis_button_is_readable(page):
    from selenium.webdriver.common.action_chains import ActionChains
    page.find_element(By.ID, "analyze").click()
    b = page.find_element(By.ID, "analyze")
    wait(page, lambda d: b.get_attribute("aria-pressed") == "true", "analysis on")
    ActionChains(page).move_to_element(b).perform()
    ratio = page.execute_script("""
        const cs = getComputedStyle(arguments[0]);
        const rgb = (s) => s.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number);
        const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255;
            return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); })
            .reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i], 0);
        const a = lum(rgb(cs.color)), c = lum(rgb(cs.backgroundColor));
        return (Math.max(a, c) + 0.05) / (Math.min(a, c) + 0.05);""", b)
    assert ratio >= 4.5, ratio
    b.click()


def test_play_from_a_set_up_position_against_the_engine(page):
    set_level_depth(page, 2)
    set_fen(page, "W:W21,22,23:B1,2,3")
    wait(page, lambda d: pieces(d).get(21) == "w", "the position")
    Select(page.find_element(By.ID, "mode")).select_by_value("black")
    page.find_element(By.ID, "play-here").click()
    wait(page, lambda d: len(move_list(d)) == 1 and status(d).startswith("Black to move"),
         "the engine's move as White")
    assert page.find_element(By.ID, "fen").text != "W:W21,22,23:B1,2,3"


def test_reload_keeps_the_game_and_the_strength(page):
    set_level_depth(page, 3)
    new_game(page, "human")
    click_square(page, 11)
    click_square(page, 15)
    wait(page, lambda d: move_list(d) == ["11-15"], "the move")
    page.refresh()
    wait(page, lambda d: move_list(d) == ["11-15"], "the game after the reload")
    wait(page, lambda d: "depth 3" in d.find_element(By.ID, "players").text
         and "Black: human · White: human" in d.find_element(By.ID, "players").text,
         "the settings after the reload")


def test_a_pdn_of_several_games_offers_a_choice(page):
    two = '[Event "one"]\n1. 11-15 *\n\n[Event "two"]\n1. 9-13 22-18 *\n'
    load_pdn(page, two)
    wait(page, lambda d: d.find_element(By.ID, "games-row").is_displayed(), "the chooser")
    opts = page.find_elements(By.CSS_SELECTOR, "#games option")
    assert len(opts) == 2 and "two" in opts[1].text
    assert "game 1 of 2" in page.find_element(By.ID, "games-note").text
    Select(page.find_element(By.ID, "games")).select_by_value("2")
    wait(page, lambda d: move_list(d) == ["9-13", "22-18"], "game 2")


def test_the_pdn_saved_note_goes_when_another_move_is_shown(page):
    load_pdn(page, '1. 11-15 23-19 2. 8-11 22-17 *')
    wait(page, lambda d: len(move_list(d)) == 4, "the game")
    page.find_element(By.ID, "pdn-save").click()
    wait(page, lambda d: any(e.text.startswith("PDN saved") for e in d.find_elements(By.CSS_SELECTOR, "#messages .msg")),
         "the note")
    page.find_elements(By.CSS_SELECTOR, "#moves .move:not(.start)")[1].click()
    wait(page, lambda d: current_ply(d) == 2, "another move shown")
    wait(page, lambda d: not any(e.text.startswith("PDN saved") for e in d.find_elements(By.CSS_SELECTOR, "#messages .msg")),
         "the note gone")


# An illegal 7th ply (15-24: the man on 15 cannot move there), after six that are legal.
BAD_SEVENTH = ('[Event "pasted"]\n[Result "1-0"]\n'
               '1. 11-15 23-19 2. 8-11 22-17 3. 4-8 17-13 4. 15-24 28-19 1-0\n')


def test_a_pdn_with_a_bad_move_loads_the_moves_before_it_when_asked(page):
    """Issue 69, item 6: the refusal names the move and offers the moves before it; taken,
    the six moves load, the position after the sixth is shown, and a note says where the
    load stopped, in the refusal's words."""
    load_pdn(page, '1. 9-13 *')
    wait(page, lambda d: move_list(d) == ["9-13"], "a game on the board")
    load_pdn(page, BAD_SEVENTH)
    wait(page, lambda d: d.find_elements(By.ID, "pdn-partial"), "the offer")
    refusal = errors_shown(page)[0]
    assert "'15-24' (ply 7): illegal move" in refusal, refusal
    assert move_list(page) == ["9-13"], "a refused load changes nothing"
    offer = page.find_element(By.ID, "pdn-partial")
    assert offer.text == "load the 6 moves before it"
    shot(page, "pdn-partial-offer.png")
    offer.click()
    wait(page, lambda d: move_list(d) == ["11-15", "23-19", "8-11", "22-17", "4-8", "17-13"], "the six moves")
    assert current_ply(page) == 6
    note = page.find_element(By.CSS_SELECTOR, "#messages .msg.note").text
    said = refusal.split("bad PDN: ")[1].removesuffix(" " + "load the 6 moves before it")
    assert "before ply 7" in note and said in note, note
    assert not errors_shown(page)
    shot(page, "pdn-partial-loaded.png")


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)])
def test_screenshots_mid_game_at_desktop_and_phone_size(browser, server, size):
    with at_size(browser, server, size):
        load_pdn(browser, '[GameType "23"]\n1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17-14 4. 10x17 21x14 *\n')
        wait(browser, lambda d: len(move_list(d)) == 8, "the loaded game")
        browser.find_element(By.ID, "analyze").click()
        wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#info-pv .pv-move")) >= 4
             and d.find_elements(By.CSS_SELECTOR, "#board .best-arrow"), "a line and its arrow")
        width = browser.execute_script("return document.documentElement.clientWidth")
        assert browser.execute_script("return document.documentElement.scrollWidth") <= width, \
            "the page scrolls sideways"
        board = browser.find_element(By.ID, "board").rect
        assert board["x"] >= 0 and board["x"] + board["width"] <= width
        name = "desktop" if size[0] > 700 else "phone"
        browser.execute_script("window.scrollTo(0, 0)")
        shot(browser, f"board-{name}.png")
        if name == "phone":
            browser.execute_script("document.getElementById('info').scrollIntoView()")
            shot(browser, "board-phone-analysis.png")
        if name == "phone":
            browser.find_element(By.ID, "analyze").click()
            browser.find_element(By.ID, "setup").click()
            browser.execute_script("document.getElementById('setup').scrollIntoView()")
            shot(browser, "board-phone-setup.png")
            browser.find_element(By.ID, "setup-cancel").click()
        else:
            browser.find_element(By.ID, "analyze").click()


def test_the_endgame_tables_verdict_and_a_proved_draw_are_said_in_words(tmp_path):
    # Tiny tables, built here (two pieces: a fraction of a second).
    tables = tmp_path / "egdb"
    subprocess.run([POOLSHARK, "egdb", "build", "--pieces", "2", "--dir", str(tables)],
                   check=True, capture_output=True, timeout=WAIT)
    proc = subprocess.Popen([POOLSHARK, "serve", "--port", "0", "--egdb", str(tables)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    m = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
    drv = new_driver()
    try:
        assert m, line
        drv.get(m.group(1))
        wait(drv, lambda d: d.find_element(By.ID, "fen").text != "", "the first state")
        set_fen(drv, "W:WK1:BK32")  # king against king: a draw
        wait(drv, lambda d: pieces(d).get(32) == "B", "the position")
        # A group is read in the background once asked for; nothing more is asked here: the
        # server sends the verdict once it is in (issue 38).
        wait(drv, lambda d: d.find_element(By.ID, "egdb").is_displayed(), "the tables' verdict")
        assert drv.find_element(By.ID, "egdb").text.startswith("database: draw")
        assert drv.find_element(By.ID, "info-score").text == "draw (proved)"
        assert drv.find_element(By.ID, "evalbar-text").text == "="
    finally:
        drv.quit()
        stop_server(proc)


# The planted blunder of tests/annotate.rs: Black's 12-16 at ply 9 drops a man to 19x12.
BLUNDER_PDN = ('[GameType "23"]\n1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17-14 4. 10x17 21x14 '
               '5. 12-16 19x12 6. 6-9 *\n')
BLUNDER_PLIES = 11


def run_review(drv):
    load_pdn(drv, BLUNDER_PDN)
    wait(drv, lambda d: len(move_list(d)) == BLUNDER_PLIES, "the loaded game")
    drv.find_element(By.ID, "review-run").click()
    wait(drv, lambda d: d.find_element(By.ID, "review-status").text.startswith("reviewed"),
         "the review's end")


def test_review_marks_the_moves_draws_the_graph_and_steps_to_mistakes(page):
    run_review(page)
    points = page.find_elements(By.CSS_SELECTOR, "#graph circle.graph-point")
    assert len(points) == BLUNDER_PLIES
    assert page.find_element(By.ID, "graph").is_displayed()
    moves = move_list(page)
    assert moves[8] == "12-16??", moves
    marked = [k + 1 for k, m in enumerate(moves) if m.endswith("?")]
    assert 9 in marked, moves
    # A point of the graph goes to its position; the graph marks the ply shown.
    answered(page, lambda: page.find_element(By.CSS_SELECTOR, '#graph circle[data-ply="4"]').click(),
             "the position of graph point 4")
    assert current_ply(page) == 4
    fen4 = page.find_element(By.ID, "fen").text
    answered(page, lambda: page.find_element(By.ID, "end").click(), "the end")
    assert page.find_element(By.ID, "fen").text != fen4
    answered(page, lambda: page.find_element(By.ID, "ply-4").click(), "ply 4 from the move list")
    assert page.find_element(By.ID, "fen").text == fen4
    marker = retry_stale(lambda d: (d.find_element(By.ID, "graph-current").get_attribute("x1"),
                                    d.find_element(By.CSS_SELECTOR, '#graph circle[data-ply="4"]')
                                    .get_attribute("cx")))
    x1, cx = marker(page)
    assert x1 == cx, (x1, cx)
    # "next mistake" goes to the first marked move after ply 4, then to the next.
    after = [k for k in marked if k > 4]
    answered(page, lambda: page.find_element(By.ID, "next-mistake").click(), "the next mistake")
    assert current_ply(page) == after[0]
    answered(page, lambda: page.find_element(By.ID, "end").click(), "the end")
    answered(page, lambda: page.find_element(By.ID, "prev-mistake").click(), "the previous mistake")
    assert current_ply(page) == marked[-1]
    shot(page, "board-review.png")


@pytest.mark.parametrize("n", [3, 5])
def test_analysis_lines(page, n):
    Select(page.find_element(By.ID, "multipv")).select_by_value(str(n))
    page.find_element(By.ID, "analyze").click()

    def distinct(d):
        rows = d.find_elements(By.CSS_SELECTOR, "#lines .line")
        if len(rows) != n:
            return False
        firsts = [r.find_elements(By.CSS_SELECTOR, ".pv-move") for r in rows]
        return all(firsts) and len({f[0].text for f in firsts}) == n
    wait(page, distinct, f"{n} distinct lines")
    # Analysis off, so that the lines stop being redrawn; they stay shown.
    page.find_element(By.ID, "analyze").click()
    wait(page, lambda d: d.find_element(By.ID, "analyze").get_attribute("aria-pressed") == "false",
         "analysis off")
    assert distinct(page)
    rows = page.find_elements(By.CSS_SELECTOR, "#lines .line")
    for r in rows:
        assert re.match(r"^[+-]?\d+\.\d\d$", r.find_element(By.CSS_SELECTOR, ".line-score").text)
    # Hovering a move of the last line shows the position after it.
    before = pieces(page)
    webdriver.ActionChains(page).move_to_element(
        rows[-1].find_element(By.CSS_SELECTOR, ".pv-move")).perform()
    wait(page, lambda d: pieces(d) != before, "the line's position shown")
    # The choice is kept across a reload.
    page.refresh()
    wait(page, lambda d: d.find_element(By.ID, "fen").text != "", "the first state")
    assert Select(page.find_element(By.ID, "multipv")).first_selected_option.get_attribute("value") == str(n)


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)])
def test_screenshots_of_a_review_and_three_lines(browser, server, size):
    with at_size(browser, server, size):
        run_review(browser)
        # Before the blunder: Black to move with several moves (after it, 19x12 is forced).
        answered(browser, lambda: browser.find_element(By.CSS_SELECTOR, '#graph circle[data-ply="8"]').click(),
                 "the position before the blunder")
        Select(browser.find_element(By.ID, "multipv")).select_by_value("3")
        browser.find_element(By.ID, "analyze").click()
        wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#lines .line .pv-move")) >= 6
             and len(d.find_elements(By.CSS_SELECTOR, "#lines .line")) == 3, "three lines")
        width = browser.execute_script("return document.documentElement.clientWidth")
        assert browser.execute_script("return document.documentElement.scrollWidth") <= width, \
            "the page scrolls sideways"
        name = "desktop" if size[0] > 700 else "phone"
        browser.execute_script("window.scrollTo(0, 0)")
        shot(browser, f"board-review-{name}.png")
        if name == "phone":
            browser.execute_script("document.getElementById('moves').scrollIntoView()")
            shot(browser, "board-review-phone-graph.png")
            browser.execute_script("document.getElementById('info').scrollIntoView()")
            shot(browser, "board-review-phone-lines.png")
        browser.find_element(By.ID, "analyze").click()


# ---------- issue 38: clocks and sounds ----------

def choose_clock(drv, value, minutes=None, inc=None):
    Select(drv.find_element(By.ID, "clock-control")).select_by_value(value)
    if value == "custom":
        for box_id, v in (("clock-min", minutes), ("clock-inc", inc)):
            box = drv.find_element(By.ID, box_id)
            box.clear()
            box.send_keys(str(v))


def clock_of(drv, side):
    """(time shown, classes) of `side`'s clock, wherever it sits."""
    for box in drv.find_elements(By.CSS_SELECTOR, ".clock"):
        if box.get_attribute("data-side") == side:
            return box.find_element(By.CLASS_NAME, "clock-time").text, box.get_attribute("class").split()
    raise AssertionError(f"no clock for {side}")


def test_a_timed_game_between_two_people_runs_to_a_flag_fall(page):
    # 2 s + 0: Black's first move starts the clocks; White never answers and loses on time.
    choose_clock(page, "custom", 2 / 60, 0)
    new_game(page, "human")
    wait(page, lambda d: d.find_element(By.ID, "clock-top").is_displayed()
         and clock_of(d, "black")[0] == "0:02.0" and clock_of(d, "white")[0] == "0:02.0",
         "both clocks at 2 s")
    # Not flipped for two players: Black, whose men start on 1-12, sits at the top.
    assert page.find_element(By.ID, "clock-top").get_attribute("data-side") == "black"
    # No review while the clocks run (issue 69, item 8): greyed, and refused by the board.
    assert not page.find_element(By.ID, "review-run").is_enabled()
    click_square(page, 11)
    click_square(page, 15)
    page.execute_script("window.boardTransport.send(JSON.stringify({type: 'review', nodes: 1000}))")
    wait(page, lambda d: any("a timed game is on: no review" in e for e in errors_shown(d)), "the refusal")
    wait(page, lambda d: status(d) == "Game over: Black wins: time forfeit",
         "White's flag to fall")
    # The game over, the review is there again.
    wait(page, lambda d: d.find_element(By.ID, "review-run").is_enabled(), "the review once the game is over")
    assert move_list(page) == ["11-15"]
    wait(page, lambda d: clock_of(d, "white")[0] == "0:00.0", "White's clock at zero")
    assert "flagged" in clock_of(page, "white")[1]
    assert clock_of(page, "black")[0] == "0:02.0"
    assert "running" not in clock_of(page, "white")[1] + clock_of(page, "black")[1]
    assert targets(page) == [] and page.find_element(By.ID, "engine-move").get_attribute("disabled")
    page.find_element(By.ID, "pdn-save").click()
    box = page.find_element(By.ID, "pdn-input")
    wait(page, lambda d: "[%clk" in box.get_attribute("value"), "the saved PDN")
    pdn = box.get_attribute("value")
    assert '[Result "0-1"]' in pdn and '[TimeControl "2+0"]' in pdn, pdn
    assert "11-15 {[%clk 0:00:02]} 0-1" in pdn, pdn
    # After the flag the game can be stepped through again.
    assert page.find_element(By.ID, "undo").is_enabled()
    # A new game without a clock hides them.
    choose_clock(page, "none")
    new_game(page, "human")
    wait(page, lambda d: not d.find_element(By.ID, "clock-top").is_displayed(), "no clocks")


def test_a_timed_game_allows_no_take_backs_and_a_bad_control_is_refused(page):
    choose_clock(page, "custom", 0, 0)
    page.find_element(By.ID, "new-game").click()
    wait(page, lambda d: any("time control" in e for e in errors_shown(d)), "the error")
    choose_clock(page, "5+3")
    new_game(page, "human")
    click_square(page, 11)
    answered(page, lambda: click_square(page, 15), "the move")
    wait(page, lambda d: "running" in clock_of(d, "white")[1], "White's clock running")
    assert clock_of(page, "black")[0] == "5:00"
    assert not page.find_element(By.ID, "undo").is_enabled()
    # The count runs down on the page between states.
    first = clock_of(page, "white")[0]
    wait(page, lambda d: clock_of(d, "white")[0] != first, "White's clock to count down")


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)])
def test_screenshots_of_clocks_at_desktop_and_phone_size(browser, server, size):
    with at_size(browser, server, size):
        # Against the engine on 5 + 3 (the player's side at the bottom), a move each.
        choose_clock(browser, "5+3")
        new_game(browser, "black")
        click_square(browser, 11)
        click_square(browser, 15)
        wait(browser, lambda d: len(move_list(d)) == 2 and "running" in clock_of(d, "black")[1],
             "the engine's move on its clock")
        assert browser.find_element(By.ID, "clock-bottom").get_attribute("data-side") == "black"
        assert clock_of(browser, "white")[0] in ("5:00", "5:01", "5:02", "5:03"), clock_of(browser, "white")
        width = browser.execute_script("return document.documentElement.clientWidth")
        assert browser.execute_script("return document.documentElement.scrollWidth") <= width, \
            "the page scrolls sideways"
        name = "desktop" if size[0] > 700 else "phone"
        browser.execute_script("window.scrollTo(0, 0)")
        shot(browser, f"board-clock-{name}.png")
        # A flag fall, low and flagged clocks.
        choose_clock(browser, "custom", 2 / 60, 0)
        new_game(browser, "human")
        click_square(browser, 11)
        click_square(browser, 15)
        wait(browser, lambda d: "time forfeit" in status(d), "the flag")
        browser.execute_script("window.scrollTo(0, 0)")
        shot(browser, f"board-flag-{name}.png")


def sounds_played(drv):
    return int(drv.find_element(By.ID, "sound").get_attribute("data-played") or 0)


def test_move_sounds_and_the_switch_is_remembered(page):
    switch = page.find_element(By.ID, "sound")
    assert switch.text == "sound on" and switch.get_attribute("aria-pressed") == "true"
    assert page.execute_script("return typeof (window.AudioContext || window.webkitAudioContext)") == "function"
    new_game(page, "human")
    for n, (a, b) in enumerate([(11, 15), (22, 18)], 1):
        click_square(page, a)
        click_square(page, b)
        wait(page, lambda d: sounds_played(d) == n, f"the sound of move {n}")
        assert switch.get_attribute("data-last") == "move"
    click_square(page, 15)
    click_square(page, 22)
    wait(page, lambda d: sounds_played(d) == 3, "the capture's sound")
    assert switch.get_attribute("data-last") == "capture"
    assert page.execute_script("return localStorage.getItem('poolshark-sound')") is None
    # The reload replays the game without a sound.
    page.refresh()
    wait(page, lambda d: move_list(d) == ["11-15", "22-18", "15x22"], "the game after the reload")
    assert sounds_played(page) == 0
    # Off, remembered across a reload; a move then makes none.
    page.find_element(By.ID, "sound").click()
    assert page.execute_script("return localStorage.getItem('poolshark-sound')") == "off"
    page.refresh()
    wait(page, lambda d: move_list(d) == ["11-15", "22-18", "15x22"], "the game after the reload")
    switch = page.find_element(By.ID, "sound")
    assert switch.text == "sound off" and switch.get_attribute("aria-pressed") == "false"
    answered(page, lambda: play_any_move(page, "w"), "White's move")
    assert sounds_played(page) == 0
    switch.click()
    assert page.execute_script("return localStorage.getItem('poolshark-sound')") == "on"
    assert switch.text == "sound on"


# ---------- issue 38, part 3: a review that teaches ----------

# White to move can take two men jumping 24x15x8, and plays 27x18?? instead, which loses:
# 19x28 follows (`poolshark annotate` marks it: best 24x15x8).
JUMP_PDN = ('[GameType "23"]\n[SetUp "1"]\n[FEN "W:W24,27,30:B19,11,12,23,3"]\n'
            '1... 27x18 19x28 *\n')


def review_arrow(drv):
    """The review's arrow on the board: its squares ("24-15-8") and its points, or None."""
    @retry_stale
    def read(d):
        g = d.find_elements(By.CSS_SELECTOR, "#board .review-arrow")
        if not g:
            return None
        pts = g[0].find_element(By.TAG_NAME, "polyline").get_attribute("points").split()
        return g[0].get_attribute("data-path"), len(pts)
    return read(drv)


def teach_text(drv):
    return drv.find_element(By.ID, "teach-text").text


def retry_text(drv):
    return drv.find_element(By.ID, "retry-text").text


def review_game(drv, pdn, plies):
    load_pdn(drv, pdn)
    wait(drv, lambda d: len(move_list(d)) == plies, "the loaded game")
    drv.find_element(By.ID, "review-run").click()
    wait(drv, lambda d: d.find_element(By.ID, "review-status").text.startswith("reviewed"),
         "the review's end")


def test_a_marked_move_shows_the_best_move_along_its_jumps_and_retry_judges(page):
    review_game(page, JUMP_PDN, 2)
    assert move_list(page)[0] == "27x18??"
    # The summary: White's blunder, each side's mean loss and accuracy.
    white = page.find_element(By.ID, "summary-white").text.split()
    black = page.find_element(By.ID, "summary-black").text.split()
    assert white[:4] == ["White", "0", "0", "1"], white
    assert float(white[4]) >= 1.0 and re.match(r"^\d+\.\d%$", white[5]), white
    assert float(white[5].rstrip("%")) < 50, white
    assert black == ["Black", "0", "0", "0", "0.00", "100.0%"], black
    # At the marked move: the best move named, its line, both scores; its arrow is drawn on
    # the position before the mistake, where it would have been played, along both jumps.
    answered(page, lambda: page.find_element(By.ID, "ply-1").click(), "the marked move")
    wait(page, lambda d: d.find_element(By.ID, "teach").is_displayed(), "the teaching panel")
    assert review_arrow(page) is None, "no arrow on the position after the mistake"
    answered(page, lambda: page.find_element(By.ID, "start").click(), "the position before")
    wait(page, lambda d: review_arrow(d) == ("24-15-8", 3), "the best move's arrow before the mistake")
    assert pieces(page).get(24) == "w" and pieces(page).get(15) is None, "drawn on the position it starts from"
    shot(page, "board-teach-jumps.png")
    answered(page, lambda: page.find_element(By.ID, "ply-1").click(), "the marked move")
    t = teach_text(page)
    assert "27x18??" in t and "Best was 24x15x8" in t and t.count("Black ") >= 2, t
    assert page.find_element(By.ID, "teach-line").text.startswith("best line 1. 24x15x8"), \
        page.find_element(By.ID, "teach-line").text
    # No arrow where no move is marked.
    answered(page, lambda: page.find_element(By.ID, "ply-2").click(), "the next move")
    assert review_arrow(page) is None
    assert not page.find_element(By.ID, "teach").is_displayed()
    # Find a better move: the position before the mistake, White to move.
    answered(page, lambda: page.find_element(By.ID, "ply-1").click(), "the marked move")
    answered(page, lambda: page.find_element(By.ID, "retry-start").click(), "the position before")
    assert current_ply(page) == 0
    assert pieces(page).get(27) == "w" and pieces(page).get(24) == "w"
    assert review_arrow(page) is None, "the answer is not given away"
    assert "Find a better move than" in teach_text(page)
    # The best move, both jumps: as good as the best. The game is not changed.
    click_square(page, 24)
    click_square(page, 8)
    wait(page, lambda d: retry_text(d).startswith("✓"), "the retry's verdict")
    assert "24x15x8 is as good as the best" in retry_text(page), retry_text(page)
    assert move_list(page) == ["27x18??", "19x28"] and current_ply(page) == 0
    assert pieces(page).get(24) == "w", "the move was judged, not played"
    # The move played: not as good, by how much; then the answer on request.
    click_square(page, 27)
    click_square(page, 18)
    wait(page, lambda d: retry_text(d).startswith("✗"), "the retry's verdict")
    assert re.search(r"27x18 is not as good: it loses \d+\.\d\d men", retry_text(page)), retry_text(page)
    page.find_element(By.ID, "retry-answer").click()
    wait(page, lambda d: review_arrow(d) is not None, "the answer's arrow")
    assert review_arrow(page) == ("24-15-8", 3)
    assert "The answer: 24x15x8" in retry_text(page), retry_text(page)
    # Back to the game: the marked move again.
    answered(page, lambda: page.find_element(By.ID, "retry-back").click(), "back to the game")
    assert current_ply(page) == 1
    assert "27x18??" in teach_text(page)


def test_retry_of_the_planted_blunder_and_the_review_strength_kept(page):
    # The strength is chosen on the page and kept across a reload.
    Select(page.find_element(By.ID, "review-kind")).select_by_value("depth")
    box = page.find_element(By.ID, "review-value")
    box.clear()
    box.send_keys("9", Keys.TAB)
    page.refresh()
    wait(page, lambda d: d.find_element(By.ID, "fen").text != "", "the first state")
    assert Select(page.find_element(By.ID, "review-kind")).first_selected_option.get_attribute("value") == "depth"
    assert page.find_element(By.ID, "review-value").get_attribute("value") == "9"
    review_game(page, BLUNDER_PDN, BLUNDER_PLIES)
    answered(page, lambda: page.find_element(By.ID, "ply-8").click(), "the position before the blunder")
    wait(page, lambda d: review_arrow(d) is not None, "the best move's arrow")
    arrow = review_arrow(page)
    answered(page, lambda: page.find_element(By.ID, "ply-9").click(), "the blunder")
    wait(page, lambda d: d.find_element(By.ID, "teach").is_displayed(), "the teaching panel")
    best = re.search(r"Best was (\S+):", teach_text(page)).group(1)
    assert best != "12-16" and arrow[0] == best.replace("x", "-"), (best, arrow)
    # With no analysis on, the bar gives the score the review gave the move shown.
    assert "empty" not in page.find_element(By.ID, "evalbar").get_attribute("class").split()
    assert re.fullmatch(r"[-+]?\d+\.\d\d", page.find_element(By.ID, "evalbar-text").text), \
        page.find_element(By.ID, "evalbar-text").text
    answered(page, lambda: page.find_element(By.ID, "retry-start").click(), "the position before")
    # The blunder again: not as good.
    click_square(page, 12)
    click_square(page, 16)
    wait(page, lambda d: retry_text(d).startswith("✗"), "the retry's verdict")
    # The review's best move: as good as the best.
    parts = re.split(r"[-x]", best)
    src, dst = int(parts[0]), int(parts[-1])
    click_square(page, src)
    click_square(page, dst)
    wait(page, lambda d: retry_text(d).startswith("✓"), "the retry's verdict")
    assert move_list(page)[8] == "12-16??"


@pytest.mark.parametrize("size", [(1280, 1000), (390, 844)])
def test_screenshots_of_a_marked_move_and_a_retry(browser, server, size):
    with at_size(browser, server, size):
        review_game(browser, BLUNDER_PDN, BLUNDER_PLIES)
        answered(browser, lambda: browser.find_element(By.ID, "ply-8").click(), "the position before")
        wait(browser, lambda d: review_arrow(d) is not None, "the best move's arrow")
        name = "desktop" if size[0] > 700 else "phone"
        shot(browser, f"board-teach-arrow-{name}.png")
        answered(browser, lambda: browser.find_element(By.ID, "ply-9").click(), "the blunder")
        wait(browser, lambda d: d.find_element(By.ID, "teach").is_displayed(), "the teaching panel")
        width = browser.execute_script("return document.documentElement.clientWidth")
        assert browser.execute_script("return document.documentElement.scrollWidth") <= width, \
            "the page scrolls sideways"
        name = "desktop" if size[0] > 700 else "phone"
        browser.execute_script("window.scrollTo(0, 0)")
        # The pointer off the move list, so that no move shows as hovered.
        webdriver.ActionChains(browser).move_to_element(browser.find_element(By.TAG_NAME, "h1")).perform()
        shot(browser, f"board-teach-{name}.png")
        if name == "phone":
            browser.execute_script("document.getElementById('review').scrollIntoView()")
            shot(browser, "board-teach-phone-panel.png")
        answered(browser, lambda: browser.find_element(By.ID, "retry-start").click(), "the position before")
        click_square(browser, 12)
        click_square(browser, 16)
        wait(browser, lambda d: retry_text(d).startswith("✗"), "the retry's verdict")
        browser.find_element(By.ID, "retry-answer").click()
        wait(browser, lambda d: review_arrow(d) is not None, "the answer's arrow")
        assert browser.execute_script("return document.documentElement.scrollWidth") <= width
        browser.execute_script("window.scrollTo(0, 0)")
        shot(browser, f"board-retry-{name}.png")
        if name == "phone":
            browser.execute_script("document.getElementById('review').scrollIntoView()")
            shot(browser, "board-retry-phone-panel.png")


# ---------- issue 38: the smaller faults ----------


def rect(drv, element_id):
    return drv.execute_script(
        "const r = document.getElementById(arguments[0]).getBoundingClientRect();"
        "return {top: r.top, bottom: r.bottom, left: r.left, right: r.right};", element_id)


def test_the_capture_chooser_fits_a_phone(browser, server):
    browser.set_window_size(390, 844)
    try:
        browser.get(server + "style.css")
        browser.execute_script("localStorage.clear(); sessionStorage.clear()")
        browser.get(server)
        wait(browser, lambda d: d.find_element(By.ID, "fen").text != "", "the first state")
        # Four captures of the king on 16 end on 5, one of them over seven men.
        set_fen(browser, "W:WK16:B3,6,9,10,11,12,15,17,19,24,25")
        wait(browser, lambda d: pieces(d).get(16) == "W", "the position")
        click_square(browser, 16)
        click_square(browser, 5)
        wait(browser, lambda d: d.find_element(By.ID, "chooser").is_displayed(), "the chooser")
        assert len(browser.find_elements(By.CSS_SELECTOR, "#chooser .choice")) == 4
        width = browser.execute_script("return document.documentElement.clientWidth")
        height = browser.execute_script("return window.innerHeight")
        assert browser.execute_script("return document.documentElement.scrollWidth") <= width
        for c in browser.find_elements(By.CSS_SELECTOR, "#chooser .choice, #chooser-cancel"):
            assert browser.execute_script("return arguments[0].scrollWidth <= arguments[0].clientWidth", c), c.text
        # The whole board and the whole chooser in view at once, the chooser below the board.
        board, chooser = rect(browser, "board"), rect(browser, "chooser")
        shot(browser, "board-phone-chooser.png")
        assert 0 <= board["top"] and board["bottom"] <= chooser["top"], (board, chooser)
        assert 0 <= chooser["top"] and chooser["bottom"] <= height, (chooser, height)
        assert 0 <= chooser["left"] and chooser["right"] <= width, (chooser, width)
        assert browser.find_element(By.ID, "chooser-title").text.startswith("Four captures")
        browser.find_element(By.ID, "choice-3").click()
        wait(browser, lambda d: len(move_list(d)) == 1, "the capture played")
        assert not browser.find_element(By.ID, "chooser").is_displayed()
    finally:
        browser.set_window_size(1100, 1000)


def test_no_engine_move_is_asked_for_while_a_game_is_walked_through(page):
    # A game between two people: no word of the engine at any move.
    load_pdn(page, PDN_GAME)
    wait(page, lambda d: len(move_list(d)) == 5, "the loaded game")
    for k in range(5, -1, -1):
        answered(page, lambda: page.find_element(By.ID, f"ply-{k}").click(), f"ply {k}")
        assert "engine" not in status(page), (k, status(page))
    # Against the engine: at a position of the game where the engine was to move, the page
    # says so but does not ask for its move, which would cut the game there.
    set_level_depth(page, 2)
    new_game(page, "black")
    wait(page, lambda d: status(d).startswith("Black to move"), "a new game")
    play_any_move(page, "b")
    wait(page, lambda d: len(move_list(d)) == 2 and status(d).startswith("Black to move"), "the reply")
    answered(page, lambda: page.find_element(By.ID, "ply-1").click(), "ply 1")
    assert status(page).startswith("White to move (engine)"), status(page)
    assert "press" not in status(page), status(page)
    assert len(move_list(page)) == 2


def test_moves_are_numbered_from_the_side_to_move_of_a_set_up_position(page):
    set_fen(page, "W:W21,22,23,30:B1,2,3,9")  # White to move first
    wait(page, lambda d: pieces(d).get(30) == "w", "the position")
    for src, dst, n in ((22, 18, 1), (9, 13, 2), (21, 17, 3)):
        click_square(page, src)
        click_square(page, dst)
        wait(page, lambda d: len(move_list(d)) == n, f"move {n}")
    rows = [r.text.split() for r in page.find_elements(By.CSS_SELECTOR, "#moves .move-row")]
    assert rows == [["1.", "22-18", "9-13"], ["2.", "21-17"]], rows
    answered(page, lambda: page.find_element(By.ID, "ply-2").click(), "ply 2")
    assert "at move 1 of 2" in status(page), status(page)
    # As the PDN the server writes numbers them.
    page.find_element(By.ID, "pdn-save").click()
    wait(page, lambda d: "22-18" in d.find_element(By.ID, "pdn-input").get_attribute("value"), "the PDN")
    assert "1. 22-18 9-13 2. 21-17" in page.find_element(By.ID, "pdn-input").get_attribute("value")
    # The analysis line from ply 2 (White to move) starts with move 2.
    page.find_element(By.ID, "analyze").click()
    wait(page, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#info-pv .pv-move")) >= 2, "a line")
    first = retry_stale(lambda d: d.find_elements(By.CSS_SELECTOR, "#info-pv .pv-move")[0].text)(page)
    assert re.match(r"2\.\s*\d", first), first
    page.find_element(By.ID, "analyze").click()


def test_the_eval_bar_gives_the_result_as_the_move_list_does_and_turns_with_the_board(page):
    # Nothing known at the start: the bar is greyed, not half and half (which reads "equal").
    bar = page.find_element(By.ID, "evalbar")
    assert "empty" in bar.get_attribute("class").split() and "no evaluation" in bar.get_attribute("title")
    # PDN's order, White's score first: a White win is 1-0 in the list and on the bar...
    set_fen(page, "W:W14:B9")
    wait(page, lambda d: pieces(d).get(14) == "w", "the position")
    click_square(page, 14)
    click_square(page, 5)
    wait(page, lambda d: "Game over" in status(d), "White's win")
    assert page.find_element(By.ID, "result").text.startswith("1-0")
    assert page.find_element(By.ID, "evalbar-text").text == "1-0"
    assert "empty" not in page.find_element(By.ID, "evalbar").get_attribute("class").split()
    # ...and a Black win is 0-1 in both.
    set_fen(page, "B:W18:B14")
    wait(page, lambda d: pieces(d).get(18) == "w", "the position")
    click_square(page, 14)
    click_square(page, 23)
    wait(page, lambda d: "Game over" in status(d), "Black's win")
    assert page.find_element(By.ID, "result").text.startswith("0-1")
    assert page.find_element(By.ID, "evalbar-text").text == "0-1"
    # Black's share of the bar is on Black's side of the board, and turns with it.
    new_game(page, "human")

    def black_side_down(d):
        black, white = rect(d, "evalbar-black"), rect(d, "evalbar-white")
        board_black_down = centre_y(d, 1) > centre_y(d, 32)  # Black's men start on 1-12
        return (black["top"] > white["top"]) == board_black_down
    assert black_side_down(page)
    for _ in range(2):
        before = centre_y(page, 1)
        page.find_element(By.ID, "flip").click()
        assert centre_y(page, 1) != before
        assert black_side_down(page), "the bar did not turn with the board"


def stopped_line(drv, pdn=PDN_GAME, plies=5, length=3):
    """A game loaded, analysed until its best line has `length` moves, analysis stopped."""
    load_pdn(drv, pdn)
    wait(drv, lambda d: len(move_list(d)) == plies, "the loaded game")
    drv.find_element(By.ID, "analyze").click()
    wait(drv, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#info-pv .pv-move")) >= length, "a line")
    drv.find_element(By.ID, "analyze").click()
    wait(drv, lambda d: d.find_element(By.ID, "analyze").get_attribute("aria-pressed") == "false", "stop")


@retry_stale
def shown_index(drv):
    """The index of the line's move shown on the board, or None."""
    e = drv.find_elements(By.CSS_SELECTOR, "#lines .pv-move.shown")
    return int(e[0].get_attribute("data-index")) if e else None


def test_the_arrow_keys_step_the_line_shown_and_its_tools_go_with_it(page):
    stopped_line(page)
    tools = page.find_element(By.ID, "pv-tools")
    assert not tools.is_displayed()
    page.find_elements(By.CSS_SELECTOR, "#info-pv .pv-move")[1].click()
    wait(page, lambda d: status(d).startswith("Showing"), "the line shown")
    assert tools.is_displayed() and shown_index(page) == 1
    body = page.find_element(By.TAG_NAME, "body")
    at_1 = pieces(page)
    # The arrow keys step along the line, not the game.
    body.send_keys(Keys.ARROW_RIGHT)
    wait(page, lambda d: shown_index(d) == 2, "Right: the line's next move")
    assert pieces(page) != at_1 and current_ply(page) == 5
    body.send_keys(Keys.ARROW_LEFT)
    body.send_keys(Keys.ARROW_LEFT)
    wait(page, lambda d: shown_index(d) == 0, "Left twice: the line's first move")
    assert current_ply(page) == 5
    # Left from the line's first move goes back to the game; the tools go with the line.
    body.send_keys(Keys.ARROW_LEFT)
    wait(page, lambda d: not status(d).startswith("Showing"), "back to the game")
    assert not tools.is_displayed() and current_ply(page) == 5
    # With no line shown, the arrow keys step the game again.
    body.send_keys(Keys.ARROW_LEFT)
    wait(page, lambda d: current_ply(d) == 4, "Left: the game's ply before")
    # A line closed by going to another position takes its tools away too.
    answered(page, lambda: page.find_element(By.ID, "ply-5").click(), "the game's end")
    stopped_line(page)
    page.find_elements(By.CSS_SELECTOR, "#info-pv .pv-move")[0].click()
    wait(page, lambda d: tools.is_displayed(), "the line's tools")
    answered(page, lambda: page.find_element(By.ID, "ply-2").click(), "ply 2")
    assert not status(page).startswith("Showing")
    assert not tools.is_displayed(), "the line's tools stayed after the line closed"


def test_play_line_stays_on_the_line_while_the_analysis_goes_on(page):
    new_game(page, "human")
    page.execute_script("window.boardPvPlayMs = 600")
    page.find_element(By.ID, "analyze").click()
    # Early, while the analysis still deepens and its best line still changes.
    wait(page, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#info-pv .pv-move")) >= 4, "a line")
    retry_stale(lambda d: d.find_elements(By.CSS_SELECTOR, "#info-pv .pv-move")[0].click())(page)
    wait(page, lambda d: status(d).startswith("Showing"), "the line shown")

    def seen(d):
        """The line listed, the move marked, the note and the squares with a piece, read at
        once (the page moves on between separate reads)."""
        return d.execute_script("""
            const moves = [...document.querySelectorAll('#info-pv .pv-move')];
            const shown = moves.findIndex((e) => e.classList.contains('shown'));
            const squares = [...document.querySelectorAll('#board g[data-piece]')]
                .map((g) => Number(g.dataset.square));
            return [moves.map((e) => e.textContent), shown,
                    document.getElementById('pv-note').textContent, squares];""")
    moves = seen(page)[0]
    page.find_element(By.ID, "pv-play").click()
    last = 0
    while last < len(moves) - 1:
        wait(page, lambda d: seen(d)[1] > last, f"move {last + 2} of the line")
        line, last, note, squares = seen(page)
        # The list shows the line being played; the move marked is the one on the board.
        assert line == moves, (line, moves)
        move = re.sub(r"^\d+(\.|…)\s*", "", moves[last])
        assert note.endswith(" " + move), (note, move)
        assert int(re.split(r"[-x]", move)[-1]) in squares, (move, squares)
    page.find_element(By.ID, "analyze").click()
    page.find_element(By.ID, "pv-close").click()


def test_a_multi_jump_arrow_goes_jump_by_jump(page):
    # Every legal move is a capture of three jumps or more: two from 26 to 1, and one round
    # from 26 back to 26 (taking four), which a search that had longer finds best.
    set_fen(page, R15_FEN)
    wait(page, lambda d: pieces(d).get(26) == "w", "the R15 position")
    page.find_element(By.ID, "analyze").click()
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#board .best-arrow"), "the arrow")

    def arrow(d):
        """The arrow's path and points, read at one moment (the search redraws it)."""
        return d.execute_script(
            "const g = document.querySelector('#board .best-arrow');"
            "return g && [g.dataset.path, g.querySelector('.arrow').getAttribute('points')]")
    path, points = arrow(page)
    shot(page, "board-arrow-jumps.png")
    page.find_element(By.ID, "analyze").click()
    wait(page, lambda d: d.find_element(By.ID, "analyze").get_attribute("aria-pressed") == "false", "stop")
    wait(page, lambda d: arrow(d) is None, "no arrow once analysis stops")
    assert path in ("26-17-10-1", "26-19-10-1", "26-17-10-19-26"), path

    def centre(n):
        r = square(page, n).find_element(By.CSS_SELECTOR, "rect.dark")
        return (float(r.get_attribute("x")) + 50, float(r.get_attribute("y")) + 50)
    drawn = [tuple(float(v) for v in p.split(",")) for p in points.split()]
    # Through each landing square but the last (where the head is), in order.
    assert drawn[:3] == [centre(int(n)) for n in path.split("-")[:3]], (drawn, path)


def test_the_move_strip_keeps_the_moves_beside_the_board_on_a_phone(browser, server):
    """Issue 69, item 8: at a phone's size the move list is far below the board; the line's
    moves are also in a strip under it, the move shown marked, a tap going there with the
    board still in sight. The strip is not shown at a desktop's size."""
    with at_size(browser, server, (390, 844)):
        load_pdn(browser, '[GameType "23"]\n1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17-14 4. 10x17 21x14 *\n')
        wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#move-strip .strip-move")) == 8, "the strip")
        strip = browser.find_element(By.ID, "move-strip")
        assert strip.is_displayed()
        current = browser.find_element(By.CSS_SELECTOR, "#move-strip .strip-move.current")
        assert current.text == "21x14"
        browser.execute_script("window.scrollTo(0, 0)")
        third = browser.find_elements(By.CSS_SELECTOR, "#move-strip .strip-move")[2]
        assert third.text == "8-11"
        answered(browser, third.click, "the move shown")
        wait(browser, lambda d: current_ply(d) == 3, "ply 3 shown")
        assert browser.find_element(By.CSS_SELECTOR, "#move-strip .strip-move.current").text == "8-11"
        top = browser.execute_script("return document.getElementById('board').getBoundingClientRect().top")
        assert top >= 0, "the board in sight"
        shot(browser, "move-strip-phone.png")
    load_pdn(browser, '1. 11-15 *')
    wait(browser, lambda d: move_list(d) == ["11-15"], "a game at desktop size")
    assert not browser.find_element(By.ID, "move-strip").is_displayed()
