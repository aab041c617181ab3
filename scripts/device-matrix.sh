#!/usr/bin/env bash
# Runs the whole test suite once per OpenCL device present, each test executable in its own
# process (a device fault poisons only that process), on the native paths and with every op
# forced onto the CAS loop, then prints a table: device x op family x path -> pass/fail.
# Exits 1 when anything failed.
#
#   scripts/device-matrix.sh [BUILD_DIR]      (default: $BUILD_DIR, else ./build)
#
# Environment:
#   BUILD_DIR              a configured and built tree (tests/test_* and apps/clatomics)
#   DEVICES                indices to run (default: every device `clatomics info` lists)
#   PATHS                  default "native cas"
#   HUGE=1                 include test_huge (2^32 + 17 bytes, ~4.5 GiB of host memory)
#   TEST_TIMEOUT           seconds per executable (default 600)
#   JOBS                   runs at a time (default: half the cores, at least 2): suites of every
#                          device and path run side by side, each in its own process
#   LOG_DIR                where each run's output goes (default BUILD_DIR/device-matrix)
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="$(cd "${1:-${BUILD_DIR:-$ROOT/build}}" && pwd)" || { echo "device-matrix: no build directory" >&2; exit 2; }
LOG_DIR="${LOG_DIR:-$BUILD_DIR/device-matrix}"
PATHS="${PATHS:-native cas}"
TEST_TIMEOUT="${TEST_TIMEOUT:-600}"
JOBS="${JOBS:-$(( $(nproc) / 2 > 2 ? $(nproc) / 2 : 2 ))}"

# Op family -> the test executables that cover it.
FAMILIES=(float/double integer aggregated half/bf16 variants algorithms boundary runtime)
declare -A SUITES=(
  [float/double]="real_ops special_values_single special_values_contention native_vs_cas"
  [integer]="integer"
  [aggregated]="aggregate"
  [half/bf16]="half"
  [variants]="variants backoff mutex kernel_api"
  [algorithms]="reduce dot histogram histogram_even histogram_weights histogram_numpy_range compact predicate scatter_ops scatter_rows scatter_deterministic
    scatter_nan scatter_arg scatter_segments scatter_by_key scatter_refusals scatter16 scatter_partial"
  [boundary]="user_buffers hostile api_model views"
  [runtime]="runtime native_checks bad_input threads first_use kernel_args device_group device_group_scatter device_group_resident
    device_group_user_buffers device_group_segments same_bits"
)
if [ "${HUGE:-0}" = 1 ]; then
  FAMILIES+=(huge)
  SUITES[huge]="huge"
fi

# The devices: "index<TAB>name" from `clatomics info` (the indices CLATOMICS_DEVICE takes), else
# counted from `clinfo -l` in the same platform order.
list_devices() {
  local cli="$BUILD_DIR/apps/clatomics"
  if [ -x "$cli" ]; then
    "$cli" info 2>/dev/null | sed -n 's/^  \[\([0-9][0-9]*\)\] \(.*\)$/\1\t\2/p'
  elif command -v clinfo > /dev/null; then
    clinfo -l | sed -n 's/.*Device #[0-9]*: *//p' | awk '{ printf "%d\t%s\n", NR - 1, $0 }'
  fi
}
mapfile -t DEVICE_LINES < <(list_devices)
if ((${#DEVICE_LINES[@]} == 0)); then
  echo "device-matrix: no OpenCL device found (built apps/clatomics or clinfo needed)" >&2
  exit 2
fi

mkdir -p "$LOG_DIR"
rm -f "$LOG_DIR"/*.rc
declare -A NAME
start_all=$SECONDS

# One job per (device, path, suite), JOBS at a time: each its own process (a device fault poisons
# only its own process) and PoCL cache; the programs' binaries are shared by every run of a path
# (CLATOMICS_CACHE_DIR, safe between them; the library writes none on PoCL).
run_one() {
  local dev="$1" path="$2" suite="$3"
  local exe="$BUILD_DIR/tests/test_$suite" log="$LOG_DIR/dev$dev.$suite.$path.log" t0=$SECONDS rc
  local force=()  # the native path: CLATOMICS_FORCE_CAS unset, as a user runs it
  [ "$path" = cas ] && force=(CLATOMICS_FORCE_CAS=1)
  env -u CLATOMICS_FORCE_CAS "${force[@]}" CLATOMICS_DEVICE="$dev" POCL_CACHE_DIR="$CACHE_ROOT/dev$dev.$suite.$path" \
    CLATOMICS_CACHE_DIR="$CACHE_ROOT/binaries-$path" \
    timeout "$TEST_TIMEOUT" "$exe" > "$log" 2>&1
  rc=$?
  echo "$rc $((SECONDS - t0))" > "$LOG_DIR/dev$dev.$suite.$path.rc"
  if [ $rc -eq 0 ]; then
    printf '   [%s] %-6s %-26s pass  %4d s\n' "$dev" "$path" "$suite" $((SECONDS - t0))
  else
    printf '   [%s] %-6s %-26s FAIL  %4d s (rc %d%s) %s\n' "$dev" "$path" "$suite" $((SECONDS - t0)) $rc \
      "$([ $rc -eq 124 ] && echo ', timed out')" "$log"
  fi
}
export -f run_one
CACHE_ROOT="$(mktemp -d)"
export BUILD_DIR LOG_DIR TEST_TIMEOUT CACHE_ROOT

jobs_list=()
for line in "${DEVICE_LINES[@]}"; do
  dev="${line%%$'\t'*}"
  NAME[$dev]="${line#*$'\t'}"
  if [ -n "${DEVICES:-}" ] && [[ " $DEVICES " != *" $dev "* ]]; then continue; fi
  echo "== device $dev: ${NAME[$dev]}"
  for path in $PATHS; do
    for family in "${FAMILIES[@]}"; do
      for suite in ${SUITES[$family]}; do
        [ -x "$BUILD_DIR/tests/test_$suite" ] && jobs_list+=("$dev $path $suite")
      done
    done
  done
done
echo "== ${#jobs_list[@]} runs, $JOBS at a time"
printf '%s\n' "${jobs_list[@]}" | xargs -P "$JOBS" -L 1 bash -c 'run_one "$0" "$1" "$2"'
rm -rf "$CACHE_ROOT"

declare -A RESULT   # "dev|family|path" -> "pass (n)" or "FAIL: suites"
failed_logs=()
any_fail=0
for line in "${DEVICE_LINES[@]}"; do
  dev="${line%%$'\t'*}"
  if [ -n "${DEVICES:-}" ] && [[ " $DEVICES " != *" $dev "* ]]; then continue; fi
  for path in $PATHS; do
    for family in "${FAMILIES[@]}"; do
      passed=0 fails=""
      for suite in ${SUITES[$family]}; do
        rcfile="$LOG_DIR/dev$dev.$suite.$path.rc"
        [ -f "$rcfile" ] || continue
        read -r rc _ < "$rcfile"
        if [ "$rc" -eq 0 ]; then
          passed=$((passed + 1))
        else
          fails+="${fails:+,}$suite"
          failed_logs+=("$LOG_DIR/dev$dev.$suite.$path.log")
        fi
      done
      if [ -n "$fails" ]; then
        RESULT["$dev|$family|$path"]="FAIL: $fails"
        any_fail=1
      elif ((passed)); then
        RESULT["$dev|$family|$path"]="pass ($passed)"
      else
        RESULT["$dev|$family|$path"]="not built"
      fi
    done
  done
done

echo
echo "Device matrix ($(date -u +%Y-%m-%d), $((SECONDS - start_all)) s; pass (n): n executables passed)"
echo
header="| device | op family |"
rule="|---|---|"
for path in $PATHS; do header+=" $path |"; rule+="---|"; done
echo "$header"
echo "$rule"
for line in "${DEVICE_LINES[@]}"; do
  dev="${line%%$'\t'*}"
  if [ -n "${DEVICES:-}" ] && [[ " $DEVICES " != *" $dev "* ]]; then continue; fi
  for family in "${FAMILIES[@]}"; do
    row="| [$dev] ${NAME[$dev]} | $family |"
    for path in $PATHS; do row+=" ${RESULT["$dev|$family|$path"]} |"; done
    echo "$row"
  done
done

if ((any_fail)); then
  echo
  for log in "${failed_logs[@]}"; do
    echo "---- $log (last 30 lines)"
    tail -n 30 "$log"
  done
  exit 1
fi
