// Bug (kokkos/kokkos#1612): a lock-based update, reached only by the lanes whose input is odd,
// retries until every lane that entered has succeeded and counts the successes with a
// __ballot_sync over the whole warp. The even lanes are named in that mask but stay alive and wait
// in the warp reduction that follows, which in turn names the odd lanes.
// A lane needs ((v >> 1) & 3) + 1 + it attempts on pass `it`; a lane with bit 6 set skips pass 0.
extern "C" __global__ void kokkos_ballot_fullmask(const unsigned* in, unsigned* out) {
  unsigned lane = threadIdx.x;
  unsigned v = in[lane];
  unsigned acc = 0;
  for (unsigned it = 0; it < 2; ++it) {
    if ((v & 1u) && (it == 1 || (v & 64u) == 0)) {
      unsigned need = ((v >> 1) & 3u) + 1u + it;
      unsigned tries = 0, done = 0;
      unsigned active = __ballot_sync(0xffffffffu, 1);
      unsigned done_active = 0;
      while (active != done_active) {
        if (!done) {
          ++tries;
          if (tries >= need) done = 1;
        }
        done_active = __ballot_sync(0xffffffffu, done);
      }
      acc += tries * (it + 1u);
    }
  }
  unsigned total = __reduce_add_sync(0xffffffffu, v);
  out[lane] = acc;
  if (lane == 0) out[32] = total;
}
