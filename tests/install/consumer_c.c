/* A C program built against an installed warpspec through pkg-config. */
#include <stdio.h>

#include <warpspec.h>

int main(void) {
  ws_instr *in = NULL;
  if (ws_instr_parse("vote.sync.ballot.b32 d, a, 0xffffffff;", NULL, NULL, &in) != WS_OK) {
    fprintf(stderr, "%s\n", ws_last_error());
    return 1;
  }
  ws_warp_state s;
  ws_warp_answer a;
  ws_warp_state_init(&s);
  for (unsigned i = 0; i < 32; ++i) s.a[i] = i < 16;
  if (ws_eval_warp(in, &s, &a) != WS_OK) return 1;
  printf("c ballot=0x%08x\n", (unsigned)a.d[0]);
  ws_instr_free(in);
  return 0;
}
