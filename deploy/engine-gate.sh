#!/usr/bin/env bash
# The strength gate for any Gomocup engine's repository, for any CI (the GitHub Actions version
# is deploy/engine-gate.yml): the change (the working tree, HEAD) against its merge base with the
# target branch, both built from their own commits by the registry entry's recipe, then an SPRT
# of their games. Run it from the engine's checkout (a full clone: the merge base must be in it).
#
#   WUZI_ENGINES=engines.toml ENGINE=mybrain deploy/engine-gate.sh            # vs origin/main
#   BASE=origin/develop NODES=20000 PAIRS=400 deploy/engine-gate.sh --move-ms 100
#
# The registry entry names how to build the brain and where the build leaves it, e.g.
#   [brains.mybrain]
#   build = 'make && cp pbrain-mybrain "$WUZI_BUILD_OUT/"'
#   binary = "pbrain-mybrain"
#   extensions = ["max_node"]        # or pass --move-ms for timed games
# Extra arguments go to `wuzi-arena gate`. Exit status: 0 pass, 1 regression found, 2 the gate
# could not run (a build that failed, a brain missing after its build, bad input). The report
# (report.html, summary.md, gate.json, charts, games, build.log) is in $OUT; keep it as the
# job's artifact. Each commit's build is kept in $BUILD_DIR/<engine>/<commit>/: cache that
# folder between jobs and a base commit already gated is not built again.
set -euo pipefail

ENGINE=${ENGINE:?set ENGINE to the brain name of the registry (WUZI_ENGINES or ./engines.toml)}
BASE=${BASE:-origin/main}
OUT=${OUT:-gate-out}
BUILD_DIR=${BUILD_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/wuzi/gate-build}
NODES=${NODES:-2000}
PAIRS=${PAIRS:-1000}
RULE=${RULE:-freestyle}
ARENA=${WUZI_ARENA:-wuzi-arena}

if ! command -v "$ARENA" >/dev/null 2>&1; then
    echo "engine-gate: $ARENA not found (install it: cargo install --git <wuzi repository> wuzi-arena, or set WUZI_ARENA)" >&2
    exit 2
fi
if ! merge_base=$(git merge-base HEAD "$BASE"); then
    echo "engine-gate: no merge base of HEAD and $BASE (a shallow clone? fetch the full history)" >&2
    exit 2
fi
echo "engine-gate: $ENGINE, the working tree (HEAD $(git rev-parse HEAD)) against $BASE's merge base $merge_base"

status=0
"$ARENA" gate --engine "$ENGINE" --repo . --baseline-ref "$merge_base" \
    --build-dir "$BUILD_DIR" --rule "$RULE" --nodes "$NODES" --pairs "$PAIRS" \
    --out "$OUT" "$@" || status=$?
case $status in
0) echo "engine-gate: PASS; report in $OUT/report.html" ;;
1) echo "engine-gate: FAIL (a regression); report in $OUT/report.html" ;;
*) echo "engine-gate: the gate could not run (exit $status); see the message above and $OUT/build.log" >&2 ;;
esac
exit "$status"
