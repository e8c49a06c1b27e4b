// Correct: a block sum through shared memory, a __syncthreads() before the first step and after
// every halving step, so no thread reads a slot another thread may still write.
extern "C" __global__ void block_reduce_shared(const unsigned* in, unsigned* out) {
  __shared__ unsigned s[64];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  for (unsigned stride = 32; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[0] = s[0];
}
