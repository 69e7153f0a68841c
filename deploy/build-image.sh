#!/usr/bin/env bash
# Builds the server image: the artifact (pnpm artifact) into a scratch folder, then deploy/Dockerfile
# with that folder as the context. Usage: deploy/build-image.sh [tag] (default animal-store:latest).
# ENGINE (docker or podman, found on PATH) and NODE_IMAGE (passed to the Dockerfile) may be set.
set -euo pipefail
cd "$(dirname "$0")/.."
tag=${1:-animal-store:latest}
engine=${ENGINE:-$(command -v docker || command -v podman)}
context=$(mktemp -d)
trap 'rm -rf "$context"' EXIT
rmdir "$context"
pnpm artifact "$context" >&2
args=(build --tag "$tag" --file deploy/Dockerfile)
[ -n "${NODE_IMAGE:-}" ] && args+=(--build-arg "NODE_IMAGE=$NODE_IMAGE")
# podman writes OCI images by default, which drop HEALTHCHECK: ask for Docker's format.
case "$engine" in *podman) args+=(--format docker) ;; esac
"$engine" "${args[@]}" "$context"
