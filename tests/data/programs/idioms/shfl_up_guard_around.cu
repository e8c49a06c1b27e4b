// Bug: the scan's guard wraps the shuffle instead of the add. At each step the lanes below the
// offset skip this and every later shuffle, store and exit; the full-mask shuffle then runs
// without them, and a lane whose source (lane - off) is one of them reads a lane that has exited.
extern "C" __global__ void shfl_up_guard_around(const unsigned* in, unsigned* out) {
  unsigned lane = threadIdx.x;
  unsigned v = in[lane];
  for (unsigned off = 1; off < 32; off <<= 1)
    if (lane >= off) v += __shfl_up_sync(0xffffffff, v, off);
  out[lane] = v;
}
