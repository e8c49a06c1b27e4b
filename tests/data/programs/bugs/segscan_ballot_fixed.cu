// Fixed (gunrock/mini#5): the whole warp takes the ballot before the branch, with the predicate
// false for lanes past the last warp, so every lane the mask names executes it.
extern "C" __global__ void segscan_ballot_fixed(const unsigned* in, unsigned* out) {
  __shared__ unsigned delta[8];
  unsigned tid = threadIdx.x;
  unsigned nw = blockDim.x / 32;
  if ((tid & 31) == 0) delta[tid >> 5] = in[tid >> 5];
  __syncthreads();
  unsigned cta_bits = __ballot_sync(0xffffffffu, tid < nw && delta[tid] != 0);
  if (tid < nw) {
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
