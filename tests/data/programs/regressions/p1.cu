__global__ void k(int* out, signed char c, short s) { out[threadIdx.x] = c; out[threadIdx.x + 1] = s; }
