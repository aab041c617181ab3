"""For kernel authors: the snippet library, a device's build options, a build of your source with
both, and which path each atomic op takes on a device."""

import pyopencl as cl

from . import _clatomics


def _device_handle(device):
    if not isinstance(device, cl.Device):
        raise TypeError(f"clatomics: a pyopencl.Device is needed, not {type(device).__name__}")
    return device.int_ptr


def source():
    """The whole OpenCL C snippet library (clat_atomic_add_float, clat_fetch_add, ...), to
    prepend to your kernel source."""
    return _clatomics.source()


def build_options(device):
    """The build options that switch on the native paths proven on ``device`` (the checks run
    once per device): -cl-std where needed and the -D macros of config.cl."""
    return _clatomics.build_options(_device_handle(device))


def build(context, src, options=""):
    """A pyopencl.Program of ``context`` holding the snippet library and ``src``, built for each
    device of the context with that device's build_options() and ``options``. ``#include
    "clatomics/..."`` lines in src are blanked (the library is already there) and the build log
    counts src's lines from 1. A failed build raises clatomics.Error with .build_log."""
    if not isinstance(context, cl.Context):
        raise TypeError(f"clatomics.build: a pyopencl.Context is needed, not {type(context).__name__}")
    if not isinstance(src, str) or not isinstance(options, str):
        raise TypeError("clatomics.build: src and options are str")
    return cl.Program.from_int_ptr(_clatomics.build(context.int_ptr, src, options), retain=False)


def device_info(device):
    """What ``clatomics info`` says of a device: name, platform, build_options, doubles, the path
    of every op (``paths``, ``variant_paths``: dicts of op, type, space, path, note), the native
    checks and a printable ``description``."""
    return _clatomics.device_info(_device_handle(device))
