// Bug: both warps use bar.sync 1, 32 as if it were a block barrier. A count of 32 is met by one
// warp alone, so each warp passes on its own arrival and reads the other warp's slots with
// nothing ordering the loads after the stores.
extern "C" __global__ void named_count_too_small(const unsigned* in, unsigned* out) {
  __shared__ unsigned s[64];
  unsigned t = threadIdx.x;
  s[t] = in[t] + 7;
  asm volatile("bar.sync 1, 32;" ::: "memory");
  out[t] = s[63 - t];
}
