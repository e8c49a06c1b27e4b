__global__ void vol(volatile int* f, int* out) {
  if (threadIdx.x == 32) f[0] = 1;
  if (threadIdx.x == 0) out[0] = f[0];
}
