// The placement tile-ai/tilelang#2612 asks for: the barriers stay inside the loop inside the
// data-dependent guard. Threads whose flag is 0 skip the guard and exit; a block barrier waits only
// for threads that have not exited, so the threads inside meet at every barrier. The flags come in
// pairs (t, t ^ 1), so every slot read was written in the same round.
extern "C" __global__ void tilelang_guarded_loop_sync(const unsigned* flag, const unsigned* in,
                                                      unsigned* out) {
  __shared__ unsigned s[64];
  unsigned tx = threadIdx.x;
  if (flag[tx] != 0) {
    unsigned v = in[tx];
    for (unsigned k = 0; k < 2; ++k) {
      s[tx] = v + k;
      __syncthreads();
      v = s[tx ^ 1] * 2u + 1u;
      __syncthreads();
    }
    out[tx] = v;
  }
}
