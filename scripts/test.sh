#!/usr/bin/env bash
# Installs what is missing, builds with warnings as errors, and runs every test through CTest.
# Extra arguments go to ctest (e.g. -L quick, -R real_ops).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
export BUILD_DIR
"$ROOT/scripts/setup.sh"
echo "== running the tests"
cd "$BUILD_DIR"
ctest --output-on-failure -j "$(nproc)" "$@"
