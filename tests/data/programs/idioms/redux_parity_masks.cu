// Correct: the odd lanes and the even lanes of each warp reduce separately, on different paths,
// with different operations and with masks that name exactly their own side (0xaaaaaaaa and
// 0x55555555). Every lane stores its side's result.
extern "C" __global__ void redux_parity_masks(const unsigned* in, unsigned* out) {
  unsigned t = threadIdx.x;
  unsigned v = in[t];
  unsigned r;
  if (t & 1)
    r = __reduce_max_sync(0xaaaaaaaa, v);
  else
    r = __reduce_add_sync(0x55555555, v);
  out[t] = r;
}
