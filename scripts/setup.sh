#!/usr/bin/env bash
# Shared set-up for demo.sh and test.sh: installs the Debian packages clatomics needs (only the
# missing ones; sudo when not root), then configures and builds into $BUILD_DIR (default: build).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
# gdb: the test suites print every thread's stack through it when a test case hangs (tests/main.cpp).
PACKAGES=(cmake g++ make python3-pip python3-dev python3-venv pybind11-dev python3-pybind11 python3-pytest ocl-icd-opencl-dev opencl-clhpp-headers pocl-opencl-icd doctest-dev clinfo libcli11-dev nlohmann-json3-dev python3-matplotlib python3-numpy pkg-config python3-pyopencl openmpi-bin libopenmpi-dev oclgrind gdb)

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

# Intel's OpenCL CPU runtime, the tests' second OpenCL implementation: three pinned wheels from
# PyPI, unpacked into the build tree (no system folder is touched; cmake/TestDevices.cmake writes
# the ICD file that points at it). CLATOMICS_INTEL_OPENCL=0 skips it. Where it cannot be had, this
# says so and the tests run on PoCL alone, their Intel half reported as skipped.
INTEL_WHEELS=(intel-opencl-rt==2026.2.0 tbb==2023.2.0 intel-cmplr-lib-rt==2026.2.0)
INTEL_DIR="$BUILD_DIR/intel-opencl"
if [ "${CLATOMICS_INTEL_OPENCL:-1}" != 0 ] && [ ! -e "$INTEL_DIR/lib/libintelocl.so" ]; then
  echo "== Intel's OpenCL CPU runtime (${INTEL_WHEELS[*]}) into $INTEL_DIR"
  wheels="$(mktemp -d)"
  if python3 -m pip download -q --no-deps --only-binary=:all: --platform manylinux_2_28_x86_64 -d "$wheels" "${INTEL_WHEELS[@]}" &&
     python3 - "$wheels" "$INTEL_DIR/lib" <<'PY'
import pathlib, sys, zipfile
wheels, lib = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
lib.mkdir(parents=True, exist_ok=True)
for wheel in sorted(wheels.glob("*.whl")):
    with zipfile.ZipFile(wheel) as z:
        for entry in z.infolist():
            parts = entry.filename.split("/")
            # */data/lib/<file>: the libraries; their own ICD loader (libOpenCL) stays out: Debian's is used.
            if len(parts) == 4 and parts[1:3] == ["data", "lib"] and parts[3] and not parts[3].startswith("libOpenCL"):
                target = lib / parts[3]
                target.write_bytes(z.read(entry))
                target.chmod(0o755)
PY
  then
    echo "== Intel's OpenCL CPU runtime: $INTEL_DIR/lib"
  else
    echo "== WARNING: Intel's OpenCL CPU runtime could not be fetched: the tests will run on PoCL only" >&2
    rm -rf "$INTEL_DIR/lib"
  fi
  rm -rf "$wheels"
fi

# scikit-build-core, pinned, for the Python package's wheel test (python.wheel builds `pip wheel .`
# without build isolation, so nothing is fetched while the tests run). Skipped when it cannot be had.
SKBUILD_DIR="$BUILD_DIR/python-build-deps"
if ! ls "$SKBUILD_DIR"/scikit_build_core-1.1.2-*.whl >/dev/null 2>&1; then
  /usr/bin/python3 -m pip download -q -d "$SKBUILD_DIR" scikit-build-core==1.1.2 ||
    echo "== WARNING: scikit-build-core could not be fetched: the Python wheel test will be skipped" >&2
fi

echo "== configuring and building in $BUILD_DIR"
cmake -S "$ROOT" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release -DCLATOMICS_WERROR=ON ${CMAKE_ARGS:-}
cmake --build "$BUILD_DIR" -j "$(nproc)"
