// Non-uniform trip counts, defined by the manuals' wording: thread t runs in[t] rounds of
// __syncthreads_count (the bound is loaded again each round, so there is one loop and one
// barrier instruction), then stores and exits. A block barrier waits only for threads that have
// not exited, so round i completes once the threads with fewer rounds have exited, and counts the
// predicate over the threads still looping. (By the CUDA rule of a block-uniform condition this
// is a bug.)
extern "C" __global__ void syncthreads_count_exit(const unsigned* in, unsigned* out) {
  unsigned t = threadIdx.x;
  unsigned acc = 0;
  for (unsigned i = 0; i < in[t]; ++i) {
    acc += __syncthreads_count((t >> i) & 1u);
  }
  out[t] = acc;
}
