#!/usr/bin/env bash
# Installs the system packages the tests run, where they are missing: Node and npm (the size
# optimizer and the Node MCP clients), Debian's nginx, HAProxy, NATS server and OCI registry
# (the scale-out tests run them on loopback), and for the image tests Docker (docker.io, started
# here as `dockerd --bridge=none --iptables=false`: containers use the host's network only),
# docker-compose and musl-tools (the static harness compiles ring's C with musl-gcc), and
# Chromium (the MCP Apps browser test drives it headless), all from Debian 12: pinned to their
# releases by version prefix (security updates within a release still install), except
# Chromium, which Debian 12 ships only as its security team's current major version. Then the musl Rust target (wkg, the other tool the tests build, is
# scripts/install-wkg.sh). Needs apt-get and root, or sudo without a password; otherwise it names what is
# missing and fails.
set -euo pipefail
cd "$(dirname "$0")/.."


packages=()
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  packages+=(nodejs npm)
fi
[ -x /usr/sbin/nginx ] || packages+=('nginx-light=1.22.*')
[ -x /usr/sbin/haproxy ] || packages+=('haproxy=2.6.*')
command -v nats-server >/dev/null || packages+=('nats-server=2.9.*')
[ -x /usr/bin/docker-registry ] || packages+=('docker-registry=2.8.*')
[ -x /usr/sbin/dockerd ] || packages+=('docker.io=20.10.*')
command -v docker-compose >/dev/null || packages+=('docker-compose=1.29.*')
command -v musl-gcc >/dev/null || packages+=('musl-tools=1.2.3-*')
[ -x /usr/bin/chromium ] || packages+=(chromium)

if [ "$(id -u)" = 0 ]; then
  as_root=()
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
  as_root=(sudo -n)
else
  as_root=(false)
fi
if [ ${#packages[@]} -gt 0 ]; then
  if [ "${as_root[*]}" = false ]; then
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
fi

# The Docker daemon, unless one answers: no bridge and no iptables rules (the tests run
# containers with --network host on loopback), no systemd needed. Its log is target/dockerd.log.
if ! docker info >/dev/null 2>&1; then
  if [ "${as_root[*]}" = false ]; then
    echo "install-test-deps: dockerd is not running; start it as root: dockerd --bridge=none --iptables=false" >&2
    exit 1
  fi
  mkdir -p target
  echo "install-test-deps: starting dockerd --bridge=none --iptables=false" >&2
  "${as_root[@]}" setsid dockerd --bridge=none --iptables=false >target/dockerd.log 2>&1 < /dev/null &
  for _ in $(seq 120); do
    docker info >/dev/null 2>&1 && break
    sleep 0.5
  done
  docker info >/dev/null 2>&1 || { echo "install-test-deps: dockerd did not start:" >&2; tail -20 target/dockerd.log >&2; exit 1; }
fi

# The musl target for the image's static harness (scripts/build-image.sh).
rustup target list --installed | grep -qx x86_64-unknown-linux-musl || rustup target add x86_64-unknown-linux-musl
