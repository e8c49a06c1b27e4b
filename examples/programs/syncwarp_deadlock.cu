// Bug: the two halves of the warp wait at different kinds of warp collective, each naming the
// whole warp. Lanes 0-15 wait at __syncwarp(0xffffffff) for lanes 16-31; lanes 16-31 wait at
// __ballot_sync(0xffffffff, ...) for lanes 0-15. Two __syncwarp() calls at different places would
// meet each other on sm_70 and later, but a __syncwarp() and a __ballot_sync() never do: every
// lane a collective's mask names must run that same intrinsic. Undefined, and in practice a hang.
extern "C" __global__ void syncwarp_deadlock(const unsigned* in, unsigned* out) {
  unsigned lane = threadIdx.x;
  unsigned v = in[lane];
  if (lane < 16) {
    out[lane] = v + 1;
    __syncwarp(0xffffffff);
  } else {
    unsigned big = __ballot_sync(0xffffffff, v > 100);
    out[lane] = big;
  }
}
