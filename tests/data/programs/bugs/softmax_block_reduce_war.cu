// Bug (pytorch/pytorch#20182): in the block reduction, lane w of warp 0 sums the 32 slots of warp w
// and writes the sum back into slot w. Lane 0 is still reading slots 1, 2, ... while lanes 1, 2,
// ... overwrite them: a write-after-read race inside warp 0.
extern "C" __global__ void softmax_block_reduce_war(const unsigned* in, unsigned* out) {
  __shared__ unsigned smem[64];
  unsigned t = threadIdx.x;
  smem[t] = in[t];
  __syncthreads();
  unsigned nwarps = blockDim.x / 32;
  if (t < 32) {
    unsigned lane = t & 31;
    if (lane < nwarps) {
      unsigned w = 0;
      for (unsigned i = 0; i < 32; ++i) w += smem[lane * 32 + i];
      smem[lane] = w;
    }
  }
  __syncthreads();
  if (t == 0) {
    unsigned b = 0;
    for (unsigned i = 0; i < nwarps; ++i) b += smem[i];
    out[0] = b;
  }
}
