#!/usr/bin/env bash
# Builds the wuzi image (deploy/Dockerfile) where no container registry can be reached but
# Debian's packages can: the two base images are made locally instead of pulled.
#
#   deploy/local-images.sh            # then: podman push registry.example.com/wuzi:latest
#
#   localhost/debian:bookworm-slim  a minimal Debian root filesystem from debootstrap (with git
#                                   and ca-certificates), imported as an image
#   localhost/rust:bookworm         that image with gcc and this machine's Rust toolchain
#                                   (`rustc --print sysroot`, without its documentation)
#
# Needs root, debootstrap and podman (apt-get install debootstrap podman). Builds use
# `--isolation chroot`, which needs no OCI runtime: in sandboxes without CAP_SYS_RESOURCE, crun
# cannot set the containers' rlimits and `podman run` fails. WORK (default /var/tmp/wuzi-image)
# keeps the root filesystem and the toolchain copy; IMAGE names the result.
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${WORK:-/var/tmp/wuzi-image}
IMAGE=${IMAGE:-registry.example.com/wuzi:latest}
SUITE=${SUITE:-bookworm}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
mkdir -p "$WORK"

if ! podman image exists "localhost/debian:$SUITE-slim"; then
    if [ ! -x "$WORK/rootfs/bin/sh" ]; then
        debootstrap --variant=minbase --include=git,ca-certificates "$SUITE" "$WORK/rootfs" "$MIRROR"
    fi
    rm -rf "$WORK"/rootfs/var/cache/apt/archives/*.deb "$WORK"/rootfs/var/lib/apt/lists/*
    tar -C "$WORK/rootfs" -c . | podman import --change 'CMD ["/bin/bash"]' - "localhost/debian:$SUITE-slim"
fi

if ! podman image exists "localhost/rust:$SUITE"; then
    sysroot=$(rustc --print sysroot)
    rm -rf "$WORK/rust"
    mkdir -p "$WORK/rust/toolchain"
    tar -C "$sysroot" --exclude=./share/doc -c . | tar -C "$WORK/rust/toolchain" -x
    cat >"$WORK/rust/Containerfile" <<CONTAINERFILE
FROM localhost/debian:$SUITE-slim
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \\
 && rm -rf /var/lib/apt/lists/*
COPY toolchain /usr/local/rust
ENV PATH=/usr/local/rust/bin:\$PATH
CONTAINERFILE
    podman build --isolation chroot -t "localhost/rust:$SUITE" "$WORK/rust"
fi

# The crates come vendored from this machine's cargo (containers need not trust the network's
# certificates, nor reach crates.io): mounted read-only, the build runs offline.
cargo vendor --locked --versioned-dirs "$WORK/vendor" >/dev/null
podman build --isolation chroot -f deploy/Dockerfile \
    -v "$WORK/vendor:/vendor:ro" \
    --build-arg CARGO_FLAGS='--offline --config=source.crates-io.replace-with="vendored" --config=source.vendored.directory="/vendor"' \
    --build-arg RUST_IMAGE="localhost/rust:$SUITE" \
    --build-arg RUNTIME_IMAGE="localhost/debian:$SUITE-slim" \
    --build-arg WUZI_BUILD_COMMIT="$(git rev-parse HEAD 2>/dev/null || echo unknown)" \
    -t "$IMAGE" .
podman images "$IMAGE"
