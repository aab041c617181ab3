#!/usr/bin/env bash
# Shared set-up for demo.sh and test.sh: installs the Debian packages clatomics needs (only the
# missing ones; sudo when not root), then configures and builds into $BUILD_DIR (default: build).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
PACKAGES=(cmake g++ make ocl-icd-opencl-dev opencl-clhpp-headers pocl-opencl-icd doctest-dev clinfo libcli11-dev nlohmann-json3-dev python3-matplotlib pkg-config python3-pyopencl openmpi-bin libopenmpi-dev oclgrind)

missing=()
for pkg in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if ((${#missing[@]})); then
  echo "== installing: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

echo "== configuring and building in $BUILD_DIR"
cmake -S "$ROOT" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release -DCLATOMICS_WERROR=ON ${CMAKE_ARGS:-}
cmake --build "$BUILD_DIR" -j "$(nproc)"
