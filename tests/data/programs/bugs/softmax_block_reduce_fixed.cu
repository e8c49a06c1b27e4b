// Fixed (pytorch/pytorch#20182): __syncwarp(mask) between the reads and the write-back, with the
// mask naming exactly the lanes that take this path (one per warp of the block), since the other
// lanes of warp 0 never reach it.
extern "C" __global__ void softmax_block_reduce_fixed(const unsigned* in, unsigned* out) {
  __shared__ unsigned smem[64];
  unsigned t = threadIdx.x;
  smem[t] = in[t];
  __syncthreads();
  unsigned nwarps = blockDim.x / 32;
  unsigned mask = (1u << nwarps) - 1u;
  if (t < 32) {
    unsigned lane = t & 31;
    if (lane < nwarps) {
      unsigned w = 0;
      for (unsigned i = 0; i < 32; ++i) w += smem[lane * 32 + i];
      __syncwarp(mask);
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
