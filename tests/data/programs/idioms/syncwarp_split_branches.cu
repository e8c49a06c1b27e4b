// Correct on sm_70+: each half of the warp stores its slot and runs __syncwarp() on its own path.
// The two calls are different instructions with the same full mask, and a __syncwarp() waits only
// for every named lane to run a __syncwarp() with that mask, so they complete together and order
// both halves' stores before the reads of the other half.
extern "C" __global__ void syncwarp_split_branches(const unsigned* in, unsigned* out) {
  __shared__ unsigned s[32];
  unsigned lane = threadIdx.x;
  unsigned v = in[lane];
  if (lane < 16) {
    s[lane] = v + 1;
    __syncwarp();
    out[lane] = s[lane + 16];
  } else {
    s[lane] = v * 2;
    __syncwarp();
    out[lane] = s[lane - 16] + 7;
  }
}
