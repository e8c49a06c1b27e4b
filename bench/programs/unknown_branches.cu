// The symbolic-input benchmark: 32 threads, four branches that depend on two unknown scalars (n and
// k) and on the data, three of them around whole-warp collectives. Which (n, k) go wrong? The
// shuffle under `t < n` names lanes that skip it unless n is 0 or at least 32; the ballot under
// `n == k + 7` is reached by the whole warp or by none of it.
extern "C" __global__ void unknown_branches(const unsigned* in, unsigned* out, unsigned n,
                                            unsigned k) {
  unsigned t = threadIdx.x;
  unsigned v = in[t];
  if (t < n) v += __shfl_down_sync(0xffffffffu, v, 1);
  if (k & 1) v = __reduce_add_sync(0xffffffffu, v);
  if (v > 1000u) v -= 1000u;
  if (n == k + 7) v ^= __ballot_sync(0xffffffffu, v & 1);
  out[t] = v;
}
