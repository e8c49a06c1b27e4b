// From fireice-uk/xmr-stak#1569: with a block size that is not a multiple of 32 the last warp is
// partial, and full-mask shuffles within groups of 4 lanes hung with CUDA 9 on Volta. Here 48
// threads: warp 1 has lanes 0-15 only. The mask names lanes 16-31 of warp 1, which do not exist;
// every source lane does.
extern "C" __global__ void xmrstak_partial_warp(const unsigned* in, unsigned* out) {
  unsigned t = threadIdx.x;
  unsigned v = in[t];
  unsigned a = __shfl_sync(0xffffffffu, v, (t + 1) & 3, 4);
  unsigned b = __shfl_xor_sync(0xffffffffu, v, 2, 4);
  out[t] = a * 16u + b;
}
