// Bug: each thread stores its slot of shared memory and at once reads the mirror slot, which
// another thread (in the other warp) stores; no barrier orders the two accesses.
extern "C" __global__ void shared_race_nobarrier(const unsigned* in, unsigned* out) {
  __shared__ unsigned s[64];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  out[t] = s[63 - t];
}
