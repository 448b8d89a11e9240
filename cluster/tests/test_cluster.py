"""The Dask driver (cluster/poolshark_cluster.py) on a 2-worker LocalCluster. With a stand-in
binary (fake_poolshark.py): shards merge into every game once, a worker killed mid-shard still
ends with every game, a shard that always fails is named and its games are counted as lost
(exit 1), an SPRT decision cancels the rest. With the real binary: a 24-game match through the
driver prints the same summary lines as one `poolshark match` process over the same games, also
when a worker is killed; `data` makes the same merged file, byte for byte, on one worker and on
two (one killed mid-shard), goes on from the finished shards after a stop (a half-written one
is not taken), and refuses a dir made with other settings.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
DRIVER = HERE.parent / "poolshark_cluster.py"
FAKE = HERE / "fake_poolshark.py"
POOLSHARK = os.path.abspath(os.environ.get("POOLSHARK", "target/release/poolshark"))


def drive(*args, env=None, timeout=300):
    e = dict(os.environ)
    e.update(env or {})
    r = subprocess.run([sys.executable, str(DRIVER), *args], capture_output=True, text=True,
                       timeout=timeout, env=e)
    return r


def fake_match(tmp, *extra, env=None):
    return drive("match", "--engine", "x", "--engine", "y", "--games", "24", "--depth", "1",
                 "--shards", "6", "--workers", "2", "--binary", str(FAKE),
                 "--pdn-dir", str(tmp / "pdns"), *extra, env=env)


def test_fake_shards_merge_to_every_game(tmp_path):
    r = fake_match(tmp_path, "--pdn", str(tmp_path / "all.pdn"))
    assert r.returncode == 0, r.stderr
    assert "score of fake: wins 8 draws 8 losses 8" in r.stdout
    assert "cluster: 24 games played of 24" in r.stdout
    rounds = sorted(l for l in (tmp_path / "all.pdn").read_text().splitlines()
                    if l.startswith("[Round "))
    assert len(rounds) == 24 and len(set(rounds)) == 24


def test_fake_killed_worker_still_plays_every_game(tmp_path):
    r = fake_match(tmp_path, env={"POOLSHARK_CLUSTER_KILL_ONCE": f"{tmp_path}:2"})
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "killed-2").exists(), "the hook never killed a worker"
    assert "cluster: 24 games played of 24" in r.stdout


def test_fake_failing_shard_is_reported(tmp_path):
    r = fake_match(tmp_path, "--retries", "1", env={"FAKE_FAIL_SHARD": "3"})
    assert r.returncode == 1
    assert "shard 3/6 failed" in r.stderr and "fake failure" in r.stderr
    assert "cluster: 20 games played of 24" in r.stdout
    assert "4 lost to failed shards [3]" in r.stdout


def test_fake_sprt_cancels_the_rest(tmp_path):
    r = drive("match", "--engine", "x", "--engine", "y", "--games", "200", "--depth", "1",
              "--shards", "100", "--workers", "2", "--binary", str(FAKE),
              "--pdn-dir", str(tmp_path), "--sprt", "elo0=0 elo1=5")
    assert r.returncode == 0, r.stderr
    assert "cancelling the remaining shards" in r.stderr
    assert "not played or not counted after the sprt decided" in r.stdout
    assert "cluster: 200 games played" not in r.stdout


def test_fake_selfplay_merges_shards_in_game_order_without_repeats(tmp_path):
    out = tmp_path / "data.txt"
    r = drive("selfplay", "--games", "10", "--nodes", "100", "--shards", "3", "--out", str(out),
              "--binary", str(FAKE))
    assert r.returncode == 0, r.stderr
    # Shard 0 holds games 0, 3, 6, 9, shard 1 games 1, 4, 7, ...: each shard's first game
    # meets the common position, and only game 0's line of it is kept.
    want = ["game 0 ; 0 ; - ; 1-0", "common ; 0.5 ; - ; 1-0"]
    want += [f"game {g} ; 0 ; - ; 1-{g}" for g in range(1, 10)]
    assert out.read_text().splitlines() == want
    assert f"games 10 positions {len(want)} file {out}" in r.stdout


# --- the real binary -------------------------------------------------------------------------

# Unequal depths, so the pairs score differently and the lines compared are not trivial.
MATCH = ["--games", "24", "--depth", "4,3", "--param", "book=false"]


def summary(lines):
    """The summary lines that do not depend on wall time."""
    keep = ("score of ", "elo: ", "draw ratio: ", "forfeits: ", "sprt: ", "pairs: ", "note: ")
    return [l for l in lines if l.startswith(keep)]


@pytest.fixture(scope="module")
def single_process(tmp_path_factory):
    engine = f"{POOLSHARK} hub"
    pdn = tmp_path_factory.mktemp("single") / "match.pdn"
    r = subprocess.run([POOLSHARK, "match", "--engine", engine, "--engine", engine, *MATCH,
                        "--pdn", str(pdn)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return summary(r.stdout.splitlines())


@pytest.mark.parametrize("kill", [False, True], ids=["plain", "worker-killed"])
def test_driver_summary_equals_single_process(tmp_path, single_process, kill):
    engine = f"{POOLSHARK} hub"
    env = {"POOLSHARK_CLUSTER_KILL_ONCE": f"{tmp_path}:1"} if kill else {}
    r = drive("match", "--engine", engine, "--engine", engine, *MATCH, "--shards", "4",
              "--workers", "2", "--binary", POOLSHARK, "--pdn-dir", str(tmp_path / "pdns"),
              env=env)
    assert r.returncode == 0, r.stderr
    if kill:
        assert (tmp_path / "killed-1").exists(), "the hook never killed a worker"
    assert "cluster: 24 games played of 24" in r.stdout
    assert len(single_process) >= 4
    assert summary(r.stdout.splitlines()) == single_process


def test_driver_selfplay_equals_single_process(tmp_path):
    whole, merged = tmp_path / "whole.txt", tmp_path / "merged.txt"
    opts = ["--games", "6", "--nodes", "300", "--seed", "7"]
    r = subprocess.run([POOLSHARK, "selfplay", *opts, "--out", str(whole)], capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    r = drive("selfplay", *opts, "--shards", "3", "--workers", "2", "--binary", POOLSHARK,
              "--out", str(merged))
    assert r.returncode == 0, r.stderr
    assert "cluster: 6 games played of 6" in r.stdout
    # The same bytes: games in index order, each position's first line (the games of this
    # seed meet the same king endings, so the shards alone would hold repeats).
    text = whole.read_text()
    assert text and merged.read_text() == text
    assert f"positions {len(text.splitlines())} " in r.stdout


# --- a whole data set (`data`) ----------------------------------------------------------------

DATA = ["--games", "8", "--seed", "5", "--nodes", "200", "--random-plies", "4",
        "--label-nodes", "150", "--shards", "4", "--binary", POOLSHARK]


def make_data(tmp, name, workers, *extra, env=None):
    out = tmp / f"{name}.psd"
    r = drive("data", *DATA, "--workers", str(workers), "--dir", str(tmp / name), "--out",
              str(out), *extra, env=env)
    return r, out


def test_data_is_the_same_bytes_on_one_worker_and_two(tmp_path):
    r1, one = make_data(tmp_path, "one", 1)
    assert r1.returncode == 0, r1.stderr
    assert "data: 4 shards to make of 4 (0 already in" in r1.stderr
    assert r1.stdout.startswith("records "), r1.stdout
    # Two workers, one of them killed mid-shard: the same bytes.
    r2, two = make_data(tmp_path, "two", 2,
                        env={"POOLSHARK_CLUSTER_KILL_ONCE": f"{tmp_path}:1"})
    assert r2.returncode == 0, r2.stderr
    assert (tmp_path / "killed-1").exists(), "the hook never killed a worker"
    assert one.read_bytes() == two.read_bytes()
    assert len(one.read_bytes()) > 40 + 16 * 50
    assert r1.stdout == r2.stdout.replace("two.psd", "one.psd")


def test_data_resumes_from_its_finished_shards(tmp_path):
    r, first = make_data(tmp_path, "d", 2)
    assert r.returncode == 0, r.stderr
    whole = first.read_bytes()
    # A shard lost and another half-written under its temporary name, as a stop leaves them.
    (tmp_path / "d" / "shard-00002.psd").unlink()
    (tmp_path / "d" / ".shard-00003.psd.999.tmp").write_bytes(b"PSPACKED half")
    (tmp_path / "d" / "shard-00003.psd").unlink()
    first.unlink()
    r, again = make_data(tmp_path, "d", 2)
    assert r.returncode == 0, r.stderr
    assert "data: 2 shards to make of 4 (2 already in" in r.stderr
    assert again.read_bytes() == whole
    # Everything there: only the merge.
    r, _ = make_data(tmp_path, "d", 2)
    assert r.returncode == 0 and "shards to make" not in r.stderr, r.stderr
    # Other settings into the same dir are refused, naming what differs.
    r = drive("data", *[a if a != "5" else "6" for a in DATA], "--workers", "1",
              "--dir", str(tmp_path / "d"), "--out", str(tmp_path / "x.psd"))
    assert r.returncode == 2
    assert "other settings (seed 5 there, 6 now)" in r.stderr, r.stderr
