// Correct on sm_70+: 72 threads (warp 2 has 8 lanes); threads at or past n return first, including
// part of warp 1 and all of warp 2. __syncthreads_and and __syncthreads_or then run in the
// remaining threads only, and their answers cover only those threads' predicates.
extern "C" __global__ void syncthreads_and_early_exit(const unsigned* in, unsigned* out, unsigned n) {
  unsigned t = threadIdx.x;
  if (t >= n) return;
  unsigned v = in[t];
  unsigned all = __syncthreads_and(v > 10) != 0;
  unsigned any = __syncthreads_or(v > 90) != 0;
  out[t] = all * 2 + any;
}
