/* A tiny SIMT simulator in C that checks itself against warpspec after every warp-level
 * instruction it executes (per-step co-simulation through warpspec.h), and stops at the first
 * disagreement with the clause and the lane table.
 *
 *   tiny_simulator          runs its program; every step agrees
 *   tiny_simulator --bug    its ballot also reads the registers of exited lanes: step 2 departs
 *
 * The program runs on one warp whose lanes 27-31 have exited, all with membermask 0xffffffff:
 *   1. match.any.sync.b32  on key = lane % 4        (which lanes share my key)
 *   2. vote.sync.ballot.b32 on lane % 3 == 0        (who votes yes)
 *   3. redux.sync.add.u32  on lane                   (the sum of the lane numbers)
 *   4. bar.warp.sync                                  (everyone resumes) */
#include <stdio.h>
#include <string.h>

#include "warpspec.h"

enum { LIVE = 27 }; /* lanes 0-26 run, 27-31 have exited */

typedef struct {
  uint32_t reg[32];   /* the operand register of each lane (exited lanes keep stale values) */
  uint32_t dst[32];   /* the destination register */
  uint8_t done[32];   /* the lane produced a result this step */
} Warp;

static int bug = 0;

static int alive(unsigned lane) { return lane < LIVE; }

/* The simulator's own implementations of the four instructions. */
static void match_any(Warp *w) {
  for (unsigned i = 0; i < 32; ++i) {
    if (!alive(i)) continue;
    uint32_t m = 0;
    for (unsigned j = 0; j < 32; ++j)
      if (alive(j) && w->reg[j] == w->reg[i]) m |= 1u << j;
    w->dst[i] = m, w->done[i] = 1;
  }
}
static void ballot(Warp *w) {
  uint32_t b = 0;
  for (unsigned j = 0; j < 32; ++j)
    if ((alive(j) || bug) && w->reg[j]) b |= 1u << j; /* the bug: exited lanes' stale registers */
  for (unsigned i = 0; i < 32; ++i)
    if (alive(i)) w->dst[i] = b, w->done[i] = 1;
}
static void redux_add(Warp *w) {
  uint32_t s = 0;
  for (unsigned j = 0; j < 32; ++j)
    if (alive(j)) s += w->reg[j];
  for (unsigned i = 0; i < 32; ++i)
    if (alive(i)) w->dst[i] = s, w->done[i] = 1;
}
static void warp_sync(Warp *w) {
  for (unsigned i = 0; i < 32; ++i)
    if (alive(i)) w->dst[i] = 0, w->done[i] = 1;
}

static uint32_t key(unsigned lane) { return lane % 4; }
static uint32_t yes(unsigned lane) { return lane % 3 == 0; }
static uint32_t lane_no(unsigned lane) { return lane; }
/* Exited lanes keep whatever their registers held: here a yes vote left behind. */
static uint32_t stale(unsigned lane) { return lane == 29 ? 1 : 0; }

static const struct {
  const char *text;
  void (*run)(Warp *);
  uint32_t (*operand)(unsigned lane);
} program[] = {
    {"match.any.sync.b32 d, a, m;", match_any, key},
    {"vote.sync.ballot.b32 d, a, m;", ballot, yes},
    {"redux.sync.add.u32 d, a, m;", redux_add, lane_no},
    {"bar.warp.sync m;", warp_sync, lane_no},
};

int main(int argc, char **argv) {
  bug = argc > 1 && strcmp(argv[1], "--bug") == 0;
  const size_t steps = sizeof program / sizeof program[0];
  for (size_t k = 0; k < steps; ++k) {
    Warp w;
    memset(&w, 0, sizeof w);
    ws_warp_state s;
    ws_warp_state_init(&s);
    for (unsigned i = 0; i < 32; ++i) {
      w.reg[i] = alive(i) ? program[k].operand(i) : stale(i);
      s.status[i] = alive(i) ? WS_EXECUTES : WS_EXITED;
      s.a[i] = w.reg[i];
    }
    program[k].run(&w);

    /* The co-simulation hook: one call per executed warp instruction. */
    ws_instr *in = NULL;
    if (ws_instr_parse(program[k].text, "sm_90", NULL, &in) != WS_OK) {
      fprintf(stderr, "%s\n", ws_last_error());
      return 2;
    }
    ws_verdict v;
    if (ws_step_warp(in, &s, w.dst, NULL, w.done, 0, &v) != WS_OK) {
      fprintf(stderr, "%s\n", ws_last_error());
      return 2;
    }
    if (!v.agree) {
      printf("step %zu (%s): disagrees on lanes 0x%08x (%s), breaks %s\n", k + 1,
             program[k].text, (unsigned)v.lanes, v.what, v.clause);
      char *report = ws_step_explain_warp(in, &s, w.dst, NULL, w.done, 0);
      if (report) printf("%s", report);
      ws_free(report);
      ws_instr_free(in);
      return 1;
    }
    printf("step %zu (%s): agrees\n", k + 1, program[k].text);
    ws_instr_free(in);
  }
  printf("%zu steps, every one agrees with the specification\n", steps);
  return 0;
}
