// Bug: global_exchange_barrier without the __syncthreads(). The load of out[63 - t] races with
// thread 63 - t's store of it.
extern "C" __global__ void global_exchange_nobarrier(const unsigned* in, unsigned* out) {
  unsigned t = threadIdx.x;
  out[t] = in[t] * 5 + 1;
  out[64 + t] = out[63 - t] + t;
}
