"""Your own kernel with clatomics' float atomics, built by clatomics.build through PyOpenCL:
clat_fetch_add on float (each work-item gets the counter's old value) and a weighted histogram
with clat_atomic_add_float and clat_atomic_max_float, checked against NumPy.

    python3 examples/python/user_kernel.py      (PYTHONPATH=<build>/python, or installed)
"""

import sys

import numpy as np
import pyopencl.array as cla

import clatomics

SOURCE = """
#include "clatomics/atomics.cl"   /* satisfied by clatomics.build, which prepends the library */
kernel void weighted(global const float *w, global const uint *bin, global float *hist, global float *biggest,
                     global float *ticket, global float *old) {
  const size_t i = get_global_id(0);
  clat_atomic_add_float(&hist[bin[i]], w[i]);   /* native where the device has it, CAS elsewhere */
  clat_atomic_max_float(biggest, w[i]);         /* one integer atomic on the bits */
  old[i] = clat_fetch_add(ticket, 1.0f);        /* one name for every type */
}
"""


def main():
    queue = clatomics.default_queue()
    program = clatomics.build(queue.context, SOURCE)
    n, nbins = 4096, 64
    rng = np.random.default_rng(1)
    w = (rng.integers(-64, 64, n) * 0.125).astype(np.float32)  # sums exact in any order
    b = rng.integers(0, nbins, n).astype(np.uint32)
    hist, biggest = cla.zeros(queue, nbins, np.float32), cla.to_device(queue, np.array([-np.inf], np.float32))
    ticket, old = cla.zeros(queue, 1, np.float32), cla.empty(queue, n, np.float32)
    program.weighted(queue, (n,), None, cla.to_device(queue, w).data, cla.to_device(queue, b).data,
                     hist.data, biggest.data, ticket.data, old.data)
    want = np.zeros(nbins, np.float32)
    np.add.at(want, b, w)
    ok = np.array_equal(hist.get(), want) and biggest.get()[0] == w.max()
    ok &= np.array_equal(np.sort(old.get()), np.arange(n, dtype=np.float32))  # every old value once
    print(f"device {queue.device.name.strip()}: build options '{clatomics.build_options(queue.device)}'")
    print("user_kernel: " + ("PASS" if ok else "FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
