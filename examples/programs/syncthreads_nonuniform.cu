// Bug: the threads with t < n work and then call __syncthreads(); the others skip the work and
// call a __syncthreads() of their own "so that nobody is left waiting". Every thread does reach
// a block barrier, but not the same one: each __syncthreads() is a separate bar.sync
// instruction, and barrier 0 without a thread count must be reached through one instruction by
// the whole block. A block size that is not a multiple of n is exactly when this goes wrong.
extern "C" __global__ void syncthreads_nonuniform(const unsigned* in, unsigned* out, unsigned n) {
  __shared__ unsigned s[64];
  unsigned t = threadIdx.x;
  if (t < n) {
    s[t] = in[t] * 2;
    __syncthreads();
    out[t] = s[n - 1 - t];
  } else {
    __syncthreads();
  }
}
