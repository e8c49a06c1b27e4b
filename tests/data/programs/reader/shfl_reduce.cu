// A block sum: each warp reduces with __shfl_down_sync, warp 0 adds the partial sums from shared
// memory after __syncthreads().
__global__ void shfl_reduce(const unsigned* in, unsigned* out, unsigned n) {
  __shared__ unsigned partial[32];
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = i < n ? in[i] : 0;
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / 32 ? partial[lane] : 0;
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
    if (lane == 0) out[blockIdx.x] = v;
  }
}
