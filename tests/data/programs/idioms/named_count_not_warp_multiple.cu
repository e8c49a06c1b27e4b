// Bug: a named barrier whose thread count (a parameter, launched with 48) is not a multiple of
// the warp size, which the PTX rules for bar/barrier require. ptxas rejects such a count when it
// is an immediate; passed in a register it cannot be checked before the launch.
extern "C" __global__ void named_count_not_warp_multiple(const unsigned* in, unsigned* out,
                                                         unsigned count) {
  __shared__ unsigned s[64];
  unsigned t = threadIdx.x;
  s[t] = in[t] * 9;
  asm volatile("bar.sync 1, %0;" :: "r"(count) : "memory");
  out[t] = s[63 - t];
}
