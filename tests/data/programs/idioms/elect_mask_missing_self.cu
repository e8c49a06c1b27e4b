// Bug: every lane runs elect.sync with the mask 0xffff. Lanes 16-31 are not in the mask they pass,
// which is undefined behaviour.
extern "C" __global__ void elect_mask_missing_self(const unsigned* in, unsigned* out) {
  unsigned lane = threadIdx.x;
  unsigned leader;
  asm volatile("{\n\t.reg .pred p;\n\telect.sync _|p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}"
               : "=r"(leader) : "r"(0x0000ffffu));
  if (leader) out[lane] = in[lane];
}
