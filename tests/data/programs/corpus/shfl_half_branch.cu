// Bug: a full-mask __shfl_xor_sync executed only by lanes 0-15. Lanes 16-31 are named in the
// mask but never execute the shuffle (they store and exit).
extern "C" __global__ void shfl_half_branch(const unsigned* in, unsigned* out) {
  unsigned lane = threadIdx.x;
  unsigned v = in[lane];
  if (lane < 16) v += __shfl_xor_sync(0xffffffff, v, 1);
  out[lane] = v;
}
