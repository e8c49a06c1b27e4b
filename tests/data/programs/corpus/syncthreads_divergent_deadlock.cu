// Bug: __syncthreads() inside a branch only warp 0 takes. Warp 1 never reaches barrier 0 and
// never exits: it waits on named barrier 1 for 64 threads, which warp 0 would only supply after
// passing barrier 0. Every schedule deadlocks.
extern "C" __global__ void syncthreads_divergent_deadlock(const unsigned* in, unsigned* out) {
  __shared__ unsigned s[32];
  unsigned t = threadIdx.x;
  if (t < 32) {
    s[t] = in[t];
    __syncthreads();
    out[t] = s[31 - t];
  }
  asm volatile("bar.sync 1, 64;" ::: "memory");
  out[32 + t] = t;
}
