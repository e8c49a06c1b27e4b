// Correct on sm_70+: threads whose input is 0 return before a full-mask ballot and reduce. Both
// wait only for the named lanes that have not exited and are defined over those, so the ballot
// has bits for live lanes only and the reduce counts the live lanes of the warp.
extern "C" __global__ void early_exit_ballot(const unsigned* in, unsigned* out) {
  unsigned t = threadIdx.x;
  unsigned v = in[t];
  if (v == 0) return;
  unsigned b = __ballot_sync(0xffffffff, v & 1u);
  unsigned live = __reduce_add_sync(0xffffffff, 1u);
  out[t] = b;
  out[64 + t] = live;
}
