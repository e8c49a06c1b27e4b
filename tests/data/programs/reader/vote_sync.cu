// Ballot, activemask and __syncwarp on a divergent branch.
__global__ void vote_sync(const int* in, unsigned* out) {
  unsigned t = threadIdx.x;
  int x = in[t];
  unsigned ballot = __ballot_sync(0xffffffff, x > 0);
  unsigned active = 0;
  if (x & 1) {
    active = __activemask();
    __syncwarp(active);
  }
  __syncwarp();
  out[t] = ballot ^ active;
}
