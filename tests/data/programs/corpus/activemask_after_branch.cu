// Schedule-dependent: after a divergent branch the lanes need not reconverge, so __activemask()
// may return the whole warp or only the lanes that run with the caller. That mask is still a
// valid shuffle mask (every lane it names got the same word and runs the same shuffle), so each
// lane reads the value of the lowest lane of its own group; the groups vary by schedule.
extern "C" __global__ void activemask_after_branch(const unsigned* in, unsigned* out) {
  unsigned lane = threadIdx.x;
  unsigned v = in[lane];
  if (v & 1u) {
    out[32 + lane] = v * 3 + 1;
  } else {
    v = v + 1000;
  }
  unsigned m = __activemask();
  unsigned leader = __reduce_min_sync(m, lane);
  out[lane] = __shfl_sync(m, v, leader);
}
