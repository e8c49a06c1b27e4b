// Correct: indexed shuffles with a width. With width 8 a source lane of 11 means lane 3 of the
// caller's own 8-lane segment; with width 16 the source t >> 3 (0..7) is taken inside the caller's
// 16-lane segment.
extern "C" __global__ void shfl_idx_w8_bcast(const unsigned* in, unsigned* out) {
  unsigned t = threadIdx.x;
  unsigned v = in[t];
  unsigned a = __shfl_sync(0xffffffff, v, 11, 8);
  unsigned b = __shfl_sync(0xffffffff, v, t >> 3, 16);
  out[t] = a;
  out[64 + t] = b;
}
