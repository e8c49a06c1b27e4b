// The C interface (capi/warpspec.h) over the model, the fast implementation and the vector files.
// Every entry point catches what the C++ layers throw and turns it into a status and a message.
#include "capi/warpspec.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <new>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "model/eval.hpp"
#include "model/fast/fast.hpp"
#include "model/input.hpp"
#include "spec/instr_parse.hpp"
#include "vectors/check.hpp"
#include "vectors/designs.hpp"
#include "vectors/diagnose.hpp"
#include "vectors/format.hpp"

using namespace warpspec;

struct ws_instr {
  spec::ParsedInstr parsed;
  spec::Target target = spec::kDefaultTarget;
  spec::PtxVersion ptx = spec::kLatestPtx;
  std::string form;
  bool block = false;
  bool writes_d = false;
  /// elect.sync: the leader each membermask elected in the steps so far, which every later step
  /// of this instruction must elect again.
  mutable vectors::LeaderMemo leaders;
};

struct ws_report {
  vectors::CheckReport report;
  std::string text, json;
};

namespace {

thread_local std::string last_error;

ws_status fail(ws_status s, std::string msg) {
  last_error = std::move(msg);
  return s;
}

// Runs `f`, turning every exception into a status and a message.
template <class F>
ws_status guarded(F&& f) {
  try {
    last_error.clear();
    return f();
  } catch (const model::FormatError& e) {
    return fail(WS_EFORMAT, e.what());
  } catch (const std::bad_alloc&) {
    return fail(WS_ENOMEM, "out of memory");
  } catch (const std::invalid_argument& e) {
    return fail(WS_EINVAL, e.what());
  } catch (const std::exception& e) {
    return fail(WS_EINTERNAL, e.what());
  } catch (...) {
    return fail(WS_EINTERNAL, "unknown internal error");
  }
}

char* copy_out(const std::string& s) {
  auto* p = static_cast<char*>(std::malloc(s.size() + 1));
  if (!p) return nullptr;
  std::memcpy(p, s.c_str(), s.size() + 1);
  return p;
}

bool bad_status(uint8_t s) {
  return s > WS_INACTIVE;
}

ws_status to_warp(const ws_warp_state* s, model::Warp& w) {
  for (unsigned i = 0; i < WS_LANES; ++i) {
    if (bad_status(s->status[i]))
      return fail(WS_EINVAL, "lane " + std::to_string(i) + ": status " +
                                 std::to_string(s->status[i]) + " is none of 0, 1, 2");
    model::set_status(w, i, static_cast<model::LaneStatus>(s->status[i]));
    w.mask[i] = s->mask[i];
    w.a[i] = s->a[i];
    w.site[i] = s->site[i];
    w.b[i] = s->b[i];
    w.c[i] = s->c[i];
  }
  return WS_OK;
}

void from_warp(const model::Warp& w, ws_warp_state* s) {
  for (unsigned i = 0; i < WS_LANES; ++i) {
    s->status[i] = static_cast<uint8_t>(model::status(w, i));
    s->mask[i] = w.mask[i];
    s->a[i] = w.a[i];
    s->site[i] = w.site[i];
    s->b[i] = w.b[i];
    s->c[i] = w.c[i];
  }
}

ws_status to_cta(const ws_block_state* s, model::Cta& c) {
  if (s->threads < 1 || s->threads > WS_MAX_THREADS)
    return fail(WS_EINVAL, "a block holds 1 to 1024 threads, not " + std::to_string(s->threads));
  c = model::make_cta(s->threads);
  for (std::size_t t = 0; t < s->threads; ++t) {
    if (bad_status(s->status[t]))
      return fail(WS_EINVAL, "thread " + std::to_string(t) + ": status " +
                                 std::to_string(s->status[t]) + " is none of 0, 1, 2");
    c.arrive[t] = s->status[t] == WS_EXECUTES;
    c.exited[t] = s->status[t] == WS_EXITED;
    c.pred[t] = s->pred[t];
  }
  return WS_OK;
}

void from_cta(const model::Cta& c, ws_block_state* s) {
  s->threads = c.arrive.size();
  for (std::size_t t = 0; t < c.arrive.size(); ++t) {
    s->status[t] = c.exited[t] ? WS_EXITED : c.arrive[t] ? WS_EXECUTES : WS_INACTIVE;
    s->pred[t] = c.pred[t];
  }
}

const char* clause_key(spec::ClauseId id) {
  return spec::clause_info(id).key.data();
}

void fill_warp_answer(const model::WarpResult& r, ws_warp_answer* out) {
  for (unsigned i = 0; i < WS_LANES; ++i) {
    out->d[i] = r.outcome.d[i];
    out->p[i] = r.outcome.p[i];
    out->executes[i] = r.outcome.executes[i];
    out->defined[i] = r.defined(i);
    out->d_defined[i] = r.d_defined(i);
  }
  out->ub_count = 0;
  for (const auto& f : r.ub) {
    if (out->ub_count == WS_MAX_UB) break;
    out->ub_clause[out->ub_count] = clause_key(f.clause);
    out->ub_lanes[out->ub_count++] = f.lanes;
  }
}

void fill_block_answer(const model::CtaResult& r, ws_block_answer* out) {
  out->threads = r.outcome.executes.size();
  // A state built through this interface names one barrier, so every executing thread gets the
  // one value `d`; a vector file's round may name several, hence each thread's own as well.
  out->d = 0;
  for (std::size_t t = 0; t < r.outcome.d.size(); ++t) {
    if (r.outcome.executes[t]) out->d = r.outcome.d[t];
    if (t < WS_MAX_THREADS) out->thread_d[t] = r.outcome.d[t];
  }
  out->ub = r.outcome.any_ub;
  for (std::size_t t = 0; t < out->threads; ++t) {
    out->executes[t] = r.outcome.executes[t];
    out->defined[t] = r.outcome.executes[t] && !r.outcome.any_ub;
  }
}

// What an implementation answered for one round, as the vector files carry it.
vectors::Observed observed(std::size_t n, const uint32_t* d, const uint8_t* p,
                           const uint8_t* present, const std::vector<uint8_t>& executes, int hang) {
  vectors::Observed o;
  o.d.assign(n, 0);
  o.p.assign(n, 0);
  o.present.assign(n, 0);
  o.hang = hang != 0;
  if (o.hang) return o;
  for (std::size_t i = 0; i < n; ++i) {
    o.present[i] = present ? present[i] != 0 : executes[i] != 0;
    if (d) o.d[i] = d[i];
    if (p) o.p[i] = p[i] != 0;
  }
  return o;
}

vectors::Vector one_round(const ws_instr* in, const model::Warp* w, const model::Cta* c) {
  vectors::Vector v;
  v.id = 1;
  v.instr = in->parsed;
  v.rounds.resize(1);
  if (w) v.rounds[0].warp = *w;
  if (c) v.rounds[0].cta = *c;
  return v;
}

// The clause charged for one step that departs, from the diagnosis of that one answer.
const char* charged_clause(const ws_instr* in, const vectors::Vector& v,
                           const std::vector<vectors::Expected>& e, const vectors::Observed& o) {
  const auto dg = vectors::diagnose({vectors::Answered{v, e, {o}}}, in->target, in->ptx);
  if (!dg.clauses.empty()) return clause_key(dg.clauses.front().clause);
  const auto& f = spec::form_info(in->parsed.instr.form);
  return clause_key(f.clauses.front());
}

// The verdict on one step, as `check` compares a round (vectors::compare): the kind of the
// first departure, its lanes, and the clause the diagnosis charges.
void judge(const ws_instr* in, const vectors::Vector& v, const std::vector<vectors::Expected>& e,
           const vectors::Observed& o, ws_verdict* out) {
  *out = ws_verdict{1, 0, "", 0, 0, ""};
  if (vectors::has_ub(e)) {
    out->ub = 1;
    return;
  }
  const auto m = vectors::compare(in->parsed, e, {o}, &in->leaders);
  using K = vectors::Mismatch::Kind;
  if (m.kind == K::None) return;
  out->agree = 0;
  out->what = m.kind == K::Hang      ? "hang"
              : m.kind == K::Missing ? "result"
              : m.kind == K::Ub      ? "ub"
              : m.what == "p"        ? "p"
                                     : "d";
  for (unsigned i : m.lanes)
    if (i < WS_LANES) out->lanes |= 1u << i;
  out->first = m.lanes.empty() ? 0 : m.lanes.front();
  // Where the comparison knows the rule broken (elect.sync), it says; else the diagnosis does.
  out->clause = m.clause ? clause_key(*m.clause) : charged_clause(in, v, e, o);
}

// The report `warpspec check` prints for one vector and one answer.
std::string explain(const ws_instr* in, const vectors::Vector& v,
                    const std::vector<vectors::Expected>& e, const vectors::Observed& o) {
  std::string vec = vectors::header_line({in->target, in->ptx, 0, 1, true}) + "\n" +
                    vectors::vector_line(v, e) + "\n";
  const auto& f = spec::form_info(in->parsed.instr.form);
  std::string res = vectors::result_line(v.id, {o}, f.d_type == spec::ResultType::Pred,
                                         in->parsed.instr.write_p) +
                    "\n";
  std::istringstream vi(vec), ri(res);
  // The leaders elected in the earlier steps hold here too, as they do for ws_step_warp.
  const auto report = vectors::check(vi, "step", ri, "answer", &in->leaders);
  return vectors::render(report, 1);
}

// An answer's arrays: d where the form writes d, p where the instruction writes p, unless the
// round hung (then nothing was written).
ws_status check_answer(bool writes_d, bool writes_p, const uint32_t* d, const uint8_t* p,
                       int hang) {
  if (!d && !hang && writes_d) return fail(WS_EINVAL, "no d (NULL) for a form that writes d");
  if (!p && !hang && writes_p)
    return fail(WS_EINVAL, "no p (NULL) for an instruction that writes p");
  return WS_OK;
}

ws_status check_instr(const ws_instr* in, bool block) {
  if (!in) return fail(WS_EINVAL, "no instruction (NULL)");
  if (in->block != block)
    return fail(WS_EINVAL,
                std::string(in->form) + (block ? " is a warp form: use the warp call"
                                               : " is a block barrier: use the block call"));
  return WS_OK;
}

}  // namespace

extern "C" {

const char* ws_version(void) {
  return "0.1.0";
}
const char* ws_last_error(void) {
  return last_error.c_str();
}
void ws_free(void* p) {
  std::free(p);
}

// ------------------------------------------------------------------------------- instructions

ws_status ws_instr_parse(const char* text, const char* target, const char* ptx, ws_instr** out) {
  return guarded([&]() -> ws_status {
    if (!text || !out) return fail(WS_EINVAL, "no instruction text or no place for the result");
    *out = nullptr;
    auto in = std::make_unique<ws_instr>();
    if (target) {
      const auto t = spec::parse_target(target);
      if (!t) return fail(WS_EPARSE, std::string("unknown target '") + target + "' (e.g. sm_90)");
      in->target = *t;
    }
    if (ptx) {
      const auto p = spec::parse_ptx(ptx);
      if (!p)
        return fail(WS_EPARSE, std::string("unknown PTX ISA version '") + ptx + "' (e.g. 8.8)");
      in->ptx = *p;
    }
    if (const auto form = spec::find_form(text)) {
      // A form's name alone: its instruction with register operands ("d, a, m").
      in->parsed = vectors::cover_instructions(*form).front();
    } else {
      auto parsed = spec::parse_instruction(text);
      if (auto* e = std::get_if<spec::ParseError>(&parsed))
        return fail(WS_EPARSE, "column " + std::to_string(e->column) + ": " + e->message);
      in->parsed = std::get<spec::ParsedInstr>(std::move(parsed));
    }
    const auto& f = spec::form_info(in->parsed.instr.form);
    // ws_warp_answer carries 32 bits of d per lane: a 64-bit shuffle's d would lose a word.
    if (in->parsed.instr.wide)
      return fail(WS_EUNAVAILABLE, in->parsed.text +
                                       ": the 64-bit shuffle overloads are not available through "
                                       "the C interface (its answers carry a 32-bit d)");
    const auto avail = spec::check_availability(f.avail, in->target, in->ptx);
    if (!avail.available) return fail(WS_EUNAVAILABLE, avail.reason);
    in->form = std::string(f.name);
    in->block = !spec::is_warp_form(f.id);
    // ws_block_state has no barrier number or count per thread: an instruction that reads them
    // from registers would be judged on numbers the caller never gave.
    if (in->block &&
        (!in->parsed.instr.imm_bar || (in->parsed.instr.has_count && !in->parsed.instr.imm_count)))
      return fail(WS_EUNAVAILABLE,
                  in->parsed.text +
                      ": a barrier number or thread count in a register is not available through "
                      "the C interface (ws_block_state carries neither); write them as "
                      "immediates");
    in->writes_d = spec::writes_d(in->parsed.instr);
    *out = in.release();
    return WS_OK;
  });
}

void ws_instr_free(ws_instr* instr) {
  delete instr;
}
const char* ws_instr_text(const ws_instr* in) {
  return in ? in->parsed.text.c_str() : "";
}
const char* ws_instr_form(const ws_instr* in) {
  return in ? in->form.c_str() : "";
}
int ws_instr_is_block(const ws_instr* in) {
  return in && in->block;
}
int ws_instr_writes_d(const ws_instr* in) {
  return in && in->writes_d;
}
int ws_instr_writes_p(const ws_instr* in) {
  return in && in->parsed.instr.write_p;
}
int ws_instr_negates(const ws_instr* in) {
  return in && in->parsed.instr.negate;
}

// ------------------------------------------------------------------------------------ states

void ws_warp_state_init(ws_warp_state* s) {
  if (!s) return;
  from_warp(model::make_warp(), s);
}

ws_status ws_block_state_init(ws_block_state* s, size_t threads) {
  return guarded([&]() -> ws_status {
    if (!s) return fail(WS_EINVAL, "no state (NULL)");
    if (threads < 1 || threads > WS_MAX_THREADS)
      return fail(WS_EINVAL, "a block holds 1 to 1024 threads, not " + std::to_string(threads));
    from_cta(model::make_cta(threads), s);
    return WS_OK;
  });
}

ws_status ws_eval_warp(const ws_instr* in, const ws_warp_state* s, ws_warp_answer* out) {
  return guarded([&]() -> ws_status {
    if (auto st = check_instr(in, false)) return st;
    if (!s || !out) return fail(WS_EINVAL, "no state or no answer (NULL)");
    model::Warp w = model::make_warp();
    if (auto st = to_warp(s, w)) return st;
    fill_warp_answer(model::evaluate(in->parsed.instr, w, in->target, in->ptx), out);
    return WS_OK;
  });
}

ws_status ws_eval_block(const ws_instr* in, const ws_block_state* s, ws_block_answer* out) {
  return guarded([&]() -> ws_status {
    if (auto st = check_instr(in, true)) return st;
    if (!s || !out) return fail(WS_EINVAL, "no state or no answer (NULL)");
    model::Cta c;
    if (auto st = to_cta(s, c)) return st;
    fill_block_answer(model::evaluate_cta(in->parsed.instr, c, in->target, in->ptx), out);
    return WS_OK;
  });
}

// ----------------------------------------------------------------------------- co-simulation

ws_status ws_step_warp(const ws_instr* in, const ws_warp_state* s, const uint32_t* d,
                       const uint8_t* p, const uint8_t* present, int hang, ws_verdict* out) {
  return guarded([&]() -> ws_status {
    if (auto st = check_instr(in, false)) return st;
    if (!s || !out) return fail(WS_EINVAL, "no state or no verdict (NULL)");
    if (auto st = check_answer(in->writes_d, in->parsed.instr.write_p, d, p, hang)) return st;
    model::Warp w = model::make_warp();
    if (auto st = to_warp(s, w)) return st;
    fast::WarpLanes lanes;
    fast::evaluate_batch(in->parsed.instr, std::span(&w, 1), std::span(&lanes, 1), in->target,
                         in->ptx);
    *out = ws_verdict{1, 0, "", 0, 0, ""};
    if (lanes.ub_lanes() != 0) {
      out->ub = 1;
      return WS_OK;
    }
    // The common case, agreement, is decided on the lean answer; a departure is then judged
    // as `check` judges it.
    const uint32_t defined = lanes.defined(), d_defined = lanes.d_defined();
    // elect.sync is held to the leader the text allows, remembered from step to step: the
    // comparison below does both.
    bool agree = !hang && !spec::has_chosen_leader(in->parsed.instr.form);
    for (uint32_t m = defined; m && agree; m &= m - 1) {
      const unsigned i = static_cast<unsigned>(std::countr_zero(m));
      const bool d_pinned = ((d_defined >> i) & 1u) != 0;
      agree = (!present || present[i]) && (!in->writes_d || !d_pinned || d[i] == lanes.d[i]) &&
              (!in->parsed.instr.write_p || (p[i] != 0) == (((lanes.p >> i) & 1u) != 0));
    }
    if (agree) return WS_OK;
    const auto v = one_round(in, &w, nullptr);
    const auto e = vectors::expected(v, in->target, in->ptx);
    judge(in, v, e, observed(WS_LANES, d, p, present, e[0].executes, hang), out);
    return WS_OK;
  });
}

ws_status ws_step_block(const ws_instr* in, const ws_block_state* s, const uint32_t* d,
                        const uint8_t* present, int hang, ws_verdict* out) {
  return guarded([&]() -> ws_status {
    if (auto st = check_instr(in, true)) return st;
    if (!s || !out) return fail(WS_EINVAL, "no state or no verdict (NULL)");
    if (auto st = check_answer(in->writes_d, false, d, nullptr, hang)) return st;
    model::Cta c;
    if (auto st = to_cta(s, c)) return st;
    const auto v = one_round(in, nullptr, &c);
    const auto e = vectors::expected(v, in->target, in->ptx);
    judge(in, v, e, observed(c.arrive.size(), d, nullptr, present, e[0].executes, hang), out);
    return WS_OK;
  });
}

char* ws_step_explain_warp(const ws_instr* in, const ws_warp_state* s, const uint32_t* d,
                           const uint8_t* p, const uint8_t* present, int hang) {
  std::string text;
  const auto st = guarded([&]() -> ws_status {
    if (auto st = check_instr(in, false)) return st;
    if (!s) return fail(WS_EINVAL, "no state (NULL)");
    if (auto st = check_answer(in->writes_d, in->parsed.instr.write_p, d, p, hang)) return st;
    model::Warp w = model::make_warp();
    if (auto st = to_warp(s, w)) return st;
    const auto v = one_round(in, &w, nullptr);
    const auto e = vectors::expected(v, in->target, in->ptx);
    text = explain(in, v, e, observed(WS_LANES, d, p, present, e[0].executes, hang));
    return WS_OK;
  });
  return st == WS_OK ? copy_out(text) : nullptr;
}

char* ws_step_explain_block(const ws_instr* in, const ws_block_state* s, const uint32_t* d,
                            const uint8_t* present, int hang) {
  std::string text;
  const auto st = guarded([&]() -> ws_status {
    if (auto st = check_instr(in, true)) return st;
    if (!s) return fail(WS_EINVAL, "no state (NULL)");
    if (auto st = check_answer(in->writes_d, false, d, nullptr, hang)) return st;
    model::Cta c;
    if (auto st = to_cta(s, c)) return st;
    const auto v = one_round(in, nullptr, &c);
    const auto e = vectors::expected(v, in->target, in->ptx);
    text = explain(in, v, e, observed(c.arrive.size(), d, nullptr, present, e[0].executes, hang));
    return WS_OK;
  });
  return st == WS_OK ? copy_out(text) : nullptr;
}

}  // extern "C"

// ------------------------------------------------------------------------------ vector files

struct ws_vectors {
  std::string path;
  std::unique_ptr<model::InputFile> file;  // opened as every input is (a folder is refused)
  std::istream* in = nullptr;
  vectors::VectorsHeader header;
  std::unique_ptr<vectors::VectorReader> reader;
  std::size_t line_no = 1;
  std::string target, ptx;
  // The instructions met so far, one handle each (stable addresses for ws_vector::instr).
  std::map<std::string, std::unique_ptr<ws_instr>, std::less<>> instrs;
  // The current vector.
  bool have = false, skipped = false;
  vectors::Vector vector;
  std::vector<vectors::Expected> expect;
  bool ub = false;
  std::vector<vectors::Observed> answers;
  std::vector<uint8_t> answered;
  // Every line handed in, as a results file.
  std::string results;
  bool finished = false;
  // A malformed or unreadable file ends the reading: every later call gives the same answer
  // rather than passing over the bad line.
  ws_status broken = WS_OK;
  std::string broken_why;

  ws_status fail_for_good(ws_status s, std::string why) {
    broken = s;
    broken_why = std::move(why);
    have = false;
    return fail(s, broken_why);
  }

  void close_vector() {
    if (!have) return;
    const bool any = std::any_of(answered.begin(), answered.end(), [](uint8_t a) { return a; });
    if (skipped || !any) {
      results += "{\"id\":" + std::to_string(vector.id) + ",\"skipped\":true}\n";
    } else {
      const auto& f = spec::form_info(vector.instr.instr.form);
      results += vectors::result_line(vector.id, answers, f.d_type == spec::ResultType::Pred,
                                      vector.instr.instr.write_p) +
                 "\n";
    }
    have = false;
  }
};

namespace {

ws_status current_round(const ws_vectors* v, size_t k, bool block) {
  if (!v) return fail(WS_EINVAL, "no vector file (NULL)");
  if (!v->have) return fail(WS_EINVAL, "no current vector: call ws_vectors_next first");
  if (v->vector.is_cta() != block)
    return fail(WS_EINVAL, std::string("vector ") + std::to_string(v->vector.id) + " is " +
                               (block ? "a warp vector: use the warp call"
                                      : "a block vector: use the block call"));
  if (k >= v->vector.rounds.size())
    return fail(WS_EINVAL, "vector " + std::to_string(v->vector.id) + " has " +
                               std::to_string(v->vector.rounds.size()) + " rounds, no round " +
                               std::to_string(k) + " (rounds count from 0)");
  return WS_OK;
}

}  // namespace

extern "C" {

ws_status ws_vectors_open(const char* path, ws_vectors** out) {
  return guarded([&]() -> ws_status {
    if (!path || !out) return fail(WS_EINVAL, "no path or no place for the handle (NULL)");
    *out = nullptr;
    auto v = std::make_unique<ws_vectors>();
    v->path = path;
    try {
      v->file = std::make_unique<model::InputFile>(v->path);
    } catch (const model::MissingInput& e) {
      return fail(WS_EIO, e.what());
    }
    v->in = &v->file->stream();
    std::string line;
    if (!std::getline(*v->in, line)) return fail(WS_EFORMAT, std::string(path) + ": empty file");
    v->header = vectors::parse_header(line, v->path);
    v->reader = std::make_unique<vectors::VectorReader>(v->path, v->header);
    v->target = spec::to_string(v->header.target);
    v->ptx = spec::to_string(v->header.ptx);
    *out = v.release();
    return WS_OK;
  });
}

void ws_vectors_close(ws_vectors* v) {
  delete v;
}
const char* ws_vectors_target(const ws_vectors* v) {
  return v ? v->target.c_str() : "";
}
const char* ws_vectors_ptx(const ws_vectors* v) {
  return v ? v->ptx.c_str() : "";
}

ws_status ws_vectors_next(ws_vectors* v, ws_vector* out) {
  return guarded([&]() -> ws_status {
    if (!v || !out) return fail(WS_EINVAL, "no vector file or no place for the vector (NULL)");
    if (v->broken) return fail(v->broken, v->broken_why);
    v->close_vector();
    std::string line;
    const vectors::VectorExpect* next = nullptr;
    while (!next) {
      if (!std::getline(*v->in, line)) {
        if (v->in->bad()) return v->fail_for_good(WS_EIO, v->path + ": read error");
        v->finished = true;
        return WS_END;
      }
      ++v->line_no;
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      try {
        next = &v->reader->expect(line, v->line_no);
      } catch (const model::FormatError& e) {
        return v->fail_for_good(WS_EFORMAT, e.what());
      }
      // A 64-bit shuffle's d does not fit ws_warp_answer: such a vector is passed over and
      // reported skipped.
      if (next->instr->instr.wide) {
        v->results += "{\"id\":" + std::to_string(next->id) + ",\"skipped\":true}\n";
        next = nullptr;
      }
    }
    const auto& x = *next;
    v->vector = x.vector;
    v->expect = x.rounds;
    v->ub = x.ub;
    v->have = true;
    v->skipped = false;
    v->answers.assign(v->vector.rounds.size(), vectors::Observed{});
    for (std::size_t k = 0; k < v->answers.size(); ++k) {
      const std::size_t n = vectors::round_width(v->vector, v->vector.rounds[k]);
      v->answers[k] = vectors::Observed{std::vector<uint32_t>(n, 0), std::vector<uint8_t>(n, 0),
                                        std::vector<uint8_t>(n, 0), false, false};
    }
    v->answered.assign(v->vector.rounds.size(), 0);
    auto it = v->instrs.find(v->vector.instr.text);
    if (it == v->instrs.end()) {
      auto in = std::make_unique<ws_instr>();
      in->parsed = v->vector.instr;
      in->target = v->header.target;
      in->ptx = v->header.ptx;
      const auto& f = spec::form_info(in->parsed.instr.form);
      in->form = std::string(f.name);
      in->block = !spec::is_warp_form(f.id);
      in->writes_d = spec::writes_d(in->parsed.instr);
      it = v->instrs.emplace(v->vector.instr.text, std::move(in)).first;
    }
    *out = ws_vector{v->vector.id, it->second.get(), v->ub ? 1 : 0, v->vector.is_cta() ? 1 : 0,
                     v->vector.rounds.size()};
    return WS_OK;
  });
}

ws_status ws_vectors_round_warp(const ws_vectors* v, size_t k, ws_warp_state* state,
                                ws_warp_answer* expected) {
  return guarded([&]() -> ws_status {
    if (auto st = current_round(v, k, false)) return st;
    const auto& w = v->vector.rounds[k].warp;
    if (state) {
      from_warp(w, state);
      const auto& in = v->vector.instr.instr;
      for (unsigned i = 0; i < WS_LANES; ++i) {
        state->mask[i] = in.imm_mask.value_or(state->mask[i]);
        state->b[i] = in.imm_b.value_or(state->b[i]);
        state->c[i] = in.imm_c.value_or(state->c[i]);
      }
    }
    if (expected) {
      const auto& it = v->instrs.at(v->vector.instr.text);
      fill_warp_answer(model::evaluate(v->vector.instr.instr, w, it->target, it->ptx), expected);
    }
    return WS_OK;
  });
}

ws_status ws_vectors_round_block(const ws_vectors* v, size_t k, ws_block_state* state,
                                 ws_block_answer* expected) {
  return guarded([&]() -> ws_status {
    if (auto st = current_round(v, k, true)) return st;
    const auto& c = v->vector.rounds[k].cta;
    if (state) from_cta(c, state);
    if (expected) {
      const auto& it = v->instrs.at(v->vector.instr.text);
      fill_block_answer(model::evaluate_cta(v->vector.instr.instr, c, it->target, it->ptx),
                        expected);
    }
    return WS_OK;
  });
}

ws_status ws_vectors_answer_warp(ws_vectors* v, size_t k, const uint32_t* d, const uint8_t* p,
                                 const uint8_t* present, int hang) {
  return guarded([&]() -> ws_status {
    if (auto st = current_round(v, k, false)) return st;
    const auto& ins = v->vector.instr.instr;
    if (auto st = check_answer(spec::writes_d(ins), ins.write_p, d, p, hang)) return st;
    v->answers[k] = observed(WS_LANES, d, p, present, v->expect[k].executes, hang);
    v->answered[k] = 1;
    return WS_OK;
  });
}

ws_status ws_vectors_answer_block(ws_vectors* v, size_t k, const uint32_t* d,
                                  const uint8_t* present, int hang) {
  return guarded([&]() -> ws_status {
    if (auto st = current_round(v, k, true)) return st;
    if (auto st = check_answer(spec::writes_d(v->vector.instr.instr), false, d, nullptr, hang))
      return st;
    const std::size_t n = v->expect[k].executes.size();
    v->answers[k] = observed(n, d, nullptr, present, v->expect[k].executes, hang);
    v->answered[k] = 1;
    return WS_OK;
  });
}

ws_status ws_vectors_skip(ws_vectors* v) {
  return guarded([&]() -> ws_status {
    if (!v) return fail(WS_EINVAL, "no vector file (NULL)");
    if (!v->have) return fail(WS_EINVAL, "no current vector: call ws_vectors_next first");
    v->skipped = true;
    return WS_OK;
  });
}

char* ws_vectors_results(const ws_vectors* v) {
  char* text = nullptr;
  (void)guarded([&]() -> ws_status {
    if (!v) return fail(WS_EINVAL, "no vector file (NULL)");
    text = copy_out("{\"schema\":\"warpspec-results/1\"}\n" + v->results);
    return text ? WS_OK : fail(WS_ENOMEM, "out of memory");
  });
  return text;
}

ws_status ws_vectors_check(ws_vectors* v, ws_report** out) {
  return guarded([&]() -> ws_status {
    if (!v || !out) return fail(WS_EINVAL, "no vector file or no place for the report (NULL)");
    *out = nullptr;
    if (v->broken) return fail(v->broken, v->broken_why);
    if (!v->finished)
      return fail(WS_EINVAL, "vectors are left: call ws_vectors_next until it returns WS_END");
    std::ifstream vin(v->path, std::ios::binary);
    if (!vin) return fail(WS_EIO, v->path + ": cannot open again: " + std::strerror(errno));
    std::istringstream rin("{\"schema\":\"warpspec-results/1\"}\n" + v->results);
    auto r = std::make_unique<ws_report>();
    r->report = vectors::check(vin, v->path, rin, "answers");
    r->text = vectors::render(r->report, 50);
    r->json = vectors::render_json(r->report);
    *out = r.release();
    return WS_OK;
  });
}

void ws_report_free(ws_report* r) {
  delete r;
}
uint64_t ws_report_vectors(const ws_report* r) {
  return r ? r->report.vectors : 0;
}
uint64_t ws_report_compared(const ws_report* r) {
  return r ? r->report.compared : 0;
}
uint64_t ws_report_mismatches(const ws_report* r) {
  return r ? r->report.mismatches : 0;
}
const char* ws_report_text(const ws_report* r) {
  return r ? r->text.c_str() : "";
}
const char* ws_report_json(const ws_report* r) {
  return r ? r->json.c_str() : "";
}

}  // extern "C"
