// Bug: an in-place shift in shared memory. The first __syncthreads() orders the fills before the
// loads, but nothing orders thread t's load of s[t + 1] before thread t + 1 overwrites it (a
// write-after-read race); a second barrier between the load and the store would fix it.
extern "C" __global__ void shared_shift_war(const unsigned* in, unsigned* out) {
  __shared__ unsigned s[64];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  unsigned x = s[(t + 1) & 63];
  s[t] = x + 2 * s[t];
  __syncthreads();
  out[t] = s[t];
}
