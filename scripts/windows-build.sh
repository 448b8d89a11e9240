#!/usr/bin/env bash
# Cross-builds poolshark.exe for x86_64 Windows with mingw-w64 (see scripts/lib/windows-env.sh
# for the toolchains it finds or installs): target/windows/x86_64-pc-windows-gnu/$PROFILE/poolshark.exe.
# PROFILE is release by default (`make windows`, `make dist`); `make test` uses wine (unoptimised).
# The exe chooses its SIMD level at run time as on Linux: .cargo/config.toml's x86-64-v3
# applies to every x86_64 target, and the network picks scalar, AVX2 or AVX-512 by CPUID.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/windows-env.sh
PROFILE=${PROFILE:-release}
if ! windows_env; then
    echo "windows build FAILED: $WIN_WHY" >&2
    exit 1
fi
"${WIN_CARGO[@]}" --profile "$PROFILE" --bin poolshark
ls -l "$(win_exe "$PROFILE")"
