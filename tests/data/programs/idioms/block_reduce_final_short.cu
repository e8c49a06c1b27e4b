// Poor style, defined by the manuals' wording: as block_reduce_final_branch, but the second level
// only uses offsets nw/2 .. 1 (2 and 1 for 4 warps). Lanes 4-31 exit, which releases the full-mask
// shuffles; lanes 2 and 3 then read exited lanes at offset 2, but those undefined values reach
// only lanes 1-3, never lane 0, whose total comes from lanes 0-3 alone.
extern "C" __global__ void block_reduce_final_short(const unsigned* in, unsigned* out) {
  __shared__ unsigned part[32];
  unsigned t = threadIdx.x, lane = t & 31, warp = t >> 5, nw = blockDim.x >> 5;
  unsigned v = in[t];
  for (unsigned off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffff, v, off);
  if (lane == 0) part[warp] = v;
  __syncthreads();
  if (t < nw) {
    v = part[t];
    for (unsigned off = nw >> 1; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffff, v, off);
    if (t == 0) out[0] = v;
  }
}
