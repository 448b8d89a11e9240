"""Two tabs never overwrite each other's game (issue 69, item 3), in a real browser: a reload
brings back the tab's own game whatever another tab played since; a new tab opens the game
kept last and keeps its own copy; a tab duplicated from another (its session storage copied)
takes a record of its own; the game of a tab closed since is offered as a file, not lost.

The page, server and helpers are test_board.py's; test_static_page.py runs the first test on
the static page too.
"""

import json

from selenium.webdriver.common.by import By

from test_board import (  # noqa: F401 (fixtures)
    answered, browser, click_square, errors_shown, move_list, new_game, page, pieces, server,
    targets, wait,
)
from test_kept import STORE, capture_downloads, downloads, kept_note, shoot, storage

OTHER = "poolshark-board-tab-"


def first_state(drv):
    wait(drv, lambda d: d.find_element(By.ID, "fen").text != "", "the first state")
    wait(drv, lambda d: "connected" == d.find_element(By.ID, "conn").get_attribute("class").split()[-1],
         "the page to connect")


def tab_id(drv):
    return drv.execute_script("return sessionStorage.getItem('poolshark-board-tab')")


def kept_games(drv):
    """{key: the record's PDN} of every tab's kept record."""
    s = storage(drv)
    return {k: json.loads(v).get("pdn") or "" for k, v in s.items() if k == STORE or k.startswith(OTHER)}


def pick(drv, colour, last):
    """Click the first (or `last`) piece of `colour` that shows targets, then its target."""
    for n, p in sorted(pieces(drv).items(), reverse=last):
        if p.lower() != colour:
            continue
        click_square(drv, n)
        ts = targets(drv)
        if ts:
            click_square(drv, ts[-1] if last else ts[0])
            if drv.find_element(By.ID, "chooser").is_displayed():
                drv.find_element(By.ID, "choice-0").click()
            return
    raise AssertionError(f"no {colour} piece shows a target: {pieces(drv)}")


def play(drv, n, colours="bw", last=False):
    """Play `n` moves, the sides in turn from `colours[0]` (the first piece that can move, or
    the `last`); returns the move list."""
    for i in range(n):
        before = len(move_list(drv))
        answered(drv, lambda: pick(drv, colours[i % 2], last), "the move")
        wait(drv, lambda d: len(move_list(d)) == before + 1, "the move listed")
    return move_list(drv)


def kept(drv, moves):
    """Wait until this tab's kept record holds `moves` (its last one in its PDN)."""
    me = tab_id(drv)

    def mine(d):
        s = storage(d)
        raw = s.get(OTHER + str(me)) or s.get(STORE) or "{}"
        v = json.loads(raw)
        return v.get("tab") in (me, None) and moves[-1] in (v.get("pdn") or "") and v.get("path") == moves
    wait(drv, mine, f"the tab's game kept ({moves})")


def new_tab(drv, server):
    drv.switch_to.new_window("tab")
    drv.get(server)
    first_state(drv)
    return drv.current_window_handle


def test_two_tabs_keep_their_own_games(page, server):
    a = page.current_window_handle
    new_game(page, "human")
    moves_a = play(page, 2)
    kept(page, moves_a)
    # A new tab opens the game kept last, A's, and keeps a copy of its own.
    b = new_tab(page, server)
    wait(page, lambda d: move_list(d) == moves_a, "tab B opens the game kept last")
    new_game(page, "human")
    moves_b = play(page, 1, "b", last=True)
    assert moves_b[0] != moves_a[0]
    wait(page, lambda d: move_list(d) == moves_b, "tab B's own game")
    kept(page, moves_b)
    shoot_b = "tabs-b.png"
    shoot(page, shoot_b)
    # Both are kept, each under its tab.
    games = kept_games(page)
    assert any(moves_a[-1] in g and moves_a[0] in g for g in games.values()), games
    # A reload of A brings back A's game, not B's.
    page.switch_to.window(a)
    page.refresh()
    first_state(page)
    wait(page, lambda d: move_list(d) == moves_a, "tab A's own game after a reload")
    kept(page, moves_a)
    shoot(page, "tabs-a-reloaded.png")
    # And B's reload brings back B's.
    page.switch_to.window(b)
    page.refresh()
    first_state(page)
    wait(page, lambda d: move_list(d) == moves_b, "tab B's own game after a reload")
    kept(page, moves_b)
    # A third tab opens the game kept last (B's, saved by its reload).
    new_tab(page, server)
    wait(page, lambda d: move_list(d) == moves_b, "a new tab opens the game kept last")
    assert not errors_shown(page), errors_shown(page)
    page.close()
    page.switch_to.window(b)
    page.close()
    page.switch_to.window(a)


def test_a_duplicated_tab_keeps_a_record_of_its_own(page, server):
    """window.open copies the opener's session storage (as a duplicated tab does): the copy
    must not take the opener's record for its own."""
    a = page.current_window_handle
    new_game(page, "human")
    moves_a = play(page, 2)
    kept(page, moves_a)
    handles = set(page.window_handles)
    page.execute_script("window.open(location.href)")
    wait(page, lambda d: len(d.window_handles) == len(handles) + 1, "the second tab")
    dup = (set(page.window_handles) - handles).pop()
    page.switch_to.window(dup)
    first_state(page)
    wait(page, lambda d: move_list(d) == moves_a, "the copy opens A's game")
    new_game(page, "human")
    moves_d = play(page, 1, "b", last=True)
    kept(page, moves_d)
    page.switch_to.window(a)
    page.refresh()
    first_state(page)
    wait(page, lambda d: move_list(d) == moves_a, "A's own game after the copy played")
    page.switch_to.window(dup)
    page.close()
    page.switch_to.window(a)


def test_the_game_of_a_closed_tab_is_offered_not_lost(page, server):
    a = page.current_window_handle
    new_game(page, "human")
    moves_a = play(page, 2)
    kept(page, moves_a)
    new_tab(page, server)
    new_game(page, "human")
    moves_b = play(page, 3, last=True)
    kept(page, moves_b)
    page.close()
    # A plays on, so that its record is the one kept last; B's waits under B's key.
    page.switch_to.window(a)
    moves_a = play(page, 1, "b")
    kept(page, moves_a)
    # A new tab opens A's game and offers B's, whose tab is closed.
    new_tab(page, server)
    wait(page, lambda d: move_list(d) == moves_a, "the game kept last")
    wait(page, lambda d: "tab closed since" in kept_note(d), "the note on the closed tab's game")
    note = kept_note(page)
    shoot(page, "tabs-closed-offered.png")
    assert "A game played in a tab closed since is kept in this browser" in note, note
    capture_downloads(page)
    page.find_element(By.ID, "kept-save").click()
    wait(page, lambda d: downloads(d), "the file offered")
    name, text = downloads(page)[0]
    assert name == "poolshark-kept.pdn" and all(m in text for m in moves_b), (name, text)
    # Forgotten in words, it is gone; A's game and this tab's stay.
    page.find_element(By.ID, "kept-forget").click()
    wait(page, lambda d: kept_note(d) == "", "the note gone")
    games = kept_games(page)
    assert not any(g.count(moves_b[0]) and moves_b[2] in g for g in games.values()), games
    assert any(all(m in g for m in moves_a) for g in games.values()), games
    page.close()
    page.switch_to.window(a)
