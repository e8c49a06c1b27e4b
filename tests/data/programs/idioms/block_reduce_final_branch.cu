// Bug: the second level runs inside "if (t < number of warps)", still with the full mask and all
// five offsets. Lanes 4-31 of warp 0 skip it and exit, which releases the shuffle, but then the
// offset-16, -8 and -4 steps read lanes that have exited: lane 0's total is undefined.
extern "C" __global__ void block_reduce_final_branch(const unsigned* in, unsigned* out) {
  __shared__ unsigned part[32];
  unsigned t = threadIdx.x, lane = t & 31, warp = t >> 5, nw = blockDim.x >> 5;
  unsigned v = in[t];
  for (unsigned off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffff, v, off);
  if (lane == 0) part[warp] = v;
  __syncthreads();
  if (t < nw) {
    v = part[t];
    for (unsigned off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffff, v, off);
    if (t == 0) out[0] = v;
  }
}
