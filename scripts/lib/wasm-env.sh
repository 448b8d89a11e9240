# Sourced by scripts/web-build.sh and scripts/web-bench.sh: finds (and, as root with apt-get,
# installs) what building crates/wasm for wasm32-unknown-unknown needs. `wasm_toolchain` sets
# WASM_CARGO_DESC and CARGO_TARGET_DIR_WASM, defines `wasm_cargo ARGS...`, or sets WASM_WHY and
# returns 1.
#
# Two toolchains work: rustup's, where `rustup target list --installed` has wasm32 (its std,
# no flags); otherwise Debian's rustc-web and cargo-web with the standard library's source
# (rust-web-src), which build std for the target (-Zbuild-std, allowed on a stable compiler by
# RUSTC_BOOTSTRAP=1), linked by lld's wasm-ld. rustup's cargo comes first on PATH where both
# exist, so Debian's is named by its path. The network's loops use SIMD128 (every current
# browser and node has it), so the build enables it.
WASM_TARGET=wasm32-unknown-unknown
CARGO_TARGET_DIR_WASM=${CARGO_TARGET_DIR:-target}

wasm_apt_install() {
    command -v apt-get >/dev/null && [ "$(id -u)" = 0 ] || return 1
    mkdir -p target
    echo "installing $* with apt-get (log: target/web-apt.log)"
    { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y "$@"; } \
        >>target/web-apt.log 2>&1
}

wasm_rustup_has_target() {
    command -v rustup >/dev/null && rustup target list --installed 2>/dev/null | grep -qx "$WASM_TARGET"
}

wasm_debian_ready() {
    [ -x /usr/bin/rustc ] && [ -x /usr/bin/cargo ] && [ -d /usr/lib/rustlib/src/rust/library ] \
        && command -v wasm-ld >/dev/null
}

wasm_toolchain() {
    if wasm_rustup_has_target; then
        WASM_CARGO_DESC="rustup's $WASM_TARGET target"
        wasm_cargo() {
            RUSTFLAGS="-C target-feature=+simd128" cargo "$@"
        }
        return 0
    fi
    if ! wasm_debian_ready; then
        wasm_apt_install rustc-web cargo-web rust-web-src lld || true
    fi
    if ! wasm_debian_ready; then
        WASM_WHY="rustup has no $WASM_TARGET target and Debian's rustc-web, cargo-web, rust-web-src and lld are not installed (and cannot be here: needs apt-get and root)"
        return 1
    fi
    WASM_CARGO_DESC="Debian's rustc $(/usr/bin/rustc --version | cut -d' ' -f2), std built from source"
    wasm_cargo() {
        env RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 \
            CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld \
            RUSTFLAGS="-C target-feature=+simd128" \
            /usr/bin/cargo "$1" -Zbuild-std=std,panic_abort "${@:2}"
    }
}
