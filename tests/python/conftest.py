"""The device every test runs on: the C++ library's default (CLATOMICS_DEVICE, else a GPU, else a
CPU; CTest shows each run PoCL or Intel's runtime alone), and arrays placed at an offset."""

import numpy as np
import pyopencl.array as cla
import pytest

import clatomics


@pytest.fixture(scope="session")
def queue():
    return clatomics.default_queue()


@pytest.fixture
def rng():
    return np.random.default_rng(31)


@pytest.fixture
def doubles(queue):
    return clatomics.device_info(queue.device)["doubles"]


def at_offset(queue, host, offset=3):
    """host on the device inside a larger buffer, starting `offset` elements in (a view with a
    nonzero .offset), the elements around it filled with a marker."""
    host = np.ascontiguousarray(host)
    whole = np.full(host.size + offset + 5, 77, dtype=host.dtype)
    whole[offset:offset + host.size] = host.reshape(-1)
    dev = cla.to_device(queue, whole)
    view = dev[offset:offset + host.size]
    assert view.offset == offset * host.dtype.itemsize
    return view.reshape(host.shape) if host.ndim > 1 else view, dev
