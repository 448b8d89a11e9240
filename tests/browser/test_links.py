"""Share links that cannot be opened (issue 66, items 5, 7 and 11), in a real browser: a
deflate bomb, a link too long for the board, and a damaged or empty one are each refused as a
link, in words, with the kept game back on the board and kept; the tab lives.

The page, server and helpers are test_board.py's; test_static_page.py runs these on the
static page too, with the `?fen=` link that only reaches a static page's service worker.
"""

import base64
import json
import zlib

import pytest
from selenium.webdriver.common.by import By

from test_board import (  # noqa: F401 (fixtures)
    browser, errors_shown, move_list, page, play_any_move, server, wait,
)
from test_kept import GAME, MOVES, STORE, record, shoot, storage

STASH = "poolshark-board-before-link"


def packed(text=None, zeros=0):
    """`text` (or `zeros` bytes of "a") as a `#pdn=` link packs it: raw deflate, base64url."""
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    if text is not None:
        out = c.compress(text.encode())
    else:
        out = b""
        chunk = b"a" * (1 << 20)
        for _ in range(zeros >> 20):
            out += c.compress(chunk)
    out += c.flush()
    return base64.urlsafe_b64encode(out).decode().rstrip("=")


def open_with_kept_game(drv, server, link):
    """Open `link` (the part after the page's address) in a tab whose kept game is GAME."""
    drv.get(server + "style.css")
    drv.execute_script("localStorage.clear(); localStorage.setItem(arguments[0], arguments[1])", STORE, record())
    drv.get(server + link)


def refused_and_kept(drv, said, name=None):
    """The link refused as a link, saying `said`, and the kept game back and kept: a move
    played after it does not put the game aside as if the link had opened."""
    wait(drv, lambda d: any(e.startswith("the link could not be opened: ") for e in errors_shown(d)),
         "the link's refusal")
    errors = errors_shown(drv)
    assert any(said in e for e in errors), errors
    assert not any("Failed to fetch" in e or "message too large" in e for e in errors), errors
    wait(drv, lambda d: move_list(d) == MOVES, "the kept game back")
    if name:
        shoot(drv, name)
    play_any_move(drv, "b")
    wait(drv, lambda d: len(move_list(d)) == 5, "a move after it")
    assert STASH not in storage(drv)
    assert not drv.find_element(By.ID, "link-note").is_displayed()
    wait(drv, lambda d: "22-17" in (json.loads(storage(d)[STORE]).get("pdn") or ""), "the game kept, with its move")
    return errors


def test_a_deflate_bomb_link_is_refused_and_the_tab_lives(page, server):
    link = "#pdn=" + packed(zeros=300 << 20)
    assert 300_000 < len(link) < 500_000, len(link)
    open_with_kept_game(page, server, link)
    refused_and_kept(page, "more than the board loads")
    heap = page.execute_script("return performance.memory.usedJSHeapSize")
    print(f"JS heap after a 300 MB deflate bomb: {heap / 1e6:.1f} MB")
    assert heap < 300e6, heap


def test_a_pdn_link_too_large_for_the_board_is_refused_as_a_link(page, server):
    # 3.6 MB of PDN (a long comment), over the board's load limit (3.375 MiB), in a short link.
    pdn = '[GameType "23"]\n1. 11-15 {' + "a long note " * 300_000 + '} 23-19 *\n'
    open_with_kept_game(page, server, "#pdn=" + packed(pdn))
    refused_and_kept(page, "more than the board loads", "link-too-large.png")


@pytest.mark.parametrize("link,said", [
    ("#pdn=", "it holds no game"),
    ("#pdn=AAAAAAAA", "damaged or cut short"),
    ("#pdn=" + packed(GAME)[:-12], "damaged or cut short"),
    ("#pdn=%%%", "characters a link of this page never has"),
])
def test_an_empty_or_damaged_link_says_what_is_wrong_in_words(page, server, link, said):
    open_with_kept_game(page, server, link)
    refused_and_kept(page, said, "link-damaged.png" if link == "#pdn=AAAAAAAA" else None)


def test_a_link_opened_with_no_room_to_put_the_game_aside_loses_nothing(page, server):
    """Where the browser's storage has no room to put the kept game aside for a link, it is
    put aside as a game that could not be loaded is, and said so; never overwritten."""
    open_with_kept_game(page, server, "")
    wait(page, lambda d: move_list(d) == MOVES, "the kept game")
    page.execute_script("""
        const set = Storage.prototype.setItem;
        Storage.prototype.setItem = function (k, v) {
          if (k === arguments[0]) throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
          return set.call(this, k, v);
        };""".replace("arguments[0]", repr(STASH)))
    page.execute_script("location.hash = arguments[0]", "#pdn=" + packed('[GameType "23"]\n1. 9-13 *\n'))
    wait(page, lambda d: move_list(d) == ["9-13"], "the link's game")
    wait(page, lambda d: "could not be put aside as usual" in d.find_element(By.ID, "kept-note").text, "the note")
    kept = [v for k, v in storage(page).items() if k.startswith("poolshark-board-aside-")]
    assert len(kept) == 1 and "22-17" in json.loads(kept[0])["pdn"], kept
