#!/usr/bin/env bash
# The network's WebAssembly SIMD128 kernels against the scalar reference, until the crate
# itself builds for wasm32 (then `simd128_equals_scalar` in the library's tests does this):
# a scratch crate in target/simd128-check/ includes src/eval/nnue/simd/kernels.rs and
# wasm.rs by path, is built for wasm32-unknown-unknown with +simd128 (std from source, by
# RUSTC, default Debian's /usr/bin/rustc, which has the rust-src; linker wasm-ld), and node
# runs its `check`: random updates, in place and not, and SCReLU dot products through both
# instances. Prints `simd128 check PASS: <n> comparisons equal` or FAIL (exit 1); where a
# tool is missing it says `simd128 check SKIPPED: <why>` and exits 0.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
RUSTC=${RUSTC:-/usr/bin/rustc}
CARGO=${CARGO:-/usr/bin/cargo}
DIR=${CARGO_TARGET_DIR:-$REPO/target}/simd128-check

skip() {
    echo "simd128 check SKIPPED: $*"
    exit 0
}
for tool in "$RUSTC" "$CARGO" wasm-ld node; do
    command -v "$tool" >/dev/null || skip "no $tool"
done
[ -d "$("$RUSTC" --print sysroot)/lib/rustlib/src/rust/library" ] || skip "$RUSTC has no rust-src"

mkdir -p "$DIR/src"
cat >"$DIR/Cargo.toml" <<'EOF'
[package]
name = "simd128-check"
version = "0.1.0"
edition = "2021"

[lib]
crate-type = ["cdylib"]

[profile.release]
panic = "abort"

[workspace]
EOF
cat >"$DIR/src/lib.rs" <<EOF
//! poolshark's SIMD128 kernels against the scalar reference (scripts/simd128-check.sh).
#![allow(dead_code)]

/// What the kernels take from their parent module.
const QA: i32 = 127;

#[path = "$REPO/crates/engine/src/eval/nnue/simd/kernels.rs"]
mod kernels;
#[path = "$REPO/crates/engine/src/eval/nnue/simd/wasm.rs"]
mod wasm;
EOF
cat >>"$DIR/src/lib.rs" <<'EOF'

use kernels::{Chunk, Job, Scalar};

/// SplitMix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn chunks(&mut self, n: usize, lo: i16, hi: i16) -> Vec<Chunk> {
        let span = (hi as i64 - lo as i64 + 1) as u64;
        (0..n)
            .map(|_| Chunk(std::array::from_fn(|_| lo + (self.next() % span) as i16)))
            .collect()
    }
    /// Distinct features below 128, from none to all of them.
    fn features(&mut self) -> Vec<u8> {
        let keep = self.next() % 129;
        (0..128u8).filter(|_| self.next() % 128 < keep).collect()
    }
}

/// Both views of `dst` moved from `src` by the rows of `w1` (`n` chunks each).
fn job<'a>(dst: *mut Chunk, src: *const Chunk, w1: &[Chunk], n: usize, adds: &'a [u8], subs: &'a [u8]) -> Job<'a> {
    // Pointers only: nothing is read here.
    Job {
        dst: [dst, dst.wrapping_add(n)],
        src: [src, src.wrapping_add(n)],
        w1: w1.as_ptr(),
        n,
        adds,
        subs,
    }
}

/// Random updates (into another accumulator, and in place) and SCReLU dot products through
/// the SIMD128 and scalar instances: the number of comparisons made if all were equal, else
/// minus the number that differed.
#[no_mangle]
pub extern "C" fn check(seed: u32) -> i32 {
    let mut rng = Rng(seed as u64);
    let (mut made, mut differ) = (0, 0);
    for n in [1, 2, 3, 4, 5, 7, 8, 9, 13, 16, 17, 24, 31, 32] {
        let w1 = rng.chunks(128 * n, i16::MIN, i16::MAX);
        for round in 0..40 {
            let (adds, subs) = (rng.features(), rng.features());
            let src = rng.chunks(2 * n, i16::MIN, i16::MAX);
            let mut out = [vec![Chunk::default(); 2 * n], vec![Chunk::default(); 2 * n]];
            let mut inplace = [src.clone(), src.clone()];
            // SAFETY: every accumulator is 2 n chunks, every row n chunks of w1 (features
            // below 128).
            unsafe {
                kernels::update::<Scalar>(job(out[0].as_mut_ptr(), src.as_ptr(), &w1, n, &adds, &subs));
                wasm::update(job(out[1].as_mut_ptr(), src.as_ptr(), &w1, n, &adds, &subs));
                let p = inplace[0].as_mut_ptr();
                kernels::update::<Scalar>(job(p, p, &w1, n, &adds, &subs));
                let p = inplace[1].as_mut_ptr();
                wasm::update(job(p, p, &w1, n, &adds, &subs));
            }
            made += 2;
            differ += (out[0] != out[1]) as i32 + (inplace[0] != inplace[1]) as i32;
            // The output's ranges, and every other round any i16 (where madd's sums wrap).
            let wide = round % 2 == 1;
            let (lo, hi) = if wide { (i16::MIN, i16::MAX) } else { (-300, 300) };
            let (us, them) = (rng.chunks(n, lo, hi), rng.chunks(n, lo, hi));
            let (lo, hi) = if wide { (i16::MIN, i16::MAX) } else { (-128, 128) };
            let w = rng.chunks(2 * n, lo, hi);
            let (us, them, w) = (us.as_ptr(), them.as_ptr(), w.as_ptr());
            // SAFETY: `us`, `them` are n chunks, `w` 2 n.
            let (a, b) = unsafe {
                (kernels::screlu_dot::<Scalar>(us, them, w, n), wasm::screlu_dot(us, them, w, n))
            };
            made += 1;
            differ += (a != b) as i32;
        }
    }
    if differ == 0 { made } else { -differ }
}
EOF

(cd "$DIR" && RUSTC="$RUSTC" RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR="$DIR/target" \
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld RUSTFLAGS="-C target-feature=+simd128" \
    "$CARGO" build --quiet --release -Zbuild-std=std,panic_abort --target wasm32-unknown-unknown)
WASM="$DIR/target/wasm32-unknown-unknown/release/simd128_check.wasm" node -e '
const bytes = require("fs").readFileSync(process.env.WASM);
WebAssembly.instantiate(bytes, {}).then(({ instance }) => {
    const results = [1, 2, 3].map((seed) => instance.exports.check(seed));
    if (results.every((r) => r > 0)) {
        const n = results.reduce((a, b) => a + b, 0);
        console.log(`simd128 check PASS: ${n} comparisons equal`);
    } else {
        console.log(`simd128 check FAIL: per seed ${results} (negative: how many differed)`);
        process.exit(1);
    }
});'
