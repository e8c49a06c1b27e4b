// Correct: the non-aligned barrier.cta.sync may be reached by the threads of a warp at different
// instructions. Odd and even threads each run their own barrier.cta.sync 0 on their own path; all
// 64 threads arrive at barrier 0, so it completes and orders every store before every load.
extern "C" __global__ void barrier_cta_divergent(const unsigned* in, unsigned* out) {
  __shared__ unsigned s[64];
  unsigned t = threadIdx.x;
  unsigned v = in[t];
  if (t & 1) {
    s[t] = v * 3;
    asm volatile("barrier.cta.sync 0;" ::: "memory");
    out[t] = s[t ^ 1];
  } else {
    s[t] = v + 9;
    asm volatile("barrier.cta.sync 0;" ::: "memory");
    out[t] = s[63 - t];
  }
}
