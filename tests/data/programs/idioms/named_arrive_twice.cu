// Bug: warp 0 produces two items and arrives on barrier 1 after each, without waiting in between;
// warp 1 waits twice. If warp 0's second arrival comes before warp 1's first, the two arrivals of
// warp 0 make up the count of 64 alone, that phase completes without warp 1, and warp 1's first
// bar.sync then waits in a new phase that warp 0 (exited) never joins.
extern "C" __global__ void named_arrive_twice(const unsigned* in, unsigned* out) {
  __shared__ unsigned s[64];
  unsigned t = threadIdx.x;
  if (t < 32) {
    s[t] = in[t] + 1;
    asm volatile("bar.arrive 1, 64;" ::: "memory");
    s[32 + t] = in[t] + 2;
    asm volatile("bar.arrive 1, 64;" ::: "memory");
  } else {
    asm volatile("bar.sync 1, 64;" ::: "memory");
    out[t - 32] = s[63 - t];
    asm volatile("bar.sync 1, 64;" ::: "memory");
    out[t] = s[t];
  }
}
