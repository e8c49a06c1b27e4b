// After CHIP-SPV/chipStar#1354, which found __shfl_xor ignoring `width` and __shfl not wrapping
// the source lane within its segment. With width 8: an xor by 8 leaves the partner's segment, so
// lanes whose partner is in a later segment keep their own value while lanes whose partner is in
// an earlier segment read it; an index of 13 is taken modulo 8, within the caller's segment.
extern "C" __global__ void shfl_width_xor_idx(const unsigned* in, unsigned* out, unsigned width) {
  unsigned lane = threadIdx.x;
  unsigned v = in[lane];
  out[lane] = __shfl_xor_sync(0xffffffffu, v, 8, width);
  out[32 + lane] = __shfl_sync(0xffffffffu, v, 13, width);
}
