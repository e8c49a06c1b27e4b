// Bug: compaction inside the branch, with __activemask() standing in for "the lanes that keep".
// After the divergent branch the kept lanes need not run together, so the mask may name only some
// of them; ranks are then counted within each group, two lanes of different groups can get the
// same slot and store to it, and which values land where depends on the schedule.
extern "C" __global__ void compact_activemask(const unsigned* in, unsigned* out) {
  unsigned lane = threadIdx.x;
  unsigned v = in[lane];
  if (v & 1u) {
    unsigned m = __activemask();
    unsigned b = __ballot_sync(m, 1);
    unsigned rank = 0;
#pragma unroll
    for (unsigned j = 0; j < 32; ++j) rank += j < lane ? (b >> j) & 1u : 0u;
    out[rank] = v;
  }
}
