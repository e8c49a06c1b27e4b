// Correct: inclusive prefix sums over 16-lane segments. Every lane runs every up-shuffle with the
// full mask and width 16; only the add is guarded, so lanes below the offset (which get their own
// value back) do not add it.
extern "C" __global__ void shfl_up_scan_w16(const unsigned* in, unsigned* out) {
  unsigned t = threadIdx.x;
  unsigned pos = t & 15;
  unsigned v = in[t];
  for (unsigned off = 1; off < 16; off <<= 1) {
    unsigned y = __shfl_up_sync(0xffffffff, v, off, 16);
    if (pos >= off) v += y;
  }
  out[t] = v;
}
