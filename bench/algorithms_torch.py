#!/usr/bin/env python3
"""The peers of `clatomics bench --suite algorithms` on CUDA: CuPy and PyTorch on the same sizes.

Usage: algorithms_torch.py [--size BYTES] [--repeats N] [--warmup N]

For each algorithm of the suite, the call a user would pick instead, on data of --size bytes
(default 1G, as the suite's default; the same distributions, not the same bits): float and int32
sums (cupy.sum, which is CUB's reduction, and torch.sum), the 256-bin byte histogram
(cupy.bincount, torch.bincount), 100 / 1,000 / 10,000 even float bins over [0, 1] of values in
[-0.05, 1.05) (cupy.histogram, torch.histc), 100 bins with a float weight per value
(cupy.bincount(weights=), torch.bincount(weights=) on the bin indices computed in the call),
and compact of x > 0.5 over uniform [0, 1) floats (cupy x[x > 0.5], torch.masked_select).
A read-only pass (torch: x.view(int32).max(), reading every byte once) is the yardstick the
suite uses, so that ratios can be compared across the two.

Each call timed on the GPU with CUDA events after --warmup untimed calls, median of --repeats.
GB/s counts the same bytes as the suite (values, plus weights where there are weights).
Prints one line per (call, peer): a table on stdout; nothing and exit 0 without torch or CuPy on
a CUDA device.
"""
import argparse
import re
import sys


def parse_size(text):
    m = re.fullmatch(r"\s*(\d+)\s*([kKmMgGtT]?)(i?[bB])?\s*", text)
    if not m or int(m.group(1)) < 1:
        raise argparse.ArgumentTypeError(f"'{text}' is not a size in bytes (e.g. 4096, 64K, 256M, 1G)")
    return int(m.group(1)) * 1024 ** " KMGT".index((m.group(2) or " ").upper())


def timer(torch, repeats, warmup):
    def run(call):
        for _ in range(warmup):
            call()
        torch.cuda.synchronize()
        times = []
        for _ in range(repeats):
            start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            call()
            stop.record()
            stop.synchronize()
            times.append(start.elapsed_time(stop) / 1e3)
        times.sort()
        return times[len(times) // 2]
    return run


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=parse_size, default=parse_size("1G"))
    ap.add_argument("--repeats", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    args = ap.parse_args()
    try:
        import torch
        if not torch.cuda.is_available():
            raise ImportError("no CUDA device")
    except ImportError as e:
        print(f"[algorithms_torch] no torch on CUDA ({e}): nothing to time", file=sys.stderr)
        return 0
    try:
        import cupy
    except ImportError:
        cupy = None
    time_of = timer(torch, args.repeats, args.warmup)
    n = args.size // 4
    g = torch.Generator(device="cuda").manual_seed(1)
    rows = []

    def row(name, peer, nbytes, seconds):
        rows.append((name, peer, nbytes / seconds / 1e9))

    x = torch.rand(n, device="cuda", generator=g)
    row("read-only pass", "torch", n * 4, time_of(lambda: x.view(torch.int32).max()))
    row("reduce sum float", "torch.sum", n * 4, time_of(lambda: x.sum()))
    xi = torch.randint(-1000, 1000, (n,), device="cuda", dtype=torch.int32, generator=g)
    row("reduce sum int", "torch.sum", n * 4, time_of(lambda: xi.sum()))
    b = torch.randint(0, 256, (n * 4,), device="cuda", dtype=torch.uint8, generator=g)
    row("histogram 256 bytes, uniform", "torch.bincount", n * 4, time_of(lambda: torch.bincount(b, minlength=256)))
    v = torch.rand(n, device="cuda", generator=g) * 1.1 - 0.05
    for bins in (100, 1000, 10000):
        row(f"histogram_even {bins} bins", "torch.histc", n * 4, time_of(lambda: torch.histc(v, bins=bins, min=0.0, max=1.0)))
    half = n // 2  # weighted: values + weights in the same bytes as the suite's row
    vw, w = v[:half], x[:half]

    def weighted_torch():
        idx = (vw * 100).floor().clamp_(-1, 100).to(torch.int64) + 1
        return torch.bincount(idx, weights=w, minlength=102)
    row("histogram_even 100 bins, weighted", "torch.bincount(weights)", half * 8, time_of(weighted_torch))
    row("compact float, half kept", "torch.masked_select", n * 4, time_of(lambda: torch.masked_select(x, x > 0.5)))
    if cupy is not None:
        cx, ci, cb, cv = (cupy.asarray(t) for t in (x, xi, b, v))
        cvw, cw = cv[:half], cx[:half]
        row("reduce sum float", "cupy.sum", n * 4, time_of(lambda: cx.sum()))
        row("reduce sum int", "cupy.sum", n * 4, time_of(lambda: ci.sum()))
        row("histogram 256 bytes, uniform", "cupy.bincount", n * 4, time_of(lambda: cupy.bincount(cb, minlength=256)))
        for bins in (100, 1000, 10000):
            row(f"histogram_even {bins} bins", "cupy.histogram", n * 4, time_of(lambda: cupy.histogram(cv, bins=bins, range=(0.0, 1.0))))

        def weighted_cupy():
            idx = cupy.clip(cupy.floor(cvw * 100), -1, 100).astype(cupy.int64) + 1
            return cupy.bincount(idx, weights=cw, minlength=102)
        row("histogram_even 100 bins, weighted", "cupy.bincount(weights)", half * 8, time_of(weighted_cupy))
        row("compact float, half kept", "cupy x[x > 0.5]", n * 4, time_of(lambda: cx[cx > 0.5]))
    print(f"{'algorithm':38} {'peer':26} {'GB/s':>9}")
    for name, peer, gbps in rows:
        print(f"{name:38} {peer:26} {gbps:9.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
