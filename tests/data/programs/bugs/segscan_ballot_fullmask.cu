// Bug (gunrock/mini#5, the moderngpu CTA segmented scan): the first `nw` lanes of warp 0 (one per
// warp of the block) ballot which warps have a segment start, with the full mask, inside a branch
// the other lanes of warp 0 skip. Those lanes are alive and wait at the __syncthreads() after it.
// Each entering lane then takes the start of the nearest earlier warp that has one.
extern "C" __global__ void segscan_ballot_fullmask(const unsigned* in, unsigned* out) {
  __shared__ unsigned delta[8];
  unsigned tid = threadIdx.x;
  unsigned nw = blockDim.x / 32;
  if ((tid & 31) == 0) delta[tid >> 5] = in[tid >> 5];
  __syncthreads();
  if (tid < nw) {
    unsigned cta_bits = __ballot_sync(0xffffffffu, delta[tid] != 0);
    unsigned below = cta_bits & ((1u << tid) - 1u);
    unsigned start = 0;
    for (unsigned w = tid; w > 0; --w) {
      if ((below >> (w - 1)) & 1u) {
        start = delta[w - 1] - 1u + 32u * (w - 1);
        break;
      }
    }
    delta[nw + tid] = start;
  }
  __syncthreads();
  if (tid < nw) out[tid] = delta[nw + tid];
}
