// Correct: stream compaction in one warp. The ballot of (in > limit) gives every lane the same
// word; a lane's slot is the number of set bits below its own (counted bit by bit in a fully
// unrolled loop, so the PTX has no popc). out[0] is the count (__reduce_add_sync of the
// predicate), out[1 + slot] the kept values in lane order.
extern "C" __global__ void ballot_compact(const unsigned* in, unsigned* out, unsigned limit) {
  unsigned lane = threadIdx.x;
  unsigned v = in[lane];
  unsigned keep = v > limit;
  unsigned b = __ballot_sync(0xffffffff, keep);
  unsigned count = __reduce_add_sync(0xffffffff, keep);
  unsigned slot = 0;
#pragma unroll
  for (unsigned j = 0; j < 32; ++j) slot += j < lane ? (b >> j) & 1u : 0u;
  if (keep) out[1 + slot] = v;
  if (lane == 0) out[0] = count;
}
