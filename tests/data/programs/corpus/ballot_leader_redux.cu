// Correct: the ballot of "input is odd", taken by the whole warp before the branch, is the exact
// set of lanes that enter it, so it is a valid mask for __reduce_add_sync inside the branch. The
// lowest lane of that set (b & -b) is the leader and stores the sum and the mask.
extern "C" __global__ void ballot_leader_redux(const unsigned* in, unsigned* out) {
  unsigned t = threadIdx.x, lane = t & 31, warp = t >> 5;
  unsigned v = in[t];
  unsigned b = __ballot_sync(0xffffffff, v & 1u);
  if (v & 1u) {
    unsigned sum = __reduce_add_sync(b, v);
    if ((b & (0u - b)) == (1u << lane)) {
      out[2 * warp] = sum;
      out[2 * warp + 1] = b;
    }
  }
}
