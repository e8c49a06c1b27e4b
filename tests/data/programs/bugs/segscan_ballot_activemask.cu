// The fix proposed in gunrock/mini#5 (also moderngpu/moderngpu#36): the ballot's mask becomes
// __activemask() taken inside the branch. That removes the hang, but the lanes that entered need
// not be converged there, so a lane may ballot alone or with only some of the others and miss
// earlier warps' bits.
extern "C" __global__ void segscan_ballot_activemask(const unsigned* in, unsigned* out) {
  __shared__ unsigned delta[8];
  unsigned tid = threadIdx.x;
  unsigned nw = blockDim.x / 32;
  if ((tid & 31) == 0) delta[tid >> 5] = in[tid >> 5];
  __syncthreads();
  if (tid < nw) {
    unsigned m = __activemask();
    unsigned cta_bits = __ballot_sync(m, delta[tid] != 0);
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
