// From NVIDIA/cuda-samples#398 (reduce7): the last step reduces the per-warp sums with a mask
// taken from a ballot of tid < shmem_extent. With one warp, shmem_extent is 1 and the mask is 1,
// yet lane 0 still shuffles down by 16, 8, 4, 2 and 1, reading lanes outside its mask.
extern "C" __global__ void reduce7_small_block(const unsigned* in, unsigned* out) {
  __shared__ unsigned sdata[32];
  unsigned tid = threadIdx.x;
  unsigned mySum = in[tid];
  for (unsigned off = 16; off > 0; off >>= 1) mySum += __shfl_down_sync(0xffffffffu, mySum, off);
  if ((tid & 31) == 0) sdata[tid >> 5] = mySum;
  __syncthreads();
  unsigned shmem_extent = blockDim.x / 32 > 0 ? blockDim.x / 32 : 1;
  unsigned ballot_result = __ballot_sync(0xffffffffu, tid < shmem_extent);
  if (tid < shmem_extent) {
    mySum = sdata[tid];
    for (unsigned off = 16; off > 0; off >>= 1) mySum += __shfl_down_sync(ballot_result, mySum, off);
  }
  if (tid == 0) out[0] = mySum;
}
