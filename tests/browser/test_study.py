"""Issue 69, item 1: a study of chapters on the board, as a person works it: a PDN of six games
opened as a study, a note made in one chapter kept while others are shown, the study kept by a
reload and carried by a link, and chapters added, renamed, moved and deleted (asking first).
"""

import os

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from test_board import (  # noqa: F401  (fixtures)
    browser, page, server, wait, move_list, load_pdn, answered, at_size, new_driver, errors_shown,
)
from test_annotate import saved_pdn, write_comment, comments
from test_share import stub_clipboard, copy

SHOTS = os.path.join(os.path.dirname(__file__), "..", "..", "target", "shots-69")

FIRSTS = ["11-15", "9-13", "10-14", "11-16", "12-16", "9-14"]
SIX = "\n".join(
    f'[Event "Club night"]\n[White "W{i}"]\n[Black "B{i}"]\n[Result "*"]\n\n1. {m} 22-18 *\n'
    for i, m in enumerate(FIRSTS))


def shot(drv, name):
    os.makedirs(SHOTS, exist_ok=True)
    drv.save_screenshot(os.path.join(SHOTS, name))


def chapters(drv):
    """The chapters listed, as (name, shown), read in one call."""
    return [tuple(c) for c in drv.execute_script(
        "return [...document.querySelectorAll('#chapter-list button.chapter')].map("
        "b => [b.querySelector('.chapter-name').textContent, b.classList.contains('shown')])")]


def names(drv):
    return [n for n, _ in chapters(drv)]


def shown(drv):
    """The chapter shown, from 1 (0 if none is marked)."""
    marks = [i + 1 for i, (_, s) in enumerate(chapters(drv)) if s]
    return marks[0] if marks else 0


def show_chapter(drv, k):
    button = drv.find_elements(By.CSS_SELECTOR, "#chapter-list button.chapter")[k - 1]
    answered(drv, button.click, f"chapter {k} shown")
    wait(drv, lambda d: shown(d) == k, f"chapter {k} marked")


def open_six_as_a_study(drv):
    load_pdn(drv, SIX)
    wait(drv, lambda d: d.find_element(By.ID, "games-study").is_displayed(), "the offer of a study")
    button = drv.find_element(By.ID, "games-study")
    assert button.text == "open all 6 as a study"
    button.click()
    wait(drv, lambda d: len(chapters(d)) == 6, "six chapters")


def test_a_six_game_pdn_opens_as_a_study_whose_notes_stay_with_their_chapter(page, server):
    """Done when: a 6-game PDN loads as a 6-chapter study; a note made in chapter 3 stays while
    another is shown; the study's save, load and save give the same text; a reload brings the
    study back at its chapter and move; a link opens it there in a fresh browser."""
    open_six_as_a_study(page)
    assert names(page) == [f"W{i} - B{i}" for i in range(6)]
    assert shown(page) == 1 and move_list(page) == ["11-15", "22-18"]
    assert not page.find_element(By.ID, "games-row").is_displayed(), "the games' chooser goes"
    show_chapter(page, 3)
    assert move_list(page) == ["10-14", "22-18"]
    first = page.find_elements(By.CSS_SELECTOR, "#moves .move:not(.start)")[0]
    answered(page, first.click, "the first move shown")
    write_comment(page, "a quiet start")
    assert comments(page) == ["a quiet start"]
    show_chapter(page, 5)
    assert move_list(page) == ["12-16", "22-18"] and comments(page) == []
    shot(page, "study-chapter-5.png")
    show_chapter(page, 3)
    assert comments(page) == ["a quiet start"], "the note stays with chapter 3"
    current = page.find_element(By.CSS_SELECTOR, "#moves .current")
    assert current.text == "10-14", "chapter 3 at the move it was left at"
    # Save, load as a study, save: the same text.
    text = saved_pdn(page)
    assert text.count('[Event "Club night"]') == 6 and "{a quiet start}" in text, text
    load_pdn(page, text)
    wait(page, lambda d: d.find_element(By.ID, "games-study").is_displayed(), "the offer of a study")
    Select(page.find_element(By.ID, "games")).select_by_value("3")
    wait(page, lambda d: move_list(d) == ["10-14", "22-18"], "game 3 alone")
    page.find_element(By.ID, "games-study").click()
    wait(page, lambda d: len(chapters(d)) == 6 and shown(d) == 3, "the study again, at chapter 3")
    assert saved_pdn(page) == text, "save, load, save"
    # The chapter shown alone: one game, the study's third.
    box = page.find_element(By.ID, "pdn-input")
    page.execute_script("arguments[0].value = ''", box)
    page.find_element(By.ID, "pdn-save-chapter").click()
    wait(page, lambda d: box.get_attribute("value") != "", "the chapter saved")
    one = box.get_attribute("value")
    assert one.count("[Event") == 1 and "10-14" in one and one in text, one
    # A reload: the study, its chapter and its move shown.
    first = page.find_elements(By.CSS_SELECTOR, "#moves .move:not(.start)")[0]
    answered(page, first.click, "the first move shown")
    page.refresh()
    wait(page, lambda d: len(chapters(d)) == 6 and shown(d) == 3, "the study after a reload")
    wait(page, lambda d: d.find_element(By.CSS_SELECTOR, "#moves .current").text == "10-14", "the move shown")
    assert comments(page) == ["a quiet start"]
    # A link to the study opens its chapter and move in a fresh browser.
    stub_clipboard(page)
    link = copy(page, "copy-pdn-link")
    assert "&chapter=3" in link and link.endswith("&path=10-14"), link
    other = new_driver()
    try:
        other.get(link)
        wait(other, lambda d: len(chapters(d)) == 6 and shown(d) == 3, "the link's study at chapter 3")
        wait(other, lambda d: d.find_element(By.CSS_SELECTOR, "#moves .current").text == "10-14", "its move")
        assert names(other) == names(page)
        shot(other, "study-link-fresh-browser.png")
    finally:
        other.quit()


def test_chapters_are_added_renamed_moved_and_deleted_asking_first(page):
    """The tools: a chapter from the position shown, from the FEN box and from the PDN box,
    named or not; the one shown renamed, moved, and deleted only once the person says yes."""
    load_pdn(page, '[White "Ann"]\n[Black "Bob"]\n1. 11-15 23-19 *\n')
    wait(page, lambda d: move_list(d) == ["11-15", "23-19"], "a game")
    assert names(page) == ["Ann - Bob"]
    assert page.find_element(By.ID, "chapter-delete").get_attribute("disabled"), "a study keeps one chapter"
    answered(page, page.find_element(By.ID, "chapter-add").click, "a chapter added")
    wait(page, lambda d: names(d) == ["Ann - Bob", "Chapter 2"] and shown(d) == 2, "chapter 2")
    assert move_list(page) == [], "a new chapter from the position shown"
    fen = page.find_element(By.ID, "fen").text
    assert fen.startswith("B:") and "W" in fen
    # From the setup box's FEN, named.
    page.find_element(By.ID, "fen-input").send_keys("W:W21,22:B1,2")
    Select(page.find_element(By.ID, "chapter-from")).select_by_value("fen")
    page.find_element(By.ID, "chapter-new-name").send_keys("Two against two")
    answered(page, page.find_element(By.ID, "chapter-add").click, "a chapter from the FEN")
    wait(page, lambda d: names(d)[-1] == "Two against two" and shown(d) == 3, "chapter 3")
    assert page.find_element(By.ID, "fen").text == "W:W21,22:B1,2"
    # From the PDN box: each of its games.
    box = page.find_element(By.ID, "pdn-input")
    box.clear()
    box.send_keys(SIX)
    Select(page.find_element(By.ID, "chapter-from")).select_by_value("pdn")
    answered(page, page.find_element(By.ID, "chapter-add").click, "six chapters more")
    wait(page, lambda d: len(names(d)) == 9 and shown(d) == 4, "nine chapters, the first new one shown")
    # Renamed, then moved up to the top.
    name = page.find_element(By.ID, "chapter-name")
    assert name.get_attribute("value") == "W0 - B0"
    name.clear()
    name.send_keys("The 11-15 opening")
    answered(page, page.find_element(By.ID, "chapter-rename").click, "renamed")
    wait(page, lambda d: names(d)[3] == "The 11-15 opening", "the new name")
    for k in (3, 2, 1):
        answered(page, page.find_element(By.ID, "chapter-up").click, "moved up")
        wait(page, lambda d, k=k: shown(d) == k, f"at place {k}")
    assert names(page)[:2] == ["The 11-15 opening", "Ann - Bob"]
    assert page.find_element(By.ID, "chapter-up").get_attribute("disabled")
    shot(page, "study-tools.png")
    # Deleted only when the person says yes.
    page.execute_script("window.confirm = () => false")
    page.find_element(By.ID, "chapter-delete").click()
    assert len(names(page)) == 9 and not errors_shown(page)
    page.execute_script("window.confirm = (q) => { window.asked = q; return true; }")
    answered(page, page.find_element(By.ID, "chapter-delete").click, "deleted")
    wait(page, lambda d: len(names(d)) == 8, "eight chapters")
    asked = page.execute_script("return window.asked")
    assert asked.startswith('Delete chapter 1, "The 11-15 opening" (2 moves)'), asked
    assert names(page)[0] == "Ann - Bob" and shown(page) == 1
    assert move_list(page) == ["11-15", "23-19"], "the next chapter is shown"
    assert not errors_shown(page)


def test_a_study_at_a_phones_size(browser, server):
    """The chapters at a phone's size: listed, the page no wider than the screen, and a
    chapter shown by a tap."""
    with at_size(browser, server, (390, 844)):
        open_six_as_a_study(browser)
        width = browser.execute_script("return document.documentElement.clientWidth")
        assert browser.execute_script("return document.documentElement.scrollWidth") <= width, \
            "the page scrolls sideways"
        browser.execute_script("document.getElementById('study').scrollIntoView()")
        show_chapter(browser, 4)
        assert move_list(browser) == ["11-16", "22-18"]
        shot(browser, "study-phone.png")


def test_two_tabs_keep_their_own_studies(page, server):
    """Issue 69, item 3 with studies: tab A's study, at chapter 4; a new tab opens it (a copy
    of its own) and starts a new game there; a reload of A brings back A's whole study at
    chapter 4, and B's reload B's own game."""
    from test_tabs import new_tab, first_state
    a = page.current_window_handle
    open_six_as_a_study(page)
    show_chapter(page, 4)
    kept_chapters = ("return Object.keys(localStorage).filter(k => k.startsWith('poolshark-board'))"
                     ".map(k => { try { return JSON.parse(localStorage.getItem(k)).chapter; } catch (e) { return null; } })")
    wait(page, lambda d: 4 in d.execute_script(kept_chapters), "chapter 4 kept")
    b = new_tab(page, server)
    wait(page, lambda d: len(chapters(d)) == 6 and shown(d) == 4, "tab B opens the study kept last")
    answered(page, page.find_element(By.ID, "new-game").click, "a new game in tab B")
    wait(page, lambda d: len(chapters(d)) == 1 and move_list(d) == [], "tab B's new game")
    page.switch_to.window(a)
    page.refresh()
    first_state(page)
    wait(page, lambda d: len(chapters(d)) == 6 and shown(d) == 4, "tab A's study after a reload")
    assert move_list(page) == ["11-16", "22-18"]
    page.switch_to.window(b)
    page.refresh()
    first_state(page)
    wait(page, lambda d: len(chapters(d)) == 1, "tab B's own game after a reload")
    assert not errors_shown(page)
    page.close()
    page.switch_to.window(a)


def test_a_timed_game_keeps_its_chapter(page):
    """While a timed game's clocks run, no chapter is added, shown or deleted: the page greys
    the tools (the board refuses them too, tests in study.rs)."""
    from test_board import choose_clock, new_game
    open_six_as_a_study(page)
    choose_clock(page, "custom", 5, 0)
    new_game(page, "human")
    wait(page, lambda d: len(chapters(d)) == 1, "a timed game, a study of its own")
    from test_tabs import play
    play(page, 1)
    wait(page, lambda d: d.find_element(By.ID, "chapter-add").get_attribute("disabled"), "+ chapter greyed")
    assert page.find_element(By.ID, "chapter-delete").get_attribute("disabled")
    assert not errors_shown(page)
