# Sourced by scripts/windows-build.sh and scripts/windows-test.sh: finds (and, as root with
# apt-get, installs) what cross-building poolshark.exe needs, and sets WIN_CARGO (the command
# that builds for the target). On failure `windows_env` sets WIN_WHY and returns 1.
#
# Two toolchains work: rustup's, where `rustup target list --installed` has the target (the
# ordinary std for it, no flags); otherwise Debian's rustc-web and cargo-web with the standard
# library's source (rust-web-src), which build std for the target themselves
# (-Zbuild-std, allowed on a stable compiler by RUSTC_BOOTSTRAP=1). rustup's cargo comes first
# on PATH where both exist, so Debian's is named by its path. The C parts (zstd) and the link
# go through mingw-w64's gcc.
#
# Its build directory is target/windows/, not target/: a cross build keeps its build scripts
# and macros in the host's profile folder (target/ci/ for the ci profile), and cargo locks
# that folder for the whole build, so the native build and every script that asks for it
# (`make test` runs both at once) waited on the Windows build's lock.
WIN_TARGET=x86_64-pc-windows-gnu
WIN_TARGET_DIR=target/windows

# win_exe PROFILE: where the exe of that profile is built.
win_exe() {
    echo "$WIN_TARGET_DIR/$WIN_TARGET/$1/poolshark.exe"
}
WIN_APT_PACKAGES=(gcc-mingw-w64-x86-64)

win_apt_install() {
    command -v apt-get >/dev/null && [ "$(id -u)" = 0 ] || return 1
    mkdir -p target
    echo "installing $* with apt-get (log: target/windows-apt.log)"
    { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y "$@"; } \
        >>target/windows-apt.log 2>&1
}

win_rustup_has_target() {
    command -v rustup >/dev/null && rustup target list --installed 2>/dev/null | grep -qx "$WIN_TARGET"
}

# Debian's rustc-web installs /usr/bin/rustc and its std source under /usr/lib/rustlib/src.
win_debian_ready() {
    [ -x /usr/bin/rustc ] && [ -x /usr/bin/cargo ] && [ -d /usr/lib/rustlib/src/rust/library ]
}

windows_env() {
    if ! command -v x86_64-w64-mingw32-gcc >/dev/null; then
        win_apt_install "${WIN_APT_PACKAGES[@]}" || true
    fi
    if ! command -v x86_64-w64-mingw32-gcc >/dev/null; then
        WIN_WHY="no x86_64-w64-mingw32-gcc (Debian: gcc-mingw-w64-x86-64), and it cannot be installed here (needs apt-get and root)"
        return 1
    fi
    export CC_x86_64_pc_windows_gnu=x86_64-w64-mingw32-gcc
    export AR_x86_64_pc_windows_gnu=x86_64-w64-mingw32-ar
    export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
    if win_rustup_has_target; then
        WIN_CARGO=(cargo build --target "$WIN_TARGET" --target-dir "$WIN_TARGET_DIR")
        return 0
    fi
    if ! win_debian_ready; then
        win_apt_install rustc-web cargo-web rust-web-src || true
    fi
    if ! win_debian_ready; then
        WIN_WHY="rustup has no $WIN_TARGET target and Debian's rustc-web, cargo-web and rust-web-src are not installed (and cannot be here: needs apt-get and root)"
        return 1
    fi
    # Set for this cargo alone: a native build in the same script keeps the usual compiler.
    WIN_CARGO=(env RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1
        /usr/bin/cargo build --target "$WIN_TARGET" --target-dir "$WIN_TARGET_DIR" -Zbuild-std=std,panic_abort)
}
