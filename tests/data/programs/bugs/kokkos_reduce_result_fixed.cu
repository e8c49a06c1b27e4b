// Fixed (kokkos/kokkos#6630): a __syncwarp() between the single writer and the readers.
extern "C" __global__ void kokkos_reduce_result_fixed(const unsigned* in, unsigned* out) {
  __shared__ unsigned shared[4];
  unsigned t = threadIdx.x;
  unsigned v = in[t];
  for (unsigned off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
  if (t == 0) {
    shared[0] = v;
    shared[1] = v * 3u;
    shared[2] = v ^ 0xffffu;
    shared[3] = v + 7u;
  }
  __syncwarp();
  if (t < 4) out[t] = shared[t];
}
