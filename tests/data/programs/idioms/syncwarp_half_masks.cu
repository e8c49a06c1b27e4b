// Correct: within each half-warp the lanes exchange through shared memory, each half on its own
// path and with a __syncwarp whose mask names exactly that half; reads stay inside the half.
extern "C" __global__ void syncwarp_half_masks(const unsigned* in, unsigned* out) {
  __shared__ unsigned s[64];
  unsigned t = threadIdx.x, lane = t & 31;
  unsigned v = in[t];
  if (lane < 16) {
    s[t] = v * 5;
    __syncwarp(0x0000ffff);
    out[t] = s[t ^ 15];
  } else {
    for (unsigned k = 0; k < (lane & 3); ++k) v = v * 3 + 1;
    s[t] = v;
    __syncwarp(0xffff0000);
    out[t] = s[t ^ 1];
  }
}
