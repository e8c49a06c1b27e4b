// Correct: match_any emulated with ballots, for the lanes with a non-zero key only. The mask of
// those lanes is a ballot taken by the whole warp before the branch; each round the lowest
// pending lane (__reduce_min_sync) broadcasts its key, the lanes holding it take the ballot as
// their group and leave, and the rest drop them from the mask. Same answer as __match_any_sync.
extern "C" __global__ void match_emul_ballot(const unsigned* keys, unsigned* out) {
  unsigned lane = threadIdx.x;
  unsigned key = keys[lane];
  unsigned mask = __ballot_sync(0xffffffff, key != 0);
  if (key != 0) {
    unsigned group;
    for (;;) {
      unsigned leader = __reduce_min_sync(mask, lane);
      unsigned lk = __shfl_sync(mask, key, leader);
      unsigned b = __ballot_sync(mask, key == lk);
      if (key == lk) { group = b; break; }
      mask &= ~b;
    }
    out[lane] = group;
  }
}
