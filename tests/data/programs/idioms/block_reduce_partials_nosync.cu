// Bug: the block reduction without the __syncthreads() between storing the per-warp partials and
// warp 0 loading them. Lanes 1 and 2 of warp 0 load the partials of warps 1 and 2 with nothing
// ordering those loads after the stores.
extern "C" __global__ void block_reduce_partials_nosync(const unsigned* in, unsigned* out) {
  __shared__ unsigned part[32];
  unsigned t = threadIdx.x, lane = t & 31, warp = t >> 5, nw = blockDim.x >> 5;
  unsigned v = in[t];
  for (unsigned off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffff, v, off);
  if (lane == 0) part[warp] = v;
  if (warp == 0) {
    v = lane < nw ? part[lane] : 0;
    for (unsigned off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffff, v, off);
    if (lane == 0) out[0] = v;
  }
}
