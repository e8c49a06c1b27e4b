// Schedule-dependent mask, deterministic answer: the four lanes with an input below 4 take
// __activemask() after a divergent branch, so the mask may be any group of them that runs
// together. Whatever it is, it names the caller and only lanes of the branch (b, a whole-warp
// ballot taken before it), and every lane it names runs the reduce with it, so the or-reduce of
// the callers' own bits equals the mask and holds the caller's bit: every caller stores 7.
extern "C" __global__ void activemask_self_bit(const unsigned* in, unsigned* out) {
  unsigned lane = threadIdx.x;
  unsigned v = in[lane];
  unsigned b = __ballot_sync(0xffffffff, v < 4);
  if (v < 4) {
    unsigned m = __activemask();
    unsigned x = __reduce_or_sync(m, 1u << lane);
    out[lane] = ((x >> lane) & 1u) | ((x == m) << 1) | (((x & ~b) == 0) << 2);
  }
}
