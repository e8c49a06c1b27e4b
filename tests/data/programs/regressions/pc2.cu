// Producer arrives twice on barrier 1 (count 64) without waiting; the consumer syncs twice.
extern "C" __global__ void pc2(unsigned* out) {
  __shared__ unsigned slot[32];
  unsigned t = threadIdx.x;
  if (t < 32) {
    slot[t] = 1;
    asm volatile("bar.arrive 1, 64;" ::: "memory");
    slot[t] = 2;
    asm volatile("bar.arrive 1, 64;" ::: "memory");
  } else {
    asm volatile("bar.sync 1, 64;" ::: "memory");
    out[t - 32] = slot[t - 32];
    asm volatile("bar.sync 1, 64;" ::: "memory");
    out[t] = slot[t - 32];
  }
}
