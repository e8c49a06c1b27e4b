// Correct: elect.sync (sm_90) picks one lane of the full mask as leader; which one is up to the
// hardware, so the leader stores only values every lane holds: the warp's sum, and the number of
// leaders (a reduce of the election flag), which must be 1.
extern "C" __global__ void elect_sync_leader(const unsigned* in, unsigned* out) {
  unsigned t = threadIdx.x, warp = t >> 5;
  unsigned v = in[t];
  unsigned sum = __reduce_add_sync(0xffffffff, v);
  unsigned leader;
  asm volatile("{\n\t.reg .pred p;\n\telect.sync _|p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}"
               : "=r"(leader) : "r"(0xffffffffu));
  unsigned leaders = __reduce_add_sync(0xffffffff, leader);
  if (leader) {
    out[warp] = sum;
    out[2 + warp] = leaders;
  }
}
