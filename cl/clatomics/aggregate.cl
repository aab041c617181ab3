/* clatomics/aggregate.cl — aggregated atomics for contended addresses (opt-in names).
 *
 *   T clat_atomic_<op>_T_agg(volatile __global T *p, T v)      op: add sub mul div min max
 *   T clat_atomic_mad_T_agg(volatile __global T *p, T a, T b)   *p = a*b + *p
 *   (every op of ops.def, with its operands)
 *   with T float or double (fp64 devices); add, min, max also for int and uint;
 *   the same names ending in _agg_local take __local pointers.
 *
 * Work-items of one sub-group (NVIDIA: one warp) that hit the same address combine their operands
 * and issue one atomic per distinct address. Each gets the value it would have seen had the
 * group's operations been applied one after another in lane order (sub-group local id order),
 * starting from the value that single atomic returned. Other work-items' atomics still interleave
 * between groups, as with the plain ops; memory ends where some serial order of all ops would.
 *
 * Paths (CLAT_PATH_AGG in config.cl):
 *   warp      NVIDIA (host macro CLAT_NVIDIA_PTX): activemask + match.any.sync + shfl.sync. Works
 *             with any subset of active lanes: calls inside divergent code are fine.
 *   subgroup  host macro CLAT_SUBGROUPS, and the compiler announces cl_khr_subgroups (or
 *             __opencl_c_subgroups) and cl_khr_subgroup_shuffle: sub-group shuffles and votes.
 *             RULE: every work-item of the sub-group must make the call together (uniform control
 *             flow, like a barrier): the sub-group built-ins are undefined in divergent code.
 *   plain     everywhere else, and under CLAT_FORCE_CAS: the plain clat_atomic_<op>_T.
 * Deciding is cheap: a sub-group first compares every address with its first work-item's; if
 * nobody shares that address (spread data) everyone takes the plain op at once, and the full
 * match (warp) or the per-address rounds (sub-group, at most CLAT_AGG_MAX_ROUNDS distinct
 * addresses, the rest plain) are paid only when there is something to combine.
 *
 * Exactness. min/max (order.cl's rules: NaN is missing data, -0 < +0) and the integer ops
 * (wrapping) are exact: every work-item gets exactly its serial-order value. For float/double
 * add, sub, mul, div and mad the group's operands are combined in a tree before the one atomic,
 * so rounding can differ from one-by-one order: memory gets old + (v1 + v2 + ...) instead of
 * ((old + v1) + v2) + ..., work-item k gets old + (v1 + ... + v(k-1)) with the sum associated in
 * a tree; mul likewise with products; div applies the product of the divisors,
 * old / (v1 * v2 * ...), which also rounds differently from old / v1 / v2 and can overflow or
 * underflow in the product where the one-by-one quotients would not; mad adds the rounded
 * products a*b (one fused multiply-add per op only when a work-item is alone on its address).
 * Where all partial results are exactly representable (integers, powers of two, ...) the results
 * equal one-by-one order exactly.
 */
#ifndef CLATOMICS_AGGREGATE_CL
#define CLATOMICS_AGGREGATE_CL

#if CLAT_PATH_AGG == CLAT_PATH_SUBGROUP && defined(cl_khr_subgroups)
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#endif

/* Combining operators. Integer add wraps (signed overflow is undefined in OpenCL C). */
#define CLAT_AGG_ADD(a, b) ((a) + (b))
#define CLAT_AGG_MUL(a, b) ((a) * (b))
#define CLAT_AGG_DIV(a, b) ((a) / (b))
#define CLAT_AGG_IADD(a, b) ((int)((uint)(a) + (uint)(b)))
#define CLAT_AGG_IMIN(a, b) min(a, b)
#define CLAT_AGG_IMAX(a, b) max(a, b)

/* ------------------------------------------------------------------------------------------ */
#if CLAT_PATH_AGG == CLAT_PATH_WARP
/* NVIDIA warp primitives (measured to build and run through NVIDIA's OpenCL on an H200). */
CLAT_FN uint clat_warp_active(void) {
  uint m;
  asm volatile("activemask.b32 %0;" : "=r"(m));
  return m;
}
CLAT_FN uint clat_warp_lane(void) {
  uint l;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));
  return l;
}
CLAT_FN uint clat_warp_ballot(uint mask, int pred) {
  uint b;
  asm volatile("{\n\t.reg .pred clat_p;\n\tsetp.ne.s32 clat_p, %1, 0;\n\t"
               "vote.sync.ballot.b32 %0, clat_p, %2;\n\t}"
               : "=r"(b) : "r"(pred), "r"(mask));
  return b;
}
CLAT_FN uint clat_warp_match(uint mask, uint v) {
  uint m;
  asm volatile("match.any.sync.b32 %0, %1, %2;" : "=r"(m) : "r"(v), "r"(mask));
  return m;
}
/* Lane src's v; src must be in mask. 64-bit values travel as two 32-bit shuffles. */
CLAT_FN uint clat_warp_shfl_uint(uint mask, uint v, uint src) {
  uint r;
  asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, %3;" : "=r"(r) : "r"(v), "r"(src), "r"(mask));
  return r;
}
/* Lane (this lane - d)'s v; lanes below d get their own v back. */
CLAT_FN uint clat_warp_shfl_up_uint(uint mask, uint v, uint d) {
  uint r;
  asm volatile("shfl.sync.up.b32 %0, %1, %2, 0, %3;" : "=r"(r) : "r"(v), "r"(d), "r"(mask));
  return r;
}
CLAT_FN int clat_warp_shfl_int(uint mask, int v, uint src) {
  return as_int(clat_warp_shfl_uint(mask, as_uint(v), src));
}
CLAT_FN float clat_warp_shfl_float(uint mask, float v, uint src) {
  return as_float(clat_warp_shfl_uint(mask, as_uint(v), src));
}
#ifdef CLAT_HAS_DOUBLE
CLAT_FN double clat_warp_shfl_double(uint mask, double v, uint src) {
  uint2 u = as_uint2(v);
  u.x = clat_warp_shfl_uint(mask, u.x, src);
  u.y = clat_warp_shfl_uint(mask, u.y, src);
  return as_double(u);
}
#endif

CLAT_FN uint clat_lowest_lane(uint mask) { return 31u - clz(mask & (0u - mask)); }

/* The position of the n-th (from 0) set bit of mask; n < popcount(mask). */
CLAT_FN uint clat_nth_lane(uint mask, uint n) {
  uint pos = 0u, c;
  c = popcount(mask & 0xffffu);
  if (n >= c) { n -= c; pos += 16u; mask >>= 16; }
  c = popcount(mask & 0xffu);
  if (n >= c) { n -= c; pos += 8u; mask >>= 8; }
  c = popcount(mask & 0xfu);
  if (n >= c) { n -= c; pos += 4u; mask >>= 4; }
  c = popcount(mask & 0x3u);
  if (n >= c) { n -= c; pos += 2u; mask >>= 2; }
  if (n >= (mask & 1u)) pos += 1u;
  return pos;
}

/* The lanes of mask on this lane's address, or 0 when the warp should not aggregate (the same
 * answer on every lane of mask). Cheap first, since spread data must cost next to nothing: one
 * shfl of the first lane's low address word and one vote. Nobody else on that word -> nobody
 * else on that address: 0, the plain op (2 warp instructions, no match.any). Otherwise the high
 * word is compared too (wide = 64-bit global pointers); all equal -> the whole mask; else
 * match.any on the low word, and on the high word only when some group disagrees there. */
CLAT_FN uint clat_warp_peers(uint mask, ulong addr, int wide) {
  const uint lo = (uint)addr, hi = (uint)(addr >> 32);
  const uint first = clat_lowest_lane(mask);
  const uint lo0 = clat_warp_shfl_uint(mask, lo, first);
  uint same = clat_warp_ballot(mask, lo == lo0);
  if (popcount(same) < 2u) return 0u;
  if (wide) {
    const uint hi0 = clat_warp_shfl_uint(mask, hi, first);
    same = clat_warp_ballot(mask, lo == lo0 && hi == hi0);
  }
  if (same == mask) return mask;
  uint peers = clat_warp_match(mask, lo);
  if (wide) {
    const uint hl = clat_warp_shfl_uint(mask, hi, clat_lowest_lane(peers));
    if (clat_warp_ballot(mask, hi != hl) != 0u) peers &= clat_warp_match(mask, hi);
  }
  return peers;
}

/* The body of an aggregated op returning T. v: this lane's operand; COMB(earlier, later) combines
 * operands; APPLY(base, prefix) gives the serial-order old value; ATOMIC: the one atomic on the
 * combined operand clat_x; SINGLE: the call for a lane alone on its address; PLAIN: the call for
 * a warp that does not aggregate. Every shfl/vote is made by every lane of clat_mask. */
#define CLAT_WARP_AGG_BODY(T, p, v, WIDE, COMB, APPLY, ATOMIC, SINGLE, PLAIN)                  \
  {                                                                                            \
    const uint clat_mask = clat_warp_active();                                                 \
    const uint clat_peers = clat_warp_peers(clat_mask, (ulong)(size_t)(p), WIDE);             \
    if (clat_peers == 0u) return PLAIN;                                                        \
    const uint clat_lane = clat_warp_lane();                                                   \
    const uint clat_below = clat_peers & ((1u << clat_lane) - 1u);                             \
    const uint clat_rank = popcount(clat_below), clat_count = popcount(clat_peers);            \
    const uint clat_run = clat_peers >> clat_lowest_lane(clat_peers);                          \
    const int clat_contiguous = (clat_run & (clat_run + 1u)) == 0u;                            \
    T clat_x = (v); /* inclusive scan over the peers in lane order (Hillis-Steele on ranks) */ \
    for (uint clat_d = 1u; clat_d < 32u; clat_d <<= 1) {                                       \
      if (clat_warp_ballot(clat_mask, clat_count > clat_d) == 0u) break;                       \
      uint clat_src = clat_lane;                                                               \
      if (clat_rank >= clat_d)                                                                 \
        clat_src = clat_contiguous ? clat_lane - clat_d : clat_nth_lane(clat_peers, clat_rank - clat_d); \
      const T clat_y = clat_warp_shfl_##T(clat_mask, clat_x, clat_src);                        \
      if (clat_rank >= clat_d) clat_x = COMB(clat_y, clat_x);                                  \
    }                                                                                          \
    const uint clat_last = 31u - clz(clat_peers);                                              \
    const T clat_prefix =                                                                      \
        clat_warp_shfl_##T(clat_mask, clat_x, clat_rank ? 31u - clz(clat_below) : clat_lane);  \
    T clat_base = clat_x;                                                                      \
    if (clat_lane == clat_last) clat_base = clat_count == 1u ? (SINGLE) : (ATOMIC);            \
    clat_base = clat_warp_shfl_##T(clat_mask, clat_base, clat_last);                           \
    return clat_rank ? APPLY(clat_base, clat_prefix) : clat_base;                              \
  }

/* Global addresses are 64-bit; __local ones fit the low word. SFX is empty or _local. */
#define CLAT_AGG_WIDE 1
#define CLAT_AGG_WIDE_local 0
#define CLAT_AGG_BODY(T, SFX, p, v, IDENT, COMB, APPLY, ATOMIC, SINGLE, PLAIN, MAD) \
  CLAT_WARP_AGG_BODY(T, p, v, CLAT_AGG_WIDE##SFX, COMB, APPLY, ATOMIC, SINGLE, PLAIN)

/* ------------------------------------------------------------------------------------------ */
#elif CLAT_PATH_AGG == CLAT_PATH_SUBGROUP

/* The same contract on cl_khr_subgroups, called by the whole sub-group together. Each round
 * serves the addresses of the first work-item still waiting: an inclusive scan by shuffles in
 * which the others contribute IDENT, one atomic by that work-item, one broadcast of its result.
 * MAD: count the members, so that a lone work-item keeps the fused plain op. */
#define CLAT_AGG_BODY(T, SFX, p, v, IDENT, COMB, APPLY, ATOMIC, SINGLE, PLAIN, MAD)             \
  {                                                                                            \
    const uint clat_lid = get_sub_group_local_id(), clat_n = get_sub_group_size();             \
    const ulong clat_addr = (ulong)(size_t)(p);                                                \
    ulong clat_at = sub_group_broadcast(clat_addr, 0u);                                        \
    if (!sub_group_any(clat_lid != 0u && clat_addr == clat_at)) return PLAIN;                  \
    T clat_old = (v);                                                                          \
    int clat_todo = 1;                                                                         \
    uint clat_leader = 0u;                                                                     \
    for (uint clat_round = 1u;; ++clat_round) {                                                \
      const int clat_mine = clat_todo && clat_addr == clat_at;                                 \
      T clat_x = clat_mine ? (v) : (IDENT);                                                    \
      for (uint clat_d = 1u; clat_d < clat_n; clat_d <<= 1) {                                  \
        const T clat_y = sub_group_shuffle(clat_x, clat_lid >= clat_d ? clat_lid - clat_d : clat_lid); \
        if (clat_lid >= clat_d) clat_x = COMB(clat_y, clat_x);                                 \
      }                                                                                        \
      const T clat_prefix = sub_group_shuffle(clat_x, clat_lid ? clat_lid - 1u : 0u);          \
      clat_x = sub_group_broadcast(clat_x, clat_n - 1u);                                       \
      const uint clat_count = MAD ? sub_group_reduce_add(clat_mine ? 1u : 0u) : 2u;            \
      T clat_base = clat_x;                                                                    \
      if (clat_lid == clat_leader) clat_base = clat_count == 1u ? (SINGLE) : (ATOMIC);         \
      clat_base = sub_group_broadcast(clat_base, clat_leader);                                 \
      if (clat_mine) {                                                                         \
        clat_old = clat_lid == clat_leader ? clat_base : APPLY(clat_base, clat_prefix);        \
        clat_todo = 0;                                                                         \
      }                                                                                        \
      if (clat_round >= CLAT_AGG_MAX_ROUNDS || !sub_group_any(clat_todo)) break;               \
      clat_leader = sub_group_reduce_min(clat_todo ? clat_lid : 0xffffffffu);                  \
      clat_at = sub_group_broadcast(clat_addr, clat_leader);                                   \
    }                                                                                          \
    if (clat_todo) clat_old = PLAIN;                                                           \
    return clat_old;                                                                           \
  }

/* ------------------------------------------------------------------------------------------ */
#else
#define CLAT_AGG_BODY(T, SFX, p, v, IDENT, COMB, APPLY, ATOMIC, SINGLE, PLAIN, MAD) \
  { return PLAIN; }
#endif

/* One aggregated op of one operand. PLAINFN: the unaggregated op, also the one atomic. */
#define CLAT_DEFINE_AGG_OP(T, AS, SFX, NAME, IDENT, COMB, APPLY, PLAINFN)                      \
  CLAT_FN T clat_atomic_##NAME##_##T##_agg##SFX(volatile AS T *p, T v)                          \
      CLAT_AGG_BODY(T, SFX, p, v, IDENT, COMB, APPLY, PLAINFN(p, clat_x), PLAINFN(p, v), PLAINFN(p, v), 0)

/* float/double: every op of ops.def, combined as its agg columns say. The neutral operand of
 * add and mad is -0.0 (x + -0.0 == x, also for x = +-0), of min/max NaN (order.cl treats NaN as
 * missing data). A work-item alone on its address makes the op itself, so that an op whose
 * combined atomic is another one (mad: an add of the products a*b) keeps its own rounding there;
 * on the sub-group path that costs a count of the members, paid only by a_b ops. */
#define CLAT_AGG_NAN_float as_float(0x7fc00000u)
#define CLAT_AGG_NAN_double as_double(0x7ff8000000000000ul)
#define CLAT_AGG_COUNTS_v 0
#define CLAT_AGG_COUNTS_a_b 1
#define CLAT_AGG_REAL_OP(T, AS, SFX, C, D, NAME, OPERANDS, NEW, NATIVE, AGG_OPERAND, AGG_ATOMIC,     \
                         AGG_NEUTRAL, AGG_COMBINE, AGG_APPLY)                                      \
  CLAT_FN T clat_atomic_##NAME##_##T##_agg##SFX(volatile AS T *p CLAT_OPERANDS_##OPERANDS(T)) {    \
    const T clat_w = AGG_OPERAND;                                                                 \
    CLAT_AGG_BODY(T, SFX, p, clat_w, AGG_NEUTRAL, AGG_COMBINE, AGG_APPLY,                          \
                  clat_atomic_##AGG_ATOMIC##_##T##SFX(p, clat_x),                                  \
                  clat_atomic_##NAME##_##T##SFX(p CLAT_ARGS_##OPERANDS),                           \
                  clat_atomic_##NAME##_##T##SFX(p CLAT_ARGS_##OPERANDS), CLAT_AGG_COUNTS_##OPERANDS) \
  }
#define CLAT_AGG_REAL_VIA(T, AS, SFX, C, D, NAME, OPERANDS, BASE, BASE_OPERAND)                     \
  CLAT_FN T clat_atomic_##NAME##_##T##_agg##SFX(volatile AS T *p CLAT_OPERANDS_##OPERANDS(T)) {    \
    return clat_atomic_##BASE##_##T##_agg##SFX(p, BASE_OPERAND);                                   \
  }
#define CLAT_DEFINE_AGG_REAL(T, AS, SFX) CLAT_REAL_OPS(CLAT_AGG_REAL_OP, CLAT_AGG_REAL_VIA, T, AS, SFX, , )

/* int/uint: add (wrapping), min, max on the built-in atomics. */
#define CLAT_DEFINE_AGG_INT(T, AS, SFX, ADD, MINID, MAXID)                                      \
  CLAT_DEFINE_AGG_OP(T, AS, SFX, add, (T)0, ADD, ADD, atomic_add)                               \
  CLAT_DEFINE_AGG_OP(T, AS, SFX, min, (T)MINID, CLAT_AGG_IMIN, CLAT_AGG_IMIN, atomic_min)       \
  CLAT_DEFINE_AGG_OP(T, AS, SFX, max, (T)MAXID, CLAT_AGG_IMAX, CLAT_AGG_IMAX, atomic_max)

CLAT_DEFINE_AGG_REAL(float, __global, )
CLAT_DEFINE_AGG_REAL(float, __local, _local)
#ifdef CLAT_HAS_DOUBLE
CLAT_DEFINE_AGG_REAL(double, __global, )
CLAT_DEFINE_AGG_REAL(double, __local, _local)
#endif
CLAT_DEFINE_AGG_INT(int, __global, , CLAT_AGG_IADD, INT_MAX, INT_MIN)
CLAT_DEFINE_AGG_INT(int, __local, _local, CLAT_AGG_IADD, INT_MAX, INT_MIN)
CLAT_DEFINE_AGG_INT(uint, __global, , CLAT_AGG_ADD, UINT_MAX, 0u)
CLAT_DEFINE_AGG_INT(uint, __local, _local, CLAT_AGG_ADD, UINT_MAX, 0u)

#endif /* CLATOMICS_AGGREGATE_CL */
