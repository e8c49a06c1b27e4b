// The source as written for NVlabs/cuda-oxide#229: the lanes whose flag is set are counted by a
// whole-warp ballot before the branch, and only they run __match_any_sync, with that ballot as the
// mask. Every lane the mask names runs the match, so each gets the lanes of the mask that share
// its key.
extern "C" __global__ void oxide_match_branch(const unsigned* keys, const unsigned* flag,
                                              unsigned* out) {
  unsigned lane = threadIdx.x;
  unsigned key = keys[lane];
  unsigned p = flag[lane];
  unsigned b = __ballot_sync(0xffffffffu, p != 0);
  if (p != 0) out[lane] = __match_any_sync(b, key);
}
