#!/usr/bin/env bash
# Acceptance checks of the arena, as a user would try them (minutes of games, not run by CI):
#   1. the default match: the weakened set loses clearly and the SPRT says so (H1 of [0, 10]);
#   2. a parameter set against itself ends near 0 Elo with a 95 % interval that covers 0
#      (time-limited, so that the two copies' games differ; with node limits identical engines
#      mirror each other and every pair is even: exactly 50 %, shown as 2b);
#   3. the default parameters score >= 90 % against the classic reference player at equal time
#      (a 1 s grace before time losses: the classic player checks its clock only at interior
#      nodes and overruns 100 ms moves by up to ~150 ms on a loaded machine, which would turn
#      the check into one of its time keeping).
# Usage: arena/scripts/acceptance.sh [OUTPUT_DIR]   (default: arena-out/acceptance-<UTC time>)
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -q -p wuzi-arena
arena=target/release/wuzi-arena
out=${1:-arena-out/acceptance-$(date -u +%Y%m%d-%H%M%S)}
mkdir -p "$out"

run() {
    local name=$1
    shift
    echo "== $name: wuzi-arena $*"
    local start=$SECONDS
    "$arena" "$@" --out "$out/$name" --quiet
    echo "   ($((SECONDS - start)) s; records, summary.json and charts in $out/$name)"
}

run default match
run self match --player name=a --player name=b --move-ms 20
run mirror match --player name=a --player name=b --nodes 2000 --pairs 20
run classic match --player default --player preset=classic --move-ms 100 --time-margin-ms 1000 \
    --pairs 50
