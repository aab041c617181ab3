/* clatomics/atomics.cl — the whole clatomics snippet library, in dependency order.
 * Prepend clatomics::source() (this file with its includes expanded) to your kernel source, or
 * build with -I <prefix>/include and #include "clatomics/atomics.cl". Pass the options from
 * clatomics::build_options(device) to get the native paths checked on that device. */
#ifndef CLATOMICS_ATOMICS_CL
#define CLATOMICS_ATOMICS_CL

#include "clatomics/config.cl"
#include "clatomics/ops.def"
#include "clatomics/cas.cl"
#include "clatomics/order.cl"
#include "clatomics/native_ptx.cl"
#include "clatomics/native_ext.cl"
#include "clatomics/minmax_bits.cl"
#include "clatomics/real.cl"
#include "clatomics/float.cl"
#include "clatomics/double.cl"
#include "clatomics/integer.cl"
#include "clatomics/mutex.cl"
#include "clatomics/backoff.cl"
#include "clatomics/aggregate.cl"
#include "clatomics/half.cl"
#include "clatomics/bfloat16.cl"
#include "clatomics/noret.cl"
#include "clatomics/saturating.cl"
#include "clatomics/float2.cl"
#include "clatomics/load_store.cl"
#include "clatomics/overloads.cl"
#include "clatomics/user_op.cl"
#include "clatomics/message_passing.cl"

#endif /* CLATOMICS_ATOMICS_CL */
