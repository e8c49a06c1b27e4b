// Correct: segmented sums with width 8. Each group of 8 lanes is its own shuffle segment and a
// down-shuffle never leaves it (a lane whose source would fall past the segment's top keeps its
// own value), so after offsets 4, 2, 1 the first lane of every segment holds the segment's sum.
// Every lane stores its final value, which also shows the top lanes adding their own values.
extern "C" __global__ void shfl_down_w8_sum(const unsigned* in, unsigned* out) {
  unsigned t = threadIdx.x;
  unsigned v = in[t];
  for (unsigned off = 4; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffff, v, off, 8);
  out[t] = v;
}
