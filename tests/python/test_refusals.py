"""Every refusal: ValueError or TypeError naming what is wrong, raised before anything runs, the
outputs untouched; float64 on a device without fp64 refused with a message that says so."""

import os
import subprocess
import sys
import warnings

import numpy as np
import pyopencl as cl
import pyopencl.array as cla
import pytest

import clatomics
from clatomics import where

F = np.linspace(0, 1, 100, dtype=np.float32)


@pytest.mark.parametrize("call, error, says", [
    (lambda: clatomics.histogram(F, 0), ValueError, "at least 1"),
    (lambda: clatomics.histogram(F, [0, 0.5, 1]), TypeError, "bins must be an integer"),
    (lambda: clatomics.histogram(F, 10, (2, 1)), ValueError, "range[0] (2) is above range[1] (1)"),
    (lambda: clatomics.histogram(F, 10, (0, np.inf)), ValueError, "clatomics.histogram: range[1] is inf; the range must be finite"),
    (lambda: clatomics.histogram(F, 10, 5), TypeError, "range must be a pair"),
    (lambda: clatomics.histogram(np.arange(5), 10), TypeError, "float32 or float64"),
    (lambda: clatomics.histogram(F, 10, weights=F.astype(np.float64)), TypeError, "weights must be float32"),
    (lambda: clatomics.histogram(F, 10, weights=F[:5]), ValueError, "weights[0] has 5 elements"),
    (lambda: clatomics.histogram(F, 10, weights=[F] * 5), ValueError, "4"),
    (lambda: clatomics.histogram(F, 10, accumulation="kahan"), ValueError, "accumulation"),
    (lambda: clatomics.histogram(np.array([1.0, np.nan], np.float32), 3), ValueError, "not finite"),
    (lambda: clatomics.histogram2d(F, F[:10]), ValueError, "same length"),
    (lambda: clatomics.histogram2d(F, F.astype(np.float64)), TypeError, "one type"),
    (lambda: clatomics.histogram2d(np.array([np.nan, 1.0], np.float32), np.ones(2, np.float32)), ValueError, "not finite"),
    (lambda: clatomics.bincount(np.array([1, -2, 3])), ValueError, "negative"),
    (lambda: clatomics.bincount(F), TypeError, "int32"),
    (lambda: clatomics.bincount(np.arange(3), weights=np.ones(2)), ValueError, "same length"),
    (lambda: clatomics.scatter_reduce(np.zeros(3, np.float32), [0, 1], [1.0, 2.0], "median"), ValueError, "median"),
    (lambda: clatomics.scatter_reduce(np.zeros(3, np.float32), [0, 1], [1.0]), ValueError, "one value"),
    (lambda: clatomics.scatter_reduce(np.zeros(3, np.float32), [0.5, 1], [1.0, 2.0]), TypeError, "indices"),
    (lambda: clatomics.scatter_reduce(np.zeros(3, np.uint8), [0], [1]), TypeError, "not taken"),
    (lambda: clatomics.scatter_reduce(np.zeros(3, np.float32), [0], [1.0], nan="skip"), ValueError, "nan"),
    (lambda: clatomics.segment_reduce(np.ones(4, np.float32), offsets=[0, 3, 2, 4]), ValueError, "offsets"),
    (lambda: clatomics.reduce(F, "mean"), ValueError, "op must be one of"),
    (lambda: clatomics.reduce(np.ones(3, np.float16)), TypeError, "f2"),
    (lambda: clatomics.dot(F, F.astype(np.float64)), TypeError, "one type"),
    (lambda: clatomics.dot(F, F[:9]), ValueError, "clatomics.dot: a has 100 elements and b 9; they must be of the same length"),
    (lambda: clatomics.reduce_by_key(np.arange(9, dtype=np.int32), F), ValueError,
     "clatomics.reduce_by_key: keys has 9 elements and values 100; they must be of the same length"),
    (lambda: clatomics.compact(F, lambda x: x > 0), TypeError, "clatomics.where"),
    (lambda: clatomics.compact(F, "x > 0.5f; while(1)"), ValueError, "';'"),
    (lambda: clatomics.compact(F, where.x > 0.5, out=np.empty(100, np.float32)), TypeError, "device array"),
    (lambda: clatomics.compact(np.arange(5, dtype=np.uint32), where.x > -1), ValueError, "-1"),
    (lambda: where.x > True, TypeError, "bool"),
    (lambda: where.x > "0.5", TypeError, "int or a float"),
    (lambda: (where.x > 0) and (where.x < 1), TypeError, "& | ~"),
    (lambda: clatomics.build_options("cpu"), TypeError, "pyopencl.Device"),
    (lambda: clatomics.histogram(F, 10, queue="q"), TypeError, "CommandQueue"),
])
def test_refused(queue, call, error, says):
    with pytest.raises(error) as caught:
        call()
    assert says in str(caught.value)


def test_refused_output_untouched(queue):
    out = cla.to_device(queue, np.arange(4, dtype=np.float32))
    with pytest.raises(IndexError, match=r"indices\[2\] = 4 is >= out\.shape\[0\] \(4\)$"):
        clatomics.add_at(out, np.array([0, 1, 4]), np.ones(3, np.float32))  # numpy.add.at raises IndexError too
    with pytest.raises(IndexError, match=r"indices\[1\]"):
        clatomics.add_at(out, np.array([0, -5]), np.ones(2, np.float32))  # below -n: beyond out, as in NumPy
    np.testing.assert_array_equal(out.get(), np.arange(4, dtype=np.float32))
    host = np.arange(4, dtype=np.int32)
    with pytest.raises(IndexError):
        clatomics.scatter_reduce(host, np.array([-1, 2]), np.ones(2, np.int32))  # torch does not wrap -1
    with pytest.raises(IndexError, match="bins is 0"):
        clatomics.scatter_reduce(np.zeros(0, np.int32), np.array([0]), np.ones(1, np.int32))
    np.testing.assert_array_equal(host, np.arange(4))
    with pytest.raises(ValueError, match="contiguous"):
        clatomics.add_at(cla.zeros(queue, (4, 4), np.float32)[:, 1], [0], [1.0])


def test_array_of_another_context_refused(queue):
    context = cl.Context([queue.device])  # held: a queue need not hold its context
    other = cl.CommandQueue(context)
    theirs = cla.to_device(other, F)
    with pytest.raises(ValueError, match="context"):
        clatomics.reduce(theirs, queue=queue)


def test_float64_without_fp64_refused():
    # CLATOMICS_HIDE_FP64: the device behaves as one without fp64, in a process of its own.
    code = ("import numpy as np, clatomics\n"
            "try:\n  clatomics.reduce(np.ones(4))\nexcept ValueError as e:\n  print('refused:', e)\n"
            "print(clatomics.reduce(np.ones(4, np.float32)))\n")
    env = dict(os.environ, CLATOMICS_HIDE_FP64="1")
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "refused:" in run.stdout and "double" in run.stdout.lower() and run.stdout.strip().endswith("4.0")


def test_predicate_nested_too_deep_refused(queue):
    p = where.x > 1
    for _ in range(5000):  # negations a user's loop stacked: refused before the module's recursion runs out of stack
        p = ~p
    with pytest.raises(ValueError, match="nested deeper than 1024"):
        clatomics.compact(np.arange(10, dtype=np.float32), p)


def test_float32_data_with_an_inexact_range_is_numpys_without_warning(queue):
    x = np.array([0.48999998], np.float32)  # bin 69 of (0, 0.7) in NumPy; of (0, 0.7f), bin 70
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        hist, edges = clatomics.histogram(x, 100, (0, 0.7))
        want, want_edges = np.histogram(x, 100, (0, 0.7))
        np.testing.assert_array_equal(hist, want)
        np.testing.assert_array_equal(edges, want_edges)
        h, _, ye = clatomics.histogram2d(x, x, 100, [[0, 1], [0, 0.7]])
        want2, _, wye = np.histogram2d(x, x, 100, [[0, 1], [0, 0.7]])
        np.testing.assert_array_equal(h, want2)
        np.testing.assert_array_equal(ye, wye)


@pytest.mark.parametrize("x, minlength", [(np.array([10**12], np.int64), 0), (np.array([2**64 - 1], np.uint64), 0),
                                          (np.array([1], np.int64), 2**40)])
def test_bincount_beyond_one_buffer_refused(queue, x, minlength):
    with pytest.raises(ValueError, match="do not fit one device buffer"):
        clatomics.bincount(x, minlength=minlength)


def test_add_at_strided_device_indices_refused(queue):
    idx = cla.to_device(queue, np.arange(8, dtype=np.int32))[::2]  # signed: the wrap step must not trip on it first
    out = np.zeros(8, np.float32)
    with pytest.raises(ValueError, match="contiguous"):
        clatomics.add_at(out, idx, np.ones(4, np.float32))
    np.testing.assert_array_equal(out, np.zeros(8, np.float32))


def test_none_values_and_read_only_out_refused(queue):
    out = np.zeros(2, np.float32)
    with pytest.raises(TypeError, match="values is None"):
        clatomics.add_at(out, [0], None)  # NumPy raises too; it is no NaN
    out.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        clatomics.add_at(out, [0], [1.0])
    with pytest.raises(ValueError, match="read-only"):
        clatomics.segment_reduce(np.ones(4, np.float32), offsets=[0, 2, 4], out=out)
    np.testing.assert_array_equal(out, np.zeros(2, np.float32))


def test_device_array_of_another_context_named_as_passed(queue):
    context = cl.Context(devices=[queue.device])  # held: some runtimes' queues do not hold their context
    other = cl.CommandQueue(context)
    keys = cla.to_device(other, np.arange(5, dtype=np.uint32))
    with pytest.raises(ValueError, match=r"^clatomics\.bincount: x is a device array of another OpenCL context"):
        clatomics.bincount(keys, queue=queue)
    out = cla.zeros(other, 5, np.float32)
    with pytest.raises(ValueError, match=r"^clatomics\.add_at: out is a device array of another OpenCL context"):
        clatomics.add_at(out, np.arange(3), np.ones(3, np.float32), queue=queue)


def test_negative_index_refusals_quote_the_index_given(queue):
    with pytest.raises(IndexError, match=r"^clatomics\.scatter_reduce: indices\[1\] = -3 is negative") as e:
        clatomics.scatter_reduce(np.zeros(5, np.float32), np.array([1, -3]), np.ones(2, np.float32))
    assert "18446744073709551613" not in str(e.value) and "options." not in str(e.value)
    with pytest.raises(IndexError, match=r"^clatomics\.add_at: indices\[1\] = -9 is below -5"):
        clatomics.add_at(np.zeros(5, np.float32), np.array([1, -9], np.int32), np.ones(2, np.float32))
    with pytest.raises(IndexError, match=r"^clatomics\.add_at: indices\[0\] = 7 is >= out\.shape\[0\] \(5\)$"):
        clatomics.add_at(np.zeros(5, np.float32), cla.to_device(queue, np.array([7, 1], np.int64)), np.ones(2, np.float32))


@pytest.mark.parametrize("out_shape, values_shape", [((6,), (2, 3)), ((6,), (6, 1)), ((4, 3), (3, 6)), ((4, 3), (18,))])
def test_values_of_another_shape_refused_as_numpy_refuses(queue, out_shape, values_shape):
    out = np.zeros(out_shape, np.float32)
    values = np.ones(values_shape, np.float32)
    idx = np.arange(6) % out_shape[0]
    with pytest.raises(ValueError):
        np.add.at(out.copy(), idx, values)  # NumPy refuses them too
    for call in (clatomics.add_at, clatomics.scatter_reduce):
        with pytest.raises(ValueError, match=r"values of shape"):
            call(out, idx, values)
    assert not out.any()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("deterministic", [False, True])
def test_sum_of_negative_zeros_is_numpys(queue, dtype, deterministic, doubles):
    if dtype == np.float64 and not doubles:
        pytest.skip("no fp64")
    for n in (1, 1000):
        a = np.full(n, -0.0, dtype)
        got, want = np.asarray(clatomics.reduce(a, "sum", deterministic=deterministic), dtype), np.sum(a)
        assert got.tobytes() == np.asarray(want, dtype).tobytes()  # +0.0: NumPy's sum starts from its identity


def test_histogram_refusals_name_the_python_call_and_operands(queue):
    a = np.float32([1, 2])
    with pytest.raises(ValueError, match=r"^clatomics\.histogram: range\[0\] \(2\) is above range\[1\] \(1\)$"):
        clatomics.histogram(a, 4, (2, 1))
    with pytest.raises(ValueError, match=r"^clatomics\.histogram: bins is 8589934592"):
        clatomics.histogram(a, 2**33, (0, 1))
    with pytest.raises(ValueError, match=r"^clatomics\.histogram2d: range\[1\]: lo \(2\) is above hi \(1\)$"):
        clatomics.histogram2d(a, a, 4, [[0, 1], [2, 1]])
    with pytest.raises(ValueError, match=r"^clatomics\.histogram2d: bins\[0\] \* bins\[1\] = 1048576 \* 1048576"):
        clatomics.histogram2d(a, a, [2**20, 2**20], [[0, 1], [0, 1]])


def test_segment_reduce_refusals_quote_offsets_as_given_and_name_out(queue):
    data = np.ones(5, np.float32)
    with pytest.raises(ValueError, match=r"^clatomics\.segment_reduce: offsets\[1\] = -1 ") as e:
        clatomics.segment_reduce(data, offsets=np.array([0, -1, 5]))
    assert "18446744073709551615" not in str(e.value)
    with pytest.raises(ValueError, match=r"^clatomics\.segment_reduce: out of shape \(3,\) for 2 segments"):
        clatomics.segment_reduce(data, offsets=np.array([0, 3, 5]), out=np.zeros(3, np.float32))


def test_reduce_by_key_refusals_name_its_out(queue):
    keys, values = np.array([1, 1, 2], np.int32), np.ones(3, np.float32)
    short = (cla.zeros(queue, 2, np.int32), cla.zeros(queue, 3, np.float32))
    with pytest.raises(ValueError, match=r"^clatomics\.reduce_by_key: out\[0\]: the view holds 2 elements, and 3 are needed$"):
        clatomics.reduce_by_key(keys, values, out=short)
    short = (cla.zeros(queue, 3, np.int32), cla.zeros(queue, 2, np.float32))
    with pytest.raises(ValueError, match=r"^clatomics\.reduce_by_key: out\[1\]: the view holds 2 elements, and 3 are needed$"):
        clatomics.reduce_by_key(keys, values, out=short)
