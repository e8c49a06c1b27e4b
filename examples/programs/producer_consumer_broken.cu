// Bug: producer_consumer without the producer's bar.arrive. The consumer warp waits at barrier 1
// for 64 threads, but only its own 32 ever arrive, and the producer warp has finished and exited:
// the consumer waits for ever.
extern "C" __global__ void producer_consumer_broken(const unsigned* in, unsigned* out) {
  __shared__ unsigned slot[32];
  unsigned t = threadIdx.x;
  if (t < 32) {
    slot[t] = in[t] * 3 + 1;
  } else {
    asm volatile("bar.sync 1, 64;" ::: "memory");
    out[t - 32] = slot[63 - t];
  }
}
