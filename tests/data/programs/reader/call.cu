// A device function kept out of line: the kernel reaches it through `call`, outside the subset.
__device__ __noinline__ unsigned twice(unsigned x) { return 2 * x; }

__global__ void call(unsigned* out) {
  out[threadIdx.x] = twice(threadIdx.x);
}
