__global__ void spin(volatile int* flag, int* out) {
  if (threadIdx.x == 0) { while (flag[0] == 0) {} out[0] = 1; }
  else if (threadIdx.x == 32) { flag[0] = 1; }
}
