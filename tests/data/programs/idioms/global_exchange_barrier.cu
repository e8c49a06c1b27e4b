// Correct: threads exchange through global memory. Each stores its own word of out, and the
// __syncthreads() makes those stores visible to the whole block before each thread reads the
// word of thread 63 - t (in the other warp).
extern "C" __global__ void global_exchange_barrier(const unsigned* in, unsigned* out) {
  unsigned t = threadIdx.x;
  out[t] = in[t] * 5 + 1;
  __syncthreads();
  out[64 + t] = out[63 - t] + t;
}
