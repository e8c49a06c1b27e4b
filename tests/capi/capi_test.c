/* The C interface, used from C as a simulator author would: instructions, one-state answers,
 * per-step co-simulation, and a whole vector file iterated, answered and checked. Expected
 * values follow from the manual sections (a ballot holds lane i's predicate in bit i; a block
 * count counts the arriving threads whose predicate is non-zero; exited lanes take no part). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warpspec.h"

static int failures = 0;
#define EXPECT(cond)                                                                  \
  do {                                                                                \
    if (!(cond)) {                                                                    \
      fprintf(stderr, "%s:%d: expected %s (last error: %s)\n", __FILE__, __LINE__, #cond, \
              ws_last_error());                                                       \
      ++failures;                                                                     \
    }                                                                                 \
  } while (0)

static void instructions(void) {
  ws_instr *in = NULL;
  EXPECT(ws_instr_parse("vote.sync.ballot.b32 d, a, 0xffffffff;", NULL, NULL, &in) == WS_OK);
  EXPECT(strcmp(ws_instr_form(in), "vote.sync.ballot.b32") == 0);
  EXPECT(!ws_instr_is_block(in) && ws_instr_writes_d(in) && !ws_instr_writes_p(in));
  ws_instr_free(in);
  /* A form's name alone stands for its instruction with register operands. */
  EXPECT(ws_instr_parse("match.all.sync.b64", NULL, NULL, &in) == WS_OK);
  EXPECT(strcmp(ws_instr_text(in), "match.all.sync.b64 d|p, a, m;") == 0 && ws_instr_writes_p(in));
  ws_instr_free(in);

  in = (ws_instr *)1;
  EXPECT(ws_instr_parse("vote.sync.sideways.pred d, a, m;", NULL, NULL, &in) == WS_EPARSE);
  EXPECT(in == NULL);
  EXPECT(strstr(ws_last_error(), "column") != NULL);
  /* redux.sync on .f32 needs sm_100a. */
  EXPECT(ws_instr_parse("redux.sync.min.f32 d, a, m;", "sm_90", NULL, &in) == WS_EUNAVAILABLE);
  EXPECT(ws_instr_parse("redux.sync.min.f32 d, a, m;", "sm_100a", NULL, &in) == WS_OK);
  ws_instr_free(in);
  EXPECT(ws_instr_parse("bar.sync 0;", "sm_99x", NULL, &in) == WS_EPARSE);
  EXPECT(ws_instr_parse(NULL, NULL, NULL, &in) == WS_EINVAL);
  ws_instr_free(NULL);
}

static void one_state(void) {
  ws_instr *ballot = NULL, *match = NULL, *popc = NULL;
  EXPECT(ws_instr_parse("vote.sync.ballot.b32 d, a, m;", NULL, NULL, &ballot) == WS_OK);
  EXPECT(ws_instr_parse("match.any.sync.b32 d, a, m;", NULL, NULL, &match) == WS_OK);
  EXPECT(ws_instr_parse("bar.red.popc.u32 d, 0, a;", NULL, NULL, &popc) == WS_OK);

  ws_warp_state s;
  ws_warp_answer ans;
  ws_warp_state_init(&s);
  for (unsigned i = 0; i < 32; ++i) s.a[i] = i % 2;
  EXPECT(ws_eval_warp(ballot, &s, &ans) == WS_OK);
  EXPECT(ans.d[0] == 0xaaaaaaaau && ans.d[31] == 0xaaaaaaaau && ans.defined[7] && ans.ub_count == 0);
  s.status[1] = WS_EXITED; /* an exited lane takes no part: its bit is clear */
  EXPECT(ws_eval_warp(ballot, &s, &ans) == WS_OK);
  EXPECT(ans.d[0] == 0xaaaaaaa8u && !ans.executes[1] && !ans.defined[1]);

  /* A lane missing from its own membermask is undefined behaviour for match. */
  ws_warp_state_init(&s);
  s.mask[3] = 0xfffffff7u;
  EXPECT(ws_eval_warp(match, &s, &ans) == WS_OK);
  EXPECT(ans.ub_count >= 1 && !ans.defined[0]);
  int found = 0;
  for (size_t k = 0; k < ans.ub_count; ++k)
    if (strcmp(ans.ub_clause[k], "match.ub.self_not_in_mask") == 0 && (ans.ub_lanes[k] & 8u))
      found = 1;
  EXPECT(found);

  /* A warp state is refused for a block barrier, a bad status for a lane. */
  EXPECT(ws_eval_warp(popc, &s, &ans) == WS_EINVAL);
  ws_warp_state_init(&s);
  s.status[4] = 7;
  EXPECT(ws_eval_warp(ballot, &s, &ans) == WS_EINVAL);
  EXPECT(strstr(ws_last_error(), "lane 4") != NULL);

  static ws_block_state b;
  static ws_block_answer ba;
  EXPECT(ws_block_state_init(&b, 64) == WS_OK);
  for (size_t t = 0; t < 64; ++t) b.pred[t] = t % 3 == 0; /* 0, 3, ..., 63: 22 threads */
  EXPECT(ws_eval_block(popc, &b, &ba) == WS_OK);
  EXPECT(ba.d == 22 && ba.defined[63] && !ba.ub);
  b.status[6] = WS_EXITED; /* an exited thread counts for nothing */
  EXPECT(ws_eval_block(popc, &b, &ba) == WS_OK);
  EXPECT(ba.d == 21 && !ba.executes[6]);
  b.status[9] = WS_INACTIVE; /* a live thread that never arrives: undefined */
  EXPECT(ws_eval_block(popc, &b, &ba) == WS_OK);
  EXPECT(ba.ub == 1 && !ba.defined[0]);
  EXPECT(ws_block_state_init(&b, 1025) == WS_EINVAL);

  ws_instr_free(ballot);
  ws_instr_free(match);
  ws_instr_free(popc);
}

/* A shuffle reads each lane's b and c from the state: .down by b = 1 over the whole warp reads
 * the lane above; the last lane is out of range (p = 0) and reads itself. A source outside the
 * reader's membermask leaves d open (d_defined = 0) while p stays defined, and a simulator's
 * d there is not compared. */
static void shuffles(void) {
  ws_instr *down = NULL;
  EXPECT(ws_instr_parse("shfl.sync.down.b32 d|p, a, b, c, m;", NULL, NULL, &down) == WS_OK);
  ws_warp_state s;
  ws_warp_answer ans;
  ws_warp_state_init(&s);
  for (unsigned i = 0; i < 32; ++i) s.a[i] = 100 + i, s.b[i] = 1, s.c[i] = 0x1f;
  EXPECT(ws_eval_warp(down, &s, &ans) == WS_OK);
  EXPECT(ans.d[0] == 101 && ans.p[0] == 1 && ans.d[31] == 131 && ans.p[31] == 0);
  EXPECT(ans.d_defined[0] && ans.d_defined[31] && ans.ub_count == 0);
  for (unsigned i = 0; i < 32; ++i) s.mask[i] = i < 16 ? 0x0000ffffu : 0xffff0000u;
  EXPECT(ws_eval_warp(down, &s, &ans) == WS_OK);
  EXPECT(ans.defined[15] && !ans.d_defined[15] && ans.p[15] == 1 && ans.ub_count == 0);
  uint32_t d[32];
  uint8_t p[32];
  for (unsigned i = 0; i < 32; ++i) d[i] = ans.d[i], p[i] = ans.p[i];
  d[15] = 0xdeadbeefu; /* open: any value passes */
  ws_verdict v;
  EXPECT(ws_step_warp(down, &s, d, p, NULL, 0, &v) == WS_OK);
  EXPECT(v.agree == 1);
  p[15] = 0; /* p is pinned down there */
  EXPECT(ws_step_warp(down, &s, d, p, NULL, 0, &v) == WS_OK);
  EXPECT(v.agree == 0 && strcmp(v.what, "p") == 0 && v.lanes == (1u << 15));
  ws_instr_free(down);
}

/* elect.sync: the text leaves the leader open but requires the same one for the same mask every
 * time. A simulator that elects the highest lane agrees; one that then elects another lane for the
 * same mask, in a later step of the same instruction, breaks elect.deterministic. */
static void elections(void) {
  ws_instr *el = NULL;
  EXPECT(ws_instr_parse("elect.sync d|p, m;", NULL, NULL, &el) == WS_OK);
  ws_warp_state s;
  ws_warp_answer ans;
  ws_warp_state_init(&s);
  EXPECT(ws_eval_warp(el, &s, &ans) == WS_OK);
  EXPECT(ans.d[5] == 0 && ans.p[0] == 1 && ans.p[5] == 0 && ans.ub_count == 0);
  uint32_t d[32];
  uint8_t p[32];
  ws_verdict v;
  for (unsigned i = 0; i < 32; ++i) d[i] = 31, p[i] = i == 31;
  EXPECT(ws_step_warp(el, &s, d, p, NULL, 0, &v) == WS_OK);
  EXPECT(v.agree == 1);
  for (unsigned i = 0; i < 32; ++i) d[i] = 30, p[i] = i == 30;
  EXPECT(ws_step_warp(el, &s, d, p, NULL, 0, &v) == WS_OK);
  EXPECT(v.agree == 0 && strcmp(v.what, "d") == 0 && strcmp(v.clause, "elect.deterministic") == 0);
  for (unsigned i = 0; i < 32; ++i) d[i] = 31, p[i] = 1;
  EXPECT(ws_step_warp(el, &s, d, p, NULL, 0, &v) == WS_OK);
  EXPECT(v.agree == 0 && strcmp(v.what, "p") == 0 && strcmp(v.clause, "elect.pred") == 0);
  ws_instr_free(el);
}

static void co_simulation(void) {
  ws_instr *ballot = NULL, *popc = NULL;
  EXPECT(ws_instr_parse("vote.sync.ballot.b32 d, a, m;", NULL, NULL, &ballot) == WS_OK);
  EXPECT(ws_instr_parse("bar.red.popc.u32 d, 0, a;", NULL, NULL, &popc) == WS_OK);
  ws_warp_state s;
  ws_warp_state_init(&s);
  uint32_t d[32];
  ws_verdict v;
  for (unsigned i = 0; i < 32; ++i) s.a[i] = i >= 16, d[i] = 0xffff0000u;
  EXPECT(ws_step_warp(ballot, &s, d, NULL, NULL, 0, &v) == WS_OK);
  EXPECT(v.agree == 1 && v.ub == 0);

  /* Lane 31's bit dropped on every lane: a wrong d on all 32 lanes. */
  for (unsigned i = 0; i < 32; ++i) d[i] = 0x7fff0000u;
  EXPECT(ws_step_warp(ballot, &s, d, NULL, NULL, 0, &v) == WS_OK);
  EXPECT(v.agree == 0 && strcmp(v.what, "d") == 0 && v.lanes == 0xffffffffu && v.first == 0);
  EXPECT(strncmp(v.clause, "vote.", 5) == 0);
  char *text = ws_step_explain_warp(ballot, &s, d, NULL, NULL, 0);
  EXPECT(text != NULL && strstr(text, "vote.sync.ballot.b32") != NULL &&
         strstr(text, "differs") != NULL);
  ws_free(text);

  /* No result on lane 5, then a hang. */
  uint8_t present[32];
  for (unsigned i = 0; i < 32; ++i) d[i] = 0xffff0000u, present[i] = i != 5;
  EXPECT(ws_step_warp(ballot, &s, d, NULL, present, 0, &v) == WS_OK);
  EXPECT(v.agree == 0 && strcmp(v.what, "result") == 0 && v.lanes == 1u << 5);
  EXPECT(ws_step_warp(ballot, &s, d, NULL, NULL, 1, &v) == WS_OK);
  EXPECT(v.agree == 0 && strcmp(v.what, "hang") == 0);

  /* An undefined state: nothing to compare. */
  s.status[2] = WS_INACTIVE;
  EXPECT(ws_step_warp(ballot, &s, d, NULL, NULL, 0, &v) == WS_OK);
  EXPECT(v.agree == 1 && v.ub == 1);

  static ws_block_state b;
  static uint32_t bd[1024];
  EXPECT(ws_block_state_init(&b, 40) == WS_OK);
  for (size_t t = 0; t < 40; ++t) b.pred[t] = 1, bd[t] = 40;
  EXPECT(ws_step_block(popc, &b, bd, NULL, 0, &v) == WS_OK);
  EXPECT(v.agree == 1);
  for (size_t t = 0; t < 40; ++t) bd[t] = 32; /* the partial last warp left out */
  EXPECT(ws_step_block(popc, &b, bd, NULL, 0, &v) == WS_OK);
  EXPECT(v.agree == 0 && strcmp(v.what, "d") == 0 && strncmp(v.clause, "cta.", 4) == 0);

  ws_instr_free(ballot);
  ws_instr_free(popc);
}

/* Answers every vector of `path` with the specification's own answer, except that `bad_form`
 * (when not NULL) gets lane 0's bit cleared from its d; returns the report. */
static ws_report *run_file(const char *path, const char *bad_form, uint64_t *vectors_seen) {
  ws_vectors *vs = NULL;
  if (ws_vectors_open(path, &vs) != WS_OK) return NULL;
  EXPECT(strcmp(ws_vectors_target(vs), "sm_90") == 0);
  ws_vector v;
  ws_status st;
  uint64_t n = 0;
  static ws_block_state b;
  static ws_block_answer be;
  while ((st = ws_vectors_next(vs, &v)) == WS_OK) {
    ++n;
    for (size_t k = 0; k < v.rounds; ++k) {
      if (v.is_block) {
        static uint32_t d[1024];
        EXPECT(ws_vectors_round_block(vs, k, &b, &be) == WS_OK);
        for (size_t t = 0; t < be.threads; ++t) d[t] = be.thread_d[t];
        EXPECT(ws_vectors_answer_block(vs, k, d, be.executes, 0) == WS_OK);
      } else {
        ws_warp_state s;
        ws_warp_answer e;
        EXPECT(ws_vectors_round_warp(vs, k, &s, &e) == WS_OK);
        if (bad_form && strcmp(ws_instr_form(v.instr), bad_form) == 0)
          for (unsigned i = 0; i < 32; ++i) e.d[i] &= ~1u;
        EXPECT(ws_vectors_answer_warp(vs, k, e.d, e.p, e.executes, 0) == WS_OK);
      }
    }
  }
  EXPECT(st == WS_END);
  ws_report *r = NULL;
  EXPECT(ws_vectors_check(vs, &r) == WS_OK);
  ws_vectors_close(vs);
  *vectors_seen = n;
  return r;
}

static void vector_files(const char *suite, const char *scratch) {
  uint64_t n = 0;
  ws_report *r = run_file(suite, NULL, &n);
  EXPECT(r != NULL);
  if (r) {
    EXPECT(ws_report_vectors(r) == n && n > 100);
    EXPECT(ws_report_mismatches(r) == 0);
    EXPECT(ws_report_compared(r) > 0 && ws_report_compared(r) < n); /* the UB vectors are not */
    EXPECT(strstr(ws_report_text(r), "No mismatch") != NULL);
    ws_report_free(r);
  }
  r = run_file(suite, "vote.sync.ballot.b32", &n);
  EXPECT(r != NULL);
  if (r) {
    EXPECT(ws_report_mismatches(r) > 0);
    EXPECT(strstr(ws_report_text(r), "vote.sync.ballot.b32") != NULL);
    EXPECT(strstr(ws_report_json(r), "\"schema\"") != NULL);
    ws_report_free(r);
  }

  /* A file that does not exist, and one whose expectation was edited. */
  ws_vectors *vs = NULL;
  EXPECT(ws_vectors_open("/nonexistent/suite.jsonl", &vs) == WS_EIO && vs == NULL);
  FILE *in = fopen(suite, "rb");
  FILE *out = fopen(scratch, "wb");
  EXPECT(in && out);
  if (in && out) {
    char line[1 << 16];
    int lines = 0;
    while (fgets(line, sizeof line, in)) {
      char *p = strstr(line, "\"d\":[\"0x");
      if (++lines == 2 && p) p[9] = p[9] == '1' ? '2' : '1'; /* lane 0's first hex digit */
      fputs(line, out);
    }
    fclose(in);
    fclose(out);
    EXPECT(ws_vectors_open(scratch, &vs) == WS_OK);
    ws_vector v;
    EXPECT(ws_vectors_next(vs, &v) == WS_EFORMAT);
    EXPECT(strstr(ws_last_error(), ":2:") != NULL);
    /* The file ends there: the next call does not pass over the bad line to the third. */
    EXPECT(ws_vectors_next(vs, &v) == WS_EFORMAT);
    EXPECT(strstr(ws_last_error(), ":2:") != NULL);
    ws_report *none = NULL;
    EXPECT(ws_vectors_check(vs, &none) == WS_EFORMAT && none == NULL);
    EXPECT(strstr(ws_last_error(), ":2:") != NULL);
    ws_vectors_close(vs);
  }
}

/* What an outside review of the interface found: each a contract the header states. */
static void misuse(const char *suite) {
  /* A barrier number or count in a register: ws_block_state carries neither, so the parse
     refuses it instead of judging answers on numbers never given. */
  ws_instr *in = NULL;
  EXPECT(ws_instr_parse("bar.red.popc.u32 d, 0, b, p;", NULL, NULL, &in) == WS_EUNAVAILABLE);
  EXPECT(in == NULL && strstr(ws_last_error(), "register") != NULL);
  EXPECT(ws_instr_parse("bar.sync a;", NULL, NULL, &in) == WS_EUNAVAILABLE);
  /* A NULL handle has no results, and says so. */
  EXPECT(ws_vectors_results(NULL) == NULL && strstr(ws_last_error(), "NULL") != NULL);
  /* A signed PTX version is no version. */
  EXPECT(ws_instr_parse("bar.sync 0;", NULL, "-8.8", &in) == WS_EPARSE);
  EXPECT(ws_instr_parse("bar.sync 0;", NULL, "7.-5", &in) == WS_EPARSE);
  /* A message quotes at most a line of what it was given, control bytes escaped. */
  static char huge[100000];
  memset(huge, 'x', sizeof huge - 1);
  huge[5] = '\033';
  EXPECT(ws_instr_parse(huge, NULL, NULL, &in) == WS_EPARSE);
  EXPECT(strlen(ws_last_error()) < 400 && strchr(ws_last_error(), '\033') == NULL);

  /* elect.sync: the explanation holds a step to the leaders of the steps before it, as the
     step itself does. */
  ws_instr *el = NULL;
  EXPECT(ws_instr_parse("elect.sync d|p, 0xffffffff;", NULL, NULL, &el) == WS_OK);
  ws_warp_state s;
  ws_warp_state_init(&s);
  uint32_t d[32];
  uint8_t p[32];
  ws_verdict v;
  for (unsigned i = 0; i < 32; ++i) d[i] = 3, p[i] = i == 3;
  EXPECT(ws_step_warp(el, &s, d, p, NULL, 0, &v) == WS_OK && v.agree);
  for (unsigned i = 0; i < 32; ++i) d[i] = 5, p[i] = i == 5;
  EXPECT(ws_step_warp(el, &s, d, p, NULL, 0, &v) == WS_OK && !v.agree);
  char *text = ws_step_explain_warp(el, &s, d, p, NULL, 0);
  EXPECT(text != NULL && strstr(text, "No mismatch") == NULL);
  ws_free(text);
  /* A missing p is an error in the explanation as in the step. */
  EXPECT(ws_step_explain_warp(el, &s, d, NULL, NULL, 0) == NULL);
  ws_instr_free(el);

  /* A folder is no vector file (an I/O error, as the command line's 66), and an answer
     without d for a form that writes d is refused, never read as zeros. */
  ws_vectors *vs = NULL;
  EXPECT(ws_vectors_open("/", &vs) == WS_EIO && vs == NULL);
  EXPECT(ws_vectors_open(suite, &vs) == WS_OK);
  ws_vector vec;
  EXPECT(ws_vectors_next(vs, &vec) == WS_OK);
  if (!vec.is_block) EXPECT(ws_vectors_answer_warp(vs, 0, NULL, NULL, NULL, 0) == WS_EINVAL);
  EXPECT(ws_vectors_round_warp(vs, (size_t)-1, &s, NULL) == WS_EINVAL);
  EXPECT(strstr(ws_last_error(), "rounds count from 0") != NULL);
  ws_vectors_close(vs);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: capi_test SUITE.jsonl SCRATCH_FILE\n");
    return 2;
  }
  EXPECT(strcmp(ws_version(), "") != 0);
  instructions();
  one_state();
  shuffles();
  elections();
  co_simulation();
  vector_files(argv[1], argv[2]);
  misuse(argv[1]);
  if (failures) fprintf(stderr, "%d failed expectations\n", failures);
  else printf("every expectation held\n");
  return failures != 0;
}
