/* Checking an implementation of the warp-level primitives from C, against a vector file.
 *
 * The "implementation" here is a few lines per primitive, written from the PTX ISA: vote.sync
 * (all, any, uni, ballot), match.sync (any, all) and redux.sync on the integers. Replace
 * `my_warp` with a call into your simulator. Forms it does not implement (the barriers) are
 * skipped, and the report says so.
 *
 *   check_suite tests/data/vectors/sm_90-default.jsonl          exit 0: no mismatch
 *   check_suite tests/data/vectors/sm_90-default.jsonl --bug    ballot keeps exited lanes' bits
 */
#include <stdio.h>
#include <string.h>

#include "warpspec.h"

static int bug = 0;

/* Lanes that take part for lane i: the non-exited lanes of its membermask. */
static uint32_t members(const ws_warp_state *s, unsigned i) {
  uint32_t m = 0;
  for (unsigned j = 0; j < 32; ++j)
    if (((s->mask[i] >> j) & 1u) && (s->status[j] != WS_EXITED || bug)) m |= 1u << j;
  return m;
}

/* One warp instruction on one state: 1 if handled, 0 if this implementation lacks the form. */
static int my_warp(const char *form, const ws_warp_state *s, int negate, uint32_t d[32],
                   uint8_t p[32], uint8_t present[32]) {
  for (unsigned i = 0; i < 32; ++i) {
    present[i] = s->status[i] == WS_EXECUTES;
    d[i] = 0;
    p[i] = 0;
    if (!present[i]) continue;
    const uint32_t part = members(s, i);
    uint32_t yes = 0, same = 0;
    int all_same = 1;
    uint64_t acc = 0;
    int first = 1;
    for (unsigned j = 0; j < 32; ++j) {
      if (!((part >> j) & 1u)) continue;
      const uint32_t a32 = (uint32_t)s->a[j];
      const int pred = (a32 != 0) != negate;
      if (pred) yes |= 1u << j;
      if (strstr(form, "b64") ? s->a[j] == s->a[i] : a32 == (uint32_t)s->a[i]) same |= 1u << j;
      if (strstr(form, "b64") ? s->a[j] != s->a[i] : a32 != (uint32_t)s->a[i]) all_same = 0;
      if (first) {
        acc = a32;
        first = 0;
      } else if (strstr(form, ".add.")) {
        acc = (uint32_t)(acc + a32);
      } else if (strstr(form, ".min.u32")) {
        acc = a32 < acc ? a32 : acc;
      } else if (strstr(form, ".max.u32")) {
        acc = a32 > acc ? a32 : acc;
      } else if (strstr(form, ".min.s32")) {
        acc = (int32_t)a32 < (int32_t)(uint32_t)acc ? a32 : acc;
      } else if (strstr(form, ".max.s32")) {
        acc = (int32_t)a32 > (int32_t)(uint32_t)acc ? a32 : acc;
      } else if (strstr(form, ".and.")) {
        acc &= a32;
      } else if (strstr(form, ".or.")) {
        acc |= a32;
      } else if (strstr(form, ".xor.")) {
        acc ^= a32;
      }
    }
    if (strcmp(form, "vote.sync.ballot.b32") == 0) d[i] = yes;
    else if (strcmp(form, "vote.sync.all.pred") == 0) d[i] = yes == part;
    else if (strcmp(form, "vote.sync.any.pred") == 0) d[i] = yes != 0;
    else if (strcmp(form, "vote.sync.uni.pred") == 0) d[i] = yes == 0 || yes == part;
    else if (strncmp(form, "match.any", 9) == 0) d[i] = same;
    else if (strncmp(form, "match.all", 9) == 0) d[i] = all_same ? part : 0, p[i] = all_same;
    else if (strncmp(form, "redux.sync", 10) == 0 && !strstr(form, "f32")) d[i] = (uint32_t)acc;
    else return 0;
  }
  return 1;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: check_suite VECTORS.jsonl [--bug]\n");
    return 2;
  }
  bug = argc > 2 && strcmp(argv[2], "--bug") == 0;
  ws_vectors *vs = NULL;
  if (ws_vectors_open(argv[1], &vs) != WS_OK) {
    fprintf(stderr, "%s\n", ws_last_error());
    return 2;
  }
  ws_vector v;
  ws_status st;
  while ((st = ws_vectors_next(vs, &v)) == WS_OK) {
    if (v.is_block) continue; /* not implemented here: counted as skipped */
    const int negate = ws_instr_negates(v.instr);
    for (size_t k = 0; k < v.rounds; ++k) {
      ws_warp_state s;
      uint32_t d[32];
      uint8_t p[32], present[32];
      ws_vectors_round_warp(vs, k, &s, NULL);
      if (!my_warp(ws_instr_form(v.instr), &s, negate, d, p, present)) break;
      ws_vectors_answer_warp(vs, k, d, ws_instr_writes_p(v.instr) ? p : NULL, present, 0);
    }
  }
  if (st != WS_END) {
    fprintf(stderr, "%s\n", ws_last_error());
    return 2;
  }
  ws_report *r = NULL;
  if (ws_vectors_check(vs, &r) != WS_OK) {
    fprintf(stderr, "%s\n", ws_last_error());
    return 2;
  }
  fputs(ws_report_text(r), stdout);
  const int rc = ws_report_compared(r) == 0 ? 2 : ws_report_mismatches(r) ? 1 : 0;
  ws_report_free(r);
  ws_vectors_close(vs);
  return rc;
}
