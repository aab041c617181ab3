"""The arrays of a call: which queue runs it, NumPy data copied to the device and back, and
device arrays described to the extension as (buffer handle, element offset, count)."""

import numpy as np
import pyopencl as cl
import pyopencl.array as cla

from . import _clatomics

_default = None
_default_context = None  # held beside the queue: some runtimes' queues do not hold their context


def default_queue():
    """The queue the C++ library picks by itself (CLATOMICS_DEVICE, else a GPU, else a CPU), used
    when a call is given neither a device array nor ``queue=``; made once."""
    global _default, _default_context
    if _default is None:
        context, device, queue = _clatomics.default_queue()  # new references, adopted here
        _default_context = cl.Context.from_int_ptr(context, retain=False)
        cl.Device.from_int_ptr(device, retain=False)
        _default = cl.CommandQueue.from_int_ptr(queue, retain=False)
    return _default


def is_device(a):
    return isinstance(a, cla.Array)


def pick_queue(queue, *arrays):
    """queue= where given, else the first device array's own queue, else the default queue."""
    if queue is not None:
        if not isinstance(queue, cl.CommandQueue):
            raise TypeError(f"clatomics: queue= must be a pyopencl.CommandQueue, not {type(queue).__name__}")
        return queue
    for a in arrays:
        if is_device(a):
            if a.queue is None:
                raise ValueError("clatomics: a device array without a queue: pass queue=")
            return a.queue
    return default_queue()


def as_array(name, a, what):
    """A device array or a NumPy array (anything numpy.asarray takes); TypeError otherwise."""
    if is_device(a):
        return a
    if a is None:
        raise TypeError(f"clatomics.{what}: {name} is None")
    try:
        return np.asarray(a)
    except Exception as e:  # noqa: BLE001: any conversion failure is the caller's type
        raise TypeError(f"clatomics.{what}: {name} is not an array: {e}") from None


def dtype_code(a):
    """The extension's name of an element type: f4, f8, i4, u4, i8, u8, f2, u1."""
    dt = np.dtype(a.dtype)
    if dt.byteorder == ">" or (dt.byteorder == "=" and np.little_endian is False):
        raise TypeError("clatomics: big-endian arrays are not taken")
    return f"{dt.kind}{dt.itemsize}"


class Call:
    """One call's device side: its queue, and its operands on that queue."""

    def __init__(self, what, queue, *arrays):
        self.what = what
        self.queue = pick_queue(queue, *arrays)
        self.handle = self.queue.int_ptr
        self._keep = []  # the arrays and buffers of this call, alive until it returns

    def device(self, name, a, dtype=None):
        """a on this call's device: a device array as it is (after the events it waits on when it
        belongs to another queue), NumPy data copied (contiguous, as dtype where given)."""
        if is_device(a):
            # Refused here, naming the call and the operand: the library would name its own call
            # and argument (a bincount's keys are histogram_keys' or reduce's buffer there).
            if a.context != self.queue.context:
                raise ValueError(f"clatomics.{self.what}: {name} is a device array of another OpenCL context than the call's "
                                 "queue (pass queue= of its context, or copy it)")
            if dtype is not None and np.dtype(a.dtype) != np.dtype(dtype):
                raise TypeError(f"clatomics.{self.what}: {name} is a device array of {a.dtype}, and {np.dtype(dtype)} is needed")
            if a.queue != self.queue and a.events:
                cl.wait_for_events(a.events)
            return a
        host = np.ascontiguousarray(a, dtype=dtype)
        if host.dtype.byteorder == ">":
            raise TypeError(f"clatomics.{self.what}: {name}: big-endian arrays are not taken")
        return cla.to_device(self.queue, host)

    def describe(self, name, a):
        """(handle, element offset, count) of a contiguous device array (its elements in C order,
        whatever its shape: reshaping a pyopencl array costs more than the call); ValueError otherwise. The
        array is kept until the call is done: a handle alone holds no reference to its buffer."""
        self._keep.append(a)
        if not (a.flags.c_contiguous or a.flags.f_contiguous) or (a.ndim > 1 and not a.flags.c_contiguous):
            raise ValueError(f"clatomics.{self.what}: {name} is not contiguous (take a copy)")
        if a.size == 0 or a.base_data is None:
            # An empty array may have no buffer at all: one element of its own stands in (none is read).
            buf = cl.Buffer(self.queue.context, cl.mem_flags.READ_WRITE, max(a.dtype.itemsize, 4))
            self._keep.append(buf)
            return (buf.int_ptr, 0, 0)
        if not isinstance(a.base_data, cl.Buffer):
            raise TypeError(f"clatomics.{self.what}: {name} is not in a pyopencl.Buffer (SVM arrays are not taken)")
        if a.offset % a.dtype.itemsize:
            raise ValueError(f"clatomics.{self.what}: {name} starts at byte {a.offset}, inside an element of {a.dtype.itemsize} bytes")
        return (a.base_data.int_ptr, a.offset // a.dtype.itemsize, a.size)

    def empty(self, shape, dtype):
        return cla.empty(self.queue, shape, dtype)

    def zeros(self, shape, dtype):
        return cla.zeros(self.queue, shape, dtype)


class as_called:
    """A refusal of the library's call (a ValueError) reworded as the Python call was made: its
    name, its operands' names for the library's (words: pairs of (library's, Python's)), then
    also(message) where given. A class, not a generator: it wraps every call."""

    def __init__(self, what, library, words=(), also=None):
        self.what, self.library, self.words, self.also = what, library, words, also

    def __enter__(self):
        return self

    def __exit__(self, kind, error, trace):
        if kind is not ValueError:  # none, or another type (subclasses keep their own text)
            return False
        message = str(error).replace(f"clatomics: {self.library}:", f"clatomics.{self.what}:", 1)
        for theirs, ours in self.words:
            message = message.replace(theirs, ours)
        raise ValueError(self.also(message) if self.also else message) from None
