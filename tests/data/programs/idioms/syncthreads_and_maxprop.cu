// Correct: a running maximum spreads rightwards through shared memory one slot per round until no
// slot changes. The loop test is __syncthreads_and, the same for every thread; the barriers order
// each round's reads of the left neighbour before its writes and the writes before the next reads.
// out[t] = final slot, out[64 + t] = rounds.
extern "C" __global__ void syncthreads_and_maxprop(const unsigned* in, unsigned* out) {
  __shared__ unsigned s[64];
  unsigned t = threadIdx.x, rounds = 0;
  s[t] = in[t];
  int done;
  do {
    __syncthreads();
    unsigned cur = s[t];
    unsigned left = t ? s[t - 1] : 0;
    unsigned nv = left > cur ? left : cur;
    done = nv == cur;
    __syncthreads();
    s[t] = nv;
    ++rounds;
  } while (!__syncthreads_and(done));
  out[t] = s[t];
  out[64 + t] = rounds;
}
