// Bug: 72 threads, so warp 2 has lanes 0-7 only, yet every warp runs the whole-warp butterfly with
// the full mask. In warp 2 the offset-16 and offset-8 steps read lanes that do not exist, so its
// total is undefined (warps 0 and 1 are fine). The fix computes the mask and skips those steps.
extern "C" __global__ void shfl_xor_partial_fullmask(const unsigned* in, unsigned* out) {
  unsigned t = threadIdx.x, lane = t & 31, warp = t >> 5;
  unsigned v = in[t];
  for (unsigned off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffff, v, off);
  if (lane == 0) out[warp] = v;
}
