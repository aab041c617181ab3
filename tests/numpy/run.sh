#!/bin/sh
# CTest's runner for check_numpy.py (arguments passed on), with the first Python that imports
# numpy: $CLATOMICS_PYTHON when set (only that), else python3, else /usr/bin/python3 (Debian's
# python3-numpy serves /usr/bin/python3; the python3 on the PATH may be another, e.g. pyenv's).
# When none can: exit 77, which CTest counts as skipped (SKIP_RETURN_CODE).
script="$(dirname "$0")/check_numpy.py"

run_with() {  # run_with PYTHON ARGS...: runs the script, if PYTHON can import numpy
  python="$1"
  shift
  if "$python" -c 'import numpy' >/dev/null 2>&1; then
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
echo "skipped: no Python here imports numpy (tried $tried; Debian: apt-get install python3-numpy)"
exit 77
