#!/usr/bin/env bash
# Runs the fuzz targets (see the README's "Fuzzing"):
#   tests/fuzz/fuzz.sh smoke [TARGET...]   a few seconds each (CI), the committed corpus only read
#   tests/fuzz/fuzz.sh long [TARGET...]    a million inputs each (RUNS, TIME to change), all at
#                                          once under nice; new inputs go to target/corpus/
#   tests/fuzz/fuzz.sh merge [TARGET...]   minimises target/corpus/ into the committed corpus/
# Builds with cargo-fuzz (installed when missing) on the stable toolchain (RUSTC_BOOTSTRAP=1),
# without a sanitizer: the readers are safe Rust, and panics, overflows (overflow checks are
# on), hangs (-timeout) and unbounded memory (-rss_limit_mb) are what is looked for.
set -euo pipefail
cd "$(dirname "$0")"
mode=${1:-smoke}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(brain_commands brain_session brain_output params_toml tune_spec registry run_json records tune_state openings)
fi
export RUSTC_BOOTSTRAP=1
if ! cargo fuzz --version >/dev/null 2>&1; then
  cargo install --locked cargo-fuzz
fi
cargo fuzz build --fuzz-dir . --sanitizer none
bin=target/x86_64-unknown-linux-gnu/release
common=(-timeout=${TIMEOUT:-60} -rss_limit_mb=1024 -max_len=16384 -print_final_stats=1)
case "$mode" in
  smoke)
    for t in "${targets[@]}"; do
      work=$(mktemp -d)
      # A crash, hang or blow-up exits non-zero and leaves the input in target/artifacts/.
      mkdir -p target/artifacts
      "$bin/$t" "$work" "corpus/$t" -max_total_time="${TIME:-3}" "${common[@]}" \
        -artifact_prefix="target/artifacts/$t-" 2>"target/smoke-$t.log" \
        || { tail -30 "target/smoke-$t.log"; exit 1; }
      echo "$t: $(grep -o 'stat::number_of_executed_units: [0-9]*' "target/smoke-$t.log" | grep -o '[0-9]*$') inputs"
      rm -rf "$work"
    done
    ;;
  long)
    mkdir -p target/logs target/artifacts
    for t in "${targets[@]}"; do
      mkdir -p "target/corpus/$t"
      nice -n 10 "$bin/$t" "target/corpus/$t" "corpus/$t" -runs="${RUNS:-1000000}" \
        -max_total_time="${TIME:-0}" "${common[@]}" -artifact_prefix="target/artifacts/$t-" \
        >"target/logs/$t.log" 2>&1 &
    done
    wait
    for t in "${targets[@]}"; do
      echo "$t: $(grep -E '^Done|stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "target/logs/$t.log" | tr '\n' ' ')"
    done
    ;;
  merge)
    for t in "${targets[@]}"; do
      new=$(mktemp -d)
      "$bin/$t" -merge=1 "$new" "corpus/$t" "target/corpus/$t" "${common[@]}" >/dev/null 2>&1
      rm -rf "corpus/$t" && mv "$new" "corpus/$t"
      echo "$t: $(ls "corpus/$t" | wc -l) inputs, $(du -sk "corpus/$t" | cut -f1) KB"
    done
    ;;
  *) echo "usage: $0 smoke|long|merge [TARGET...]" >&2; exit 2 ;;
esac
