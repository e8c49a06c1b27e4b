// Correct: inside "if (v is odd)", elect.sync with the ballot of odd lanes taken by the whole warp
// before the branch, which names exactly the lanes inside. The leader stores the odd lanes' sum
// and the number of leaders.
extern "C" __global__ void elect_sync_branch_mask(const unsigned* in, unsigned* out) {
  unsigned t = threadIdx.x, warp = t >> 5;
  unsigned v = in[t];
  unsigned b = __ballot_sync(0xffffffff, v & 1u);
  if (v & 1u) {
    unsigned sum = __reduce_add_sync(b, v);
    unsigned leader;
    asm volatile("{\n\t.reg .pred p;\n\telect.sync _|p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}"
                 : "=r"(leader) : "r"(b));
    unsigned leaders = __reduce_add_sync(b, leader);
    if (leader) {
      out[2 * warp] = sum;
      out[2 * warp + 1] = leaders;
    }
  }
}
