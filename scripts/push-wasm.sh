#!/usr/bin/env bash
# Pushes the two components as standard wasm OCI artifacts (an `application/wasm` layer and the
# `application/vnd.wasm.config.v0+json` config that `wkg oci push` writes), for gateways and hosts
# that pull components from a registry (wasmCloud, Spin, wkg, wash):
#
#   ./scripts/push-wasm.sh REGISTRY/REPO:TAG [wkg oci push flags...]
#
# pushes target/media_mcp.wasm (the plugin) to REGISTRY/REPO:TAG and target/media_mcp_http.wasm
# (the HTTP transport plugged with the plugin) to REGISTRY/REPO-http:TAG. Build them first
# (./scripts/build-component.sh). Credentials: wkg's -u/-p (WKG_OCI_USERNAME/WKG_OCI_PASSWORD) or
# your docker login; `--insecure HOST:PORT` for a registry on plain HTTP. wkg is the one
# scripts/install-wkg.sh builds into target/tools/, or WKG, or `wkg` on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."

[ $# -ge 1 ] && [[ "${1##*/}" == *:* ]] || { echo "usage: $0 REGISTRY/REPO:TAG [wkg oci push flags...]" >&2; exit 2; }
reference=$1
shift
repo=${reference%:*}
tag=${reference##*:}
wkg=${WKG:-target/tools/wkg-0.16.1/bin/wkg}
[ -x "$wkg" ] || wkg=$(command -v wkg) || { echo "push-wasm: no wkg (cargo install --locked wkg@0.16.1)" >&2; exit 1; }

version=$(sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"/\1/p' Cargo.toml)
source=$(python3 -c 'import json; print(json.load(open("deploy/mcp-registry/server.json"))["repository"]["url"])')
push() {
  local file=$1 ref=$2 description=$3
  [ -f "$file" ] || { echo "push-wasm: $file is missing: ./scripts/build-component.sh" >&2; exit 1; }
  "$wkg" oci push "${flags[@]}" \
    --annotation "org.opencontainers.image.version=$version" \
    --annotation "org.opencontainers.image.source=$source" \
    --annotation "org.opencontainers.image.description=$description" \
    --annotation "org.opencontainers.image.licenses=Apache-2.0" \
    "$ref" "$file" >&2
  echo "pushed $file ($(sha256sum < "$file" | cut -c1-64)) to $ref" >&2
}
flags=("$@")
push target/media_mcp.wasm "$repo:$tag" "media-mcp plugin (media-mcp:plugin world) for host-harness and other plugin hosts"
push target/media_mcp_http.wasm "$repo-http:$tag" "media-mcp over MCP Streamable HTTP (wasi:http/incoming-handler)"
