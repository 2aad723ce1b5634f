#!/usr/bin/env bash
# Builds the media-mcp OCI image (deploy/image/Dockerfile) without pulling anything: a static
# x86_64-unknown-linux-musl harness, the two components (scripts/build-component.sh) and their
# compiled artifacts, baked here by the binary that ships (a scratch image has no shell to do it
# in), copied `FROM scratch`. Tags media-mcp:<workspace version> and media-mcp:latest.
#
#   ./scripts/build-image.sh              # release profile (what the tests run, ~10 min cold)
#   MEDIA_MCP_IMAGE_PROFILE=dist ./scripts/build-image.sh   # fat LTO: smaller, +8 min
#   MEDIA_MCP_IMAGE=registry.example/media-mcp ./scripts/build-image.sh   # another repository
#
# Needs cargo with the musl target (added here), musl-gcc (Debian's musl-tools: ring
# compiles C), strip, python3 and a docker client whose daemon is running. Prints the image's
# size and tags last.
set -euo pipefail
cd "$(dirname "$0")/.."

target=x86_64-unknown-linux-musl
profile=${MEDIA_MCP_IMAGE_PROFILE:-release}
image=${MEDIA_MCP_IMAGE:-media-mcp}
docker=${DOCKER:-docker}

for tool in musl-gcc strip python3 "$docker"; do
  command -v "$tool" >/dev/null || { echo "build-image: $tool is missing (scripts/install-test-deps.sh installs it)" >&2; exit 1; }
done
rustup target list --installed | grep -qx "$target" || rustup target add "$target"

./scripts/build-component.sh
# `--workspace` resolves shared crates' features as the tested release build does (see
# scripts/build-dist.sh); only the harness binary is built.
cargo build --locked --profile "$profile" --workspace --bin media-mcp --target "$target"
built=target/$target/$profile/media-mcp

# The version from Cargo.toml's [workspace.package]; the server name and source from deploy/mcp-registry/server.json,
# so the image's labels are what the MCP Registry entry says (tests/python/test_image.py).
version=$(sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"/\1/p' Cargo.toml)
read -r server_name source < <(python3 -c '
import json, sys
s = json.load(open("deploy/mcp-registry/server.json"))
print(s["name"], s["repository"]["url"])')

ctx=target/image/context
rm -rf "$ctx"
mkdir -p "$ctx/cache"
cp deploy/image/Dockerfile "$ctx/"
strip -o "$ctx/media-mcp" "$built"
cp target/media_mcp.wasm target/media_mcp_http.wasm "$ctx/"

# Bake the cache: the shipped binary compiles both components into $ctx/cache with the engine
# settings it runs with (`precompile`), so a start in the image loads them from there.
env -i "MEDIA_MCP_CACHE_DIR=$PWD/$ctx/cache" "$ctx/media-mcp" --component "$ctx/media_mcp.wasm" precompile >&2
cwasm=$(find "$ctx/cache" -name '*.cwasm' | wc -l)
[ "$cwasm" = 2 ] || { echo "build-image: expected 2 compiled components in the cache, found $cwasm" >&2; exit 1; }
# Readable by any --user; the directory belongs to the image's user (the Dockerfile's --chown).
chmod 0755 "$ctx/cache" "$ctx/media-mcp"
chmod 0644 "$ctx"/cache/* "$ctx"/*.wasm

# The legacy builder: a scratch image needs nothing BuildKit adds, and Debian's docker.io has
# no buildx plugin.
DOCKER_BUILDKIT=0 "$docker" build --quiet \
  --build-arg "VERSION=$version" --build-arg "SOURCE=$source" --build-arg "SERVER_NAME=$server_name" \
  -t "$image:$version" -t "$image:latest" "$ctx" >/dev/null
size=$("$docker" image inspect --format '{{.Size}}' "$image:$version")
echo "image: $image:$version and $image:latest ($size bytes, $profile build of $target)" >&2
