// Bug (kokkos/kokkos#6217, fixed by #6630): after a warp reduction one thread writes the result
// words to shared memory and other threads of the warp copy them out, with nothing between the
// write and the reads.
extern "C" __global__ void kokkos_reduce_result_race(const unsigned* in, unsigned* out) {
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
  if (t < 4) out[t] = shared[t];
}
