#!/bin/sh
# CTest's runner for float_atomics.py (arguments passed on). Runs it with the first Python that
# can import numpy and pyopencl: $CLATOMICS_PYTHON when set (only that), else python3, else
# /usr/bin/python3 -- the order the clatomics program uses for plot.py. (Debian's
# python3-pyopencl serves /usr/bin/python3; the python3 on the PATH may be another, e.g. pyenv's.)
# When none can: exit 77, which CTest counts as skipped (SKIP_RETURN_CODE).
script="$(dirname "$0")/float_atomics.py"

run_with() {  # run_with PYTHON ARGS...: runs the script, if PYTHON can import numpy and pyopencl
  python="$1"
  shift
  if "$python" -c 'import numpy, pyopencl' >/dev/null 2>&1; then
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
echo "skipped: no Python here imports numpy and pyopencl (tried $tried; Debian: apt-get install python3-pyopencl)"
exit 77
