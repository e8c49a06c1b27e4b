// Correct: 48 threads, so warp 1 has 16 lanes. Each warp computes the mask of its lanes that
// exist and skips butterfly steps whose partner lane would not exist; lane 0 stores the sum.
extern "C" __global__ void partial_warp_shfl(const unsigned* in, unsigned* out) {
  unsigned t = threadIdx.x, lane = t & 31, warp = t >> 5;
  unsigned live = blockDim.x - warp * 32;
  if (live > 32) live = 32;
  unsigned mask = live == 32 ? 0xffffffffu : (1u << live) - 1u;
  unsigned v = in[t];
  for (unsigned off = 16; off > 0; off >>= 1)
    if (off < live) v += __shfl_xor_sync(mask, v, off);
  if (lane == 0) out[warp] = v;
}
