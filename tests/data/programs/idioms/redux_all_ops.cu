// Correct: every __reduce_*_sync flavour over two full warps with the full mask: add (wrapping),
// unsigned and signed min and max (the inputs have the top bit set in places, so the signed and
// unsigned answers differ), and, or, xor. Lane 0 of each warp stores the eight results.
extern "C" __global__ void redux_all_ops(const unsigned* in, unsigned* out) {
  unsigned t = threadIdx.x, lane = t & 31, warp = t >> 5;
  unsigned v = in[t];
  int s = (int)v;
  unsigned r0 = __reduce_add_sync(0xffffffff, v);
  unsigned r1 = __reduce_min_sync(0xffffffff, v);
  unsigned r2 = __reduce_max_sync(0xffffffff, v);
  unsigned r3 = (unsigned)__reduce_min_sync(0xffffffff, s);
  unsigned r4 = (unsigned)__reduce_max_sync(0xffffffff, s);
  unsigned r5 = __reduce_and_sync(0xffffffff, v);
  unsigned r6 = __reduce_or_sync(0xffffffff, v);
  unsigned r7 = __reduce_xor_sync(0xffffffff, v);
  if (lane == 0) {
    unsigned* o = out + 8 * warp;
    o[0] = r0; o[1] = r1; o[2] = r2; o[3] = r3;
    o[4] = r4; o[5] = r5; o[6] = r6; o[7] = r7;
  }
}
