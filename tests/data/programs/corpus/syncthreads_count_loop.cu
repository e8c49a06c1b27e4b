// Correct: a block-uniform loop. __syncthreads_count gives every thread the same count, so all
// threads leave the loop together; total is the sum over threads of their inputs' bit lengths.
extern "C" __global__ void syncthreads_count_loop(const unsigned* in, unsigned* out) {
  unsigned t = threadIdx.x;
  unsigned v = in[t];
  unsigned total = 0, mine = 0, c;
  while ((c = __syncthreads_count(v != 0)) != 0) {
    total += c;
    mine += v != 0;
    v >>= 1;
  }
  out[t] = (total << 8) | mine;
}
