"""clatomics for PyOpenCL: float and double atomics for your kernels, and the algorithms built
on them (histograms, scatter-reduce, reductions, compaction) on your context, queue and arrays.

Arrays are ``pyopencl.array.Array`` (any offset; the call runs on the array's own queue unless
``queue=`` is given) or NumPy arrays (copied to the device and back; without a device array or
``queue=`` the call runs on the device the C++ library picks: CLATOMICS_DEVICE, else a GPU, else a
CPU). Results are NumPy arrays unless ``out=`` is a device array. What the library refuses raises
ValueError or TypeError before anything runs; an OpenCL failure raises clatomics.Error, with
``.code`` and, for a failed build, ``.build_log``.
"""

from . import where
from ._arrays import default_queue
from ._clatomics import Error, error_name, kept_scratch_bytes, release_scratch
from ._histograms import bincount, histogram, histogram2d
from ._kernels import build, build_options, device_info, source
from ._reductions import compact, dot, reduce
from ._scatter import add_at, reduce_by_key, scatter_reduce, segment_reduce

__all__ = [
    "Error", "add_at", "bincount", "build", "build_options", "compact", "default_queue", "device_info", "dot", "error_name",
    "histogram", "histogram2d", "kept_scratch_bytes", "reduce", "reduce_by_key", "release_scratch", "scatter_reduce", "segment_reduce",
    "source", "where",
]
