/* Test kernels for tests/test_huge.cpp: fill buffers of more than 2^32 bytes or elements on the
 * device, so the host never holds them. Indices are ulong throughout. */

/* Byte histogram input: out[pos[k]] = val[k] (the rest was zeroed by clEnqueueFillBuffer). */
kernel void huge_marks(global uchar *out, global const ulong *pos, global const uchar *val, uint npos) {
  const size_t k = get_global_id(0);
  if (k < npos) out[pos[k]] = val[k];
}

/* reduce input: 1 at every multiple of 4096 below 2^32, 0 elsewhere below 2^32, and
 * i - 2^32 + 2 from 2^32 on (values only reachable through 64-bit indices). */
kernel void huge_uints(global uint *out, ulong n) {
  const ulong two32 = (ulong)1 << 32;
  for (ulong i = get_global_id(0); i < n; i += get_global_size(0))
    out[i] = i >= two32 ? (uint)(i - two32) + 2u : ((i & 4095ul) == 0ul ? 1u : 0u);
}
