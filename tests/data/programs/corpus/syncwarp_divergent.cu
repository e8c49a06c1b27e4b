// Correct: the two halves of the warp fill shared memory on different paths (the upper half
// runs a loop), then __syncwarp() orders those stores before every lane reads its neighbour's
// slot.
extern "C" __global__ void syncwarp_divergent(const unsigned* in, unsigned* out) {
  __shared__ unsigned s[32];
  unsigned lane = threadIdx.x;
  unsigned v = in[lane];
  if (lane < 16) {
    s[lane] = v + 100;
  } else {
    unsigned acc = 0;
    for (unsigned k = 16; k <= lane; ++k) acc += k;
    s[lane] = acc ^ v;
  }
  __syncwarp();
  out[lane] = s[lane ^ 1];
}
