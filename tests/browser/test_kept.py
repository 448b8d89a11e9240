"""The game kept across a reload (issue 66, items 1, 2 and 11), in a real browser: a kept
record that the board will not take as it is comes back without the part that is off (the
move shown, the clocks), and one it refuses altogether (another variant, an illegal move,
over the board's load limit), or that is not a record at all, is put aside, said in words
and offered as a file, never overwritten by the game played next. A game too large for the
browser's storage is said to be so.

The page, server and helpers are test_board.py's; test_static_page.py runs these on the
static page too.
"""

import json
import os
import time

import pytest
from selenium.webdriver.common.by import By

from test_board import (  # noqa: F401 (fixtures)
    answered, browser, errors_shown, move_list, page, play_any_move, server, wait,
)

STORE = "poolshark-board"
ASIDE = "poolshark-board-aside-"
SHOTS = "target/shots-66"

GAME = '[GameType "23"]\n1. 11-15 23-19 2. 8-11 22-17 *\n'
MOVES = ["11-15", "23-19", "8-11", "22-17"]
START = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"


def shoot(drv, name):
    os.makedirs(SHOTS, exist_ok=True)
    drv.save_screenshot(os.path.join(SHOTS, name))


def record(pdn=GAME, **over):
    """A kept record as the page writes it, with `over` in place of its fields."""
    v = {
        "start_fen": START, "tree_sig": "x", "pdn": pdn, "pdn_sig": "x", "path": MOVES,
        "white": "human", "black": "human", "level": {"movetime": 1.0}, "flipped": False,
        "analyzing": False, "multipv": 1, "clock": None, "saved_at": int(time.time() * 1000),
    }
    v.update(over)
    return json.dumps(v)


def storage(drv):
    return drv.execute_script(
        "const o = {}; for (let i = 0; i < localStorage.length; i++) {"
        "  const k = localStorage.key(i); o[k] = localStorage.getItem(k); } return o;")


def aside(drv):
    """The records put aside, oldest first."""
    s = storage(drv)
    return [s[k] for k in sorted(k for k in s if k.startswith(ASIDE))]


def reload_with(drv, server, raw):
    """The page opened again with `raw` as its kept record."""
    drv.get(server + "style.css")
    drv.execute_script("localStorage.clear(); localStorage.setItem(arguments[0], arguments[1])", STORE, raw)
    drv.get(server)
    wait(drv, lambda d: d.find_element(By.ID, "fen").text != "", "the first state")


def kept_note(drv):
    el = drv.find_element(By.ID, "kept-note")
    return el.text if el.is_displayed() else ""


def load_limit(drv):
    wait(drv, lambda d: d.find_element(By.ID, "conn").get_attribute("data-load-pdn"), "the board's limits")
    return int(drv.find_element(By.ID, "conn").get_attribute("data-load-pdn"))


def capture_downloads(drv):
    """Record what the page offers as a download: [name, text] of each."""
    drv.execute_script("""
        window.downloads = [];
        const click = HTMLAnchorElement.prototype.click;
        HTMLAnchorElement.prototype.click = function () {
          if (this.download) {
            const name = this.download;
            fetch(this.href).then((r) => r.text()).then((t) => window.downloads.push([name, t]));
            return;
          }
          return click.call(this);
        };""")


def downloads(drv):
    return drv.execute_script("return window.downloads.slice()")


# ---------- item 2: the part that is off is dropped, the game comes back ----------

BAD_PARTS = {
    "path": {"path": ["11-15", "99-1"]},
    "clock": {"clock": {"black_ms": 60000, "white_ms": 60000, "running": "black", "base_ms": 0, "inc_ms": 0}},
    "path and clock": {"path": ["11-15", "99-1"],
                       "clock": {"black_ms": 60000, "white_ms": 60000, "running": "black", "base_ms": 0, "inc_ms": 0}},
}


@pytest.mark.parametrize("part", list(BAD_PARTS))
def test_a_kept_game_with_a_bad_part_comes_back_without_it(page, server, part):
    raw = record(**BAD_PARTS[part])
    reload_with(page, server, raw)
    wait(page, lambda d: move_list(d) == MOVES, "the kept game back")
    # Said in words, not the board's raw error.
    notes = [e.text for e in page.find_elements(By.CSS_SELECTOR, "#messages .msg")]
    assert not errors_shown(page), errors_shown(page)
    if "path" in part:
        assert any("not at the move you were at" in n for n in notes), notes
    if "clock" in part:
        assert any("clocks could not be set again" in n for n in notes), notes
    # Kept: two seconds on, and after a move, the record is of this game still.
    time.sleep(2.5)
    kept = json.loads(storage(page)[STORE])
    assert "11-15 23-19" in kept["pdn"], kept
    assert not aside(page)
    if part == "path":
        shoot(page, "kept-bad-path.png")


# ---------- items 1, 2: a PDN the board refuses is put aside ----------

def refused_pdn(drv, why):
    if why == "another variant":
        return GAME.replace('"23"', '"20"')
    if why == "an illegal move":
        return '[GameType "23"]\n1. 11-15 23-19 2. 8-12 *\n'
    # Over the board's load limit, whatever it is (its `hello` says).
    limit = load_limit(drv)
    return '[GameType "23"]\n1. 11-15 {' + "a long note " * ((limit + 65536) // 12) + '} 23-19 *\n'


@pytest.mark.parametrize("why", ["another variant", "an illegal move", "over the limit"])
def test_a_kept_game_the_board_refuses_is_put_aside_and_offered_as_a_file(page, server, why):
    raw = record(refused_pdn(page, why), path=["11-15"])
    reload_with(page, server, raw)
    wait(page, lambda d: "could not be loaded" in kept_note(d), "the note")
    note = kept_note(page)
    assert "kept aside, not lost" in note, note
    assert aside(page) == [raw]
    if why == "over the limit":
        shoot(page, "kept-refused-too-large.png")
    # The game played next is kept in its place, and leaves the one put aside as it was.
    play_any_move(page, "b")
    wait(page, lambda d: len(move_list(d)) == 1, "a move")
    time.sleep(1)
    assert aside(page) == [raw]
    assert json.loads(storage(page)[STORE])["pdn"] != json.loads(raw)["pdn"]
    # It is offered as a file, with the PDN as it was kept.
    capture_downloads(page)
    page.find_element(By.ID, "kept-save").click()
    wait(page, lambda d: downloads(d), "the download")
    name, text = downloads(page)[0]
    assert name.endswith(".pdn") and text.strip() == json.loads(raw)["pdn"].strip()
    # The note stays across a reload until the game is forgotten in words.
    page.refresh()
    wait(page, lambda d: "kept aside" in kept_note(d), "the note after a reload")
    assert len(move_list(page)) == 1
    page.find_element(By.ID, "kept-forget").click()
    wait(page, lambda d: not kept_note(d), "the note gone")
    assert aside(page) == []


# ---------- item 11: a record that is not one ----------

@pytest.mark.parametrize("raw", ["{not json", "[1, 2, 3]", '{"start_fen": 5, "pdn": "x"}', '{"start_fen": "B", "pdn": 7}'])
def test_a_kept_record_that_cannot_be_read_is_put_aside_and_said(page, server, raw):
    reload_with(page, server, raw)
    wait(page, lambda d: "could not be read" in kept_note(d), "the note")
    assert aside(page) == [raw]
    if raw == "{not json":
        shoot(page, "kept-unreadable.png")
    play_any_move(page, "b")
    wait(page, lambda d: len(move_list(d)) >= 1, "a move")
    time.sleep(1)
    assert aside(page) == [raw]
    capture_downloads(page)
    page.find_element(By.ID, "kept-save").click()
    wait(page, lambda d: downloads(d), "the download")
    assert downloads(page)[0][1] == raw


# ---------- item 2: a game too large for the browser's storage ----------

def test_a_game_too_large_for_the_storage_is_said_and_not_kept_silently_stale(page, server):
    answered(page, lambda: page.execute_script(
        "window.boardTransport.send(JSON.stringify({type: 'load_pdn', pdn: arguments[0]}))", GAME), "the game")
    wait(page, lambda d: move_list(d) == MOVES, "the game")
    time.sleep(0.5)
    # The browser's storage full for anything longer than a small game.
    page.execute_script("""
        const set = Storage.prototype.setItem;
        Storage.prototype.setItem = function (k, v) {
          if (String(v).length > 3000) throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
          return set.call(this, k, v);
        };""")
    big = '[GameType "23"]\n1. 11-15 {' + "x" * 5000 + '} 23-19 2. 8-11 22-17 3. 9-13 *\n'
    answered(page, lambda: page.execute_script(
        "window.boardTransport.send(JSON.stringify({type: 'load_pdn', pdn: arguments[0]}))", big), "the big game")
    wait(page, lambda d: any("does not fit in this browser's storage" in e for e in errors_shown(d)), "the error")
    shoot(page, "kept-quota.png")
    # A reload brings back the older copy, and says it is one.
    page.refresh()
    wait(page, lambda d: move_list(d) == MOVES, "the older copy")
    wait(page, lambda d: any("older copy" in m.text for m in d.find_elements(By.CSS_SELECTOR, "#messages .msg")),
         "the word that it is older")


def test_the_notes_read_at_a_phones_size(page, server):
    """The note on a game put aside, and a link's refusal, at a phone's size: no sideways
    scrolling, the buttons in view (screenshots in target/shots-66)."""
    page.set_window_size(390, 844)
    try:
        reload_with(page, server, record(GAME.replace('"23"', '"20"')))
        wait(page, lambda d: "could not be loaded" in kept_note(d), "the note")
        width = page.execute_script("return document.documentElement.clientWidth")
        assert page.execute_script("return document.documentElement.scrollWidth") <= width
        page.execute_script("document.getElementById('kept-note').scrollIntoView({block: 'center'})")
        shoot(page, "kept-note-phone.png")
        page.get(server + "style.css")
        page.get(server + "#pdn=AAAAAAAA")
        wait(page, lambda d: any(e.startswith("the link could not be opened") for e in errors_shown(d)), "the error")
        page.execute_script("document.getElementById('messages').scrollIntoView({block: 'center'})")
        shoot(page, "link-error-phone.png")
        page.find_element(By.ID, "kept-forget").click()
    finally:
        page.set_window_size(1100, 1000)
