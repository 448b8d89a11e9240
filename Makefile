# poolshark: build, run, test, bench.
CARGO ?= cargo
BIN := target/release/poolshark

.PHONY: all build run test test-deep bench lint fmt clean pytest egdb

all: build

build:
	$(CARGO) build --release

# The main job: show the start position and analyse it for 5 seconds.
run: build
	$(BIN) show
	$(BIN) analyze --movetime 5

# The whole suite, optimised (profile ci: release without LTO), then the deep (#[ignore]d)
# tests CI runs.
test:
	$(CARGO) test --profile ci
	./scripts/pytest.sh
	$(CARGO) test --profile ci --test perft -- --ignored start_position_depth_12

# The Hub protocol with a real client (pydraughts' HubEngine, installed in target/venv).
pytest:
	./scripts/pytest.sh

# Everything ignored, depth 13 perft included (minutes).
test-deep:
	$(CARGO) test --release -- --ignored

# Speed: perft (leaves/s) and search (bench nodes/s, time to depth on 1 and 2 threads).
bench: build
	./scripts/bench-perft.sh
	./scripts/bench-search.sh

# Endgame tables of up to 6 pieces into egdb/ (git-ignored; resumable: finished groups are kept).
egdb: build
	$(BIN) egdb build --pieces 6 --dir egdb

lint:
	$(CARGO) fmt --check
	$(CARGO) clippy --all-targets -- -D warnings

fmt:
	$(CARGO) fmt

clean:
	$(CARGO) clean
