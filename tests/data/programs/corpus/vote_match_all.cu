// Correct: full-mask __all_sync, __any_sync and __match_all_sync over each warp; lane 0 of each
// warp stores the four results.
extern "C" __global__ void vote_match_all(const unsigned* in, unsigned* out) {
  unsigned t = threadIdx.x, lane = t & 31, warp = t >> 5;
  unsigned v = in[t];
  int same;
  unsigned all = __all_sync(0xffffffff, v < 100);
  unsigned any = __any_sync(0xffffffff, v > 50);
  unsigned ma = __match_all_sync(0xffffffff, v >> 4, &same);
  if (lane == 0) {
    out[4 * warp] = all;
    out[4 * warp + 1] = any;
    out[4 * warp + 2] = ma;
    out[4 * warp + 3] = same;
  }
}
