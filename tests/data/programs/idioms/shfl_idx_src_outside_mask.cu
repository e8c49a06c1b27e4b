// Bug: lanes 0-15 broadcast from lane 20 with the mask 0xffff. Every caller is in the mask and all
// lanes it names run the shuffle, but the source lane is not named, so the value read is undefined
// (lanes 16-31 are on the other path).
extern "C" __global__ void shfl_idx_src_outside_mask(const unsigned* in, unsigned* out) {
  unsigned lane = threadIdx.x;
  unsigned v = in[lane];
  if (lane < 16)
    out[lane] = __shfl_sync(0x0000ffff, v, 20);
  else
    out[lane] = v + 1;
}
