#!/bin/bash
# GNU parallel over ssh: the same commands on machines that share the working folder (NFS).
# Each machine needs the binaries at the same path; --sshlogin N/host runs N jobs there.
#
#   deploy/parallel.sh tune     # 4 workers of one shared tune (2 per host)
#   deploy/parallel.sh match    # 8 shards of one SPRT match, stopping together
set -euo pipefail
HOSTS=${HOSTS:-2/host1,2/host2}
cd "${WUZI_DIR:-$PWD}"
case "${1:-}" in
tune)
    # The one command each job runs:
    parallel --sshlogin "$HOSTS" --workdir "$PWD" --line-buffer \
        'target/release/wuzi-tune tune --spec suites/params/tune-example.toml --out tunes/example --shared --concurrency 1 --quiet' \
        ::: 1 2 3 4
    target/release/wuzi-tune status tunes/example
    ;;
match)
    # The one command each job runs ({} is the shard index):
    parallel --sshlogin "$HOSTS" --workdir "$PWD" --line-buffer \
        "target/release/wuzi-arena match --player default --player 'new,params=new.toml' --nodes 5000 --pairs 4000 --sprt 0,5 --openings random:4000:4 --concurrency 1 --quiet --shard {}/8 --out runs/new-vs-default" \
        ::: 0 1 2 3 4 5 6 7
    target/release/wuzi-arena summary runs/new-vs-default
    ;;
*)
    echo "usage: $0 tune|match" >&2
    exit 2
    ;;
esac
