#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Install what nocprof needs on Debian 12 (bookworm) or later, as root.
# Unicorn comes from Debian 13 (trixie) with apt pinning at priority 100 so
# that nothing else is upgraded from trixie, and is pinned by version to
# 2.1.1, the release nocprof is validated on (docs/design.md "Coroutines";
# nocprof refuses another release at start-up unless NOCPROF_ALLOW_UNICORN=1).
set -euo pipefail

need_root() {
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup.sh: must run as root (apt-get install)" >&2
    exit 2
  fi
}

UNICORN_VERSION=2.1.1
UNICORN_PKGS="libunicorn-dev libunicorn2t64"

PKGS="build-essential cmake pkg-config libglib2.0-dev libelf-dev libdw-dev \
libcapstone-dev libjson-glib-dev gcc-mipsel-linux-gnu gcc-mips-linux-gnu \
binutils-mipsel-linux-gnu binutils-mips-linux-gnu valgrind time python3 \
nodejs chromium newlib-source gcc-12-source clang libclang-rt-dev \
libboost-context-dev lcov"
# Tools the tests drive for real: GNU parallel and a single-node Slurm
# (munge, slurm-wlm) for nocprof sweep, gdb-multiarch for the gdb stub.
PKGS="$PKGS parallel munge slurm-wlm gdb-multiarch"

have_all() {
  for p in $PKGS libunicorn-dev; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || return 1
  done
  pkg-config --exact-version=$UNICORN_VERSION unicorn 2>/dev/null || return 1
  command -v node >/dev/null && command -v npm >/dev/null || return 1
}

# The HTML report's front end (web/): npm packages pinned by
# web/package-lock.json, installed with `npm ci` (no root needed) when
# node_modules is missing or older than the lockfile. CMake does the same.
web_deps() {
  local web
  web="$(cd "$(dirname "$0")/.." && pwd)/web"
  if [ ! -f "$web/node_modules/.package-lock.json" ] \
     || [ "$web/package-lock.json" -nt "$web/node_modules/.package-lock.json" ]; then
    (cd "$web" && npm ci --no-audit --no-fund --loglevel=error)
    echo "setup.sh: npm packages of web/ installed"
  fi
}

if have_all; then
  echo "setup.sh: all dependencies present"
  web_deps
  exit 0
fi
need_root

# The mirror the existing Debian sources already name.
mirror=$( { grep -hE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}';
            grep -hE '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null \
              | sed -E 's/\[[^]]*\]//' | awk '{print $2}'; } \
          | grep -E '/debian/?$' | grep -v nocprof | head -n 1 || true)
mirror=${mirror:-http://deb.debian.org/debian}
mirror=${mirror%/}

codename=$(. /etc/os-release; echo "${VERSION_CODENAME:-}")
if [ "$codename" != "trixie" ]; then
  echo "deb $mirror trixie main" > /etc/apt/sources.list.d/nocprof-trixie.list
  cat > /etc/apt/preferences.d/nocprof-trixie <<PIN
Package: *
Pin: release n=trixie
Pin-Priority: 100
PIN
fi
# Unicorn by version: 2.1.1 wins over any other candidate (priority > 1000
# also downgrades a newer one), and nothing else of Unicorn is installed.
cat > /etc/apt/preferences.d/nocprof-unicorn <<PIN
Package: $UNICORN_PKGS
Pin: version $UNICORN_VERSION-*
Pin-Priority: 1001
PIN

apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $PKGS
uc_deb=$(apt-cache madison libunicorn-dev | awk -v v="$UNICORN_VERSION-" 'index($3, v) == 1 {print $3; exit}')
if [ -z "$uc_deb" ]; then
  echo "setup.sh: no libunicorn-dev $UNICORN_VERSION in the apt sources" >&2
  exit 1
fi
apt-get install -y -q --no-install-recommends --allow-downgrades "libunicorn-dev=$uc_deb"
pkg-config --exact-version=$UNICORN_VERSION unicorn || {
  echo "setup.sh: unicorn $UNICORN_VERSION not installed (have $(pkg-config --modversion unicorn 2>/dev/null))" >&2
  exit 1
}
echo "setup.sh: unicorn $(pkg-config --modversion unicorn) installed"
# npm: Debian's package, unless the installed nodejs already provides it
command -v npm >/dev/null || apt-get install -y -q --no-install-recommends npm
web_deps
