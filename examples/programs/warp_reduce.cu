// Correct: each warp adds up its 32 inputs with __shfl_down_sync over the whole warp. Every lane
// executes every shuffle with the full mask, so no lane is ever missing; a lane whose source
// (lane + offset) lies past lane 31 keeps its own value, which only ever reaches lanes other
// than 0. After offsets 16, 8, 4, 2, 1, lane 0 holds the warp's total and stores it.
extern "C" __global__ void warp_reduce(const unsigned* in, unsigned* out) {
  unsigned t = threadIdx.x;
  unsigned v = in[t];
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffff, v, offset);
  if ((t & 31) == 0) out[t / 32] = v;
}
