"""The playing levels on the board (issue 38, part 4), in a real browser as a person uses
them: the level menu, a game against the engine at a level, the level kept across a reload
and full strength chosen again.

The page, server and helpers are test_board.py's.
"""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from test_board import (  # noqa: F401 (fixtures)
    at_size,
    browser, errors_shown, move_list, new_game, page, play_any_move, server, set_level_depth, shot,
    status, wait,
)


def players(drv):
    return drv.find_element(By.ID, "players").text


def choose_level(drv, value):
    Select(drv.find_element(By.ID, "play-level")).select_by_value(str(value))


def test_a_level_plays_a_game_is_kept_on_reload_and_full_strength_comes_back(page):
    set_level_depth(page, 6)
    choose_level(page, 1)
    wait(page, lambda d: "at level 1" in players(d), "the level in the players line")
    # The depth set stays: a level alone does not change the limit.
    assert "depth 6" in players(page)

    new_game(page, "black")
    wait(page, lambda d: status(d).startswith("Black to move") and move_list(d) == [], "a new game")
    for k in range(1, 4):
        play_any_move(page, "b")
        # The engine answers at once at level 1 (its own node limit, not depth 6).
        wait(page, lambda d: len(move_list(d)) == 2 * k, f"the engine's reply at level 1, move {k}")
    assert not errors_shown(page), errors_shown(page)
    assert "at level 1" in players(page)

    page.refresh()
    wait(page, lambda d: "at level 1" in players(d), "the level after the reload")
    assert Select(page.find_element(By.ID, "play-level")).first_selected_option.get_attribute("value") == "1"
    assert "depth 6" in players(page)

    choose_level(page, 0)
    wait(page, lambda d: "level" not in players(d).split("·")[-1], "full strength again")
    assert "depth 6" in players(page)


def test_new_game_sends_a_level_chosen_with_a_typed_strength(page):
    # A strength typed but not set, and a level chosen, are both meant for the new game.
    choose_level(page, 7)
    wait(page, lambda d: "at level 7" in players(d), "level 7")
    box = page.find_element(By.ID, "level-value")
    Select(page.find_element(By.ID, "level-kind")).select_by_value("movetime")
    box.clear()
    box.send_keys("0.2")
    new_game(page, "white")
    wait(page, lambda d: "0.2 s/move at level 7" in players(d), "the typed strength with the level")
    # The engine plays Black's first move at level 7.
    wait(page, lambda d: len(move_list(d)) == 1, "the engine's first move")


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)])
def test_screenshots_of_the_level_menu(browser, server, size):
    with at_size(browser, server, size):
        choose_level(browser, 3)
        wait(browser, lambda d: "at level 3" in players(d), "level 3")
        width = browser.execute_script("return document.documentElement.clientWidth")
        assert browser.execute_script("return document.documentElement.scrollWidth") <= width, \
            "the page scrolls sideways"
        name = "desktop" if size[0] > 700 else "phone"
        browser.execute_script("document.getElementById('play-level').scrollIntoView({block: 'center'})")
        shot(browser, f"board-level-{name}.png")
