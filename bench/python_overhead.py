"""What the Python package adds to a call: clatomics.reduce and clatomics.histogram on a device
array, small and large, against the same C++ library call timed in a C++ loop on the same
Runtime, queue and buffer (the module's _time_* functions). Targets: at most 20 us more per call,
and large calls within 5%.

    PYTHONPATH=build/python python3 bench/python_overhead.py [--large 16777216] [--repeats 200]
"""

import argparse
import time

import numpy as np
import pyopencl.array as cla

import clatomics
from clatomics import _clatomics


def per_call(f, repeats):
    f()
    start = time.perf_counter()
    for _ in range(repeats):
        f()
    return (time.perf_counter() - start) / repeats


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", type=int, default=1024)
    parser.add_argument("--large", type=int, default=1 << 24)
    parser.add_argument("--repeats", type=int, default=200)
    args = parser.parse_args()
    queue = clatomics.default_queue()
    print(f"device: {queue.device.name.strip()}")
    print(f"{'call':<28}{'elements':>10}{'python us':>12}{'c++ us':>10}{'overhead us':>13}{'ratio':>8}")
    ok = True
    for n in (args.small, args.large):
        a = cla.to_device(queue, np.random.default_rng(0).random(n).astype(np.float32))
        desc = (a.base_data.int_ptr, 0, n)
        repeats = args.repeats if n <= 1 << 20 else max(5, args.repeats // 20)
        rows = (
            ("reduce(a, 'sum')", lambda: clatomics.reduce(a), lambda r: _clatomics._time_reduce(queue.int_ptr, desc, r)),
            ("histogram(a, 100, (0, 1))", lambda: clatomics.histogram(a, 100, (0.0, 1.0)),
             lambda r: _clatomics._time_histogram(queue.int_ptr, desc, 100, 0.0, 1.0, r)),
        )
        for name, python_call, cpp_loop in rows:
            # Alternating rounds, the best of each: the machine's other load lands on both alike.
            t_py, t_cpp = float("inf"), float("inf")
            for _ in range(5):
                t_py, t_cpp = min(t_py, per_call(python_call, repeats)), min(t_cpp, cpp_loop(repeats))
            over, ratio = (t_py - t_cpp) * 1e6, t_py / t_cpp
            ok &= over <= 20 if n == args.small else ratio <= 1.05
            print(f"{name:<28}{n:>10}{t_py * 1e6:>12.1f}{t_cpp * 1e6:>10.1f}{over:>13.1f}{ratio:>8.3f}")
    print("targets (<= 20 us small, <= 1.05x large): " + ("met" if ok else "NOT met"))


if __name__ == "__main__":
    main()
