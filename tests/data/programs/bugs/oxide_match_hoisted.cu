// Bug (NVlabs/cuda-oxide#229): match.sync was exported without the convergent attribute, so the
// optimiser may move it across the branch. This is the placement that results when the match is
// hoisted above the `if`: every lane runs it, including the lanes whose flag is clear, which are
// not in the mask they pass.
extern "C" __global__ void oxide_match_hoisted(const unsigned* keys, const unsigned* flag,
                                               unsigned* out) {
  unsigned lane = threadIdx.x;
  unsigned key = keys[lane];
  unsigned p = flag[lane];
  unsigned b = __ballot_sync(0xffffffffu, p != 0);
  unsigned m = __match_any_sync(b, key);
  if (p != 0) out[lane] = m;
}
