// Bug (tile-ai/tilelang#2612): the pass erased the barriers inside the guarded loop and put one
// barrier before the guard, where it orders nothing: in each round the read of the partner's slot
// races with the partner's store, and the next round's store races with the partner's read.
extern "C" __global__ void tilelang_guarded_loop_hoisted(const unsigned* flag, const unsigned* in,
                                                         unsigned* out) {
  __shared__ unsigned s[64];
  unsigned tx = threadIdx.x;
  __syncthreads();
  if (flag[tx] != 0) {
    unsigned v = in[tx];
    for (unsigned k = 0; k < 2; ++k) {
      s[tx] = v + k;
      v = s[tx ^ 1] * 2u + 1u;
    }
    out[tx] = v;
  }
}
