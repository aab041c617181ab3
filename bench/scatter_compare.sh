#!/bin/sh
# One device job for the scatter suite beside PyTorch and CuPy: runs bench/scatter_torch.py, then
# `clatomics bench --suite scatter` with CLATOMICS_BENCH_SCATTER_TORCH naming its output, so that
# every fast row also has the yardsticks "torch index_add_" and "cupyx scatter_add" and every
# deterministic row "torch index_add_ deterministic" (same --size, so the same cases and bytes).
#
#   bench/scatter_compare.sh [--clatomics PROG] [--python PY] [--out DIR] [--size BYTES] [--quick]
#                            [-- MORE CLATOMICS BENCH OPTIONS, e.g. --device nvidia --repeats 11]
#
# Defaults: PROG build/apps/clatomics, PY python3, DIR scatter-compare, --size 256M (the default
# of both: 64M values). Writes DIR/scatter_torch.jsonl (torch's figures), DIR/scatter.txt (the
# table and summary), DIR/scatter.json and, where PY has matplotlib, DIR/scatter.svg.
# Where torch/cupy/CUDA are missing, scatter_torch.py says so and the suite runs without them.
# Exit code: clatomics bench's.
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
prog="build/apps/clatomics"
python="python3"
out="scatter-compare"
size="256M"
quick=""
while [ $# -gt 0 ]; do
  case "$1" in
    --clatomics) prog="$2"; shift 2 ;;
    --python) python="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --size) size="$2"; shift 2 ;;
    --quick) quick="--quick"; shift ;;
    --) shift; break ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "scatter_compare.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[ -x "$prog" ] || { echo "scatter_compare.sh: no clatomics program at '$prog' (--clatomics PROG)" >&2; exit 2; }
mkdir -p "$out"
torch_json="$out/scatter_torch.jsonl"

echo "[scatter_compare] $python $here/scatter_torch.py --size $size $quick > $torch_json" >&2
if ! "$python" "$here/scatter_torch.py" --size "$size" $quick > "$torch_json"; then
  echo "[scatter_compare] scatter_torch.py failed: the suite runs without torch's figures" >&2
  : > "$torch_json"
fi

echo "[scatter_compare] CLATOMICS_BENCH_SCATTER_TORCH=$torch_json $prog bench --suite scatter --size $size $quick $* --json $out/scatter.json" >&2
status=0
CLATOMICS_BENCH_SCATTER_TORCH="$torch_json" \
  "$prog" bench --suite scatter --size "$size" $quick "$@" --json "$out/scatter.json" > "$out/scatter.txt" || status=$?
cat "$out/scatter.txt"
# The plot comes from this script's own plot.py, so a program copied away from its build tree
# (as onto a device machine) still gets one; a missing matplotlib only skips it.
if [ -s "$out/scatter.json" ] && "$python" -c 'import matplotlib' > /dev/null 2>&1; then
  "$python" "$here/plot.py" "$out/scatter.json" "$out/scatter.svg" ||
    echo "[scatter_compare] plot.py failed: the figures are in $out/scatter.json" >&2
fi
exit $status
