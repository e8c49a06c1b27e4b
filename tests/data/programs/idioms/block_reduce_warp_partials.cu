// Correct: block sum in the usual two levels. Each warp reduces with down-shuffles, lane 0 stores
// the warp's partial in shared memory, a __syncthreads() orders those stores before warp 0 loads
// them (zero for lanes past the number of warps), and warp 0 reduces the partials. Wraps mod 2^32.
extern "C" __global__ void block_reduce_warp_partials(const unsigned* in, unsigned* out) {
  __shared__ unsigned part[32];
  unsigned t = threadIdx.x, lane = t & 31, warp = t >> 5, nw = blockDim.x >> 5;
  unsigned v = in[t];
  for (unsigned off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffff, v, off);
  if (lane == 0) part[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < nw ? part[lane] : 0;
    for (unsigned off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffff, v, off);
    if (lane == 0) out[0] = v;
  }
}
