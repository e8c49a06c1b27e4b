// Correct: producer/consumer over three rounds with two named barriers. Warp 0 fills the buffer
// and signals "full" (bar.arrive 1, 64); warp 1 waits on "full" (bar.sync 1, 64), reads, and
// signals "empty" (bar.arrive 2, 64); before refilling, warp 0 waits on "empty". No warp arrives
// twice on a barrier before it has completed, and each completion orders the stores or loads
// that precede the arrival before the waiter goes on.
extern "C" __global__ void named_pingpong(const unsigned* in, unsigned* out) {
  __shared__ unsigned buf[32];
  unsigned t = threadIdx.x;
  if (t < 32) {
    for (unsigned r = 0; r < 3; ++r) {
      if (r > 0) asm volatile("bar.sync 2, 64;" ::: "memory");
      buf[t] = in[32 * r + t] + r;
      asm volatile("bar.arrive 1, 64;" ::: "memory");
    }
  } else {
    unsigned acc = 0;
    for (unsigned r = 0; r < 3; ++r) {
      asm volatile("bar.sync 1, 64;" ::: "memory");
      acc += buf[63 - t] * (r + 1);
      if (r < 2) asm volatile("bar.arrive 2, 64;" ::: "memory");
    }
    out[t - 32] = acc;
  }
}
