# poolshark: build, run, test, bench.
CARGO ?= cargo
BIN := target/release/poolshark

.PHONY: all build run serve test test-deep bench lint fmt clean pytest browser-test cluster-test js-check egdb data puzzles \
	windows windows-test dist dist-test web web-test

all: build

build:
	$(CARGO) build --release

# The main job: show the start position and analyse it for 5 seconds.
run: build
	$(BIN) show
	$(BIN) analyze --movetime 5

# The board in the browser: open http://127.0.0.1:8080/
serve: build
	$(BIN) serve

# The whole suite (scripts/test.sh): the ci build (the engine as release without LTO, the rest
# less optimised: Cargo.toml) and the Rust tests,
# the Hub client and cluster tests, the page's type check (tsc), the static page (`make web`)
# with its engine under node, the browser tests (the served and the static page), perft to
# depth 12, the Windows exe (unoptimised) under wine and the release archives (each says SKIPPED where it
# cannot run). Three lanes side by side (the Windows build; the ci build and the Rust tests;
# the checks that wait on a browser, wine or pip). Logs in target/test-logs/, a table of stage
# times at the end.
test:
	./scripts/test.sh

# The board as a static page in target/web/: the page, the engine as WebAssembly, a manifest
# and a service worker. Serve it with: python3 -m http.server --directory target/web
web:
	./scripts/web-build.sh

# make web, then its engine under node (tests/web): the board's messages, its review beside
# poolshark serve's.
web-test:
	./scripts/web-test.sh

# poolshark.exe for x86_64 Windows, cross-built with mingw-w64 (installed with apt-get where
# missing): target/windows/x86_64-pc-windows-gnu/release/poolshark.exe. The release profile as on
# Linux (fat LTO, std rebuilt too where rustup lacks the target): about 10 minutes from a
# clean target on 2 busy cores, so no lighter profile; `make test` builds it with ci.
windows:
	./scripts/windows-build.sh

# The exe under wine against the native build: bench nodes, a Hub game, analyze, serve.
windows-test:
	./scripts/windows-test.sh

# Release archives for Linux and Windows, with SHA256SUMS, in target/dist/.
dist:
	./scripts/dist.sh

# make dist (from ci builds) and its archives checked.
dist-test:
	./scripts/dist-test.sh

# The Hub protocol with a real client (pydraughts' HubEngine, installed in target/venv).
pytest:
	./scripts/pytest.sh

# The Dask cluster driver on a 2-worker LocalCluster (cluster/requirements.txt in
# target/cluster-venv; says plainly when pip cannot install and skips).
cluster-test:
	./scripts/cluster-test.sh

# Every script the browser loads type-checked, strict: `tsc --noEmit` over web/ with its JSDoc
# types (tsconfig.json for the page, tsconfig.workers.json for the workers and the service
# worker; TypeScript pinned in package-lock.json, installed with npm ci into target/js-check;
# says SKIPPED where npm is missing or offline).
js-check:
	./scripts/js-check.sh

# The board page in headless Chromium (installs chromium and selenium when it can; says
# plainly when it skips).
browser-test:
	./scripts/browser-test.sh

# Everything ignored: checks too slow for every run, each asserting its result (perft to
# depth 13, the whole endgame oracle check; minutes). Measurements that only print are
# examples/ and scripts/ (scripts/hub_measure.py), not tests.
test-deep:
	$(CARGO) test --release -- --ignored

# Speed: perft (leaves/s) and search (bench nodes/s, time to depth on 1, 2 and 4 threads).
bench: build
	./scripts/bench-perft.sh
	./scripts/bench-search.sh

# Endgame tables of up to 6 pieces into egdb/ (git-ignored; resumable: finished groups are kept).
egdb: build
	$(BIN) egdb build --pieces 6 --dir egdb

# The training set again from a seed (tuning/README.md): self-play shards through the Dask
# driver on this machine (SCHEDULER=tcp://HOST:8786 for many), merged into data/set-SEED.psd.
# Resumable: run it again after a stop. Settings by environment: see scripts/make-data.sh.
data:
	./scripts/make-data.sh

# The shipped puzzle set (docs/PUZZLES.md): games between levels made into proved puzzles,
# in resumable shards under data/puzzles-SEED, merged into puzzles/puzzles.pdn and checked.
# Settings by environment: see scripts/make-puzzles.sh. Build the tables first (make egdb).
puzzles:
	./scripts/make-puzzles.sh

lint:
	$(CARGO) fmt --check
	$(CARGO) clippy --all-targets -- -D warnings

fmt:
	$(CARGO) fmt

clean:
	$(CARGO) clean
