#!/usr/bin/env bash
# One generation of the learned evaluation tables (README "Learned tables, generation by
# generation"): node-limited self-play of this build's defaults, a fit of the learned tables
# to it, SPRTs of the fitted set against the defaults, and the table files to ship if they are
# accepted.
#
#   deploy/generation.sh OUT [SEED]        # the whole generation on this machine
#   ONLY=3 deploy/generation.sh OUT SEED   # only self-play run 3 (one per cluster task), then stop
#
# Self-play is RUNS runs (default 10) of OPENINGS random 4-stone openings (default 2,000) with
# seeds SEED, SEED+1, ...; the two players search NODES (default 1,000) and NODES x 1.1 nodes a
# move, so the two games of a pair differ (NODES=30000 plays at the depth of the games that
# generation 4 was fitted to). Node-limited games are the same on every machine and at any
# concurrency, and the fit gives the same result with any thread count, so rerunning a
# generation from its commit and seed reproduces its tables. A finished run is kept when the
# script is rerun (an interrupted one is resumed), so a stopped generation goes on where it was.
#
# The fit is FIT (default: generation 3's, the pattern-code table with labels half game
# result, half recorded search score: `--param pcd_* --epochs 30 --score-weight 0.5`;
# generation 1 was `FIT='--param thr_* --param cmb_*'`). FIT is split on spaces and not
# globbed.
#
# Ship an accepted generation: copy OUT/ship/{table,threat,code}.toml over suites/params/
# (their headers want the figures of OUT/summary.txt), commit with the SPRT lines, add them to
# suites/strength-log.md. The next generation is this script again, on the new build.
set -euo pipefail
out=${1:?usage: deploy/generation.sh OUT [SEED]}
seed=${2:-31010}
runs=${RUNS:-10}
openings=${OPENINGS:-2000}
nodes=${NODES:-1000}
jobs=${CONCURRENCY:-$(nproc)}
arena=${WUZI_ARENA:-target/release/wuzi-arena}
tune=${WUZI_TUNE:-target/release/wuzi-tune}
root=$(cd "$(dirname "$0")/.." && pwd)
read -ra fit_args <<< "${FIT:---param pcd_* --epochs 30 --score-weight 0.5}"

play() {
    local i=$1 s=$(($1 + seed)) dir="$out/self/s$(($1 + seed))"
    if [ -f "$dir/summary.json" ] && grep -q '"completion": "finished"' "$dir/summary.json"; then
        return
    fi
    if [ -f "$dir/run.json" ]; then
        "$arena" resume "$dir" --quiet
    else
        "$arena" match --player "a,nodes=$nodes" --player "b,nodes=$((nodes * 11 / 10))" \
            --openings "random:$openings:4" --seed "$s" --concurrency "$jobs" \
            --out "$dir" --quiet
    fi
    echo "self-play run $i (seed $s) done"
}

mkdir -p "$out/self"
if [ -n "${ONLY:-}" ]; then
    play "$ONLY"
    exit 0
fi
for i in $(seq 0 $((runs - 1))); do
    play "$i"
done

records=()
for i in $(seq 0 $((runs - 1))); do
    records+=(--records "$out/self/s$((i + seed))")
done
if [ ! -f "$out/fit/fitted.toml" ]; then
    "$tune" fit "${records[@]}" "${fit_args[@]}" --out "$out/fit" --quiet > "$out/fit.log"
fi
fitted="fitted,params=$out/fit/fitted.toml"

sprt() {
    local name=$1
    shift
    if [ ! -f "$out/$name/summary.json" ]; then
        rm -rf "${out:?}/$name"
        "$arena" match --player "$fitted" --player default --sprt 0,5 \
            --concurrency "$jobs" --out "$out/$name" --quiet "$@" >/dev/null
    fi
    "$arena" summary "$out/$name" | grep -E '^fitted'
}

{
    echo "generation of $(git -C "$root" rev-parse --short HEAD), self-play seeds $seed..$((seed + runs - 1))"
    grep -E '^(positions|K =|kept)' "$out/fit.log" || true
    echo "1,000 nodes/move:"
    sprt sprt-1000 --openings random:3000:4 --nodes 1000 --seed $((seed + 1000))
    echo "5,000 nodes/move:"
    sprt sprt-5000 --openings random:3000:4 --nodes 5000 --seed $((seed + 1001))
    echo "40 ms/move:"
    sprt sprt-40ms --openings random:1500:4 --move-ms 40 --seed $((seed + 1002))
} | tee "$out/summary.txt"

# The tables to ship: the fitted entries over the shipped ones (an entry the fit left alone,
# or fitted to its shipped value, keeps its shipped line).
mkdir -p "$out/ship"
merge() {
    local prefix=$1 shipped=$2
    grep -E '^#' "$shipped"
    grep -E "^${prefix}_" "$shipped" | while read -r name _; do
        grep -q "^$name " "$out/fit/fitted.toml" || grep -E "^$name " "$shipped"
    done
    grep -E "^${prefix}_" "$out/fit/fitted.toml" || true
}
merge cmb "$root/suites/params/table.toml" > "$out/ship/table.toml"
merge thr "$root/suites/params/threat.toml" > "$out/ship/threat.toml"
merge pcd "$root/suites/params/code.toml" > "$out/ship/code.toml"
echo "tables to ship: $out/ship/table.toml, $out/ship/threat.toml, $out/ship/code.toml"
