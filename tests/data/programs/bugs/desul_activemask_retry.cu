// The desul/desul#132 pattern (and the kokkos/kokkos#1612 fix it descends from): the same retry
// loop, but its mask is __activemask() taken inside the branch. Lanes that reach the branch at
// different times, or on different passes of the outer loop, may get different masks; each mask is
// the same word for every lane it names, and all of them run the same ballots with it.
// A lane needs ((v >> 1) & 3) + 1 + it attempts on pass `it`; a lane with bit 6 set skips pass 0.
extern "C" __global__ void desul_activemask_retry(const unsigned* in, unsigned* out) {
  unsigned lane = threadIdx.x;
  unsigned v = in[lane];
  unsigned acc = 0;
  for (unsigned it = 0; it < 2; ++it) {
    if ((v & 1u) && (it == 1 || (v & 64u) == 0)) {
      unsigned need = ((v >> 1) & 3u) + 1u + it;
      unsigned tries = 0, done = 0;
      unsigned mask = __activemask();
      unsigned active = __ballot_sync(mask, 1);
      unsigned done_active = 0;
      while (active != done_active) {
        if (!done) {
          ++tries;
          if (tries >= need) done = 1;
        }
        done_active = __ballot_sync(mask, done);
      }
      acc += tries * (it + 1u);
    }
  }
  unsigned total = __reduce_add_sync(0xffffffffu, v);
  out[lane] = acc;
  if (lane == 0) out[32] = total;
}
