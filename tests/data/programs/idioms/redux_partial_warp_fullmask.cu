// Full mask in a partial warp, harmless here: 40 threads, so warp 1 has lanes 0-7 only. The
// reduce and the ballot are defined over the lanes of the mask that exist and have not exited,
// and neither reads a value from one particular absent lane, so warp 1 gets the sum of its 8
// inputs and the ballot 0xff.
extern "C" __global__ void redux_partial_warp_fullmask(const unsigned* in, unsigned* out) {
  unsigned t = threadIdx.x, lane = t & 31, warp = t >> 5;
  unsigned v = in[t];
  unsigned sum = __reduce_add_sync(0xffffffff, v);
  unsigned b = __ballot_sync(0xffffffff, 1);
  if (lane == 0) {
    out[warp] = sum;
    out[2 + warp] = b;
  }
}
