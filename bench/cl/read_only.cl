/* kernels/read_only.cl — the bandwidth yardstick: read every byte once, write (almost) nothing. */
kernel void clat_read_only(global const uint4 *data, ulong n4, global uint *sink) {
  uint4 acc = (uint4)(0);
  for (ulong i = get_global_id(0); i < n4; i += get_global_size(0)) acc ^= data[i];
  uint x = acc.x ^ acc.y ^ acc.z ^ acc.w;
  if (x == 0x9e3779b9u) sink[0] = x;  /* keeps the loads alive; almost never taken */
}
