// Bug: 96 threads, warp 2 returns early, and warps 0 and 1 wait at bar.sync 1, 96. Exited threads
// never arrive, so only 64 of the 96 arrivals can ever come and the barrier never completes.
extern "C" __global__ void named_count_unreached(const unsigned* in, unsigned* out) {
  __shared__ unsigned s[64];
  unsigned t = threadIdx.x;
  if (t >= 64) return;
  s[t] = in[t] ^ 0x55u;
  asm volatile("bar.sync 1, 96;" ::: "memory");
  out[t] = s[63 - t];
}
