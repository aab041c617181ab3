#!/usr/bin/env bash
# The host library, the CLI and the tests under the sanitizers, on PoCL:
#   1. build-asan (-DCLATOMICS_SANITIZE=ON): every CTest test under AddressSanitizer (with
#      LeakSanitizer) and UndefinedBehaviorSanitizer (the library, the bench framework and the
#      command instrumented; the test programs linked with the runtimes: CMakeLists.txt), except
#      the package tests (they build an unsanitized consumer against the sanitized library), the
#      oclgrind tests (Oclgrind preloads its runtime ahead of ASan's), the must-not-compile tests
#      (no code runs), the huge sizes, and the cas and cbs variants (the sanitizers see host code
#      only; those variants change only the kernels' build options and how PoCL runs them);
#   2. build-tsan (-DCLATOMICS_TSAN=ON): test_threads (8 host threads on one Runtime),
#      test_first_use (8 threads making the process's first Runtimes at once), test_device_group,
#      test_device_group_scatter and test_device_group_resident (a device group's stream threads)
#      under ThreadSanitizer.
# Reports from third-party code (ocl-icd, PoCL, LLVM) are suppressed one by one in
# tests/sanitizers/*.supp, each with the reason. Extra arguments go to the ASan ctest run.
# ASAN_DIR / TSAN_DIR override the build directories; SKIP_ASAN=1 or SKIP_TSAN=1 skip a half.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ASAN_DIR="${ASAN_DIR:-$ROOT/build-asan}"
TSAN_DIR="${TSAN_DIR:-$ROOT/build-tsan}"
SUPP="$ROOT/tests/sanitizers"
# Sanitized code is built with optimisation and debug info: readable stacks, tolerable speed.
# PoCL only: the sanitizers watch the host code, the same whatever the implementation.
# Neither the Python module nor CUB's yardsticks: their tests are not among the sanitized ones.
COMMON="-DCMAKE_BUILD_TYPE=RelWithDebInfo -DCLATOMICS_INSTALL=OFF -DCLATOMICS_BUILD_EXAMPLES=OFF -DCLATOMICS_TEST_INTEL=OFF"
COMMON+=" -DCLATOMICS_BUILD_PYTHON=OFF -DCLATOMICS_BUILD_CUB_YARDSTICKS=OFF"
export CLATOMICS_INTEL_OPENCL=0

# The suite's PoCL kernel caches (scripts/test.sh's build, when it ran first): the same kernels,
# compiled once.
SUITE_CACHE="${BUILD_DIR:-$ROOT/build}/tests/pocl-cache"
CACHE_ARG=""
[ -d "$SUITE_CACHE" ] && CACHE_ARG="-DCLATOMICS_TEST_POCL_CACHE=$SUITE_CACHE"

if [ "${SKIP_ASAN:-0}" != 1 ]; then
  start=$SECONDS
  BUILD_DIR="$ASAN_DIR" CMAKE_ARGS="$COMMON -DCLATOMICS_SANITIZE=ON -DCLATOMICS_TSAN=OFF $CACHE_ARG" "$ROOT/scripts/setup.sh"
  echo "== ASan + UBSan: the suite on PoCL"
  # detect_leaks: LSan runs at exit; the ICD loader and PoCL keep some allocations for the
  # life of the process (lsan.supp says which). halt_on_error: a UBSan finding fails the test.
  export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1"
  export LSAN_OPTIONS="suppressions=$SUPP/lsan.supp:print_suppressions=0"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$SUPP/ubsan.supp"
  (cd "$ASAN_DIR" && ctest --output-on-failure -j "$(nproc)" -LE 'package|huge|python|oclgrind|must_not_compile' -E 'cbs|\.cas$' "$@")
  echo "== ASan + UBSan: $((SECONDS - start)) s"
fi

if [ "${SKIP_TSAN:-0}" != 1 ]; then
  start=$SECONDS
  cmake -S "$ROOT" -B "$TSAN_DIR" -DCLATOMICS_WERROR=ON $COMMON -DCLATOMICS_TSAN=ON -DCLATOMICS_SANITIZE=OFF -DCLATOMICS_BUILD_APPS=OFF $CACHE_ARG
  cmake --build "$TSAN_DIR" -j "$(nproc)" --target test_threads test_first_use test_device_group test_device_group_scatter test_device_group_resident
  echo "== TSan: 8 host threads on one Runtime; 8 threads' first Runtimes; a device group's streams"
  export TSAN_OPTIONS="suppressions=$SUPP/tsan.supp:halt_on_error=1:second_deadlock_stack=1:history_size=4"
  (cd "$TSAN_DIR" && ctest --output-on-failure -j "$(nproc)" -R '^(threads|first_use|device_group|device_group_scatter|device_group_resident)\.')
  echo "== TSan: $((SECONDS - start)) s"
fi
