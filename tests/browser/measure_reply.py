"""Measure, in the browser, the time from a click to the engine's answer on the board.

Not a test (pytest does not collect it): it prints numbers. Run it after
scripts/browser-test.sh has made target/browser-venv:

    target/browser-venv/bin/python tests/browser/measure_reply.py [MOVES]

It plays MOVES (default 5) Black moves by clicking, at the default strength (1 s per move),
and prints for each the seconds from the click on the destination square to the engine's
move drawn in the move list. A forced reply (one legal move) comes at once.
"""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_board as tb  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402


def main(moves):
    proc, url = tb.start_server()
    d = tb.new_driver()
    try:
        d.get(url)
        tb.wait(d, lambda d: d.find_element(By.ID, "fen").text != "", "the first state")
        tb.new_game(d, "black")
        print(d.find_element(By.ID, "players").text)
        for k in range(1, moves + 1):
            for n, p in sorted(tb.pieces(d).items()):
                if p in "bB":
                    tb.click_square(d, n)
                    ts = tb.targets(d)
                    if ts:
                        break
            t0 = time.monotonic()
            tb.click_square(d, ts[0])
            if d.find_element(By.ID, "chooser").is_displayed():
                d.find_element(By.ID, "choice-0").click()
            tb.wait(d, lambda d: len(tb.move_list(d)) == 2 * k, "the engine's reply")
            ours, reply = tb.move_list(d)[-2:]
            print(f"move {k}: {ours}, engine {reply}: click to engine move drawn "
                  f"{time.monotonic() - t0:.2f} s")
    finally:
        d.quit()
        tb.stop_server(proc)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
