// Correct: each warp sums its 32 inputs with a full-mask __shfl_xor_sync butterfly (every lane
// ends with the warp total); lane 0 of each warp stores the total.
extern "C" __global__ void warp_sum_shfl(const unsigned* in, unsigned* out) {
  unsigned t = threadIdx.x;
  unsigned v = in[t];
  for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffff, v, off);
  if ((t & 31) == 0) out[t >> 5] = v;
}
