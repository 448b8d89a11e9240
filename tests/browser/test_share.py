"""Sharing and moving about on the board (issue 61, Build 3 and 5, defects 7 and 9), in a real
browser as a person uses it: copy FEN and PDN, links that open a position or a whole game,
the keys f / space / ?, a click anywhere along the eval graph, the board kept in view, a
long variation wrapped in the move list, and four small faults fixed.

The page, server and helpers are test_board.py's.
"""

import os
import re

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from test_board import (  # noqa: F401 (fixtures)
    JUMP_PDN, at_size, answered, browser, centre_y, click_square, errors_shown, load_pdn,
    move_list, new_driver, new_game, page, pieces, play_any_move, retry_stale, review_game,
    server, states, status, targets, wait,
)
from test_board import choose_clock, current_ply, set_fen, shot  # noqa: F401
from test_tree import GAME, MAIN, variations

SHOTS = "target/shots-61"

# GAME with a 20-ply variation for Black's first move (GAME's own moves, numbered from 1)
# and one inside it: as one line of text it is far wider than the move list.
LONG_VAR = ('[GameType "23"]\n1. 11-15 (1. 9-13 22-17 2. 13x22 26x17 3. 6-9 24-20 '
            '(3... 23-19 4. 9-14 {a comment inside a variation} 19-16) 4. 12-16 28-24 5. 2-6 30-26 '
            '6. 9-13 23-18 7. 13x22x15 24-19 8. 15x24 26-23 9. 24-28 23-18 10. 6-9 18-14) '
            '23-19 2. 8-11 22-17 *\n')

# GAME with a score after every move, so that the graph is drawn without a review.
SCORED = '[GameType "23"]\n' + " ".join(
    (f"{k // 2 + 1}. " if k % 2 == 0 else "") + f"{m} {{[%eval {0.1 * (k % 5) - 0.2:.2f}]}}"
    for k, m in enumerate(MAIN)) + " *\n"


def shoot(drv, name):
    os.makedirs(SHOTS, exist_ok=True)
    drv.save_screenshot(os.path.join(SHOTS, name))


def stub_clipboard(drv, refuse=False):
    """Replace the page's clipboard with one that records what is written (or refuses)."""
    drv.execute_script(
        "window.copied = [];"
        "const refuse = arguments[0];"
        "Object.defineProperty(navigator, 'clipboard', {configurable: true, value: {"
        "  writeText: (t) => refuse ? Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'))"
        "                          : (window.copied.push(t), Promise.resolve())}});", refuse)


def copied(drv):
    return drv.execute_script("return window.copied.slice()")


def note(drv):
    return drv.find_element(By.ID, "share-note").text


def click(drv, element_id):
    el = drv.find_element(By.ID, element_id)
    drv.execute_script("arguments[0].scrollIntoView({block: 'center'})", el)
    el.click()


def copy(drv, element_id):
    """Press a copy button and return what it wrote to the (stubbed) clipboard."""
    before = len(copied(drv))
    click(drv, element_id)
    wait(drv, lambda d: len(copied(d)) > before, f"{element_id} to write the clipboard")
    return copied(drv)[-1]


def moves_shown(drv):
    return move_list(drv), variations(drv)


def fresh_page(drv, server):
    drv.get(server + "style.css")
    drv.execute_script("localStorage.clear(); sessionStorage.clear()")
    drv.get(server)
    wait(drv, lambda d: d.find_element(By.ID, "fen").text != "", "the first state")


# ---------- Build 3: share ----------

def test_copy_fen_and_copy_pdn_give_the_position_and_the_whole_game(page):
    load_pdn(page, LONG_VAR)
    wait(page, lambda d: len(move_list(d)) == 4 + 20 + 3, "the loaded game")
    answered(page, lambda: page.find_element(By.ID, "ply-2").click(), "ply 2")
    fen = page.find_element(By.ID, "fen").text
    stub_clipboard(page)
    assert copy(page, "copy-fen") == fen
    assert note(page) == "FEN copied"
    assert page.find_element(By.ID, "share-box").get_attribute("value") == fen
    pdn = copy(page, "copy-pdn")
    assert note(page) == "PDN copied"
    # The whole game, the variations and the comment in them, not only the line shown.
    assert "(1. 9-13 22-17" in pdn and "{a comment inside a variation}" in pdn and "23-19" in pdn, pdn
    # The save button's PDN is the same text: a copy is not a download, and vice versa.
    page.find_element(By.ID, "pdn-input").clear()
    page.find_element(By.ID, "pdn-save").click()
    wait(page, lambda d: d.find_element(By.ID, "pdn-input").get_attribute("value") != "", "the saved PDN")
    assert page.find_element(By.ID, "pdn-input").get_attribute("value") == pdn


def test_a_refused_clipboard_leaves_the_text_selected_in_a_box(page):
    stub_clipboard(page, refuse=True)
    click(page, "copy-fen")
    wait(page, lambda d: "refused" in note(d), "the note")
    fen = page.find_element(By.ID, "fen").text
    assert "Ctrl+C" in note(page), note(page)
    sel = page.execute_script(
        "const b = document.getElementById('share-box');"
        "return [document.activeElement === b, b.value.slice(b.selectionStart, b.selectionEnd)];")
    assert sel == [True, fen], sel


def test_a_fen_link_opens_that_position_and_is_built_on_the_pages_own_address(page, server):
    fen = "W:WK3,18:BK29,5"
    answered(page, lambda: set_fen(page, fen), "the position")
    fen = page.find_element(By.ID, "fen").text  # as the board writes it
    stub_clipboard(page)
    link = copy(page, "copy-fen-link")
    assert link.startswith(server + "?fen="), link
    # A static copy of the page lives at any path: the link is built on it.
    page.execute_script("history.replaceState(null, '', '/poolshark/index.html')")
    other = copy(page, "copy-fen-link")
    assert other == server + "poolshark/index.html?fen=" + link.split("?fen=")[1], other
    # A fresh page opened with the link shows the position; the address loses the link, so
    # a reload shows what the page keeps, not the link again.
    fresh_page(page, server)
    page.get(link)
    wait(page, lambda d: d.find_element(By.ID, "fen").text == fen, "the link's position")
    assert pieces(page) == {3: "W", 18: "w", 29: "B", 5: "b"}
    assert page.current_url == server


def test_a_bad_fen_link_says_so_and_keeps_the_game(page, server):
    new_game(page, "human")
    play_any_move(page, "b")
    wait(page, lambda d: len(move_list(d)) >= 1, "a move")
    kept = move_list(page)
    page.get(server + "?fen=W:WK3,18:BK99")
    wait(page, lambda d: any("position of the link could not be opened" in e for e in errors_shown(d)),
         "the link's error")
    wait(page, lambda d: move_list(d)[:len(kept)] == kept, "the kept game back")
    assert page.find_element(By.ID, "link-note").get_attribute("hidden") is not None


def test_a_pdn_link_opens_the_same_game_with_its_variations_in_a_fresh_browser(page, server):
    load_pdn(page, LONG_VAR)
    wait(page, lambda d: len(move_list(d)) == 27, "the loaded game")
    shown = moves_shown(page)
    stub_clipboard(page)
    link = copy(page, "copy-pdn-link")
    assert link.startswith(server + "#pdn=") and re.fullmatch(r"[A-Za-z0-9_-]+", link.split("#pdn=")[1]), link
    # Compressed: shorter than the PDN's own text in base64 (a third longer than the text).
    pdn = copy(page, "copy-pdn")
    assert len(link.split("#pdn=")[1]) < len(pdn), (len(link), len(pdn))
    other = new_driver()
    try:
        other.get(link)
        wait(other, lambda d: len(move_list(d)) == 27, "the link's game")
        assert moves_shown(other) == shown
        assert "a comment inside a variation" in other.find_element(By.ID, "moves").text
        assert other.current_url == server
        # Nothing was kept there: nothing to bring back.
        assert not other.find_element(By.ID, "link-restore").is_displayed()
    finally:
        other.quit()


def test_a_game_link_opens_at_the_move_shown_in_a_fresh_browser(page, server):
    """Issue 69, item 2: a game link carries the move shown, as lichess's do; at the main
    line's end it carries none (and opens there, as links always have)."""
    load_pdn(page, LONG_VAR)
    wait(page, lambda d: len(move_list(d)) == 27, "the loaded game")
    stub_clipboard(page)
    at_end = copy(page, "copy-pdn-link")
    assert "&path=" not in at_end
    # A move inside a variation inside a variation: 4. 9-14, with its comment.
    target = [e for e in page.find_elements(By.CSS_SELECTOR, "#moves .move") if e.text == "9-14"][0]
    target.click()
    wait(page, lambda d: d.find_element(By.CSS_SELECTOR, "#moves .current").text == "9-14", "the move shown")
    fen = page.find_element(By.ID, "fen").text
    link = copy(page, "copy-pdn-link")
    assert link.endswith("&path=9-13,22-17,13x22x17,26x17x22,6-9,23-19,9-14"), link
    other = new_driver()
    try:
        other.get(link)
        wait(other, lambda d: len(move_list(d)) == 27, "the link's game")
        wait(other, lambda d: d.find_element(By.ID, "fen").text == fen, "the move shown in the link")
        assert other.find_element(By.CSS_SELECTOR, "#moves .current").text == "9-14"
        shot(other, "link-at-a-move.png")
        # A reload keeps the move (the page keeps it as any move shown).
        other.refresh()
        wait(other, lambda d: d.find_element(By.ID, "fen").text == fen, "the move after a reload")
        other.get(at_end)
        wait(other, lambda d: d.find_element(By.CSS_SELECTOR, "#moves .current").text == "22-17",
             "the main line's end")
    finally:
        other.quit()


def test_a_link_puts_the_kept_game_aside_and_brings_it_back(page, server):
    load_pdn(page, LONG_VAR)
    wait(page, lambda d: len(move_list(d)) == 27, "the loaded game")
    stub_clipboard(page)
    link = copy(page, "copy-pdn-link")
    # Another game is on the board when the link is opened in this browser.
    load_pdn(page, GAME)
    wait(page, lambda d: move_list(d) == MAIN, "the other game")
    page.get(link)
    wait(page, lambda d: len(move_list(d)) == 27, "the link's game")
    wait(page, lambda d: d.find_element(By.ID, "link-note").is_displayed(), "the note")
    assert "previous game is put aside" in page.find_element(By.ID, "link-note").text
    # A reload keeps the link's game (the link is gone from the address), and the note.
    page.refresh()
    wait(page, lambda d: len(move_list(d)) == 27, "the link's game after a reload")
    wait(page, lambda d: d.find_element(By.ID, "link-restore").is_displayed(), "the note")
    # The previous game comes back at a click.
    click(page, "link-restore")
    wait(page, lambda d: move_list(d) == MAIN, "the previous game back")
    # ... and the link's game is put aside in its place; "forget it" drops it.
    wait(page, lambda d: d.find_element(By.ID, "link-restore").is_displayed(), "the note")
    click(page, "link-dismiss")
    page.refresh()
    wait(page, lambda d: move_list(d) == MAIN, "the game after a reload")
    assert not page.find_element(By.ID, "link-note").is_displayed()


def test_a_damaged_pdn_link_says_so_and_keeps_the_game(page, server):
    load_pdn(page, GAME)
    wait(page, lambda d: move_list(d) == MAIN, "the game")
    stub_clipboard(page)
    link = copy(page, "copy-pdn-link")
    page.get(link[:-12] + "AAAA")
    wait(page, lambda d: any(e.startswith("the link could not be opened: its game is damaged") for e in errors_shown(d)),
         "the link's error")
    wait(page, lambda d: move_list(d) == MAIN, "the kept game")


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)])
def test_screenshots_of_the_share_controls(browser, server, size):
    with at_size(browser, server, size) as drv:
        load_pdn(drv, GAME)
        wait(drv, lambda d: move_list(d) == MAIN, "the game")
        stub_clipboard(drv)
        copy(drv, "copy-pdn-link")
        drv.execute_script("document.getElementById('share').scrollIntoView({block: 'center'})")
        shoot(drv, "share-" + ("desktop" if size[0] > 700 else "phone") + ".png")
        # The share panel fits its column.
        r = drv.execute_script("const r = document.getElementById('share').getBoundingClientRect();"
                               "return [r.right, document.documentElement.clientWidth];")
        assert r[0] <= r[1], r


# ---------- Build 5: keys, the graph, the board in view ----------

def test_keys_f_flips_question_mark_lists_the_keys_and_typing_is_not_a_key(page):
    body = page.find_element(By.TAG_NAME, "body")
    below = centre_y(page, 1) > centre_y(page, 32)
    body.send_keys("f")
    wait(page, lambda d: (centre_y(d, 1) > centre_y(d, 32)) != below, "the board to flip")
    body.send_keys("?")
    wait(page, lambda d: d.find_element(By.ID, "keys-help").is_displayed(), "the list of keys")
    text = page.find_element(By.ID, "keys-help").text
    for key in ("f", "space", "?", "Esc", "Home End"):
        assert key in text, text
    body.send_keys("?")
    wait(page, lambda d: not d.find_element(By.ID, "keys-help").is_displayed(), "the list hidden")
    body.send_keys("?")
    wait(page, lambda d: d.find_element(By.ID, "keys-help").is_displayed(), "the list of keys")
    body.send_keys(Keys.ESCAPE)
    wait(page, lambda d: not d.find_element(By.ID, "keys-help").is_displayed(), "Esc to hide it")
    # Typed in a box, f and ? are letters, not keys.
    box = page.find_element(By.ID, "fen-input")
    flipped = centre_y(page, 1) > centre_y(page, 32)
    box.send_keys("f?")
    assert box.get_attribute("value") == "f?"
    assert (centre_y(page, 1) > centre_y(page, 32)) == flipped
    assert not page.find_element(By.ID, "keys-help").is_displayed()


def test_space_asks_the_engine_for_a_move_and_stops_analysis(page):
    new_game(page, "human")
    body = page.find_element(By.TAG_NAME, "body")
    body.send_keys(" ")
    wait(page, lambda d: len(move_list(d)) == 1, "the engine's move")
    # Analysis on: space stops it.
    page.find_element(By.ID, "analyze").click()
    wait(page, lambda d: d.find_element(By.ID, "analyze").get_attribute("aria-pressed") == "true",
         "analysis on")
    body.send_keys(" ")
    wait(page, lambda d: d.find_element(By.ID, "analyze").get_attribute("aria-pressed") == "false",
         "analysis stopped")
    assert len(move_list(page)) == 1
    # A button clicked with the mouse keeps the focus but not the key: space after "flip
    # board" asks for a move, it does not flip again.
    below = centre_y(page, 1) > centre_y(page, 32)
    page.find_element(By.ID, "flip").click()
    ActionChains(page).send_keys(" ").perform()
    wait(page, lambda d: len(move_list(d)) == 2, "the engine's second move")
    assert (centre_y(page, 1) > centre_y(page, 32)) != below


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)])
def test_screenshots_of_the_keys(browser, server, size):
    with at_size(browser, server, size) as drv:
        drv.find_element(By.TAG_NAME, "body").send_keys("?")
        wait(drv, lambda d: d.find_element(By.ID, "keys-help").is_displayed(), "the list of keys")
        shoot(drv, "keys-" + ("desktop" if size[0] > 700 else "phone") + ".png")
        r = drv.execute_script("const r = document.getElementById('keys-help').getBoundingClientRect();"
                               "return [r.left, r.right, r.bottom, innerWidth, innerHeight];")
        assert r[0] >= 0 and r[1] <= r[3] and r[2] <= r[4], r


def test_a_click_between_the_graphs_points_goes_to_the_nearest_ply(page):
    load_pdn(page, SCORED)
    wait(page, lambda d: move_list(d) == MAIN, "the scored game")
    graph = page.find_element(By.ID, "graph")
    page.execute_script("arguments[0].scrollIntoView({block: 'center'})", graph)
    wait(page, lambda d: graph.is_displayed(), "the graph")
    w = graph.rect["width"]
    n = len(MAIN)

    def x_of(k):
        return 6 + k / n * (w - 12)

    # Near the top edge, a third of the way from ply 7 to ply 8: no point is there.
    for k, target in ((7, 7), (12, 13)):
        x = x_of(k) + (x_of(k + 1) - x_of(k)) * (0.3 if target == k else 0.7)
        answered(page, lambda: ActionChains(page).move_to_element_with_offset(
            graph, x - w / 2, -graph.rect["height"] / 2 + 3).click().perform(), f"ply {target}")
        assert current_ply(page) == target


def board_in_view(drv):
    return drv.execute_script(
        "const r = document.getElementById('board').getBoundingClientRect();"
        "return r.top >= -1 && r.bottom <= innerHeight + 1 && r.left >= -1 && r.right <= innerWidth + 1;")


def test_the_board_stays_in_view_while_the_page_scrolls_on_a_desktop(browser, server):
    with at_size(browser, server, (1280, 900)) as drv:
        load_pdn(drv, LONG_VAR)
        wait(drv, lambda d: len(move_list(d)) == 27, "the game")
        assert board_in_view(drv)
        for where in ("moves", "review", "share"):
            drv.execute_script(f"document.getElementById('{where}').scrollIntoView({{block: 'end'}})")
            assert board_in_view(drv), where
        drv.execute_script("window.scrollTo(0, document.body.scrollHeight)")
        assert drv.execute_script("return scrollY") > 100, "the page did not scroll"
        assert board_in_view(drv)
        # The board's own buttons too.
        r = drv.execute_script("return document.getElementById('end').getBoundingClientRect().bottom")
        assert r <= 900


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)])
def test_find_a_better_move_brings_the_board_into_view(browser, server, size):
    with at_size(browser, server, size) as drv:
        review_game(drv, JUMP_PDN, 2)
        answered(drv, lambda: drv.find_element(By.ID, "ply-1").click(), "the marked move")
        wait(drv, lambda d: d.find_element(By.ID, "teach").is_displayed(), "the teaching panel")
        click(drv, "retry-start")
        wait(drv, lambda d: current_ply(d) == 0, "the position before")
        wait(drv, board_in_view, "the board in view")


# ---------- defect 7: a long variation wraps ----------

@pytest.mark.parametrize("size", [(1280, 900), (390, 844)])
def test_a_long_variation_wraps_in_the_move_list(browser, server, size):
    with at_size(browser, server, size) as drv:
        load_pdn(drv, LONG_VAR)
        wait(drv, lambda d: len(move_list(d)) == 27, "the game")
        fit = drv.execute_script("""
            const box = document.getElementById('moves');
            const b = box.getBoundingClientRect();
            const out = [];
            for (const m of box.querySelectorAll('.move, .move-no, .comment')) {
              const r = m.getBoundingClientRect();
              if (r.left < b.left - 0.5 || r.right > b.left + box.clientWidth + 0.5) out.push(m.textContent);
            }
            return {scroll: box.scrollWidth, client: box.clientWidth, out};""")
        assert fit["scroll"] <= fit["client"] and fit["out"] == [], fit
        drv.execute_script("document.querySelector('#moves .variation').scrollIntoView({block: 'start'})")
        shoot(drv, "long-variation-" + ("desktop" if size[0] > 700 else "phone") + ".png")


# ---------- defect 9 ----------

@retry_stale
def verdict_shown(drv, sign):
    """The class and background of the message under the board that begins with `sign`."""
    for e in drv.find_elements(By.CSS_SELECTOR, "#messages .msg"):
        if e.text.startswith(sign):
            return e.get_attribute("class"), e.value_of_css_property("background-color")
    return None


def test_a_wrong_answer_is_not_shown_as_a_right_one(page):
    review_game(page, JUMP_PDN, 2)
    answered(page, lambda: page.find_element(By.ID, "ply-1").click(), "the marked move")
    answered(page, lambda: click(page, "retry-start"), "the position before")
    click_square(page, 27)
    click_square(page, 18)
    wait(page, lambda d: verdict_shown(d, "✗"), "the verdict under the board")
    wrong = verdict_shown(page, "✗")
    click_square(page, 24)
    click_square(page, 8)
    wait(page, lambda d: verdict_shown(d, "✓"), "the good verdict")
    right = verdict_shown(page, "✓")
    assert "wrong" in wrong[0].split() and "note" in right[0].split(), (wrong, right)
    assert wrong[1] != right[1], (wrong, right)


def test_a_timed_game_is_on_goes_when_the_flag_falls(page):
    choose_clock(page, "custom", 3 / 60, 0)
    new_game(page, "human")
    click_square(page, 11)
    answered(page, lambda: click_square(page, 15), "the move")
    # A click on the start of the move list is refused while the clocks run.
    page.find_element(By.ID, "ply-0").click()
    wait(page, lambda d: any(e.startswith("a timed game is on") for e in errors_shown(d)), "the refusal")
    wait(page, lambda d: "time forfeit" in status(d), "the flag")
    wait(page, lambda d: not any(e.startswith("a timed game is on") for e in errors_shown(d)),
         "the refusal gone")


def test_the_rule_counter_counts_plies_not_half_moves(page):
    answered(page, lambda: set_fen(page, "B:WK32,K31:BK1,K2"), "the kings")
    play_any_move(page, "b")
    wait(page, lambda d: d.find_elements(By.ID, "count-forty"), "the count")
    text = page.find_element(By.ID, "count-forty").text
    assert text == "40-move rule (R18): 1 of 80 plies (40 moves by each side)", text


def test_saving_a_game_of_a_two_game_file_keeps_the_other_game(page):
    two = GAME.replace('[GameType "23"]', '[Event "one"]\n[GameType "23"]') + "\n" + \
        GAME.replace('[GameType "23"]', '[Event "two"]\n[GameType "23"]')
    load_pdn(page, two)
    wait(page, lambda d: d.find_element(By.ID, "games-row").is_displayed(), "the choice of games")
    Select(page.find_element(By.ID, "games")).select_by_value("2")
    wait(page, lambda d: "game 2 of 2" in d.find_element(By.ID, "games-note").text, "game 2")
    page.find_element(By.ID, "pdn-save").click()
    wait(page, lambda d: any("PDN saved" in e.text for e in d.find_elements(By.CSS_SELECTOR, "#messages .msg")),
         "the save")
    assert page.find_element(By.ID, "pdn-input").get_attribute("value") == two
    # A box holding one game takes the saved one, as before.
    load_pdn(page, GAME)
    wait(page, lambda d: not d.find_element(By.ID, "games-row").is_displayed(), "one game")
    page.find_element(By.ID, "pdn-save").click()
    wait(page, lambda d: d.find_element(By.ID, "pdn-input").get_attribute("value") != GAME, "the saved PDN")
    assert "9-13" in page.find_element(By.ID, "pdn-input").get_attribute("value")


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)])
def test_screenshots_of_the_note_after_a_link_opened(browser, server, size):
    with at_size(browser, server, size) as drv:
        load_pdn(drv, GAME)
        wait(drv, lambda d: move_list(d) == MAIN, "the game")
        stub_clipboard(drv)
        link = copy(drv, "copy-pdn-link")
        load_pdn(drv, LONG_VAR)
        wait(drv, lambda d: len(move_list(d)) == 27, "another game")
        drv.get(link)
        wait(drv, lambda d: d.find_element(By.ID, "link-restore").is_displayed(), "the note")
        drv.execute_script("document.getElementById('link-note').scrollIntoView({block: 'center'})")
        shoot(drv, "link-note-" + ("desktop" if size[0] > 700 else "phone") + ".png")
        # Forget it, so that the next test's page starts with nothing put aside.
        click(drv, "link-dismiss")
