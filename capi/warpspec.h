/* warpspec.h: the C interface to warpspec, the executable reference for NVIDIA's warp-level
 * synchronization and communication primitives.
 *
 * What it offers:
 *   - instructions parsed once from their PTX text or CUDA intrinsic call (ws_instr_parse);
 *   - the specification's answer for one warp or block state (ws_eval_warp, ws_eval_block):
 *     per-lane results, which lanes the specification defines, and the undefined-behaviour
 *     clauses that fire;
 *   - per-step co-simulation (ws_step_warp, ws_step_block): hand in what a simulator computed
 *     for one instruction and get agree or disagree at once, with the lanes and the clause, and
 *     on request the whole report with its lane table (ws_step_explain_*);
 *   - vector files (docs/vectors.md) iterated as flat per-lane arrays, answers handed in per
 *     round, and the same report `warpspec check` prints (ws_vectors_*, ws_report_*).
 *
 * Conventions:
 *   - Every function that can fail returns a ws_status; WS_OK (0) is success, negative values
 *     are errors, and ws_last_error() then holds a one-line message for the calling thread.
 *     No C++ exception crosses this interface.
 *   - Who frees what: states, answers and verdicts are plain structs the caller owns (no
 *     allocation inside). Handles (ws_instr, ws_vectors, ws_report) are made by a ws_*_parse,
 *     ws_*_open or ws_vectors_check call and freed by the matching ws_*_free / ws_*_close; a
 *     NULL handle may be freed. Strings returned as `const char *` belong to the handle they
 *     come from and live as long as it (or, for ws_last_error, until the thread's next call).
 *     Strings returned as `char *` are the caller's, freed with ws_free().
 *   - Handles are not shared between threads without the caller's own locking; distinct
 *     handles may be used from distinct threads at once.
 *   - Lane arrays are indexed by lane (0..31) or thread (0..threads-1). Flags are 0 or 1.
 */
#ifndef WARPSPEC_H
#define WARPSPEC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(WARPSPEC_C_BUILDING) && defined(__GNUC__)
#define WS_API __attribute__((visibility("default")))
#else
#define WS_API
#endif

#define WS_LANES 32
#define WS_MAX_THREADS 1024
#define WS_MAX_UB 8

typedef enum ws_status {
  WS_OK = 0,
  WS_END = 1,              /* ws_vectors_next: no vector left (not an error) */
  WS_EINVAL = -1,          /* a bad argument: NULL, a lane or round out of range, a warp
                              state handed to a block form, a call out of order */
  WS_EPARSE = -2,          /* an instruction the catalog does not know, or a bad target */
  WS_EIO = -3,             /* a file that cannot be opened or read */
  WS_EFORMAT = -4,         /* a malformed or stale vector file (message: file:line:column) */
  WS_EUNAVAILABLE = -5,    /* the form does not exist on the chosen target or PTX version */
  WS_ENOMEM = -6,
  WS_EINTERNAL = -7
} ws_status;

/* The library version, e.g. "0.1.0". */
WS_API const char *ws_version(void);
/* The message of this thread's last failing call ("" when none). */
WS_API const char *ws_last_error(void);
/* Frees a string returned as `char *`. */
WS_API void ws_free(void *p);

/* ------------------------------------------------------------------------------------------
 * Instructions */

typedef struct ws_instr ws_instr;

/* Parses PTX text ("vote.sync.ballot.b32 d, !a, 0xffffffff;"), an intrinsic call
 * ("__match_any_sync(m, (float)x)") or a form's name alone ("match.all.sync.b64": its
 * instruction with register operands, "match.all.sync.b64 d|p, a, m;") for a target ("sm_90"; NULL: sm_90) and a PTX ISA version
 * ("8.8"; NULL: the newest the catalog knows). WS_EPARSE carries the column in its message;
 * WS_EUNAVAILABLE says why the form cannot be used there. */
WS_API ws_status ws_instr_parse(const char *text, const char *target, const char *ptx, ws_instr **out);
WS_API void ws_instr_free(ws_instr *instr);
/* The canonical spelling, e.g. "match.any.sync.b32 d, a, m;". */
WS_API const char *ws_instr_text(const ws_instr *instr);
/* The catalog's form name, e.g. "match.any.sync.b32". */
WS_API const char *ws_instr_form(const ws_instr *instr);
/* 1 for the block-wide barriers (bar.sync, bar.red.*): evaluate them with ws_eval_block. */
WS_API int ws_instr_is_block(const ws_instr *instr);
/* 1 when the form writes d (0 for bar.warp.sync, bar.sync and a sink `_`). */
WS_API int ws_instr_writes_d(const ws_instr *instr);
/* 1 when the instruction writes a second destination p (match.all's `d|p`). */
WS_API int ws_instr_writes_p(const ws_instr *instr);
/* 1 when the source predicate is negated (`!a` in vote.sync and bar.red). */
WS_API int ws_instr_negates(const ws_instr *instr);

/* ------------------------------------------------------------------------------------------
 * States and answers */

typedef enum ws_lane_status {
  WS_EXECUTES = 0, /* the lane executes the instruction (a thread: reaches the barrier) */
  WS_EXITED = 1,   /* the lane has exited */
  WS_INACTIVE = 2  /* alive, but elsewhere */
} ws_lane_status;

/* A warp as one instruction sees it. `a` holds the source operand (the low 32 bits for 32-bit
 * forms; a predicate is true when non-zero). `site` is the call site: lanes at different sites
 * are not converged (it matters on sm_6x). An immediate membermask in the instruction text
 * overrides `mask`; `b` and `c` are read by the shuffles alone. */
typedef struct ws_warp_state {
  uint8_t status[WS_LANES];
  uint32_t mask[WS_LANES];
  uint64_t a[WS_LANES];
  uint32_t site[WS_LANES];
  uint32_t b[WS_LANES]; /* shuffles: source lane or offset (an immediate in the text overrides) */
  uint32_t c[WS_LANES]; /* shuffles: segment mask in bits 12:8, clamp in bits 4:0 (likewise) */
} ws_warp_state;

/* A block at a bar.sync / bar.red barrier: per thread, its status and its predicate. */
typedef struct ws_block_state {
  size_t threads; /* 1 to 1024 */
  uint8_t status[WS_MAX_THREADS];
  uint32_t pred[WS_MAX_THREADS];
} ws_block_state;

/* The specification's answer for a warp. `defined[i]`: the specification pins lane i's result
 * down (it executes and no undefined-behaviour clause fires). `ub_clause[k]` is the stable key
 * of a clause that fires ("vote.ub.peer_absent") and `ub_lanes[k]` the lanes it fires on. */
typedef struct ws_warp_answer {
  uint32_t d[WS_LANES];
  uint8_t p[WS_LANES];
  uint8_t executes[WS_LANES];
  uint8_t defined[WS_LANES];
  uint8_t d_defined[WS_LANES]; /* defined, and d pinned down too (a shuffle can leave d open
                                  while p stays defined: shfl.source_undefined) */
  size_t ub_count;
  const char *ub_clause[WS_MAX_UB];
  uint32_t ub_lanes[WS_MAX_UB];
} ws_warp_answer;

/* The same for a block: every arriving thread receives `d`. */
typedef struct ws_block_answer {
  size_t threads;
  uint32_t d;
  uint8_t executes[WS_MAX_THREADS];
  uint8_t defined[WS_MAX_THREADS];
  int ub; /* 1 when a live thread never reaches the barrier (cta.ub.not_reached) */
  /* Each thread's result. A vector file's named barriers (threads at different barrier numbers,
   * with their own counts) give threads different results; `d` is the last executing thread's. */
  uint32_t thread_d[WS_MAX_THREADS];
} ws_block_answer;

/* All 32 lanes execute with membermask 0xffffffff, operand 0, call site 0, b and c 0. */
WS_API void ws_warp_state_init(ws_warp_state *state);
/* `threads` threads that all reach the barrier with predicate 0. */
WS_API ws_status ws_block_state_init(ws_block_state *state, size_t threads);

/* The specification's answer for one instruction on one state. */
WS_API ws_status ws_eval_warp(const ws_instr *instr, const ws_warp_state *state, ws_warp_answer *out);
WS_API ws_status ws_eval_block(const ws_instr *instr, const ws_block_state *state, ws_block_answer *out);

/* ------------------------------------------------------------------------------------------
 * Per-step co-simulation: after executing one instruction, a simulator hands in what it
 * computed. `d` holds one value per lane (thread), `p` the predicate of match.all or of a
 * shuffle written d|p (NULL when the instruction writes none), `present` which lanes produced a result (NULL: every executing
 * lane did), `hang` whether the instruction never completed (a barrier that never released).
 * elect.sync: any lane of the membermask may lead, so d and p are held to what the text allows,
 * and the instruction handle remembers the leader each membermask elected in earlier steps: a
 * later step with that membermask must elect the same lane (elect.deterministic). */

typedef struct ws_verdict {
  int agree;          /* 1: agrees on every lane the specification defines */
  int ub;             /* 1: the state is undefined; nothing is compared, agree is 1 */
  const char *what;   /* on disagreement: "d", "p", "result" (missing), "hang" or "ub" */
  uint32_t lanes;     /* warp: the lanes that depart */
  size_t first;       /* the first lane (thread) that departs */
  const char *clause; /* the clause charged: the rule the observed values break ("" if agree) */
} ws_verdict;

WS_API ws_status ws_step_warp(const ws_instr *instr, const ws_warp_state *state, const uint32_t *d,
                       const uint8_t *p, const uint8_t *present, int hang, ws_verdict *out);
WS_API ws_status ws_step_block(const ws_instr *instr, const ws_block_state *state, const uint32_t *d,
                        const uint8_t *present, int hang, ws_verdict *out);
/* The report `warpspec check` would print for this one step: the clause, and a lane table of
 * the state with the expected and observed values. The caller frees it with ws_free(). NULL on
 * error (see ws_last_error). */
WS_API char *ws_step_explain_warp(const ws_instr *instr, const ws_warp_state *state, const uint32_t *d,
                           const uint8_t *p, const uint8_t *present, int hang);
WS_API char *ws_step_explain_block(const ws_instr *instr, const ws_block_state *state,
                            const uint32_t *d, const uint8_t *present, int hang);

/* ------------------------------------------------------------------------------------------
 * Vector files: iterate, answer, check. */

typedef struct ws_vectors ws_vectors;
typedef struct ws_report ws_report;

/* One vector of the file. `instr` belongs to the ws_vectors handle and stays valid until the
 * handle is closed. `ub` is 1 when the specification leaves the vector undefined (an
 * implementation need not match it: skip it or answer as it likes). */
typedef struct ws_vector {
  uint64_t id;
  const ws_instr *instr;
  int ub;
  int is_block;
  size_t rounds;
} ws_vector;

/* Opens a vector file (warpspec-vectors/1) and reads its header. Every vector is checked
 * against the specification as it is read: a stale or edited file is WS_EFORMAT. */
WS_API ws_status ws_vectors_open(const char *path, ws_vectors **out);
WS_API void ws_vectors_close(ws_vectors *vectors);
/* The file's target and PTX version, e.g. "sm_90" and "8.8". */
WS_API const char *ws_vectors_target(const ws_vectors *vectors);
WS_API const char *ws_vectors_ptx(const ws_vectors *vectors);
/* The next vector; WS_END after the last. A vector left without answers counts as skipped.
 * A malformed line (WS_EFORMAT) or a read error (WS_EIO) ends the file: every later call of
 * ws_vectors_next and ws_vectors_check returns that status and message again. */
WS_API ws_status ws_vectors_next(ws_vectors *vectors, ws_vector *out);
/* Round k of the current vector: its state, and (when `expected` is not NULL) the
 * specification's answer. A membermask written as an immediate in the instruction is filled in
 * as every lane's `mask`. */
WS_API ws_status ws_vectors_round_warp(const ws_vectors *vectors, size_t k, ws_warp_state *state,
                                ws_warp_answer *expected);
WS_API ws_status ws_vectors_round_block(const ws_vectors *vectors, size_t k, ws_block_state *state,
                                 ws_block_answer *expected);
/* The implementation's answer for round k of the current vector (same conventions as
 * ws_step_warp). Rounds left unanswered have no result. */
WS_API ws_status ws_vectors_answer_warp(ws_vectors *vectors, size_t k, const uint32_t *d,
                                 const uint8_t *p, const uint8_t *present, int hang);
WS_API ws_status ws_vectors_answer_block(ws_vectors *vectors, size_t k, const uint32_t *d,
                                  const uint8_t *present, int hang);
/* Says the implementation does not run the current vector (it is then not compared). */
WS_API ws_status ws_vectors_skip(ws_vectors *vectors);
/* Compares every answer handed in with the specification, as `warpspec check` does; call it
 * after the last vector. */
WS_API ws_status ws_vectors_check(ws_vectors *vectors, ws_report **out);
/* The answers handed in so far as a results file (warpspec-results/1), for `warpspec check`;
 * free it with free(). NULL (ws_last_error() says why) for a NULL handle or without memory. */
WS_API char *ws_vectors_results(const ws_vectors *vectors);

WS_API void ws_report_free(ws_report *report);
/* Vectors in the file, those compared (neither skipped nor undefined), and those that
 * disagree. A report that compared nothing gives no verdict: say so, do not read it as a pass. */
WS_API uint64_t ws_report_vectors(const ws_report *report);
WS_API uint64_t ws_report_compared(const ws_report *report);
WS_API uint64_t ws_report_mismatches(const ws_report *report);
/* The report as `warpspec check` prints it, and as its --json output ("warpspec-check/2"). */
WS_API const char *ws_report_text(const ws_report *report);
WS_API const char *ws_report_json(const ws_report *report);

#ifdef __cplusplus
}
#endif

#endif /* WARPSPEC_H */
