// Correct: __match_all_sync per 8-lane segment. Each lane passes the mask of its own segment
// (0xff << (lane & 24)), so the four segments of a warp are four independent groups running the
// same instruction at once; a segment whose values all agree gets its mask and true, else 0 and
// false.
extern "C" __global__ void match_all_segments(const unsigned* in, unsigned* out) {
  unsigned t = threadIdx.x, lane = t & 31;
  unsigned v = in[t];
  int pred;
  unsigned m = __match_all_sync(0xffu << (lane & 24u), v, &pred);
  out[t] = m;
  out[64 + t] = pred;
}
