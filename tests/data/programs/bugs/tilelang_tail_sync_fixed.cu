// Fixed (tile-ai/tilelang#2556): the guard is split so that every thread of the block reaches one
// __syncthreads() between the stores and the reads.
extern "C" __global__ void tilelang_tail_sync_fixed(const unsigned* in, unsigned* out) {
  __shared__ unsigned s[48];
  unsigned tx = threadIdx.x;
  if (tx < 48) s[tx] = in[tx] * 3u + 1u;
  __syncthreads();
  if (tx < 48) out[tx] = s[47 - tx];
}
