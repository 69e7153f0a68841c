#!/usr/bin/env bash
# For a machine that reaches no image registry (CI): a node:20 image made locally, a Debian
# bookworm root made by debootstrap (cached as a tarball) with this machine's Node 20 binary.
# Prints the image's name. Needs podman, debootstrap and root.
set -euo pipefail
name=localhost/animal-store-node:20
cache=${XDG_CACHE_HOME:-$HOME/.cache}/animal-store
if podman image exists "$name"; then echo "$name"; exit 0; fi
mkdir -p "$cache"
if ! podman image exists localhost/debian:bookworm-minbase; then
  if [ ! -s "$cache/bookworm-minbase.tar" ]; then
    root=$(mktemp -d)
    debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >&2
    tar -C "$root" -cf "$cache/bookworm-minbase.tar" .
    rm -rf "$root"
  fi
  podman import "$cache/bookworm-minbase.tar" localhost/debian:bookworm-minbase >&2
fi
context=$(mktemp -d)
trap 'rm -rf "$context"' EXIT
cp "$(command -v node)" "$context/node"
printf 'FROM localhost/debian:bookworm-minbase\nCOPY node /usr/local/bin/node\n' > "$context/Containerfile"
podman build --tag "$name" --file "$context/Containerfile" "$context" >&2
echo "$name"
