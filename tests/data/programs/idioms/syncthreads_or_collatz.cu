// Correct: a block-uniform loop. __syncthreads_or returns the same answer to every thread, so all
// 96 threads iterate until every value has reached 1; a thread whose value is already 1 idles.
// out[t] = rounds << 16 | own steps.
extern "C" __global__ void syncthreads_or_collatz(const unsigned* in, unsigned* out) {
  unsigned t = threadIdx.x;
  unsigned v = in[t], steps = 0, rounds = 0;
  while (__syncthreads_or(v != 1)) {
    if (v != 1) {
      v = (v & 1u) ? 3 * v + 1 : v >> 1;
      ++steps;
    }
    ++rounds;
  }
  out[t] = (rounds << 16) | steps;
}
