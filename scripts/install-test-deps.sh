#!/usr/bin/env bash
# Installs the system packages the tests run, where they are missing: Node and npm (the size
# optimizer and the Node MCP clients) and Debian's nginx, HAProxy, NATS server and OCI registry
# (the scale-out tests run them on loopback), pinned to their Debian 12 releases by version
# prefix (security updates within a release still install). Needs apt-get and root, or sudo
# without a password; otherwise it names what is missing and fails.
set -euo pipefail

packages=()
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  packages+=(nodejs npm)
fi
[ -x /usr/sbin/nginx ] || packages+=('nginx-light=1.22.*')
[ -x /usr/sbin/haproxy ] || packages+=('haproxy=2.6.*')
command -v nats-server >/dev/null || packages+=('nats-server=2.9.*')
[ -x /usr/bin/docker-registry ] || packages+=('docker-registry=2.8.*')
[ ${#packages[@]} -eq 0 ] && exit 0

if [ "$(id -u)" = 0 ]; then
  as_root=()
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
  as_root=(sudo -n)
else
  echo "install-test-deps: run as root (or with passwordless sudo) to install: ${packages[*]}" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null; then
  echo "install-test-deps: no apt-get here; install these yourself: ${packages[*]}" >&2
  exit 1
fi
echo "install-test-deps: installing ${packages[*]}" >&2
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
