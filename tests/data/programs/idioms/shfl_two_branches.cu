// Correct on sm_70+: the two halves run two different full-mask xor-16 shuffle instructions on
// the two paths of a branch. Both have the same qualifiers and the same mask, which is all a
// shfl.sync waits for, so they execute as one exchange: each half reads the other half's operand.
extern "C" __global__ void shfl_two_branches(const unsigned* in, unsigned* out) {
  unsigned lane = threadIdx.x;
  unsigned v = in[lane];
  unsigned r;
  if (lane < 16) {
    r = __shfl_xor_sync(0xffffffff, v + 1000, 16);
  } else {
    out[32 + lane] = v;
    r = __shfl_xor_sync(0xffffffff, v * 2, 16);
  }
  out[lane] = r;
}
