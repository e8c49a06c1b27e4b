// Benchmark kernel for `warpspec run`: 256 threads (8 warps), 8 divergent branches and 12
// warp collectives per thread, every mask valid, so every schedule completes the same way.
// Each round: a full-mask ballot of a data-dependent bit, a reduction by the lanes that have it,
// a minimum by the lanes that do not, and one more divergent branch without a collective.
#define ROUND(bit)                                             \
  {                                                            \
    const unsigned c = (v >> (bit)) & 1u;                      \
    const unsigned m = __ballot_sync(0xffffffffu, c);          \
    if (c)                                                     \
      v += __reduce_add_sync(m, v);                            \
    else                                                       \
      v ^= __reduce_min_sync(~m, v + lane);                    \
    if ((v + lane) % 3u == 0u) v = v * 7u + 1u;                \
  }

extern "C" __global__ void divergent_256(const unsigned* in, unsigned* out) {
  const unsigned t = threadIdx.x, lane = t & 31u;
  unsigned v = in[t];
  ROUND(0)
  ROUND(1)
  ROUND(2)
  ROUND(3)
  out[t] = v;
}
