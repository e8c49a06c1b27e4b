// Bug: __activemask() used as "the whole warp" right after a divergent branch. The author expects
// the lanes to have come back together after the if, so that m names every lane, the leader is
// lane 0 and every lane receives lane 0's value. Nothing makes the lanes reconverge there: m
// names only the lanes that happen to execute __activemask() together. Each such group is a
// consistent mask for the reduce and the shuffle (every lane in it got the same m), so nothing
// is undefined, but each lane receives the value of its own group's lowest lane, and the groups
// vary from run to run.
extern "C" __global__ void activemask_after_branch(const unsigned* in, unsigned* out) {
  unsigned lane = threadIdx.x;
  unsigned v = in[lane];
  if (lane & 1) {
    out[lane] = v;  // a store keeps the branch a real branch in the PTX
    v = v * 10;
  }
  unsigned m = __activemask();
  unsigned leader = __reduce_min_sync(m, lane);
  out[lane] = __shfl_sync(m, v, leader);
}
