#!/bin/sh
# CTest's runner for the Python scripts: run_with_python.sh MODULES SCRIPT [ARGS...] runs SCRIPT
# (arguments passed on) with the first Python that imports every module of MODULES (comma
# separated): $CLATOMICS_PYTHON when set (only that), else python3, else /usr/bin/python3 (the
# order the clatomics program uses for plot.py; Debian's python3-numpy and python3-pyopencl serve
# /usr/bin/python3, and the python3 on the PATH may be another, e.g. pyenv's). When none can:
# exit 77, which CTest counts as skipped (SKIP_RETURN_CODE).
modules="$1"
script="$2"
shift 2

run_with() {  # run_with PYTHON ARGS...: runs the script, if PYTHON imports the modules
  python="$1"
  shift
  if "$python" -c "import $modules" >/dev/null 2>&1; then
    echo "$python $script $*"
    exec "$python" "$script" "$@"
  fi
}

if [ -n "${CLATOMICS_PYTHON:-}" ]; then
  run_with "$CLATOMICS_PYTHON" "$@"
  tried="$CLATOMICS_PYTHON"
else
  run_with python3 "$@"
  run_with /usr/bin/python3 "$@"
  tried="python3, /usr/bin/python3"
fi
echo "skipped: no Python here imports $modules (tried $tried; Debian: apt-get install python3-numpy python3-pyopencl)"
exit 77
