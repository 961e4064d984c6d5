#!/usr/bin/env bash
# Runs the fuzz targets (see the README's "Fuzzing"):
#   tests/fuzz/fuzz.sh smoke [TARGET...]   a few seconds each (CI), the committed corpus only read
#   tests/fuzz/fuzz.sh long [TARGET...]    a million inputs each (RUNS, TIME to change), all at
#                                          once under nice; new inputs go to target/corpus/
#   tests/fuzz/fuzz.sh merge [TARGET...]   minimises target/corpus/ into the committed corpus/
#   tests/fuzz/fuzz.sh build [smoke|long]  only builds (.ci/run starts it beside the tests)
# Builds with cargo on the stable toolchain (RUSTC_BOOTSTRAP=1) and the instrumentation flags
# cargo-fuzz 0.13 gives a `cargo fuzz build --sanitizer none`, so CI needs no cargo-fuzz
# install; the folder stays a cargo-fuzz project (`cargo fuzz run --fuzz-dir tests/fuzz T`
# works where cargo-fuzz is installed). No sanitizer: the readers are safe Rust, and panics,
# overflows (overflow checks are on), hangs (-timeout) and unbounded memory (-rss_limit_mb)
# are what is looked for.
#
# Two builds: the long runs' (target/TRIPLE/release, cargo-fuzz's own layout) with one codegen
# unit per crate, as cargo-fuzz builds them (the coverage passes stop ThinLTO from inlining
# across units, so several units run slower); the smoke run's (target/smoke/TRIPLE/release)
# with cargo's default units, which builds in a fraction of the time: a few seconds of fuzzing
# do not pay for the faster code.
#
# TRACE_CMP=0 builds without comparison tracing (cargo-fuzz's --no-trace-compares), in a folder
# of its own: still guided by edge coverage, about three times the inputs a second where the
# tracing dominates (brain_session, whose searches compare board values all the time; it
# starts from the corpus the traced runs built).
set -euo pipefail
cd "$(dirname "$0")"
mode=${1:-smoke}
shift || true
all=(brain_commands brain_session brain_output params_toml tune_spec registry run_json records tune_state openings)
export RUSTC_BOOTSTRAP=1
triple=$(rustc -vV | sed -n 's/^host: //p')

# build KIND: builds every target for a smoke or a long run; prints the binaries' folder.
build() {
  local kind=$1 dir flags
  flags="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4"
  flags+=" -Cllvm-args=-sanitizer-coverage-inline-8bit-counters"
  flags+=" -Cllvm-args=-sanitizer-coverage-pc-table"
  # TRACE_CMP=0: no comparison tracing (cargo-fuzz's --no-trace-compares), its own folder.
  if [ "${TRACE_CMP:-1}" != 0 ]; then
    flags+=" -Cllvm-args=-sanitizer-coverage-trace-compares"
  fi
  flags+=" --cfg fuzzing"
  flags+=" -Cllvm-args=-simplifycfg-branch-fold-threshold=0"
  flags+=" -Cllvm-args=-sanitizer-coverage-stack-depth -Cdebug-assertions"
  case "$kind" in
    smoke) dir=target/smoke ;;
    long) dir=target; flags+=" -Ccodegen-units=1" ;;
    *) echo "usage: $0 build smoke|long" >&2; exit 2 ;;
  esac
  if [ "${TRACE_CMP:-1}" = 0 ]; then dir=$dir/no-trace-cmp; fi
  # --target keeps the flags off build scripts and proc macros, as cargo-fuzz does.
  RUSTFLAGS="$flags ${RUSTFLAGS:-}" cargo build --quiet --release --bins \
    --manifest-path Cargo.toml --target "$triple" --target-dir "$dir" \
    --config 'profile.release.debug="line-tables-only"' >&2
  echo "$dir/$triple/release"
}

case "$mode" in
  build)
    build "${1:-smoke}" >/dev/null
    exit 0
    ;;
  smoke | long | merge) ;;
  *) echo "usage: $0 smoke|long|merge [TARGET...] | build [smoke|long]" >&2; exit 2 ;;
esac
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=("${all[@]}")
fi
if [ "$mode" = smoke ]; then bin=$(build smoke); else bin=$(build long); fi
common=(-timeout=${TIMEOUT:-60} -rss_limit_mb=1024 -max_len=16384 -print_final_stats=1)
case "$mode" in
  smoke)
    mkdir -p target/artifacts
    for t in "${targets[@]}"; do
      work=$(mktemp -d)
      # A crash, hang or blow-up exits non-zero and leaves the input in target/artifacts/.
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
esac
