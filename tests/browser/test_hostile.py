"""A second hostile pass over the page (issue 66, its last "done when" line): ways a player's
work (the game on the board, the kept game, a game put aside by a link or set aside) could be
lost, each a test that failed before its fix.

The page, server and helpers are test_board.py's; test_static_page.py runs these on the
static page too.
"""

import base64
import json
import re
from pathlib import Path
import zlib

import pytest
from selenium.webdriver.common.by import By

from test_board import (  # noqa: F401 (fixtures)
    browser, click_square, errors_shown, move_list, page, play_any_move, server, wait,
)
from test_kept import ASIDE, MOVES, STORE, capture_downloads, downloads, kept_note, record, shoot, storage
from test_links import STASH, open_with_kept_game, packed

LINK_A = '[GameType "23"]\n1. 9-13 22-18 *\n'
LINK_B = '[GameType "23"]\n1. 10-14 24-20 *\n'


def kept_anywhere(drv, move):
    """The keys of the records in storage whose game has `move`: the kept game, the one put
    aside by a link, and those set aside."""
    found = []
    for k, v in storage(drv).items():
        if k == STORE or k == STASH or k.startswith(ASIDE):
            try:
                pdn = json.loads(v).get("pdn") or ""
            except ValueError:
                pdn = v
            if move in pdn:
                found.append(k)
    return found


def open_link(drv, server, pdn):
    """Open a `#pdn=` link of `pdn` as a new visit (not a hash change), and wait for it."""
    drv.get(server + "style.css")
    drv.get(server + "#pdn=" + packed(pdn))
    first = pdn.split("1. ")[1].split()[0]
    wait(drv, lambda d: move_list(d)[:1] == [first], "the link's game")
    wait(drv, lambda d: d.find_element(By.ID, "link-note").is_displayed(), "the link's note")
    wait(drv, lambda d: first in (json.loads(storage(d).get(STORE) or "{}").get("pdn") or ""),
         "the link's game kept")


def test_two_links_in_a_row_put_neither_earlier_game_out_of_reach(page, server):
    """A second link used to put the first link's game aside in place of the player's own
    game, which was then gone: each game put aside stays until forgotten in words."""
    page.execute_script("localStorage.setItem(arguments[0], arguments[1])", STORE, record())
    open_link(page, server, LINK_A)
    assert kept_anywhere(page, "22-17") == [STASH]
    open_link(page, server, LINK_B)
    assert kept_anywhere(page, "22-17")[0].startswith(ASIDE), storage(page)
    assert kept_anywhere(page, "22-18") == [STASH], storage(page)
    assert "the one put aside before is kept too" in page.find_element(By.ID, "link-note").text
    assert "moved here" in kept_note(page), kept_note(page)
    shoot(page, "two-links.png")


def test_the_same_link_opened_twice_keeps_the_game_from_before(page, server):
    page.execute_script("localStorage.setItem(arguments[0], arguments[1])", STORE, record())
    open_link(page, server, LINK_A)
    open_link(page, server, LINK_A)
    # The link's own game, nothing played in it, is not put aside for itself.
    assert kept_anywhere(page, "22-17") == [STASH], storage(page)
    assert kept_anywhere(page, "22-18") == [STORE], storage(page)
    assert "A game of yours put aside before is still there" in page.find_element(By.ID, "link-note").text


# LINK_A's game played on: legal moves, each landing as the engine's next move would.
PLAYED_ON = ["13-17", "21x14", "10x17", "25-22", "11-16", "22x13", "16-20", "29-25", "7-11",
             "25-22", "11-16", "23-19", "16x23x14", "26-23", "14-18", "22x15", "6-10", "15x6",
             "1x10", "30-26", "10-15", "23-19", "5-9", "13x6", "2x9", "19x10", "9-14", "10x17"]

# Sends the next of the moves given every 300 ms, from the page itself: the moves keep
# landing through the click and the reload, as an engine playing on would land them.
PLAY_ON = """
const moves = arguments[0];
let i = 0;
window.playOn = () => {
  if (i < moves.length) window.boardTransport.send(JSON.stringify({type: "move", move: moves[i++]}));
};
setInterval(window.playOn, 300);
"""

# Clicks **bring back** from inside the delivery of the next state, before the page acts on it.
CLICK_ON_NEXT_STATE = """
let armed = true;
window.boardTransport.onMessage((text) => {
  if (armed && JSON.parse(text).type === "state") {
    armed = false;
    document.getElementById("link-restore").click();
  }
});
window.playOn();
"""


def test_bring_back_while_the_engine_plays_brings_the_game_back(page, server):
    """**bring back** swaps the two games and reloads; a state or a kept PDN arriving before
    the page goes (the engine playing on) must not be saved over the game brought back.

    The moves come from a timer in the page rather than from the engine: an engine playing
    both sides takes a core for itself, and on a loaded machine (`make test`'s three browsers
    on two cores) the page's thread then fell minutes behind drawing the states, and the click
    timed out. What is tested, states arriving between the click and the page going, is the
    same."""
    page.execute_script("localStorage.setItem(arguments[0], arguments[1])", STORE, record())
    open_link(page, server, LINK_A)
    send = "window.boardTransport.send(JSON.stringify(arguments[0]))"
    page.execute_script(send, {"type": "players", "white": "human", "black": "human"})
    page.execute_script(PLAY_ON, PLAYED_ON)
    wait(page, lambda d: len(move_list(d)) > 4, "the game played on")
    # The click comes as a state arrives, before the page has taken it in: that state lands
    # on a page going away, as an engine's move would.
    page.execute_script(CLICK_ON_NEXT_STATE)
    wait(page, lambda d: move_list(d)[:1] == ["11-15"], "the page again, with the game brought back")
    assert move_list(page) == MOVES
    assert "22-17" in json.loads(storage(page)[STORE])["pdn"]
    assert "22-18" in json.loads(storage(page)[STASH])["pdn"]


# Drops the page's quiet `save_pdn` requests from now on, on either transport: the kept PDN
# then never comes, as when the page goes away between a move and the PDN of it.
NO_QUIET_PDN = """
const drop = (text) => { try { const m = JSON.parse(text); return m.type === "save_pdn" && m.quiet; } catch (e) { return false; } };
for (const C of [WebSocket, Worker]) {
  const post = C === WebSocket ? "send" : "postMessage";
  const orig = C.prototype[post];
  C.prototype[post] = function (data, ...rest) { if (typeof data === "string" && drop(data)) return; return orig.call(this, data, ...rest); };
}
"""


def test_a_reload_before_the_first_kept_pdn_keeps_the_moves(page, server):
    """The first moves of a game, reloaded before any PDN of it was kept, come back: the path
    kept with them is played again (docs/BOARD.md: "the path plays the move again")."""
    page.execute_script(NO_QUIET_PDN)
    page.execute_script("window.boardTransport.send(arguments[0])",
                        json.dumps({"type": "players", "white": "human", "black": "human"}))
    for hub in ("11-15", "23-19"):
        page.execute_script("window.boardTransport.send(arguments[0])", json.dumps({"type": "move", "move": hub}))
        wait(page, lambda d: move_list(d)[-1:] == [hub], hub)
    wait(page, lambda d: json.loads(storage(d)[STORE])["path"] == ["11-15", "23-19"], "the path kept")
    assert not json.loads(storage(page)[STORE]).get("pdn")
    page.refresh()
    wait(page, lambda d: d.find_element(By.ID, "fen").text != "", "the first state")
    wait(page, lambda d: move_list(d) == ["11-15", "23-19"], "the moves back")


def refused_in_words_and_kept(drv):
    """A link refused, in words, and the kept game back on the board and kept: a move after
    it does not put the game aside as if the link had opened."""
    wait(drv, lambda d: any("could not be opened: " in e for e in errors_shown(d)), "the link's refusal")
    wait(drv, lambda d: move_list(d) == MOVES, "the kept game back")
    play_any_move(drv, "b")
    wait(drv, lambda d: len(move_list(d)) == 5, "a move after it")
    assert STASH not in storage(drv)
    wait(drv, lambda d: "22-17" in (json.loads(storage(d)[STORE]).get("pdn") or ""), "the game kept")


@pytest.mark.parametrize("link", [
    "#pdn=" + packed('[GameType "20"]\n1. 32-28 19-23 *\n'),   # another variant
    "#pdn=" + base64.urlsafe_b64encode(zlib.compress(b"\xff\xfe\x00 1. 11-15", 9)[2:-4]).decode().rstrip("="),
    "?fen=%F0%9F%98%80",                                         # an emoji for a position
    "?fen=%E0%A4%A",                                             # a broken percent-encoding
    "?fen=",                                                     # no position
    "#pdn=" + packed('[GameType "23"]\n' + "(" * 3000 + "1. 11-15" + ")" * 3000 + " *\n"),
])
def test_a_hostile_link_is_refused_and_the_kept_game_stays(page, server, link):
    open_with_kept_game(page, server, link)
    refused_in_words_and_kept(page)


def test_a_link_with_both_a_position_and_a_game_opens_the_game_once(page, server):
    open_with_kept_game(page, server, "?fen=" + "W%3AWK3%3ABK29" + "#pdn=" + packed(LINK_A))
    wait(page, lambda d: move_list(d) == ["9-13", "22-18"], "the link's game")
    assert "?" not in page.current_url and "#" not in page.current_url, page.current_url
    page.refresh()
    wait(page, lambda d: d.find_element(By.ID, "fen").text != "", "the first state")
    wait(page, lambda d: move_list(d) == ["9-13", "22-18"], "the link's game, kept")
    assert kept_anywhere(page, "22-17") == [STASH]


STORAGE_OFF = """
Object.defineProperty(window, "localStorage", {
  get() { throw new DOMException("The operation is insecure.", "SecurityError"); },
});
"""


def test_a_browser_that_keeps_nothing_says_a_reload_would_lose_the_game(page, server):
    """With the browser's storage off (a browser set to keep no site data), nothing is kept;
    the page used to say nothing, and a reload took the game without a word."""
    sid = page.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": STORAGE_OFF})["identifier"]
    try:
        page.get(server)
        wait(page, lambda d: d.find_element(By.ID, "fen").text != "", "the first state")
        play_any_move(page, "b")
        wait(page, lambda d: "a reload would lose the game" in kept_note(d), "the word")
        assert not page.find_element(By.ID, "kept-save").is_displayed()
        shoot(page, "storage-off.png")
    finally:
        page.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": sid})


# A tree of 300 nodes (the board's PDN of it: from a first move, the first legal move each
# time and every other legal move a variation beside it, then from the next first move), made
# once on the board and kept in tests/data: making it here took 600 messages, each state drawn.
TREE_300 = Path(__file__).resolve().parents[1] / "data" / "tree-300-nodes.pdn"


def largest_game():
    """A game of 262 comments of 4000 `"` (1 MiB; 2 MiB as JSON), one after each of the first
    262 moves of TREE_300."""
    pdn = TREE_300.read_text()
    lines = pdn.split("\n")
    tags = sum(1 for x in lines if x.startswith("["))
    head, moves = "\n".join(lines[:tags]), "\n".join(lines[tags:])
    count = [0]

    def comment(m):
        count[0] += 1
        return m.group(0) + (" {" + '"' * 4000 + "}" if count[0] <= 262 else "")
    moves = re.sub(r"(?<![.\d])\d+[-x]\d+(?:x\d+)*", comment, moves)
    assert count[0] >= 300, (count[0], pdn[:400])
    return head + "\n" + moves


def comments_shown(drv):
    return drv.execute_script("return document.querySelectorAll('#moves .comment').length")


def test_the_largest_game_of_comments_is_kept_across_reloads(page, server):
    """262 comments of 4000 `"` (1 MiB, 2 MiB as JSON), kept and reloaded, twice, the second
    reload while the first is still loading it: all of it comes back, and nothing is put
    aside."""
    pdn = largest_game()
    page.execute_script("window.boardTransport.send(arguments[0])", json.dumps({"type": "load_pdn", "pdn": pdn}))
    wait(page, lambda d: len(json.loads(storage(d)[STORE]).get("pdn") or "") > 1_048_576, "the game kept")
    kept_before = json.loads(storage(page)[STORE])["pdn"]
    shown = comments_shown(page)
    assert shown == 262, shown
    page.refresh()
    # Again at once, while the first reload loads it.
    wait(page, lambda d: d.find_element(By.ID, "fen").text != "", "the first state")
    page.refresh()
    wait(page, lambda d: comments_shown(d) == 262, "the comments back")
    assert not [k for k in storage(page) if k.startswith(ASIDE)]
    assert kept_note(page) == ""
    page.execute_script("window.boardTransport.send(arguments[0])", json.dumps({"type": "save_pdn"}))
    wait(page, lambda d: len(d.find_element(By.ID, "pdn-input").get_attribute("value")) > 1_000_000, "the PDN saved")
    assert page.find_element(By.ID, "pdn-input").get_attribute("value") == kept_before


ODD_FIELDS = {
    "path a string": {"path": "11-15 23-19"},
    "path of numbers": {"path": [11, 15]},
    "clock of strings": {"clock": {"black_ms": "60000", "white_ms": "x", "running": "black", "base_ms": 60000, "inc_ms": 0}},
    "clock huge": {"clock": {"black_ms": 1e300, "white_ms": 1e300, "running": "white", "base_ms": 1e300, "inc_ms": -5}},
    "clock negative": {"clock": {"black_ms": -5, "white_ms": -5, "running": "nobody", "base_ms": -1, "inc_ms": 0}},
    "level of the wrong type": {"level": "strong", "multipv": 99, "flipped": "yes", "white": 7, "saved_at": "soon"},
    "level out of range": {"level": {"depth": 1e9, "movetime": -1, "level": 99}, "multipv": "3"},
    "stale and odd": {"stale": "yes", "analyzing": "please", "pdn_sig": 5, "tree_sig": None},
}


@pytest.mark.parametrize("odd", list(ODD_FIELDS))
def test_a_kept_record_with_odd_field_types_brings_the_game_back(page, server, odd):
    """Every field of a kept record but its PDN, of the wrong type or out of range: the game
    comes back (its moves), nothing is put aside, and the page throws nothing."""
    page.execute_script("localStorage.setItem(arguments[0], arguments[1])", STORE,
                        record(**ODD_FIELDS[odd]))
    page.refresh()
    wait(page, lambda d: d.find_element(By.ID, "fen").text != "", "the first state")
    wait(page, lambda d: move_list(d) == MOVES, "the kept game back")
    assert not [k for k in storage(page) if k.startswith(ASIDE)]


# The board's answers come late (a slow network, a busy worker): each message to the page's
# handlers is held back a while, in order.
SLOW_ANSWERS = """
for (const C of [WebSocket, Worker]) {
  const add = C.prototype.addEventListener;
  C.prototype.addEventListener = function (type, fn, ...rest) {
    if (type !== "message") return add.call(this, type, fn, ...rest);
    return add.call(this, type, (ev) => setTimeout(() => fn(ev), 1500), ...rest);
  };
}
"""


def test_a_move_while_the_kept_game_comes_back_does_not_replace_it(page, server):
    """A move played on the fresh board while the kept game is still being loaded back used
    to be taken for the load's answer: the fresh game was saved over the kept record, and the
    kept game, refused in the end, was lost instead of put aside."""
    other_variant = '[GameType "20"]\n1. 32-28 19-23 *\n'
    page.execute_script("localStorage.setItem(arguments[0], arguments[1])", STORE, record(pdn=other_variant))
    sid = page.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SLOW_ANSWERS})["identifier"]
    try:
        page.refresh()
        wait(page, lambda d: d.find_element(By.ID, "fen").text != "", "the first state")
        click_square(page, 9)
        click_square(page, 13)
        wait(page, lambda d: any("a moment" in m.text for m in d.find_elements(By.CSS_SELECTOR, "#messages .msg")),
             "the word that the move waits")
        shoot(page, "a-moment.png")
        wait(page, lambda d: "could not be loaded back" in kept_note(d), "the kept game put aside")
    finally:
        page.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": sid})
    assert kept_anywhere(page, "32-28"), storage(page)


def test_the_games_set_aside_are_saved_as_one_file_then_forgotten(page, server):
    """Several records set aside (a game an earlier link put aside, a record that is no
    record): **save them as a file** offers every one of them; **forget them** drops them
    all, and the games on the board and put aside by the last link stay."""
    page.execute_script("localStorage.setItem(arguments[0], arguments[1])", STORE, record())
    open_link(page, server, LINK_A)
    page.execute_script("localStorage.setItem(arguments[0], '{not json')", ASIDE + "1")
    open_link(page, server, LINK_B)
    assert "others" in kept_note(page), kept_note(page)
    capture_downloads(page)
    page.find_element(By.ID, "kept-save").click()
    wait(page, lambda d: downloads(d), "the file")
    [(name, text)] = downloads(page)
    assert "22-17" in text and "{not json" in text, (name, text[:300])
    page.find_element(By.ID, "kept-forget").click()
    wait(page, lambda d: kept_note(d) == "", "the note gone")
    assert not [k for k in storage(page) if k.startswith(ASIDE)]
    assert kept_anywhere(page, "22-18") == [STASH] and kept_anywhere(page, "24-20") == [STORE]


def test_the_notes_after_two_links_read_at_a_phones_size(page, server):
    """The link's note and the note on the game moved aside, at a phone's size: no sideways
    scrolling (screenshot in target/shots-66)."""
    page.set_window_size(390, 844)
    try:
        page.execute_script("localStorage.setItem(arguments[0], arguments[1])", STORE, record())
        open_link(page, server, LINK_A)
        open_link(page, server, LINK_B)
        width = page.execute_script("return document.documentElement.clientWidth")
        assert page.execute_script("return document.documentElement.scrollWidth") <= width
        page.execute_script("document.getElementById('link-note').scrollIntoView({block: 'start'})")
        shoot(page, "two-links-phone.png")
    finally:
        page.set_window_size(1100, 1000)


def test_a_reload_during_a_review_and_analysis_keeps_the_game(page, server):
    """Reloaded while a review runs and analysis is on: the game comes back whole, at the move
    shown, with analysis on again; nothing is put aside."""
    page.execute_script("localStorage.setItem(arguments[0], arguments[1])", STORE, record(path=MOVES[:2]))
    page.refresh()
    wait(page, lambda d: move_list(d) == MOVES, "the kept game")
    send = "window.boardTransport.send(JSON.stringify(arguments[0]))"
    page.execute_script(send, {"type": "analyze", "on": True})
    page.execute_async_script("""
        const done = arguments[0];
        window.boardTransport.onMessage((t) => { if (JSON.parse(t).type === "review_ply") done(); });
        window.boardTransport.send(JSON.stringify({ type: "review", nodes: 3000000 }));""")
    page.refresh()
    wait(page, lambda d: d.find_element(By.ID, "fen").text != "", "the first state")
    wait(page, lambda d: move_list(d) == MOVES, "the game back")
    wait(page, lambda d: json.loads(storage(d)[STORE])["path"] == MOVES[:2], "at the move shown")
    wait(page, lambda d: d.find_element(By.ID, "analyze").get_attribute("aria-pressed") == "true"
         or "stop" in d.find_element(By.ID, "analyze").text.lower(), "analysis on again")
    assert not [k for k in storage(page) if k.startswith(ASIDE)]
