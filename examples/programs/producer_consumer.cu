// Correct: warp specialisation on named barrier 1 with a thread count of 64. Warp 0 (the
// producer) fills shared memory and announces it with bar.arrive, which does not wait; warp 1
// (the consumer) waits with bar.sync. Barrier 1 completes once 64 threads have arrived, 32 by
// each instruction, and the producer's stores before its arrive are then visible to the
// consumer's loads after its sync.
extern "C" __global__ void producer_consumer(const unsigned* in, unsigned* out) {
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
