#!/usr/bin/env python3
"""Run poolshark matches and self-play as shards on a Dask cluster.

Each shard is one Dask task that runs the poolshark binary on a worker
(`poolshark match ... --shard I/K --pdn FILE` or `poolshark selfplay ... --shard I/K --out FILE`)
in a subprocess and returns the file's text, so the client needs no shared filesystem for the
results; only the binary and the engines must exist on every worker (a shared path on a real
cluster). The client merges shards as they finish: it writes each shard's PDN to --pdn-dir and
runs `poolshark stats` over the files so far, so the running Elo and LLR on stderr are those of
the merged games, and the final summary on stdout is `poolshark stats` over all shards, the same
lines the unsharded `poolshark match` prints for the same games.

With no --scheduler the driver starts a LocalCluster (processes, one thread each), so one
command works on one machine. A shard whose worker dies is run again elsewhere (the scheduler
does that), and one that raises is retried --retries times; a shard that still fails is named
with its error, its games are counted as lost, and the exit status is 1.

`data` makes a whole training set from a seed: each shard is `poolshark selfplay --format
packed --shard I/K` (then `poolshark label` of its records, with --label-nodes), written to
--dir as `shard-IIIII.psd` by a temporary name and a rename, so a stopped run keeps its
finished shards and the same command goes on from there; `poolshark data merge` then joins
them in shard order into --out. A shard depends only on the settings and its index, so the
merged file is the same bytes whatever the number of workers.

Usage: python3 cluster/poolshark_cluster.py match --help
       python3 cluster/poolshark_cluster.py selfplay --help
       python3 cluster/poolshark_cluster.py data --help
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# Test hook (used by cluster/tests): "DIR:I" makes the task of shard I kill its own worker
# process the first time it runs (a marker file in DIR records that it did), so the tests can
# check that a dead worker's shard is run again. Read on the client and passed to the task.
KILL_HOOK_ENV = "POOLSHARK_CLUSTER_KILL_ONCE"


# ---------------------------------------------------------------------------------------------
# The task: runs on a worker.


def run_shard(binary, command, argv, index, shards, cwd, stop_name, kill_hook):
    """Run one shard of `poolshark <command>` and return its output file's text.

    Raises on a non-zero exit, so Dask's `retries` run it again. Polls the Dask event
    `stop_name` and kills the binary when it is set (an SPRT decided), returning
    `cancelled: True`.
    """
    started = time.time()
    workdir = cwd if cwd and os.path.isdir(cwd) else None
    with tempfile.TemporaryDirectory(prefix=f"poolshark-shard{index}-") as tmp:
        out = os.path.join(tmp, "shard.pdn" if command == "match" else "shard.txt")
        flag = "--pdn" if command == "match" else "--out"
        cmd = [binary, command, *argv, "--shard", f"{index}/{shards}", flag, out]
        if kill_hook:
            marker_dir, _, which = kill_hook.rpartition(":")
            marker = os.path.join(marker_dir, f"killed-{which}")
            if int(which) == index and not os.path.exists(marker):
                Path(marker).write_text(f"pid {os.getpid()}\n")
                # The worker dies mid-task, as a crashed machine would.
                os.kill(os.getpid(), signal.SIGKILL)
        proc = subprocess.Popen(
            cmd,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
            cwd=workdir or tmp,
        )
        stop = _event(stop_name)
        while True:
            try:
                stdout, stderr = proc.communicate(timeout=1.0)
                break
            except subprocess.TimeoutExpired:
                if stop is not None and stop.is_set():
                    proc.kill()
                    proc.communicate()
                    return {"index": index, "cancelled": True}
        if proc.returncode != 0:
            tail = "\n".join(stderr.strip().splitlines()[-5:])
            raise RuntimeError(
                f"exit status {proc.returncode} on {_host()}: {' '.join(cmd)}\n{tail}"
            )
        return {
            "index": index,
            "cancelled": False,
            "text": Path(out).read_text(),
            "stdout": stdout,
            "seconds": time.time() - started,
            "host": _host(),
        }


def run_data_shard(binary, selfplay_argv, label_argv, index, shards, kill_hook):
    """Make data shard `index` of `shards`: self-play (packed), then label it if asked.
    Returns the shard's bytes. Raises on a non-zero exit, so Dask's `retries` run it again."""
    started = time.time()
    with tempfile.TemporaryDirectory(prefix=f"poolshark-data{index}-") as tmp:
        played = os.path.join(tmp, "played.psd")
        if kill_hook:
            marker_dir, _, which = kill_hook.rpartition(":")
            marker = os.path.join(marker_dir, f"killed-{which}")
            if int(which) == index and not os.path.exists(marker):
                Path(marker).write_text(f"pid {os.getpid()}\n")
                os.kill(os.getpid(), signal.SIGKILL)
        steps = [[binary, "selfplay", *selfplay_argv, "--format", "packed",
                  "--shard", f"{index}/{shards}", "--out", played]]
        out = played
        if label_argv:
            out = os.path.join(tmp, "labelled.psd")
            steps.append([binary, "label", "--data", played, "--out", out, *label_argv])
        stdout = ""
        for cmd in steps:
            r = subprocess.run(cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                               cwd=tmp)
            if r.returncode != 0:
                tail = "\n".join(r.stderr.strip().splitlines()[-5:])
                raise RuntimeError(
                    f"exit status {r.returncode} on {_host()}: {' '.join(cmd)}\n{tail}"
                )
            stdout += r.stdout
        return {
            "index": index,
            "bytes": Path(out).read_bytes(),
            "stdout": stdout,
            "seconds": time.time() - started,
            "host": _host(),
        }


def _event(name):
    if not name:
        return None
    try:
        from distributed import Event

        return Event(name)
    except Exception:  # not inside a Dask worker (called directly)
        return None


def _host():
    import socket

    return f"{socket.gethostname()}:{os.getpid()}"


# ---------------------------------------------------------------------------------------------
# The client.


def match_games_in_shard(games, shards, index):
    """Games of an N-game match in shard I: game g belongs to pair g // 2 (SHARD-API.md)."""
    return sum(1 for g in range(games) if (g // 2) % shards == index)


def selfplay_games_in_shard(games, shards, index):
    return len(range(index, games, shards))


def make_client(args):
    from distributed import Client, LocalCluster

    if args.scheduler_file:
        return Client(scheduler_file=args.scheduler_file), None
    if args.scheduler:
        return Client(args.scheduler), None
    cluster = LocalCluster(
        n_workers=args.workers,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
    )
    return Client(cluster), cluster


def progress(msg):
    print(msg, file=sys.stderr, flush=True)


def stats_lines(binary, files, engine=None, sprt=None):
    cmd = [binary, "stats", *map(str, files)]
    if engine:
        cmd += ["--engine", engine]
    if sprt:
        cmd += ["--sprt", sprt]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({r.returncode}): {r.stderr.strip()}")
    return r.stdout.splitlines()


def parse_running(lines):
    """The Elo and SPRT state from `poolshark stats` lines: (elo text, llr, decision)."""
    elo, llr, decision = "?", None, None
    for line in lines:
        if line.startswith("elo: "):
            elo = line[len("elo: ") :]
        m = re.match(r"sprt: .* llr (\S+) bounds \[\S+, \S+\] (.+)$", line)
        if m:
            llr = float(m.group(1))
            decision = None if m.group(2) == "undecided" else m.group(2)
    return elo, llr, decision


def match_argv(args):
    """The `poolshark match` options every shard gets (no --shard, --pdn or --sprt)."""
    argv = []
    for e in args.engine:
        argv += ["--engine", e]
    argv += ["--games", str(args.games)]
    for name in ("tc", "movetime", "depth", "nodes", "openings", "move_timeout"):
        v = getattr(args, name)
        if v is not None:
            argv += ["--" + name.replace("_", "-"), str(v)]
    for p in args.param or []:
        argv += ["--param", p]
    argv += ["--concurrency", str(args.concurrency)]
    return argv


def selfplay_argv(args):
    argv = ["--games", str(args.games)]
    for name in ("nodes", "random_plies", "seed", "weights"):
        v = getattr(args, name)
        if v is not None:
            argv += ["--" + name.replace("_", "-"), str(v)]
    argv += ["--concurrency", str(args.concurrency)]
    return argv


def merge_selfplay(texts):
    """The shards' data lines (`FEN ; result ; search ; SEED-INDEX`) as one unsharded
    `poolshark selfplay` run writes them: game after game in the order of their indices, and
    each position's first line only (a shard drops repeats within itself, not across shards).
    Returns the text and its number of lines."""
    lines = [line for text in texts for line in text.splitlines() if line.strip()]
    lines.sort(key=lambda line: int(line.rsplit(";", 1)[-1].strip().rsplit("-", 1)[-1]))
    seen, kept = set(), []
    for line in lines:
        fen = line.split(";", 1)[0].strip()
        if fen not in seen:
            seen.add(fen)
            kept.append(line + "\n")
    return "".join(kept), len(kept)


def write_atomic(path, data):
    """Write `data` (text or bytes) to a temporary name beside `path`, then rename it into
    place: a reader never sees part of it, and a stop leaves only the temporary file."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    if isinstance(data, bytes):
        tmp.write_bytes(data)
    else:
        tmp.write_text(data)
    os.replace(tmp, path)


def run(args):
    """Submit the shards, merge them as they finish; returns the exit status."""
    from distributed import Event, as_completed

    remote = args.scheduler or args.scheduler_file
    binary = args.binary if remote else os.path.abspath(args.binary)
    local_binary = args.local_binary or (args.binary if os.path.exists(args.binary) else None)
    if args.command == "match" and not local_binary:
        progress(f"error: {args.binary} is not here; give --local-binary for `poolshark stats`")
        return 2
    K = args.shards
    if args.command == "match":
        argv, per_shard, unit = match_argv(args), match_games_in_shard, "games"
    else:
        argv, per_shard, unit = selfplay_argv(args), selfplay_games_in_shard, "games"
    expected = [per_shard(args.games, K, i) for i in range(K)]
    if args.command == "match":
        out_dir = Path(args.pdn_dir or tempfile.mkdtemp(prefix="poolshark-cluster-"))
        out_dir.mkdir(parents=True, exist_ok=True)
        for old in [*out_dir.glob("shard-*.pdn"), *out_dir.glob("shard-*.games")]:
            old.unlink()
    kill_hook = os.environ.get(KILL_HOOK_ENV)
    run_id = uuid.uuid4().hex[:8]
    stop_name = f"poolshark-stop-{run_id}"

    client, cluster = make_client(args)
    try:
        stop = Event(stop_name, client=client)
        futures = {}
        for i in range(K):
            if expected[i] == 0:
                continue
            fut = client.submit(
                run_shard,
                binary,
                args.command,
                argv,
                i,
                K,
                os.getcwd(),
                stop_name,
                kill_hook,
                key=f"poolshark-{args.command}-{run_id}-shard-{i}",
                retries=args.retries,
                pure=False,
            )
            futures[fut] = i
        n_workers = len(client.scheduler_info().get("workers", {}))
        progress(
            f"cluster: {len(futures)} shards of {args.command} ({args.games} games) on "
            f"{n_workers} workers ({remote or 'LocalCluster'})"
            + (f"; PDNs in {out_dir}" if args.command == "match" else "")
        )
        start = time.time()
        done_files, texts, failed, cancelled = {}, {}, {}, []
        played = 0
        positions = 0
        decided = None
        for fut in as_completed(list(futures)):
            i = futures[fut]
            if fut.cancelled():
                cancelled.append(i)
                continue
            if fut.status == "error":
                failed[i] = repr(fut.exception())
                progress(f"cluster: shard {i}/{K} failed: {failed[i]}")
                continue
            res = fut.result()
            if res["cancelled"]:
                cancelled.append(i)
                continue
            if args.command == "match":
                f = out_dir / f"shard-{i}.pdn"
                write_atomic(f, res["text"])
                write_atomic(out_dir / f"shard-{i}.games", res["stdout"])
                done_files[i] = f
                games = res["text"].count("[Event ")
            else:
                texts[i] = res["text"]
                m = re.search(r"games (\d+) positions (\d+)", res["stdout"])
                games = int(m.group(1)) if m else expected[i]
                positions += int(m.group(2)) if m else res["text"].count("\n")
            played += games
            elapsed = time.time() - start
            line = (
                f"cluster: shard {i}/{K} done on {res['host']} in {res['seconds']:.1f} s; "
                f"{len(done_files) + len(texts)}/{len(futures)} shards, {played} {unit}, "
                f"{played / max(elapsed, 1e-9):.2f} games/s"
            )
            if args.command == "match":
                lines = stats_lines(
                    local_binary, sorted(done_files.values()), args.stats_engine, args.sprt
                )
                elo, llr, decided = parse_running(lines)
                line += f"; elo {elo}"
                if llr is not None:
                    line += f"; llr {llr:.3f}"
            else:
                line += f"; {positions} positions"
            progress(line)
            if decided:
                progress(
                    f"cluster: sprt {decided} after {played} games; "
                    "cancelling the remaining shards"
                )
                stop.set()
                rest = [f for f in futures if f.status == "pending"]
                client.cancel(rest)
                break
        # Shards cancelled by the SPRT and never reported through as_completed.
        if decided:
            cancelled = sorted({futures[f] for f in futures} - set(done_files) - set(failed))
        elapsed = time.time() - start
    finally:
        client.close()
        if cluster is not None:
            cluster.close()

    lost = sum(expected[i] for i in failed)
    not_played = sum(expected[i] for i in cancelled)
    if args.command == "match":
        if done_files:
            for line in stats_lines(
                local_binary, sorted(done_files.values()), args.stats_engine, args.sprt
            ):
                print(line)
        if args.pdn:
            merged = "".join(done_files[i].read_text() for i in sorted(done_files))
            write_atomic(args.pdn, merged)
    else:
        merged, positions = merge_selfplay(texts[i] for i in sorted(texts))
        write_atomic(args.out, merged)
        print(f"games {played} positions {positions} file {args.out}")
    print(
        f"cluster: {played} games played of {args.games} in {elapsed:.1f} s "
        f"({played / max(elapsed, 1e-9):.2f} games/s); "
        f"{lost} lost to failed shards"
        + (f" {sorted(failed)}" if failed else "")
        + (f"; {not_played} not played or not counted after the sprt decided" if decided else "")
    )
    for i in sorted(failed):
        print(f"cluster: shard {i}/{K} failed: {failed[i]}", file=sys.stderr)
    return 1 if failed else 0


# ---------------------------------------------------------------------------------------------
# A whole data set.


def data_settings(args, binary_hash):
    """The settings a data dir is made with, one `name value` line each: a shard made with
    other settings would not belong to the set, so a run into a dir made otherwise is refused."""
    weights = "builtin"
    if args.weights:
        # By content where this machine has the file, else by its path on the workers.
        w = Path(args.weights)
        weights = hashlib.sha256(w.read_bytes()).hexdigest()[:16] if w.is_file() else str(w)
    return "".join(f"{k} {v}\n" for k, v in [
        ("games", args.games), ("shards", args.shards), ("seed", args.seed),
        ("nodes", args.nodes), ("random-plies", args.random_plies),
        ("label-nodes", args.label_nodes), ("weights", weights), ("binary", binary_hash),
    ])


def shard_path(out_dir, i):
    return Path(out_dir) / f"shard-{i:05d}.psd"


def data_argvs(args):
    selfplay = ["--games", str(args.games), "--seed", str(args.seed), "--nodes",
                str(args.nodes), "--random-plies", str(args.random_plies),
                "--concurrency", str(args.concurrency)]
    label = []
    if args.label_nodes:
        label = ["--nodes", str(args.label_nodes), "--threads", str(args.concurrency)]
    if args.weights:
        # A shard runs in a temporary dir: a path here is made absolute (on a cluster it is
        # the workers' path, given as it is).
        remote = args.scheduler or args.scheduler_file
        w = args.weights if remote else os.path.abspath(args.weights)
        selfplay += ["--weights", w]
        if label:
            label += ["--weights", w]
    return selfplay, label


def claim_data_dir(out_dir, settings):
    """Lock `out_dir` for this run and check its settings (written on the first run). Returns
    the lock's file (held while it stays open) or an error message."""
    import fcntl

    out_dir.mkdir(parents=True, exist_ok=True)
    lock = open(out_dir / ".lock", "w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return None, f"{out_dir} is in use by another run (its .lock is held)"
    f = out_dir / "run.settings"
    if f.exists():
        old = f.read_text()
        if old != settings:
            have = dict(l.split(" ", 1) for l in old.splitlines() if " " in l)
            want = dict(l.split(" ", 1) for l in settings.splitlines())
            diff = ", ".join(f"{k} {have.get(k, '?')} there, {v} now"
                             for k, v in want.items() if have.get(k) != v)
            return None, (f"{out_dir} holds a run made with other settings ({diff}); "
                          "use another --dir, or the same settings to go on")
    else:
        write_atomic(f, settings)
    return lock, None


def eta(seconds):
    seconds = int(seconds)
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m{seconds % 60:02d}s"


def run_data(args):
    """Make the missing shards, then merge them all; returns the exit status."""
    from distributed import as_completed

    remote = args.scheduler or args.scheduler_file
    binary = args.binary if remote else os.path.abspath(args.binary)
    local_binary = args.local_binary or (args.binary if os.path.exists(args.binary) else None)
    if not local_binary:
        progress(f"error: {args.binary} is not here; give --local-binary for `poolshark data merge`")
        return 2
    out_dir = Path(args.dir)
    binary_hash = hashlib.sha256(Path(local_binary).read_bytes()).hexdigest()[:16]
    lock, err = claim_data_dir(out_dir, data_settings(args, binary_hash))
    if err:
        progress(f"error: {err}")
        return 2
    K = args.shards
    todo = [i for i in range(K)
            if selfplay_games_in_shard(args.games, K, i) and not shard_path(out_dir, i).exists()]
    had = sum(1 for i in range(K) if shard_path(out_dir, i).exists())
    selfplay_argv, label_argv = data_argvs(args)
    failed = {}
    if todo:
        kill_hook = os.environ.get(KILL_HOOK_ENV)
        run_id = uuid.uuid4().hex[:8]
        client, cluster = make_client(args)
        try:
            futures = {}
            for i in todo:
                fut = client.submit(run_data_shard, binary, selfplay_argv, label_argv, i, K,
                                    kill_hook, key=f"poolshark-data-{run_id}-shard-{i}",
                                    retries=args.retries, pure=False)
                futures[fut] = i
            n_workers = len(client.scheduler_info().get("workers", {}))
            progress(f"data: {len(todo)} shards to make of {K} ({had} already in {out_dir}) on "
                     f"{n_workers} workers ({remote or 'LocalCluster'})")
            start, done, positions = time.time(), 0, 0
            for fut in as_completed(list(futures)):
                i = futures[fut]
                if fut.status == "error":
                    failed[i] = repr(fut.exception())
                    progress(f"data: shard {i}/{K} failed: {failed[i]}")
                    continue
                res = fut.result()
                write_atomic(shard_path(out_dir, i), res["bytes"])
                done += 1
                positions += (len(res["bytes"]) - 40) // 16
                elapsed = time.time() - start
                left = len(todo) - done - len(failed)
                progress(f"data: shard {i}/{K} done on {res['host']} in {res['seconds']:.1f} s; "
                         f"{had + done}/{K} shards, {positions} positions this run, "
                         f"{positions / max(elapsed, 1e-9):.0f}/s, "
                         f"ETA {eta(elapsed / done * left)}")
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
    if failed:
        for i in sorted(failed):
            print(f"data: shard {i}/{K} failed: {failed[i]}", file=sys.stderr)
        print(f"data: {len(failed)} shards failed; run the same command again to make them")
        return 1
    cmd = [local_binary, "data", "merge", str(out_dir), "--out", args.out]
    if args.egdb:
        cmd += ["--egdb", args.egdb]
    progress(f"data: merging the {K} shards into {args.out}")
    r = subprocess.run(cmd, text=True, stdout=subprocess.PIPE)
    if r.returncode != 0:
        print(f"data: {' '.join(cmd)} failed ({r.returncode})", file=sys.stderr)
        return 1
    print(r.stdout, end="")
    lock.close()
    return 0


# ---------------------------------------------------------------------------------------------
# Command line.


def default_binary():
    env = os.environ.get("POOLSHARK")
    return env or str(REPO / "target" / "release" / "poolshark")


def add_cluster_options(p):
    g = p.add_argument_group("cluster")
    g.add_argument("--shards", type=int, required=True, help="number of shards (Dask tasks)")
    g.add_argument(
        "--scheduler",
        help="address of a running Dask scheduler, e.g. tcp://HOST:8786 "
        "(default: start a LocalCluster on this machine)",
    )
    g.add_argument(
        "--scheduler-file",
        help="the file `dask scheduler --scheduler-file FILE` wrote (instead of --scheduler)",
    )
    g.add_argument(
        "--workers", type=int, default=2, help="LocalCluster worker processes (default 2)"
    )
    g.add_argument(
        "--binary",
        default=default_binary(),
        help="the poolshark binary as the workers see it (a shared path on a cluster; "
        "default $POOLSHARK or target/release/poolshark)",
    )
    g.add_argument(
        "--local-binary",
        help="the poolshark binary on this machine, for `stats` (default --binary)",
    )
    g.add_argument(
        "--retries",
        type=int,
        default=2,
        help="times a shard that fails is run again (default 2); a shard whose worker dies "
        "is also run again, up to Dask's distributed.scheduler.allowed-failures (3)",
    )


def parse_args(argv=None):
    top = argparse.ArgumentParser(
        prog="poolshark_cluster.py",
        description="poolshark matches and self-play as shards on a Dask cluster",
    )
    sub = top.add_subparsers(dest="command", required=True)

    m = sub.add_parser(
        "match",
        help="a match split into shards",
        description="Play `poolshark match` as --shards tasks on a Dask cluster, merge the "
        "shard PDNs and print the `poolshark stats` summary (the unsharded match's lines).",
    )
    m.add_argument("--engine", action="append", required=True, help="engine command (twice)")
    m.add_argument("--games", type=int, required=True)
    m.add_argument("--tc")
    m.add_argument("--movetime")
    m.add_argument("--depth")
    m.add_argument("--nodes")
    m.add_argument("--openings", help="openings file (a path the workers can read)")
    m.add_argument("--param", action="append", help="[1:|2:]NAME=VALUE, as for match")
    m.add_argument("--move-timeout")
    m.add_argument(
        "--concurrency", type=int, default=1, help="games at once within a shard (default 1)"
    )
    m.add_argument(
        "--sprt",
        help='"elo0=0 elo1=5 alpha=0.05 beta=0.05": cancel the remaining shards once decided',
    )
    m.add_argument(
        "--stats-engine", help="the engine whose score is reported (stats --engine NAME)"
    )
    m.add_argument(
        "--pdn-dir",
        help="where the shard PDNs go, shard-I.pdn, with each shard's game lines in "
        "shard-I.games (default a new temporary dir)",
    )
    m.add_argument("--pdn", help="also write all games, in shard order, to this PDN file")
    add_cluster_options(m)

    s = sub.add_parser(
        "selfplay",
        help="self-play data split into shards",
        description="Run `poolshark selfplay` as --shards tasks on a Dask cluster and "
        "concatenate the shards' data (in shard order) into --out.",
    )
    s.add_argument("--games", type=int, required=True)
    s.add_argument("--nodes")
    s.add_argument("--out", required=True)
    s.add_argument("--random-plies")
    s.add_argument("--seed")
    s.add_argument("--weights", help="weights file (a path the workers can read)")
    s.add_argument("--concurrency", type=int, default=1)
    add_cluster_options(s)

    d = sub.add_parser(
        "data",
        help="a whole training set from a seed, in resumable shards",
        description="Make the training set of a seed: --shards shards of `poolshark selfplay "
        "--format packed` (and `label` with --label-nodes) kept in --dir as they finish "
        "(run the same command again to go on after a stop), then `poolshark data merge` "
        "of them all into --out. The same settings give the same bytes on any number of "
        "workers.",
    )
    d.add_argument("--games", type=int, required=True)
    d.add_argument("--seed", type=int, required=True)
    d.add_argument("--dir", required=True, help="where the shards are kept (resumable)")
    d.add_argument("--out", required=True, help="the merged packed file")
    d.add_argument("--nodes", type=int, default=10000, help="self-play nodes a move (10000)")
    d.add_argument("--random-plies", type=int, default=10,
                   help="random plies after each opening (10)")
    d.add_argument("--label-nodes", type=int, default=0,
                   help="search every position again at this many nodes (0: keep "
                   "self-play's scores)")
    d.add_argument("--weights", help="the evaluation both sides play with (a path the workers "
                   "can read; default the built-in)")
    d.add_argument("--egdb", help="endgame tables on this machine: their exact value on every "
                   "position they cover (at the merge)")
    d.add_argument("--concurrency", type=int, default=1,
                   help="threads within a shard (default 1)")
    add_cluster_options(d)

    args = top.parse_args(argv)
    if args.command == "match":
        if len(args.engine) != 2:
            top.error("match needs --engine twice")
        if not any(getattr(args, k) for k in ("tc", "movetime", "depth", "nodes")):
            top.error("match needs --tc, --movetime, --depth or --nodes")
    if args.shards < 1 or args.games < 1 or args.workers < 1 or args.retries < 0:
        top.error("--shards, --games and --workers must be at least 1, --retries at least 0")
    return args


def main(argv=None):
    args = parse_args(argv)
    if args.command == "data":
        return run_data(args)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
