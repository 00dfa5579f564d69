#!/usr/bin/env bash
# CI smoke pass of the fuzz targets (docs/reliability.md): builds every libFuzzer target and runs
# each for SMOKE_SECONDS (default 20) from an empty corpus. Fails on a crash, hang or broken
# invariant. When the toolchain cannot fuzz (no nightly, no cargo-fuzz, no C++ compiler for
# libFuzzer) it says exactly what is missing and exits 0: the minimised crash inputs still run
# as plain tests in `cargo test --workspace` on stable.
set -u
cd "$(dirname "$0")"
seconds="${SMOKE_SECONDS:-20}"
missing=()
cargo +nightly --version >/dev/null 2>&1 || missing+=("a nightly Rust toolchain (rustup toolchain install nightly)")
cargo fuzz --version >/dev/null 2>&1 || missing+=("cargo-fuzz (cargo install cargo-fuzz --locked)")
command -v c++ >/dev/null 2>&1 || command -v g++ >/dev/null 2>&1 || command -v clang++ >/dev/null 2>&1 \
    || missing+=("a C++ compiler (g++ or clang++) to build libFuzzer")
if [ ${#missing[@]} -gt 0 ]; then
    echo "fuzz smoke pass skipped; missing:"
    printf '  - %s\n' "${missing[@]}"
    echo "(the regression inputs still run in 'cargo test --workspace')"
    exit 0
fi
set -e
targets=(groups metrics state_bytes cli_csv cli_parquet fair_projection rate_constraints partitioned
    saved_classifier saved_cross_model saved_projection saved_fair_svm saved_wasserstein)
# No sanitizer (the crates forbid unsafe code); debug assertions on, so arithmetic overflow panics.
cargo +nightly fuzz build -s none -a
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for t in "${targets[@]}"; do
    mkdir -p "$work/$t"
    echo "== $t (${seconds}s)"
    # Committed crash reproducers (regressions/<target>/) are replayed first, as seed inputs.
    seeds=()
    [ -d "regressions/$t" ] && seeds=("regressions/$t")
    cargo +nightly fuzz run -s none -a "$t" "$work/$t" ${seeds[@]+"${seeds[@]}"} -- \
        -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
        -artifact_prefix="$work/" 2>&1 | grep -E "stat::number_of_executed_units|ERROR|panicked|Done" || true
    if ls "$work"/crash-* "$work"/timeout-* "$work"/oom-* >/dev/null 2>&1; then
        echo "fuzz target $t failed; reproducer(s):"
        for f in "$work"/crash-* "$work"/timeout-* "$work"/oom-*; do
            [ -e "$f" ] && { echo "  $f"; od -An -tx1 "$f" | head -5; }
        done
        exit 1
    fi
done
echo "fuzz smoke pass: ${#targets[@]} targets, ${seconds}s each, no crash"
