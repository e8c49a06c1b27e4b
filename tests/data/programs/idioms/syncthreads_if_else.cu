// Bug: the same exchange with __syncthreads() (bar.sync 0, an aligned barrier) in both arms of a
// branch that splits every warp. Aligned barriers must be reached by all threads at the same
// instruction; a non-uniform condition around them is undefined behaviour, even though every
// thread does reach some barrier 0.
extern "C" __global__ void syncthreads_if_else(const unsigned* in, unsigned* out) {
  __shared__ unsigned s[64];
  unsigned t = threadIdx.x;
  unsigned v = in[t];
  if (t & 1) {
    s[t] = v * 3;
    __syncthreads();
    out[t] = s[t ^ 1];
  } else {
    s[t] = v + 9;
    __syncthreads();
    out[t] = s[63 - t];
  }
}
