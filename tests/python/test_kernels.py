"""The kernel author's side: clatomics.build with clat_fetch_add on float, the snippets, the
options and the paths of a device, and a failed build reported with its log."""

import numpy as np
import pyopencl as cl
import pyopencl.array as cla
import pytest

import clatomics

KERNEL = """
#include "clatomics/atomics.cl"
kernel void deposit(global const float *w, global const uint *bin, global float *hist, global float *total) {
  const size_t i = get_global_id(0);
  clat_atomic_add_float(&hist[bin[i]], w[i]);
  clat_atomic_add_float(total, w[i]);
  clat_atomic_max_float(&hist[64], w[i]);
}
kernel void fetch(global float *counter, global float *old) {
  old[get_global_id(0)] = clat_fetch_add(counter, 1.0f);   /* the one name, where the compiler has overloads */
}
"""


def test_build_and_run_user_kernel(queue, rng):
    program = clatomics.build(queue.context, KERNEL)
    assert isinstance(program, cl.Program)
    n = 4096
    w = rng.integers(-16, 16, n).astype(np.float32) * 0.25  # exact float sums in any order
    b = rng.integers(0, 64, n).astype(np.uint32)
    hist = cla.zeros(queue, 65, np.float32)
    total = cla.zeros(queue, 1, np.float32)
    program.deposit(queue, (n,), None, cla.to_device(queue, w).data, cla.to_device(queue, b).data, hist.data, total.data)
    want = np.zeros(65, np.float32)
    np.add.at(want, b, w)
    want[64] = w.max()
    np.testing.assert_array_equal(hist.get(), want)
    assert total.get()[0] == w.sum()


def test_clat_fetch_add_returns_each_old_value_once(queue):
    info = clatomics.device_info(queue.device)
    program = clatomics.build(queue.context, KERNEL)
    counter, old = cla.zeros(queue, 1, np.float32), cla.zeros(queue, 1000, np.float32)
    program.fetch(queue, (1000,), None, counter.data, old.data)
    assert counter.get()[0] == 1000
    np.testing.assert_array_equal(np.sort(old.get()), np.arange(1000, dtype=np.float32))
    assert info["name"] == queue.device.name


def test_source_options_and_info(queue):
    assert "clat_atomic_add_float" in clatomics.source()
    options = clatomics.build_options(queue.device)
    info = clatomics.device_info(queue.device)
    assert options == info["build_options"]
    add = [p for p in info["paths"] if p["op"] == "add" and p["type"] == "float" and p["space"] == "global"]
    assert len(add) == 1 and add[0]["path"] in ("cas", "ext", "ptx")
    assert "add" in info["description"]


def test_failed_build_raises_error_with_log(queue):
    with pytest.raises(clatomics.Error) as caught:
        clatomics.build(queue.context, "kernel void k(global float *p) { p[0] = undefined_name; }")
    e = caught.value
    assert e.code == cl.status_code.BUILD_PROGRAM_FAILURE
    assert "undefined_name" in e.build_log
    assert clatomics.error_name(e.code) == "CL_BUILD_PROGRAM_FAILURE"


def test_a_sub_devices_queue(queue):
    """A context and queue of a sub-device (a fixed share of a CPU's cores): the library's calls and
    clatomics.build run there (PoCL lists another device handle in such a context than the
    sub-device; the queue's own device is the one the library uses)."""
    try:
        subs = queue.device.create_sub_devices([cl.device_partition_property.EQUALLY, 1])
    except cl.Error:
        pytest.skip("the device has no partitions (GPUs)")
    context = cl.Context([subs[0]])
    sub_queue = cl.CommandQueue(context, subs[0])
    x = np.arange(1000, dtype=np.float32)
    assert clatomics.reduce(cla.to_device(sub_queue, x), "sum") == x.sum()
    program = clatomics.build(context, KERNEL)
    counter = cla.zeros(sub_queue, 1, np.float32)
    old = cla.empty(sub_queue, 64, np.float32)
    program.fetch(sub_queue, (64,), None, counter.data, old.data)
    assert sorted(old.get()) == list(range(64))
