// Groups of equal keys (__match_any_sync), a warp sum (__reduce_add_sync) and a block count
// (__syncthreads_count), written to two arrays.
__global__ void match_redux(const int* keys, int* sums, unsigned* groups, int* counts) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  int k = keys[t];
  unsigned group = __match_any_sync(0xffffffff, k);
  int sum = __reduce_add_sync(group, k);
  int positive = __syncthreads_count(k > 0);
  groups[t] = group;
  sums[t] = sum;
  if (threadIdx.x == 0) counts[blockIdx.x] = positive;
}
