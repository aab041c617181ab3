#!/usr/bin/env bash
# Installs what is missing, builds, and runs the clatomics demo on the default device
# (CLATOMICS_DEVICE picks another: an index, "cpu", "gpu" or a name such as "pocl").
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
export BUILD_DIR
"$ROOT/scripts/setup.sh"
exec "$BUILD_DIR/apps/clatomics" demo "$@"
