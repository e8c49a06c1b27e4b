// Bug: all 32 lanes call __reduce_add_sync with the mask 0xffff, meant as "the lower half takes
// part". Lanes 16-31 are not in the mask they pass, which is undefined behaviour.
extern "C" __global__ void redux_mask_missing_self(const unsigned* in, unsigned* out) {
  unsigned lane = threadIdx.x;
  unsigned v = in[lane];
  out[lane] = __reduce_add_sync(0x0000ffff, v);
}
