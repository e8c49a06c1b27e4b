// Bug (kokkos/kokkos#1958): a reduction over groups of `width` lanes builds the mask of its group
// from lane % (32 / width) instead of lane / width. With width 8, lane 1 gets 0xff00, lane 2
// 0xff0000, and so on: most lanes call __syncwarp and the shuffles with a mask that does not
// contain them, and no group of lanes ever agrees on one mask.
extern "C" __global__ void kokkos_width_mask(const unsigned* in, unsigned* out, unsigned width) {
  unsigned t = threadIdx.x;
  unsigned mask = width == 32 ? 0xffffffffu : ((1u << width) - 1u) << ((t % (32 / width)) * width);
  unsigned v = in[t];
  __syncwarp(mask);
  for (unsigned delta = 1; delta < width; delta *= 2) {
    unsigned o = __shfl_down_sync(mask, v, delta, width);
    if (o > v) v = o;
  }
  out[t] = __shfl_sync(mask, v, 0, width);
}
