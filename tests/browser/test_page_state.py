"""The page's state, one way (issue 61, Build 7 and defects 2, 4 and 5), in a real browser:
a reload restores the game in one request; the players menu keeps what the person chose
when the strength changes; a timed game against the engine gives no engine move and no
analysis on the person's clock; a reload in a timed game keeps its clocks.

The page, server and helpers are test_board.py's (and test_tree.py's for the move list).
"""

import json
import os

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from test_board import (  # noqa: F401 (fixtures)
    answered, browser, choose_clock, click_square, clock_of, errors_shown, move_list, page,
    play_any_move, server, status, wait,
)
from test_tree import current, goto_text, kept, load, main_moves, play, variations

SHOTS = "target/shots-61"

# Every request the page sends over its WebSocket, logged in `window.sentLog` from the first
# script on (installed before the page's own with the DevTools protocol).
LOG_SENDS = """
window.sentLog = [];
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  try { window.sentLog.push(JSON.parse(data)); } catch (e) { window.sentLog.push(String(data)); }
  return send.call(this, data);
};
"""


class logged_sends:
    """Within it, every page loaded logs the requests it sends (`sent`)."""

    def __init__(self, drv):
        self.drv = drv

    def __enter__(self):
        self.id = self.drv.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                           {"source": LOG_SENDS})["identifier"]
        return self

    def __exit__(self, *exc):
        self.drv.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": self.id})

    def sent(self):
        return self.drv.execute_script("return window.sentLog || []")


def send(drv, msg):
    """A request straight to the board, as a script would send it."""
    drv.execute_script("window.boardTransport.send(arguments[0])", json.dumps(msg))


def shot(drv, name):
    os.makedirs(SHOTS, exist_ok=True)
    drv.save_screenshot(os.path.join(SHOTS, name))


def players(drv):
    return drv.find_element(By.ID, "players").text


def mode(drv):
    return Select(drv.find_element(By.ID, "mode")).first_selected_option.get_attribute("value")


# ---------- Build 7: a reload restores the game in one request ----------

def test_a_reload_restores_the_game_in_one_load_pdn(page):
    load(page, '[GameType "23"]\n1. 11-15 23-19 (1... 22-18 2. 15x22) 2. 8-11 *\n')
    goto_text(page, "23-19")
    play(page, 9, 13)
    lines = variations(page)
    assert lines == ["( 1… 22-18 2. 15x22 )", "( 2. 9-13 )"], lines
    wait(page, kept, "the game's PDN kept")
    with logged_sends(page) as log:
        page.refresh()
        wait(page, lambda d: variations(d) == lines and current(d) == "9-13", "the tree after the reload")
        assert main_moves(page) == ["11-15", "23-19", "8-11"]
        sent = log.sent()
    kinds = [m["type"] for m in sent]
    # One request brings the game back, at the move shown; the rest are settings.
    assert kinds.count("load_pdn") == 1, kinds
    assert not {"move", "goto", "setup", "undo", "redo"} & set(kinds), kinds
    load_req = next(m for m in sent if m["type"] == "load_pdn")
    assert load_req["path"] == ["11-15", "23-19", "9-13"], load_req
    assert "(1... 22-18 2. 15x22)" in " ".join(load_req["pdn"].split()), load_req["pdn"]


# ---------- defect 2: the players menu keeps the person's choice ----------

def test_a_new_level_keeps_the_players_chosen_for_the_next_game(page):
    # The game on the board is two people's.
    Select(page.find_element(By.ID, "mode")).select_by_value("human")
    answered(page, page.find_element(By.ID, "play-here").click, "two players")
    wait(page, lambda d: "Black: human · White: human" in players(d), "two players")
    # Chosen for the next game: Black against the engine; then a level, chosen as a person
    # does (the menu focused, not the players menu).
    Select(page.find_element(By.ID, "mode")).select_by_value("black")
    page.find_element(By.ID, "play-level").click()
    Select(page.find_element(By.ID, "play-level")).select_by_value("3")
    wait(page, lambda d: "at level 3" in players(d), "the new level")
    assert mode(page) == "black"
    # "set" for the strength, too.
    box = page.find_element(By.ID, "level-value")
    box.clear()
    box.send_keys("0.2")
    answered(page, page.find_element(By.ID, "level-set").click, "the new strength")
    wait(page, lambda d: "0.2 s/move" in players(d), "the new strength shown")
    assert mode(page) == "black"
    # "New game" starts the game chosen, which the engine answers.
    answered(page, page.find_element(By.ID, "new-game").click, "the new game")
    wait(page, lambda d: "Black: human · White: engine" in players(d), "the players chosen")
    click_square(page, 11)
    click_square(page, 15)
    wait(page, lambda d: len(move_list(d)) == 2, "the engine's answer")
    # A change of players on the board itself still shows in the menu.
    Select(page.find_element(By.ID, "mode")).select_by_value("human")
    answered(page, page.find_element(By.ID, "play-here").click, "two players")
    wait(page, lambda d: "Black: human · White: human" in players(d), "two players")
    assert mode(page) == "human"


# ---------- defect 4: no engine help on the person's clock ----------

def timed_game_against_the_engine(drv):
    choose_clock(drv, "5+3")
    Select(drv.find_element(By.ID, "mode")).select_by_value("black")
    answered(drv, drv.find_element(By.ID, "new-game").click, "the new game")
    wait(drv, lambda d: "Black: human · White: engine" in players(d), "the timed game")
    click_square(drv, 11)
    click_square(drv, 15)
    wait(drv, lambda d: len(move_list(d)) == 2 and "running" in clock_of(d, "black")[1],
         "the engine's move on its clock")


def test_a_timed_game_gives_no_engine_move_or_analysis_on_the_players_clock(page):
    timed_game_against_the_engine(page)
    assert not page.find_element(By.ID, "engine-move").is_enabled()
    assert not page.find_element(By.ID, "analyze").is_enabled()
    # Nor does the tree change under the clocks: the board refuses promote and delete.
    for tool in ("var-promote", "var-main", "var-delete"):
        assert not page.find_element(By.ID, tool).is_enabled(), tool
    # Asked all the same (a script, an old page): refused with the reason, nothing moves.
    send(page, {"type": "engine_move"})
    wait(page, lambda d: any("the engine does not move for you on your clock" in e for e in errors_shown(d)),
         "engine_move refused")
    send(page, {"type": "analyze", "on": True})
    wait(page, lambda d: any("no analysis until it ends" in e for e in errors_shown(d)), "analyze refused")
    assert len(move_list(page)) == 2
    assert page.find_element(By.ID, "analyze").get_attribute("aria-pressed") == "false"
    assert "running" in clock_of(page, "black")[1]
    for size, name in (((1280, 900), "desktop"), ((390, 844), "phone")):
        page.set_window_size(*size)
        page.execute_script("window.scrollTo(0, 0)")
        shot(page, f"timed-no-help-{name}.png")
    page.set_window_size(1100, 1000)


# ---------- defect 5: a reload keeps the timed game and its clocks ----------

def test_a_reload_keeps_a_timed_game_with_its_clocks_and_no_take_backs(page):
    timed_game_against_the_engine(page)
    wait(page, kept, "the game's PDN kept")
    before = clock_of(page, "white")[0]
    page.refresh()
    wait(page, lambda d: len(move_list(d)) == 2 and d.find_element(By.ID, "clock-top").is_displayed(),
         "the timed game after the reload")
    wait(page, lambda d: "running" in clock_of(d, "black")[1], "Black's clock running again")
    # White's time is as it was; Black's ran on while the page was away.
    assert clock_of(page, "white")[0] == before
    assert not page.find_element(By.ID, "undo").is_enabled()
    assert not page.find_element(By.ID, "engine-move").is_enabled()
    send(page, {"type": "undo"})
    wait(page, lambda d: any(e.startswith("a timed game is on") for e in errors_shown(d)), "undo refused")
    assert len(move_list(page)) == 2
    # The game goes on, timed: the engine answers on its clock.
    play_any_move(page, "b")
    wait(page, lambda d: len(move_list(d)) == 4 and "running" in clock_of(d, "black")[1], "the engine's answer")
    for size, name in (((1280, 900), "desktop"), ((390, 844), "phone")):
        page.set_window_size(*size)
        page.refresh()
        wait(page, lambda d: len(move_list(d)) == 4 and "running" in clock_of(d, "black")[1],
             "the timed game after another reload")
        page.execute_script("window.scrollTo(0, 0)")
        shot(page, f"timed-reload-{name}.png")
    page.set_window_size(1100, 1000)
    assert "time forfeit" not in status(page)


# ---------- a game kept by the page before this one ----------

def test_a_game_kept_by_the_older_page_comes_back_with_its_variation(page):
    """The page before issue 61 kept a game as its tree of moves (no PDN) and replayed it; a
    page that no longer replays must still bring such a game back, not drop it."""
    # 11-15 23-19 8-11 as the main line, 22-18 beside 23-19, the node shown 23-19 (index 2).
    older = {
        "start_fen": page.find_element(By.ID, "fen").text,
        "tree_sig": "old", "path": ["11-15", "23-19"], "pdn": None, "pdn_sig": None,
        "pdn_loaded": False, "moves": ["11-15", "23-19", "8-11"], "ply": 2,
        "tree": [[0, "11-15"], [1, "23-19"], [2, "8-11"], [1, "22-18"]], "node": 2,
        "white": "human", "black": "human", "level": {"movetime": 1.0}, "flipped": False,
        "analyzing": False, "multipv": 1,
    }
    page.execute_script("localStorage.setItem('poolshark-board', arguments[0])", json.dumps(older))
    page.refresh()
    wait(page, lambda d: main_moves(d) == ["11-15", "23-19", "8-11"], "the older game's main line")
    wait(page, lambda d: variations(d) == ["( 1… 22-18 )"], "its variation")
    wait(page, lambda d: current(d) == "23-19", "the move it showed")
    assert not errors_shown(page)
    # From then on it is kept as a PDN: a second reload gives the same.
    page.refresh()
    wait(page, lambda d: main_moves(d) == ["11-15", "23-19", "8-11"] and variations(d) == ["( 1… 22-18 )"],
         "the game after a second reload")
