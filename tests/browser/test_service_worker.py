"""The static page's service worker (issue 66, items 9 and 10, and the icon of 11), in
headless Chromium: the page opens offline under the address docs/BOARD.md gives
(`/index.html`), and a new build waits for the tabs open on the old one, which keep their own
page, workers and module until they reload, with a word that a new version is ready.

Each test serves its own copy of target/web (test_static_page.py's server) to a browser of
its own, so that no other test's service worker is in the way.
"""

import os
import shutil
import subprocess
import sys
import time

import pytest
from selenium.webdriver.common.by import By

from test_board import new_driver, shot, stop_server, wait
from test_static_page import WEB, controlled, start_static

pytestmark = pytest.mark.skipif(not os.path.exists(os.path.join(WEB, "poolshark.wasm")),
                                reason=f"{WEB} not built (make web)")

def test_index_html_opens_offline():
    """docs/BOARD.md's own example opens the page as /index.html: offline too."""
    proc, url = start_static()
    drv = new_driver()
    try:
        controlled(drv, url)
        stop_server(proc)
        drv.get(url + "index.html")
        wait(drv, lambda d: d.find_element(By.ID, "fen").text != "", "/index.html, offline")
        assert drv.find_element(By.ID, "conn").text == "in this browser"
    finally:
        drv.quit()
        if proc.poll() is None:
            stop_server(proc)


def test_the_static_page_names_its_icon_and_asks_for_no_favicon_ico():
    proc, url = start_static()
    drv = new_driver()
    try:
        controlled(drv, url)
        drv.refresh()
        wait(drv, lambda d: d.find_element(By.ID, "fen").text != "", "the first state")
        icon = drv.execute_script("return document.querySelector('link[rel=icon]').href")
        assert icon == url + "icon.svg", icon
        assert fetched(drv, "icon.svg").startswith("<svg")
        time.sleep(1)
        logs = drv.get_log("browser")
        assert not [e for e in logs if "favicon" in e.get("message", "")], logs
    finally:
        drv.quit()
        stop_server(proc)


def rebuild(folder, marker):
    """A new build of the page in `folder`, where it was: a file changed (`marker` at the end
    of the search worker's script), and the service worker written again for it, as
    scripts/web-build.sh writes it (a new version)."""
    path = os.path.join(folder, "engine", "search-worker.js")
    with open(path, "a") as f:
        f.write(f"\n// {marker}\n")
    sw = subprocess.run([sys.executable, "scripts/web-sw.py", folder, "web/sw.js"],
                        check=True, capture_output=True, text=True).stdout
    with open(os.path.join(folder, "sw.js"), "w") as f:
        f.write(sw)


def fetched(drv, path):
    return drv.execute_async_script(
        "fetch(arguments[0]).then((r) => r.text()).then(arguments[1], (e) => arguments[1]('ERR ' + e));", path)


def new_build_announced(drv, folder):
    """Build B written over the page's folder, the browser told to look for it, and the tab
    saying a new version is ready."""
    rebuild(folder, "build B")
    drv.execute_async_script(
        "navigator.serviceWorker.getRegistration().then((r) => r.update()).then(() => arguments[0](true));")
    wait(drv, lambda d: "new version" in d.find_element(By.ID, "update-note").text, "the word")


def test_an_open_tab_keeps_its_build_until_it_reloads(tmp_path):
    """A new build's service worker waits: the tab open when it comes keeps the page, the
    workers and the module of its own build (a search worker started then is of that build),
    and is told that a new version is ready; its button (or a reload) opens the new one."""
    folder = str(tmp_path / "web")
    shutil.copytree(WEB, folder)
    proc, url = start_static(directory=folder)
    drv = new_driver()
    try:
        controlled(drv, url)
        before = fetched(drv, "engine/search-worker.js")
        old = drv.execute_async_script("caches.keys().then(arguments[0])")
        new_build_announced(drv, folder)
        # The tab's files are its own build's still, kept beside the new build's: a search
        # worker started now is of its build too.
        assert fetched(drv, "engine/search-worker.js") == before
        now = drv.execute_async_script("caches.keys().then(arguments[0])")
        assert set(old) < set(now), (old, now)
        shot(drv, "static-new-version.png")
        drv.find_element(By.ID, "analyze").click()
        wait(drv, lambda d: d.find_element(By.ID, "info-depth").text not in ("", "–", "—"), "analysis")
        drv.find_element(By.ID, "analyze").click()
        # Its button reloads the tab into the new build (as a reload does: the next test).
        drv.find_element(By.ID, "update-reload").click()
        wait(drv, lambda d: "build B" in fetched(d, "engine/search-worker.js"), "the new build after a reload")
        wait(drv, lambda d: d.find_element(By.ID, "fen").text != "", "the first state")
        assert not drv.find_element(By.ID, "update-note").is_displayed()
    finally:
        drv.quit()
        stop_server(proc)


def test_a_new_build_never_takes_over_a_second_tab(tmp_path):
    """With the page open in two tabs, a reload of one keeps the old build (the other runs
    it), and says why; the other tab is never reloaded."""
    folder = str(tmp_path / "web")
    shutil.copytree(WEB, folder)
    proc, url = start_static(directory=folder)
    drv = new_driver()
    try:
        controlled(drv, url)
        first = drv.current_window_handle
        drv.switch_to.new_window("tab")
        controlled(drv, url)
        before = fetched(drv, "engine/search-worker.js")
        new_build_announced(drv, folder)
        drv.refresh()
        wait(drv, lambda d: "close the others" in d.find_element(By.ID, "update-note").text, "why it waits")
        assert fetched(drv, "engine/search-worker.js") == before
        drv.switch_to.window(first)
        assert fetched(drv, "engine/search-worker.js") == before
        # Once the other tab is closed, a reload opens the new build.
        drv.switch_to.window(drv.window_handles[1])
        drv.close()
        drv.switch_to.window(first)
        drv.refresh()
        wait(drv, lambda d: "build B" in fetched(d, "engine/search-worker.js"), "the new build after a reload")
    finally:
        drv.quit()
        stop_server(proc)
