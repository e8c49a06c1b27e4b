// Fixed (kokkos/kokkos#1958): the mask of a group of `width` lanes is shifted by
// (lane / width) * width, so every lane names its own group and the whole group uses one mask.
// Each group computes its maximum and broadcasts it from its first lane.
extern "C" __global__ void kokkos_width_mask_fixed(const unsigned* in, unsigned* out, unsigned width) {
  unsigned t = threadIdx.x;
  unsigned mask = width == 32 ? 0xffffffffu : ((1u << width) - 1u) << ((t / width) * width);
  unsigned v = in[t];
  __syncwarp(mask);
  for (unsigned delta = 1; delta < width; delta *= 2) {
    unsigned o = __shfl_down_sync(mask, v, delta, width);
    if (o > v) v = o;
  }
  out[t] = __shfl_sync(mask, v, 0, width);
}
