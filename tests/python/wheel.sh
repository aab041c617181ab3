#!/bin/sh
# wheel.sh SOURCE BUILD WORK [LAUNCHER]: `pip wheel .` of the repository at SOURCE against the
# library BUILD already made (find_package through BUILD/build-tree: the library is linked, not
# compiled again), the wheel installed into a fresh virtual environment under WORK that sees the
# system's numpy and pyopencl (--system-site-packages), and the package's tests run by that
# environment's Python from outside the source tree. scikit-build-core comes from
# BUILD/python-build-deps (scripts/setup.sh fetches it, pinned), else from PyPI; where neither
# can be had: exit 77 (skipped). LAUNCHER: the build's compiler launcher (ccache), if any.
set -eu
src="$1"
build="$2"
work="$3"
launcher="${4:-}"
skbuild="scikit-build-core==1.1.2"

python=""
for candidate in ${CLATOMICS_PYTHON:-python3 /usr/bin/python3}; do
  if "$candidate" -c "import numpy, pyopencl, pytest, venv" >/dev/null 2>&1; then python="$candidate"; break; fi
done
if [ -z "$python" ]; then
  echo "skipped: no Python here imports numpy, pyopencl, pytest and venv"
  exit 77
fi

deps="$build/python-build-deps"
if ! ls "$deps"/scikit_build_core-1.1.2-*.whl >/dev/null 2>&1; then
  "$python" -m pip download -q -d "$deps" "$skbuild" || { echo "skipped: $skbuild could not be fetched"; exit 77; }
fi

rm -rf "$work"
mkdir -p "$work"
"$python" -m venv --system-site-packages "$work/venv"
venv_python="$work/venv/bin/python"
"$venv_python" -m pip install -q --no-index --find-links "$deps" "$skbuild"

# scikit-build-core's settings through its environment variables (pip before 23.1 has no -C).
SKBUILD_CMAKE_DEFINE="clatomics_DIR=$build/build-tree"
if [ -n "$launcher" ]; then SKBUILD_CMAKE_DEFINE="$SKBUILD_CMAKE_DEFINE;CMAKE_CXX_COMPILER_LAUNCHER=$launcher"; fi
SKBUILD_BUILD_DIR="$work/build"
# A debug build: this test is about packaging (the module's -O3 build is python.pytest's), and the
# module compiles in half the time.
SKBUILD_CMAKE_BUILD_TYPE=Debug
CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}"  # scikit-build-core's make is serial otherwise
export SKBUILD_CMAKE_DEFINE SKBUILD_BUILD_DIR SKBUILD_CMAKE_BUILD_TYPE CMAKE_BUILD_PARALLEL_LEVEL
echo "== pip wheel $src ($SKBUILD_CMAKE_DEFINE)"
"$venv_python" -m pip wheel -q --no-build-isolation --no-deps -w "$work/dist" "$src"
"$venv_python" -m pip install -q --no-index --no-deps "$work"/dist/clatomics-*.whl

cd "$work"
# The package the tests import must be the installed one.
"$venv_python" -c "import clatomics, sys; f = clatomics.__file__; print('== testing', f); sys.exit(0 if f.startswith('$work/venv/') else 1)"
exec "$venv_python" -m pytest -q -p no:cacheprovider "$src/tests/python"
