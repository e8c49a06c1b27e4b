__global__ void shu(int* in, int* out) {
  int lane = threadIdx.x;
  int v;
  if (lane < 16) v = in[lane];
  v = __shfl_sync(0xffffffffu, v, lane & 15);
  out[v & 31] = 1;
}
