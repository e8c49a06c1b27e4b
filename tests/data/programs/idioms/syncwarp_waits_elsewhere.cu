// Bug: lanes 0-15 of each warp sync with a full-mask __syncwarp(), which names lanes 16-31; those
// lanes are alive but wait at a __syncthreads() on the other path, which in turn waits for lanes
// 0-15. Neither can complete, and both calls break their rules (a named lane runs a different
// primitive; a block barrier under a condition the block does not share).
extern "C" __global__ void syncwarp_waits_elsewhere(const unsigned* in, unsigned* out) {
  __shared__ unsigned s[64];
  unsigned t = threadIdx.x, lane = t & 31;
  unsigned v = in[t];
  if (lane < 16) {
    s[t] = v;
    __syncwarp();
    out[t] = s[t + 16];
  } else {
    s[t] = v + 5;
    __syncthreads();
    out[t] = s[t - 16];
  }
}
