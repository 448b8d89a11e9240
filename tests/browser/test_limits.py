"""The board's limits on what a person sends it (issue 61, defect 1), in a real browser: a PDN
too large for the board, chosen as a file or pasted, gets a plain error and the board stays as
it was, connected, with its game. Before, a 2 MB file closed the WebSocket (a frame over the
server's 2 MiB) and every control with it.

The page, server and helpers are test_board.py's.
"""

from selenium.webdriver.common.by import By

from test_board import (  # noqa: F401 (fixtures)
    answered, browser, errors_shown, load_pdn, move_list, page, server, wait,
)

GAME = '[GameType "23"]\n1. 11-15 23-19 2. 8-11 22-17 *\n'


def big_pdn(size):
    """A text of `size` bytes or a little more: many copies of one game."""
    copies = size // len(GAME) + 1
    return GAME * copies


def connected(drv):
    return drv.find_element(By.ID, "conn").get_attribute("class").split()[-1] == "connected"


def refused_and_kept(drv, before):
    wait(drv, lambda d: any("nothing was loaded" in e for e in errors_shown(d)), "the error")
    said = errors_shown(drv)
    assert connected(drv)
    assert move_list(drv) == before
    # The board still answers.
    answered(drv, lambda: load_pdn(drv, '[GameType "23"]\n1. 9-13 *\n'), "a small PDN loaded after it")
    assert move_list(drv) == ["9-13"]
    return said


def test_a_4_mb_file_is_refused_politely_and_the_board_is_kept(page, tmp_path):
    load_pdn(page, GAME)
    wait(page, lambda d: move_list(d) == ["11-15", "23-19", "8-11", "22-17"], "the game")
    before = move_list(page)
    path = tmp_path / "big.pdn"
    # Over the board's limit (hello's `limits.load_pdn`: 3,538,944 bytes, issue 66).
    path.write_text(big_pdn(4_404_019))
    page.find_element(By.ID, "pdn-file").send_keys(str(path))
    said = refused_and_kept(page, before)
    assert any(e.startswith("big.pdn is 4.2 MB: the board loads a PDN of at most 3.4 MB") for e in said), said


def test_a_3_6_mb_file_is_refused_the_same_way(page, tmp_path):
    load_pdn(page, GAME)
    wait(page, lambda d: len(move_list(d)) == 4, "the game")
    before = move_list(page)
    path = tmp_path / "medium.pdn"
    path.write_text(big_pdn(3_600_000))
    page.find_element(By.ID, "pdn-file").send_keys(str(path))
    refused_and_kept(page, before)


def test_a_pasted_pdn_too_large_is_refused_the_same_way(page):
    load_pdn(page, GAME)
    wait(page, lambda d: len(move_list(d)) == 4, "the game")
    before = move_list(page)
    page.execute_script("document.getElementById('pdn-input').value = arguments[0]", big_pdn(4_400_000))
    page.find_element(By.ID, "pdn-load").click()
    refused_and_kept(page, before)

