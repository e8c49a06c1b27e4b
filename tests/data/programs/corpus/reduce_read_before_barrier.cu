// Bug: the first reduction step (warp 0 adds the slot of thread t + 32) runs before the
// __syncthreads(), so it races with warp 1's store of that slot; the rest is a correct warp sum.
extern "C" __global__ void reduce_read_before_barrier(const unsigned* in, unsigned* out) {
  __shared__ unsigned s[64];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  if (t < 32) s[t] += s[t + 32];
  __syncthreads();
  if (t < 32) {
    unsigned v = s[t];
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffff, v, off);
    if (t == 0) out[0] = v;
  }
}
