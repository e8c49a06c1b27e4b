// Correct: xor shuffles whose partner lies in another width segment. With width w a lane may read
// a partner in an earlier segment but gets its own value back when the partner is in a later one,
// so the results are lopsided: xor 16 with width 16 moves lanes 0-15 into 16-31 only, and xor 12
// with width 8 reads across only where the caller's bit 3 is set.
extern "C" __global__ void shfl_xor_width_cross(const unsigned* in, unsigned* out) {
  unsigned lane = threadIdx.x;
  unsigned v = in[lane];
  unsigned a = __shfl_xor_sync(0xffffffff, v, 16, 16);
  unsigned b = __shfl_xor_sync(0xffffffff, v, 12, 8);
  out[lane] = a;
  out[32 + lane] = b;
}
