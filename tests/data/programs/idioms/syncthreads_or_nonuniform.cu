// Bug: as syncthreads_count_exit, with __syncthreads_or, but the threads whose rounds are done go
// on to a __syncthreads() instead of exiting. Live threads then stand at different aligned
// barrier instructions of barrier 0 (bar.red and bar.sync), which the PTX rules leave undefined.
extern "C" __global__ void syncthreads_or_nonuniform(const unsigned* in, unsigned* out) {
  __shared__ unsigned s[64];
  unsigned t = threadIdx.x;
  unsigned acc = 0;
  for (unsigned i = 0; i < in[t]; ++i) {
    acc += __syncthreads_or(((t + i) & 7u) == 0);
  }
  s[t] = acc;
  __syncthreads();
  out[t] = s[63 - t];
}
