"""The board as a static page (`make web`, target/web) in headless Chromium, served by
`python3 -m http.server` with no poolshark process: the engine runs in the page's workers as
WebAssembly. The served page's tests whose behaviour goes through the transport (imported,
run here against the static copy; see the comment above the imports), then what only the static page does: work after its server stops (the
service worker's copy), and the same `window.boardTransport` on both transports.

Skipped where target/web was not built (scripts/web-test.sh builds it first in `make test`).
"""

import json
import os
import socket
import subprocess
import sys
import time

import pytest
from selenium.webdriver.common.by import By

# Run again here: what goes through the transport, where the worker differs from the socket:
# the engine thinking (play, analysis, review, learn, levels), the clock, a reload that brings
# the session back, and the limits on what crosses. What the page alone does (store.js's
# records, share.js's parsing, keys, notes, copy) runs once, on the served page.
from test_board import (  # noqa: F401  (fixtures and tests run here against the static page)
    browser, page, wait, move_list, load_pdn, shot, new_driver, severe, start_server, stop_server, answered,
    at_size, set_level_depth, new_game, play_any_move,
    test_play_a_short_game_against_the_engine_and_take_back,
    test_analysis_and_screenshot,
    test_review_marks_the_moves_draws_the_graph_and_steps_to_mistakes,
    test_a_marked_move_shows_the_best_move_along_its_jumps_and_retry_judges,
    test_a_timed_game_between_two_people_runs_to_a_flag_fall,
    test_reload_keeps_the_game_and_the_strength,
    test_a_pdn_with_a_bad_move_loads_the_moves_before_it_when_asked,
    BLUNDER_PDN, BLUNDER_PLIES,
)
from test_levels import (  # noqa: F401
    test_a_level_plays_a_game_is_kept_on_reload_and_full_strength_comes_back,
)
from test_tree import (  # noqa: F401
    test_load_review_variation_save_and_load_again_gives_everything_back,
    test_a_reload_after_a_review_keeps_marks_scores_comments_and_tags,
)
from test_annotate import (  # noqa: F401
    test_an_engine_line_goes_into_the_tree_as_a_variation,
)
from test_share import (  # noqa: F401
    test_a_pdn_link_opens_the_same_game_with_its_variations_in_a_fresh_browser,
)
from test_learn import (  # noqa: F401
    test_learn_from_your_mistakes,
)
from test_page_state import (  # noqa: F401
    test_a_reload_keeps_a_timed_game_with_its_clocks_and_no_take_backs,
)
from test_limits import (  # noqa: F401
    test_a_4_mb_file_is_refused_politely_and_the_board_is_kept,
)
from test_kept import (  # noqa: F401
    GAME, MOVES, STORE, record,
)
from test_links import (  # noqa: F401
    test_a_pdn_link_too_large_for_the_board_is_refused_as_a_link,
    refused_and_kept,
)
from test_tabs import (  # noqa: F401
    test_two_tabs_keep_their_own_games,
)
from test_puzzles import (  # noqa: F401
    next_puzzle, solutions, solve, play_hub,
    test_a_puzzle_solved_by_clicking_raises_the_rating,
    test_a_move_off_the_solution_fails_the_puzzle,
    test_a_puzzle_never_replaces_the_kept_game,
)
from test_practice import (  # noqa: F401
    TABLES, fen, poolshark, start, task,
    test_a_practice_played_with_the_tables_moves_is_solved,
    test_a_move_that_throws_the_win_away_fails_the_practice,
    test_a_practice_at_a_phones_size,
    test_each_moves_verdict_is_listed_and_a_click_plays_it,
)
from test_explorer import (  # noqa: F401
    test_the_explorer_lists_the_book_at_the_start_and_follows_the_moves,
    test_the_explorer_at_a_phones_size,
)
from test_study import (  # noqa: F401
    test_a_six_game_pdn_opens_as_a_study_whose_notes_stay_with_their_chapter,
    test_a_study_at_a_phones_size,
)
from test_hostile import (  # noqa: F401
    test_bring_back_while_the_engine_plays_brings_the_game_back,
    test_a_reload_before_the_first_kept_pdn_keeps_the_moves,
    test_the_largest_game_of_comments_is_kept_across_reloads,
    test_a_move_while_the_kept_game_comes_back_does_not_replace_it,
    test_a_reload_during_a_review_and_analysis_keeps_the_game,
)

WEB = os.environ.get("POOLSHARK_WEB", "target/web")

pytestmark = pytest.mark.skipif(not os.path.exists(os.path.join(WEB, "poolshark.wasm")),
                                reason=f"{WEB} not built (make web)")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_static(port=None, directory=WEB):
    port = port or free_port()
    proc = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1",
                             "--directory", directory, str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/"
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return proc, url
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise AssertionError("the static server did not start")


@pytest.fixture(scope="module")
def server():
    """The static page's address (the name the imported tests ask for)."""
    proc, url = start_static()
    yield url
    stop_server(proc)


def transport_exchange(drv, messages, until_type):
    """Send `messages` through window.boardTransport and collect the replies' JSON texts up to
    the first of type `until_type`."""
    return drv.execute_async_script("""
        const [messages, until, done] = arguments;
        const got = [];
        window.boardTransport.onMessage((text) => {
          got.push(text);
          if (JSON.parse(text).type === until) done(got);
        });
        for (const m of messages) window.boardTransport.send(JSON.stringify(m));
    """, messages, until_type)


@pytest.fixture
def tserver(server):
    """The static page, for test_practice's tests, with its own tables."""
    poolshark("egdb", "build", "--pieces", "3", "--dir", TABLES)
    return server


@pytest.fixture
def tpage(page):
    """The static page, for test_practice's tests: its tables are its own (target/web/egdb);
    the moves to click are found with the 3-piece tables those tests build."""
    poolshark("egdb", "build", "--pieces", "3", "--dir", TABLES)
    return page


def test_the_static_page_runs_the_engine_in_the_browser(page):
    conn = page.find_element(By.ID, "conn")
    assert conn.text == "in this browser"
    assert page.execute_script(
        "return document.querySelector('meta[name=poolshark-transport]').content") == "worker"


def test_board_transport_is_the_same_on_both_transports(browser, server):
    proc, served = start_server()
    try:
        replies = {}
        for name, url in (("worker", server), ("websocket", served)):
            browser.get(url + "style.css")
            browser.execute_script("localStorage.clear(); sessionStorage.clear()")
            browser.get(url)
            wait(browser, lambda d: d.find_element(By.ID, "fen").text != "", "the first state")
            browser.set_script_timeout(60)
            texts = transport_exchange(browser, [
                {"type": "ping"},
                {"type": "setup", "fen": "W:W26:B6,8,14,15,21,22,23"},
                {"type": "save_pdn"},
            ], "pdn")
            msgs = [json.loads(t) for t in texts]
            assert all(isinstance(t, str) for t in texts)
            replies[name] = [m["type"] for m in msgs], msgs[-1]["pdn"]
        assert replies["worker"][0] == replies["websocket"][0] == ["pong", "state", "pdn"]
        # The same game text, but for the date each writes.
        strip = lambda pdn: [l for l in pdn.splitlines() if not l.startswith("[Date")]
        assert strip(replies["worker"][1]) == strip(replies["websocket"][1])
    finally:
        stop_server(proc)


def test_stop_ends_the_analysis_in_the_worker(page):
    page.set_script_timeout(60)
    took = page.execute_async_script("""
        const done = arguments[0];
        let asked = null;
        window.boardTransport.onMessage((text) => {
          const m = JSON.parse(text);
          if (m.type === "info" && m.depth >= 4 && asked === null) {
            asked = performance.now();
            window.boardTransport.send(JSON.stringify({type: "stop"}));
          } else if (asked !== null && m.type === "state" && !m.analyzing) {
            done(performance.now() - asked);
          }
        });
        window.boardTransport.send(JSON.stringify({type: "analyze", on: true}));
    """)
    print(f"stop answered after {took:.1f} ms")
    shown = page.find_element(By.ID, "info-depth").text
    time.sleep(0.5)
    assert page.find_element(By.ID, "info-depth").text == shown, "analysis went on after stop"


def controlled(drv, url):
    """Open the page at `url` and again once its service worker, installed with its copy of
    the page, controls it."""
    drv.get(url)
    wait(drv, lambda d: d.find_element(By.ID, "fen").text != "", "the first state")
    drv.set_script_timeout(60)
    drv.execute_async_script("navigator.serviceWorker.ready.then(() => arguments[0](true));")
    drv.get(url)
    wait(drv, lambda d: d.execute_script("return !!navigator.serviceWorker.controller"),
         "the service worker to control the page")


def test_the_static_page_works_after_its_server_stops():
    proc, url = start_static()
    drv = new_driver()
    try:
        controlled(drv, url)
        stop_server(proc)
        drv.get(url)
        wait(drv, lambda d: d.find_element(By.ID, "fen").text != "", "the page, offline")
        load_pdn(drv, BLUNDER_PDN)
        wait(drv, lambda d: len(move_list(d)) == BLUNDER_PLIES, "the loaded game, offline")
        drv.find_element(By.ID, "review-run").click()
        wait(drv, lambda d: d.find_element(By.ID, "review-status").text.startswith("reviewed"),
             "the review's end, offline")
        shot(drv, "static-offline-review.png")
        drv.find_element(By.ID, "pdn-save").click()
        wait(drv, lambda d: "[%eval" in d.find_element(By.ID, "pdn-input").get_attribute("value"),
             "the saved PDN with the review's scores")
        # A puzzle, offline: the set is in the page's WebAssembly (issue 68).
        pid = next_puzzle(drv)
        solve(drv, solutions()[pid][3])
        wait(drv, lambda d: d.find_element(By.ID, "puzzle-task").text == "Solved!", "a puzzle solved, offline")
        shot(drv, "static-offline-puzzle.png")
        # Endgame practice, offline: the tables are files beside the page, which the service
        # worker keeps (issue 68). Three kings against one reads the lone-king table too.
        start(drv, "three-kings")
        wait(drv, lambda d: d.find_element(By.ID, "egdb").text.startswith("database: Black loses"),
             "the tables' verdict, offline")
        f = fen(drv)
        first = poolshark("moves", "--fen", f).split()[0]
        drv.execute_script("""window.seenFens = [];
            window.boardTransport.onMessage((t) => { const m = JSON.parse(t); if (m.type === "state") window.seenFens.push(m.fen); });""")
        answered(drv, lambda: play_hub(drv, first), "the move")
        wait(drv, lambda d: fen(d)[0] == f[0] and fen(d) != f, "the tables' reply, offline")
        # The lone king's reply is the tables' (under the 13-move count: the lone-king table's),
        # in the state of the move itself; without them the engine would search for one and
        # answer in a later state. Whether the move kept the win is the tests' above.
        after = drv.execute_script("return window.seenFens")
        assert after and after[0][0] == f[0], after
        assert task(drv).startswith("Three kings against one"), task(drv)
        # The counts in the status line's units: the lone king has made one move of its 13.
        assert "13-move count 1/13 moves of the lone king" in drv.find_element(By.ID, "practice-teaches").text
        shot(drv, "static-offline-practice.png")
        assert not [e for e in severe(drv) if "/js/" in e.get("message", "")
                    or "engine" in e.get("message", "")]
    finally:
        drv.quit()
        if proc.poll() is None:
            stop_server(proc)


# A 5-piece position: White's two kings and a man against Black's king and man (a win the
# tables know), and its group's file.
FIVE = "W:WK14,K22,30:BK29,1"
FIVE_GROUP = "egdb/b11w12.egdb"


def test_a_five_piece_group_is_read_when_needed_and_kept_offline():
    """Issue 69, item 5: a page built with the 5-piece tables (`make web`) gives their verdict
    and each move's in a 5-piece position; the service worker did not fetch that group when it
    installed (megabytes a phone may never use), keeps it once read, and the position works
    again after the server stops. `make test` builds the page with 4 pieces (a tenth of the
    time): there this test skips."""
    if not os.path.exists(os.path.join(WEB, FIVE_GROUP)):
        pytest.skip(f"{WEB} has no 5-piece tables (built with EGDB_PIECES=4; make web has them)")
    proc, url = start_static()
    drv = new_driver()
    try:
        controlled(drv, url)
        cached = """const done = arguments[arguments.length - 1];
            caches.keys().then((ks) => Promise.all(ks.map((k) => caches.open(k).then((c) => c.match(arguments[0])))))
              .then((hits) => done(hits.some(Boolean)));"""
        assert not drv.execute_async_script(cached, FIVE_GROUP), "fetched at install"
        drv.get(url + "?fen=" + FIVE.replace(":", "%3A").replace(",", "%2C"))
        wait(drv, lambda d: d.find_element(By.ID, "egdb").text.startswith("database:"), "the 5-piece verdict")
        wait(drv, lambda d: d.find_elements(By.CSS_SELECTOR, "#egdb-moves .egdb-move"), "each move's verdict")
        said = drv.find_element(By.ID, "egdb-text").text
        wait(drv, lambda d: d.execute_async_script(cached, FIVE_GROUP), "the group kept")
        stop_server(proc)
        drv.get(url + "?fen=" + FIVE.replace(":", "%3A").replace(",", "%2C"))
        wait(drv, lambda d: d.find_element(By.ID, "egdb-text").text == said, "the verdict, offline")
        shot(drv, "static-five-pieces-offline.png")
    finally:
        drv.quit()
        if proc.poll() is None:
            stop_server(proc)


def test_the_static_page_works_from_a_sub_path(browser, tmp_path):
    """A copy under a folder of a static host (as at https://user.github.io/poolshark/): the
    page, its workers, its module and its tables all load from there (the page loaded
    /js/main.js from the host's root: an empty board, "connecting" for ever), and the
    tables give their verdict in a 4-piece position."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "poolshark").symlink_to(os.path.abspath(WEB))
    proc, url = start_static(directory=str(site))
    try:
        browser.get(url + "poolshark/?fen=" + "W%3AW22%2C23%3AB9%2C14")
        wait(browser, lambda d: d.find_element(By.ID, "fen").text == "W:W22,23:B9,14", "the page at a sub-path")
        wait(browser, lambda d: d.find_element(By.ID, "egdb").text.startswith("database:"), "the tables' verdict")
        assert browser.execute_script("return location.pathname") == "/poolshark/"
        shot(browser, "static-sub-path.png")
        assert not severe(browser), severe(browser)
    finally:
        stop_server(proc)


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)])
def test_screenshots_of_the_static_page_at_desktop_and_phone_size(browser, server, size):
    with at_size(browser, server, size):
        name = "desktop" if size[0] > 700 else "phone"
        load_pdn(browser, BLUNDER_PDN)
        wait(browser, lambda d: len(move_list(d)) == BLUNDER_PLIES, "the loaded game")
        browser.find_element(By.ID, "review-run").click()
        wait(browser, lambda d: d.find_element(By.ID, "review-status").text.startswith("reviewed"),
             "the review's end")
        browser.find_element(By.ID, "analyze").click()
        wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#info-pv .pv-move")) >= 4,
             "a line")
        width = browser.execute_script("return document.documentElement.clientWidth")
        assert browser.execute_script("return document.documentElement.scrollWidth") <= width, \
            "the page scrolls sideways"
        browser.execute_script("window.scrollTo(0, 0)")
        shot(browser, f"static-{name}.png")
        browser.find_element(By.ID, "analyze").click()


def test_the_static_page_is_installable(page):
    """Chromium's own verdict (what it checks before it offers "Install app" or "Add to Home
    screen"): a manifest it can read, with a name, icons of 192 and 512 pixels, a start URL and
    a display mode, and a service worker, on a secure origin (127.0.0.1 counts)."""
    page.set_script_timeout(60)
    page.execute_async_script("navigator.serviceWorker.ready.then(() => arguments[0](true));")
    manifest = page.execute_cdp_cmd("Page.getAppManifest", {})
    assert manifest["url"].endswith("/manifest.webmanifest"), manifest
    assert not manifest.get("errors"), manifest["errors"]
    found = page.execute_cdp_cmd("Page.getInstallabilityErrors", {})
    assert found["installabilityErrors"] == [], found


def controlled(drv, url):
    """`url` opened twice, the second time under the service worker's control."""
    drv.get(url)
    wait(drv, lambda d: d.find_element(By.ID, "fen").text != "", "the first state")
    drv.set_script_timeout(60)
    drv.execute_async_script("navigator.serviceWorker.ready.then(() => arguments[0](true));")
    drv.get(url)
    wait(drv, lambda d: d.execute_script("return !!navigator.serviceWorker.controller"),
         "the service worker to control the page")
    wait(drv, lambda d: d.find_element(By.ID, "fen").text != "", "the first state")


def test_a_100_kb_fen_link_is_refused_as_a_link_and_the_kept_game_stays():
    proc, url = start_static()
    drv = new_driver()
    try:
        controlled(drv, url)
        drv.execute_script("localStorage.setItem(arguments[0], arguments[1])", STORE, record())
        # Past http.server's 64 KB request line: the service worker answers it.
        drv.get(url + "?fen=" + "W:W" + ",".join(["21"] * 34000) + ":B1")
        said = refused_and_kept(drv, "the position in it is")
        print(said)
    finally:
        drv.quit()
        stop_server(proc)


def test_a_study_and_the_explorer_answer_the_same_on_both_transports(browser, server):
    """Issue 69: the same messages give the same answers in the page's worker and from
    `poolshark serve`: a three-game study loaded, a chapter shown, the explorer there, and the
    study saved."""
    study = "".join(f'[Event "e{i}"]\n1. {m} 22-18 *\n\n' for i, m in enumerate(["11-15", "9-13", "10-14"]))
    proc, served = start_server()
    try:
        replies = {}
        for name, url in (("worker", server), ("websocket", served)):
            browser.get(url + "style.css")
            browser.execute_script("localStorage.clear(); sessionStorage.clear()")
            browser.get(url)
            wait(browser, lambda d: d.find_element(By.ID, "fen").text != "", "the first state")
            browser.set_script_timeout(60)
            texts = transport_exchange(browser, [
                {"type": "load_pdn", "pdn": study, "study": True, "game": 2},
                {"type": "chapter", "index": 3},
                {"type": "explore"},
                {"type": "save_pdn"},
            ], "pdn")
            msgs = [json.loads(t) for t in texts]
            states = [m for m in msgs if m["type"] == "state"]
            explorer = next(m for m in msgs if m["type"] == "explorer")
            replies[name] = ([(s["chapter"], s["chapters"], s["fen"]) for s in states],
                             explorer["moves"], explorer["count"], msgs[-1]["pdn"])
        assert replies["worker"] == replies["websocket"]
        chapters, moves, count, pdn = replies["worker"]
        assert chapters[-1][0] == 3 and len(chapters[-1][1]) == 3, chapters
        assert moves and count == 1000, (moves, count)
        assert pdn.count("[Event") == 3, pdn
    finally:
        stop_server(proc)
