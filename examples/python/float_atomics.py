#!/usr/bin/env python3
"""clatomics' OpenCL C snippets from PyOpenCL: float atomic add, max and mul, and a wrapping
integer inc, checked exactly against NumPy.

The `clatomics` program says how to build the snippets on a device (`clatomics options --json`:
the -D/-cl-std options from its checks of that device, and the directory to pass with -I), and
this script builds its kernel, which does `#include "clatomics/atomics.cl"`, through PyOpenCL
with exactly those options, on the same device.

    python3 float_atomics.py [--clatomics PROGRAM] [--device SEL] [--include-dir DIR]

--clatomics   the clatomics program (default: $CLATOMICS_CLI, else `clatomics` on the PATH)
--device      which device, as for clatomics: an index of `clatomics info` (every platform's
              devices in order), cpu, gpu, or part of the platform / device name (default:
              $CLATOMICS_DEVICE, else clatomics' default: the first GPU, else CPU)
--include-dir the directory holding clatomics/atomics.cl (default: what the program reports;
              an installed package has it as <prefix>/include)

Needs NumPy and PyOpenCL (Debian: apt-get install python3-pyopencl, for /usr/bin/python3).
Exit status: 0 all exact, 1 a mismatch, 2 an error, 77 NumPy or PyOpenCL missing.
"""
import argparse
import json
import os
import shlex
import subprocess
import sys

try:
    import numpy as np
    import pyopencl as cl
except ImportError as e:
    print(f"float_atomics.py needs NumPy and PyOpenCL ({e}; Debian: apt-get install python3-pyopencl, "
          f"then run with /usr/bin/python3); this is {sys.executable}", file=sys.stderr)
    sys.exit(77)

KERNEL = r"""
#include "clatomics/atomics.cl"

/* Work-item i applies its operands to cell i % ncells (ncells == 1: every work-item on one
 * address) and keeps the old values that add and mul returned. */
kernel void apply(global float *sum, global float *best, global float *prod, global uint *count,
                  global const float *addend, global const float *value, global const float *factor,
                  uint ncells, uint limit, global float *old_sum, global float *old_prod) {
  const size_t i = get_global_id(0);
  const uint c = i % ncells;
  old_sum[i] = clat_atomic_add_float(&sum[c], addend[i]);
  clat_atomic_max_float(&best[c], value[i]);
  old_prod[i] = clat_atomic_mul_float(&prod[c], factor[i]);
  clat_atomic_inc_uint(&count[c], limit); /* CUDA's atomicInc: old >= limit ? 0 : old + 1 */
}
"""


def clatomics_options(program, selector):
    """{"device", "platform", "build_options", "include_dir"} from `clatomics options --json`."""
    command = [program, "options", "--json"] + (["--device", selector] if selector else [])
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{shlex.join(command)} failed ({done.returncode}): {done.stderr.strip()}")
    return json.loads(done.stdout)


def matching_device(info, selector):
    """The PyOpenCL device that clatomics chose. clatomics numbers every platform's devices in
    order, as this list does; an index selector picks that one (which also tells identical
    devices apart); either way its platform and device names must be those clatomics reports."""
    devices = [d for p in cl.get_platforms() for d in p.get_devices()]
    if selector.strip().isdigit():
        index = int(selector)
        devices = devices[index:index + 1]
    for device in devices:
        if device.name.strip() == info["device"].strip() and device.platform.name.strip() == info["platform"].strip():
            return device
    raise RuntimeError(f"PyOpenCL has no device {info['platform']} / {info['device']} (selector '{selector}')")


def case(ncells, n, limit, contention):
    """Operands for n work-items over ncells cells, all exactly representable in every order of
    the atomics: sums of quarters, maxima, products of powers of two within float's range."""
    i = np.arange(n, dtype=np.int64)
    if contention:
        addend = np.full(n, 0.5, np.float32)                           # old values: 0, 0.5, 1, ...
        factor = np.where(i % 41 == 0, 2.0, 1.0).astype(np.float32)    # 100 doublings: 2^100
    else:
        addend = ((i % 7) * 0.25).astype(np.float32)
        factor = np.array([0.5, 1.0, 2.0], np.float32)[(i // ncells) % 3]
    value = ((i * 7919) % 10007 - 5000).astype(np.float32)
    return dict(ncells=ncells, n=n, limit=limit, contention=contention, addend=addend, value=value, factor=factor)


def run_case(ctx, queue, kernel, c):
    ncells, n = c["ncells"], c["n"]
    mf = cl.mem_flags
    host = {
        "sum": np.zeros(ncells, np.float32),
        "best": np.full(ncells, -np.inf, np.float32),
        "prod": np.ones(ncells, np.float32),
        "count": np.zeros(ncells, np.uint32),
    }
    cells = {k: cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=v) for k, v in host.items()}
    inputs = [cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=c[k]) for k in ("addend", "value", "factor")]
    old_sum, old_prod = (cl.Buffer(ctx, mf.WRITE_ONLY, n * 4) for _ in range(2))
    kernel(queue, (n,), None, cells["sum"], cells["best"], cells["prod"], cells["count"], *inputs,
           np.uint32(ncells), np.uint32(c["limit"]), old_sum, old_prod)
    got = {k: np.empty_like(v) for k, v in host.items()}
    got["old_sum"], got["old_prod"] = np.empty(n, np.float32), np.empty(n, np.float32)
    for k in host:
        cl.enqueue_copy(queue, got[k], cells[k])
    cl.enqueue_copy(queue, got["old_sum"], old_sum)
    cl.enqueue_copy(queue, got["old_prod"], old_prod)
    queue.finish()

    # NumPy's references, one operation at a time in order (exact, so any order agrees).
    where = np.arange(n) % ncells
    ref = {k: v.copy() for k, v in host.items()}
    np.add.at(ref["sum"], where, c["addend"])
    np.maximum.at(ref["best"], where, c["value"])
    np.multiply.at(ref["prod"], where, c["factor"])
    increments = np.bincount(where, minlength=ncells)
    ref["count"] = (increments % (c["limit"] + 1)).astype(np.uint32)  # wraps to 0 after limit

    label = f"{n} work-items on {ncells} cell{'s' if ncells > 1 else ''}"
    ok = True
    for k in host:
        same = np.array_equal(got[k], ref[k])
        ok &= same
        print(f"  {'ok  ' if same else 'FAIL'} {label}: {k}" + ("" if same else f": got {got[k][:4]}..., expected {ref[k][:4]}..."))
    if c["contention"]:
        # Each work-item got back the value before its own update: under full contention the
        # adds of 0.5 saw 0, 0.5, ..., each once, and the doublings 1, 2, 4, ..., each once.
        old_adds = np.sort(got["old_sum"])
        doubled = np.sort(got["old_prod"][c["factor"] == 2.0])
        checks = {
            "add returned 0, 0.5, 1, ... once each": np.array_equal(old_adds, np.arange(n, dtype=np.float32) * 0.5),
            "mul returned 1, 2, 4, ... once each": np.array_equal(doubled, 2.0 ** np.arange(doubled.size, dtype=np.float32)),
        }
        for what, same in checks.items():
            ok &= same
            print(f"  {'ok  ' if same else 'FAIL'} {label}: {what}")
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clatomics", default=os.environ.get("CLATOMICS_CLI") or "clatomics")
    parser.add_argument("--device", default=os.environ.get("CLATOMICS_DEVICE", ""))
    parser.add_argument("--include-dir")
    args = parser.parse_args()
    try:
        info = clatomics_options(args.clatomics, args.device)
        include_dir = args.include_dir or info.get("include_dir")
        if not include_dir:
            raise RuntimeError(f"{args.clatomics} does not know where clatomics/atomics.cl is: pass --include-dir")
        device = matching_device(info, args.device)
        options = shlex.split(info["build_options"]) + ["-I", include_dir]
        print(f"{device.platform.name} / {device.name}: build options {options}")
        ctx = cl.Context([device])
        queue = cl.CommandQueue(ctx)
        kernel = cl.Program(ctx, KERNEL).build(options=options).apply
        ok = True
        for c in (case(1, 4096, 1000, True), case(256, 4096 * 4, 9, False)):
            ok &= run_case(ctx, queue, kernel, c)
    except (RuntimeError, cl.Error, OSError, ValueError) as e:
        print(f"float_atomics.py: error: {e}", file=sys.stderr)
        return 2
    print("float_atomics.py: PASS" if ok else "float_atomics.py: FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
