// After ROCm/hip#3213: shuffles with a `width` below 32 split the warp into segments of `width`
// lanes. An index shuffle wraps the source lane inside the segment (lane + 4 wraps to the start of
// the segment), and up/down shuffles leave the lanes whose source would cross a segment edge with
// their own value. The answer differs from the full-warp one only if `width` is honoured.
extern "C" __global__ void shfl_width_modes(const unsigned* in, unsigned* out, unsigned width) {
  unsigned lane = threadIdx.x;
  unsigned v = in[lane];
  out[lane] = __shfl_sync(0xffffffffu, v, lane + 4, width);
  out[32 + lane] = __shfl_up_sync(0xffffffffu, v, 3, width);
  out[64 + lane] = __shfl_down_sync(0xffffffffu, v, 3, width);
}
