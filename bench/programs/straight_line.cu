// Benchmark kernel for `warpspec run` with nothing to explore: each thread runs a loop of
// integer arithmetic (about 7 instructions an iteration, n iterations) and stores one word.
extern "C" __global__ void straight_line(const unsigned* in, unsigned* out, unsigned n) {
  const unsigned t = threadIdx.x;
  unsigned v = in[t], w = t;
  for (unsigned i = 0; i < n; ++i) {
    v = v * 1664525u + 1013904223u;
    w ^= v >> 7;
  }
  out[t] = v ^ w;
}
