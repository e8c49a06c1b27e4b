// Correct: producer/consumer on named barrier 1 with a count of 64. Warp 0 fills shared memory,
// signals with bar.arrive and exits; warp 1 waits with bar.sync, which completes once both warps
// (64 threads) have arrived, and then reads the slots.
extern "C" __global__ void named_barrier_pc(const unsigned* in, unsigned* out) {
  __shared__ unsigned slot[32];
  unsigned t = threadIdx.x;
  if (t < 32) {
    slot[t] = in[t] * 3 + 1;
    asm volatile("bar.arrive 1, 64;" ::: "memory");
  } else {
    asm volatile("bar.sync 1, 64;" ::: "memory");
    out[t - 32] = slot[63 - t];
  }
}
