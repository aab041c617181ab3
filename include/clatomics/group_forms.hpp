// clatomics/group_forms.hpp — what every algorithm's forms over several devices of one host share
// (each algorithm's header declares its own; clatomics/device_group.hpp makes the group): the
// contract of the host-data and resident forms, and the resident data itself.
#pragma once

#include <cstddef>
#include <vector>

#include <CL/opencl.hpp>

namespace clatomics {

class DeviceGroup;

// Host data over the group: chunks of a size fixed by the data (never by the number of devices),
// each taken by the next device stream that is free, results merged in chunk order. Results are
// those of the single-device functions of the same name: integers and counts exact, and a
// deterministic float sum or product bit-identical to one device's over the same data, whatever
// the number of devices and which device ran which chunk. A chunk that fails on a device stops the
// hand-out; the call then throws Error (an OpenCL failure, the code kept) or the exception's own
// type, naming the device and the chunk's elements, after every other stream has stopped.
//
// Every algorithm over data resident on the group: each device works on its part at the same
// time (on a thread of its own), and the results merge as the host-data forms' do, in element
// order. Refused (std::invalid_argument, before anything runs) unless every array is laid out as
// distribute() lays it: one part per device of this group, each part's elements right after the
// previous part's from element 0, size elements in all; each part a buffer of its device's
// context holding count[d]; the arrays of one call (dot's a and b, positions and weights) laid out
// alike. A failure on a device is thrown as the host-data forms throw it, naming the device and
// the part's elements. A deterministic float sum or product over parts that do not start at
// multiples of reduce_tile runs in the host-data form's chunks (whole tiles) instead, with the
// same bits: a chunk that spans two parts is first copied through the host onto the device
// holding its first element.

// Data resident on the group's devices: device d holds elements [first[d], first[d] + count[d])
// in parts[d] (a buffer of its runtime's context, from its first byte). distribute()'s parts hold
// whole deterministic tiles (but the last), in proportion to nothing but the device count; parts
// the user makes may split the elements anywhere, and be any buffers of the devices' contexts:
// the user's host memory (CL_MEM_USE_HOST_PTR, each element at a multiple of its size),
// sub-buffers, buffers the host may not read.
template <class T>
struct DistributedBuffer {
  std::vector<cl::Buffer> parts;
  std::vector<std::size_t> first, count;
  std::size_t size = 0;
};

}  // namespace clatomics
