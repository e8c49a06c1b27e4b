// gpgpu_sim_adapter: runs GPGPU-Sim's own functional code for vote, bar.warp.sync, bar.sync and
// bar.red (cut at build time from the user's checkout by build.sh; see README.md) over a
// warpspec vector file, through warpspec's C interface, and prints the report `warpspec check`
// prints.
//
//   gpgpu_sim_adapter [--timeout-ms N] [--results FILE] [--vote-mode-init N]
//                     [--pred-dest consumer|raw] [--verbose] VECTORS.jsonl
//
// What runs, and what is the adapter's:
//   - The instruction text is tokenized with GPGPU-Sim's lexer rules (ptx.l, as tables) and its
//     options decoded by GPGPU-Sim's option loop (ptx_ir.cc) and set_bar_type (cuda-sim.cc).
//     Their assertions are on, as in their build: an assertion there is GPGPU-Sim refusing the
//     PTX at load time.
//   - Forms whose opcode GPGPU-Sim's lexer does not know (match, redux at the commit in
//     README.md) are skipped: GPGPU-Sim cannot load such PTX at all.
//   - Warp instructions: the instruction is issued once with the executing lanes as its active
//     mask (--split-sites: once per call site, as GPGPU-Sim's SIMT stack would issue divergent
//     paths; a model, not their code), and the implementation (vote_impl, nop_impl) is called for each active
//     lane in lane order, as core_t::execute_warp_inst_t does. The membermask register m holds
//     each lane's mask; their code may read it or not.
//   - Block barriers: each vector is a fresh core (core_t: reduction storage zeroed) running one
//     CTA; each round, warps whose threads have all exited leave (barrier_set_t::warp_exit),
//     then each warp with executing threads issues the barrier in warp order: bar_impl per
//     active lane, the reduction callback registered (cuda-sim.cc), the warp's instruction kept
//     (store_info_of_last_inst_at_barrier) and barrier_set_t::warp_reaches_barrier called, which
//     releases the barrier and broadcasts the reduction (their code). A warp still waiting after
//     every warp has issued is a hang (GPGPU-Sim would deadlock).
//   - Predicates in: a predicate register as their setp writes it (pred = 1 means false).
//     Predicates out (--pred-dest consumer, the default): true when (pred & 1) == 0, as their
//     guard (@p), selp and vote read a predicate. --pred-dest raw: the register's u32 != 0.
//   - Each vector runs in a forked child; a round that crashes (an assertion, abort) or passes
//     the deadline is answered hang=1 (it did not complete), the rounds after it unanswered.
#include "gpgpu_sim_stubs.h"

#include "commit.h"
#include "warpspec.h"

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <ctime>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

const stub_core_config g_core_config;

// Their code, cut from the checkout.
#include "functions.inc"

namespace {

struct Lex {
  const char *text;
  int token;
};
const Lex kOpcodes[] = {
#include "opcode_table.inc"
};
struct LexOpt {
  const char *text;
  int token;
  const char *name;
};
const LexOpt kOptions[] = {
#include "option_table.inc"
};

int g_vote_mode_init = 0;
bool g_raw_pred = false;
bool g_split_sites = false;  // --split-sites: one issue per call site (a model of their SIMT stack)
bool g_force_popc = false;   // --force-popc: what-if, see README.md

// The instruction as GPGPU-Sim's parser would hand it to ptx_instruction's constructor.
struct Parsed {
  bool ok = false;
  std::string why;
  int opcode = -1;
  std::list<int> options;
  int scalar_type = 0;
  std::vector<operand_info> operands;
  std::vector<std::string> operand_names;
};

enum { REG_D = 1, REG_A = 2, REG_M = 3, REG_P = 4 };

Parsed parse(const std::string &text) {
  Parsed p;
  size_t sp = text.find(' ');
  std::string op = text.substr(0, sp);
  // The opcode: flex takes the longest rule that matches.
  const Lex *best = nullptr;
  for (const Lex &l : kOpcodes) {
    size_t n = std::strlen(l.text);
    if (op.compare(0, n, l.text) == 0 && (op.size() == n || op[n] == '.') &&
        (!best || n > std::strlen(best->text)))
      best = &l;
  }
  if (!best) {
    p.why = "no opcode rule in ptx.l for '" + op.substr(0, op.find('.')) + "'";
    return p;
  }
  p.opcode = best->token;
  std::string rest = op.substr(std::strlen(best->text));
  while (!rest.empty()) {
    size_t nx = rest.find('.', 1);
    std::string seg = rest.substr(0, nx);
    rest = nx == std::string::npos ? "" : rest.substr(nx);
    const LexOpt *o = nullptr;
    for (const LexOpt &l : kOptions)
      if (seg == l.text) o = &l;
    if (!o) {
      p.why = "no rule in ptx.l for '" + seg + "'";
      return p;
    }
    std::string name = o->name;
    if (name.size() > 5 && name.compare(name.size() - 5, 5, "_TYPE") == 0)
      p.scalar_type = o->token;  // type_spec: the instruction's scalar type
    else
      p.options.push_back(o->token);  // option: recognizer->add_option
  }
  // Operands: registers d, a, m (and p), integer literals; `!a` is a negated predicate.
  std::string ops = sp == std::string::npos ? "" : text.substr(sp + 1);
  if (!ops.empty() && ops.back() == ';') ops.pop_back();
  size_t pos = 0;
  while (pos < ops.size()) {
    size_t c = ops.find(',', pos);
    std::string t = ops.substr(pos, c == std::string::npos ? std::string::npos : c - pos);
    pos = c == std::string::npos ? ops.size() : c + 1;
    while (!t.empty() && t.front() == ' ') t.erase(0, 1);
    while (!t.empty() && t.back() == ' ') t.pop_back();
    if (t.empty()) continue;
    operand_info oi;
    if (t[0] == '!') {
      oi.neg_pred = true;
      t.erase(0, 1);
    }
    if (t == "d" || t == "a" || t == "m" || t == "p") {
      oi.kind = operand_info::REG;
      oi.reg = t == "d" ? REG_D : t == "a" ? REG_A : t == "m" ? REG_M : REG_P;
    } else if (t.find('|') != std::string::npos) {
      p.why = "two destinations '" + t + "'";
      return p;
    } else {
      oi.kind = operand_info::LITERAL;
      oi.literal = std::strtoull(t.c_str(), nullptr, 0);
    }
    p.operands.push_back(oi);
    p.operand_names.push_back(t);
  }
  if (p.opcode != VOTE_OP && p.opcode != BAR_OP && p.opcode != NOP_OP) {
    p.why = "opcode not hooked by this adapter";
    return p;
  }
  p.ok = true;
  return p;
}

// A predicate register as their setp_impl writes it: data.pred = (t == 0), t the comparison
// (here a != 0, as setp.ne.u32 a, x, 0 makes it).
ptx_reg_t pred_reg(uint32_t a) {
  ptx_reg_t r;
  r.pred = (a != 0) ? 0 : 1;
  return r;
}
ptx_reg_t u32_reg(uint32_t a) {
  ptx_reg_t r;
  r.u32 = a;
  return r;
}
uint32_t read_dest(const ptx_reg_t &r, int type) {
  if (type == PRED_TYPE) return g_raw_pred ? (r.u32 != 0) : ((r.pred & 1) == 0);
  return r.u32;
}

// Messages from the child.
struct Msg {
  uint32_t kind;  // 0: the instruction decoded (PTX accepted); 1: a round
  uint32_t k;
  uint32_t threads;
  uint32_t hang;
  uint32_t d[WS_MAX_THREADS];
  uint8_t present[WS_MAX_THREADS];
};

bool write_all(int fd, const void *buf, size_t n) {
  const char *p = static_cast<const char *>(buf);
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

struct Round_in {
  size_t threads = 0;
  uint8_t status[WS_MAX_THREADS];
  uint32_t a[WS_MAX_THREADS];
  uint32_t mask[WS_LANES];
  uint32_t site[WS_LANES];
};

void send_round(int fd, Msg &msg) {
  msg.kind = 1;
  if (!write_all(fd, &msg, sizeof msg)) _exit(4);
}

[[noreturn]] void child_main(int fd, const Parsed &p, bool is_block, const std::vector<Round_in> &rounds) {
  static Msg msg;
  std::memset(&msg, 0, sizeof msg);
  // Load: ptx_instruction's constructor (option decoding) and pre_decode's set_bar_type.
  static ptx_instruction sinst;
  sinst.m_opcode = p.opcode;
  sinst.m_vote_mode = static_cast<ptx_instruction::vote_mode_t>(g_vote_mode_init);
  if (g_force_popc) {
    // What-if (not GPGPU-Sim's behaviour): their option loop asserts on .popc; take it out of the
    // list and set the atomic spec it would need, so that bar_impl's popc path runs.
    std::list<int> opts = p.options;
    bool had = false;
    for (auto it = opts.begin(); it != opts.end();)
      if (*it == ATOMIC_POPC) it = opts.erase(it), had = true;
      else ++it;
    sinst.decode_options(opts);
    if (had) sinst.m_atomic_spec = ATOMIC_POPC;
  } else {
    sinst.decode_options(p.options);
  }
  sinst.m_scalar_type = p.scalar_type;
  sinst.m_operands = p.operands;
  sinst.set_bar_type();
  msg.kind = 0;
  if (!write_all(fd, &msg, sizeof msg)) _exit(4);
  void (*impl)(const ptx_instruction *, ptx_thread_info *) =
      p.opcode == VOTE_OP ? vote_impl : p.opcode == BAR_OP ? bar_impl : nop_impl;
  if (!is_block) {
    const int dtype = p.opcode == VOTE_OP ? static_cast<int>(sinst.get_type()) : 0;
    static ptx_thread_info th[WS_LANES];
    for (unsigned t = 0; t < WS_LANES; ++t) th[t].m_hw_tid = t;
    for (size_t k = 0; k < rounds.size(); ++k) {
      const Round_in &r = rounds[k];
      std::memset(&msg, 0, sizeof msg);
      msg.k = static_cast<uint32_t>(k);
      msg.threads = WS_LANES;
      std::map<uint32_t, active_mask_t> groups;  // call site -> executing lanes
      for (unsigned t = 0; t < WS_LANES; ++t) {
        th[t].m_regs[REG_A] = p.opcode == VOTE_OP ? pred_reg(r.a[t]) : u32_reg(r.a[t]);
        th[t].m_regs[REG_M] = u32_reg(r.mask[t]);
        th[t].m_regs.erase(REG_D);
        if (r.status[t] == WS_EXECUTES) groups[g_split_sites ? r.site[t] : 0].set(t);
      }
      for (auto &g : groups) {
        // cuda-sim.cc: for VOTE_OP a copy of the instruction carries the warp's active mask.
        ptx_instruction inst = sinst;
        inst.m_warp_active_mask = g.second;
        for (unsigned t = 0; t < WS_LANES; ++t)
          if (g.second.test(t)) impl(&inst, &th[t]);
      }
      for (unsigned t = 0; t < WS_LANES; ++t) {
        if (r.status[t] != WS_EXECUTES) continue;
        if (p.opcode == NOP_OP) {
          msg.present[t] = 1;  // bar.warp.sync: the lane went on
        } else if (th[t].m_regs.count(REG_D)) {
          msg.present[t] = 1;
          msg.d[t] = read_dest(th[t].m_regs[REG_D], dtype);
        }
      }
      send_round(fd, msg);
    }
    _exit(0);
  }

  // Block barriers: one CTA on a fresh core.
  const size_t N = rounds.empty() ? 0 : rounds[0].threads;
  const unsigned W = static_cast<unsigned>((N + 31) / 32);
  static core_t core;
  static ptx_thread_info th[WS_MAX_THREADS];
  static shd_warp_t warps[WARP_PER_CTA_MAX];
  static shd_warp_t *warp_ptrs[WARP_PER_CTA_MAX];
  static stub_shader_config scfg;
  static shader_core_ctx shader;
  for (unsigned w = 0; w < WARP_PER_CTA_MAX; ++w) warp_ptrs[w] = &warps[w];
  shader.m_config = &scfg;
  shader.m_warp = warp_ptrs;
  static barrier_set_t barriers(&shader, WARP_PER_CTA_MAX, MAX_CTA_PER_SHADER, MAX_BARRIERS_PER_CTA, 32);
  warp_set_t cta_warps;
  for (unsigned w = 0; w < W; ++w) cta_warps.set(w);
  barriers.allocate_barrier(0, cta_warps);
  for (size_t t = 0; t < N; ++t) {
    th[t].m_core = &core;
    th[t].m_hw_tid = static_cast<unsigned>(t);
    th[t].m_ntid = {static_cast<unsigned>(N), 1, 1};
  }
  const int dtype = p.scalar_type;
  const bool red = sinst.barrier_op() == RED_OPTION;
  std::vector<bool> warp_gone(W, false);
  for (size_t k = 0; k < rounds.size(); ++k) {
    const Round_in &r = rounds[k];
    std::memset(&msg, 0, sizeof msg);
    msg.k = static_cast<uint32_t>(k);
    msg.threads = static_cast<uint32_t>(N);
    for (size_t t = 0; t < N; ++t) {
      th[t].m_regs[REG_A] = pred_reg(r.a[t]);
      th[t].m_regs.erase(REG_D);
    }
    // Warps whose threads have all exited leave first (shader_core_ctx::warp_exit).
    for (unsigned w = 0; w < W; ++w) {
      if (warp_gone[w]) continue;
      bool all_exited = true;
      for (size_t t = w * 32; t < N && t < (w + 1) * 32; ++t) all_exited &= r.status[t] == WS_EXITED;
      if (all_exited) {
        warp_gone[w] = true;
        barriers.warp_exit(w);
      }
    }
    std::vector<bool> issued(W, false);
    for (unsigned w = 0; w < W; ++w) {
      active_mask_t mask;
      for (size_t t = w * 32; t < N && t < (w + 1) * 32; ++t)
        if (r.status[t] == WS_EXECUTES) mask.set(t - w * 32);
      if (mask.none()) continue;
      issued[w] = true;
      warp_inst_t pipe_reg = sinst;  // **pipe_reg = *next_inst (static information)
      pipe_reg.m_warp_active_mask = mask;
      for (unsigned l = 0; l < 32; ++l) {
        if (!mask.test(l)) continue;
        ptx_thread_info &t = th[w * 32 + l];
        t.m_last_dram_callback = dram_callback_t();
        impl(&sinst, &t);  // ptx_exec_inst: the opcode's implementation on the static instruction
        if (sinst.m_opcode == BAR_OP && sinst.barrier_op() == RED_OPTION)  // cuda-sim.cc
          pipe_reg.add_callback(l, t.m_last_dram_callback.function, t.m_last_dram_callback.instruction,
                                &t, false);
      }
      warps[w].store_info_of_last_inst_at_barrier(&pipe_reg);
      barriers.warp_reaches_barrier(0, w, &sinst);
    }
    bool hang = false;
    for (unsigned w = 0; w < W; ++w) hang |= issued[w] && barriers.warp_waiting_at_barrier(w);
    if (hang) {
      msg.hang = 1;
      send_round(fd, msg);
      _exit(0);  // the rounds after a hang do not run
    }
    for (size_t t = 0; t < N; ++t) {
      if (r.status[t] != WS_EXECUTES) continue;
      if (!red) {
        msg.present[t] = 1;  // bar.sync: the thread went on
      } else if (th[t].m_regs.count(REG_D)) {
        msg.present[t] = 1;
        msg.d[t] = read_dest(th[t].m_regs[REG_D], dtype);
      }
    }
    send_round(fd, msg);
  }
  _exit(0);
}

double now_ms() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

std::string last_line(FILE *f) {
  std::fflush(f);
  std::rewind(f);
  char buf[1024];
  std::string last;
  while (std::fgets(buf, sizeof buf, f)) {
    std::string s(buf);
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
    if (!s.empty()) last = s;
  }
  return last;
}

}  // namespace

int main(int argc, char **argv) {
  const char *path = nullptr;
  const char *results_path = nullptr;
  int timeout_ms = 2000;
  bool verbose = false;
  const char *usage =
      "usage: %s [--timeout-ms N] [--results FILE] [--vote-mode-init N] [--pred-dest consumer|raw] "
      "[--split-sites] [--force-popc] [--verbose] VECTORS.jsonl\n";
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--timeout-ms") && i + 1 < argc) timeout_ms = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--results") && i + 1 < argc) results_path = argv[++i];
    else if (!std::strcmp(argv[i], "--vote-mode-init") && i + 1 < argc) g_vote_mode_init = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--pred-dest") && i + 1 < argc) g_raw_pred = !std::strcmp(argv[++i], "raw");
    else if (!std::strcmp(argv[i], "--split-sites")) g_split_sites = true;
    else if (!std::strcmp(argv[i], "--force-popc")) g_force_popc = true;
    else if (!std::strcmp(argv[i], "--verbose") || !std::strcmp(argv[i], "-v")) verbose = true;
    else if (argv[i][0] == '-') {
      std::fprintf(stderr, usage, argv[0]);
      return 64;
    } else path = argv[i];
  }
  if (!path) {
    std::fprintf(stderr, usage, argv[0]);
    return 64;
  }
  signal(SIGPIPE, SIG_IGN);
  ws_vectors *vs = nullptr;
  if (ws_vectors_open(path, &vs) != WS_OK) {
    std::fprintf(stderr, "%s\n", ws_last_error());
    return 65;
  }
  unsigned long run = 0, skipped = 0, hung = 0, refused = 0, crashed = 0;
  std::map<std::string, unsigned long> skip_why, crash_why;
  ws_vector v;
  ws_status st;
  static Msg msg;
  while ((st = ws_vectors_next(vs, &v)) == WS_OK) {
    const char *form = ws_instr_form(v.instr);
    const std::string text = ws_instr_text(v.instr);
    Parsed p = parse(text);
    if (!p.ok) {
      ws_vectors_skip(vs);
      ++skipped;
      ++skip_why[std::string(form) + ": " + p.why];
      continue;
    }
    std::vector<Round_in> rounds(v.rounds);
    for (size_t k = 0; k < v.rounds; ++k) {
      Round_in &r = rounds[k];
      if (v.is_block) {
        static ws_block_state b;
        ws_vectors_round_block(vs, k, &b, nullptr);
        r.threads = b.threads;
        for (size_t t = 0; t < b.threads; ++t) {
          r.status[t] = b.status[t];
          r.a[t] = b.pred[t];
        }
      } else {
        ws_warp_state s;
        ws_vectors_round_warp(vs, k, &s, nullptr);
        r.threads = WS_LANES;
        for (size_t t = 0; t < WS_LANES; ++t) {
          r.status[t] = s.status[t];
          r.a[t] = static_cast<uint32_t>(s.a[t]);
          r.mask[t] = s.mask[t];
          r.site[t] = s.site[t];
        }
      }
    }
    int fds[2];
    if (pipe(fds) != 0) {
      perror("pipe");
      return 70;
    }
    FILE *errlog = std::tmpfile();
    std::fflush(stdout);
    std::fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
      perror("fork");
      return 70;
    }
    if (pid == 0) {
      close(fds[0]);
      if (errlog) dup2(fileno(errlog), 1), dup2(fileno(errlog), 2);
      child_main(fds[1], p, v.is_block, rounds);
    }
    close(fds[1]);
    ++run;
    size_t done = 0, got = 0;
    bool decoded = false, hang = false, crash = false, sim_hang = false;
    const double deadline = now_ms() + timeout_ms * static_cast<double>(v.rounds + 1);
    while (done < v.rounds) {
      const double left = deadline - now_ms();
      if (left <= 0) {
        hang = true;
        break;
      }
      pollfd pf{fds[0], POLLIN, 0};
      int pr = poll(&pf, 1, static_cast<int>(left) + 1);
      if (pr < 0) {
        if (errno == EINTR) continue;
        perror("poll");
        return 70;
      }
      if (pr == 0) continue;
      ssize_t n = read(fds[0], reinterpret_cast<char *>(&msg) + got, sizeof msg - got);
      if (n < 0) {
        if (errno == EINTR) continue;
        perror("read");
        return 70;
      }
      if (n == 0) {
        crash = true;
        break;
      }
      got += static_cast<size_t>(n);
      if (got < sizeof msg) continue;
      got = 0;
      if (msg.kind == 0) {
        decoded = true;
        continue;
      }
      if (msg.hang) {
        if (v.is_block) ws_vectors_answer_block(vs, msg.k, nullptr, nullptr, 1);
        else ws_vectors_answer_warp(vs, msg.k, nullptr, nullptr, nullptr, 1);
        sim_hang = true;
        ++done;
        break;
      }
      if (v.is_block) ws_vectors_answer_block(vs, msg.k, msg.d, msg.present, 0);
      else ws_vectors_answer_warp(vs, msg.k, msg.d, nullptr, msg.present, 0);
      ++done;
    }
    int wstatus = 0;
    if (hang) kill(pid, SIGKILL);
    waitpid(pid, &wstatus, 0);
    close(fds[0]);
    std::string why;
    if (sim_hang) {
      ++hung;
      why = "barrier never released";
    } else if (hang || crash) {
      if (v.is_block) ws_vectors_answer_block(vs, done, nullptr, nullptr, 1);
      else ws_vectors_answer_warp(vs, done, nullptr, nullptr, nullptr, 1);
      std::string line = errlog ? last_line(errlog) : "";
      if (hang) {
        ++hung;
        why = "deadline passed";
      } else {
        why = (decoded ? "crashed while executing: " : "refused at PTX load: ") + line;
        if (decoded) ++crashed;
        else ++refused;
        // Keep the message short: the assertion text after the source location.
        ++crash_why[std::string(form) + ": " + why];
      }
    }
    if (verbose && !why.empty())
      std::fprintf(stderr, "vector %llu (%s) round %zu: %s\n", (unsigned long long)v.id, form,
                   sim_hang ? done - 1 : done, why.c_str());
    if (errlog) std::fclose(errlog);
  }
  if (st != WS_END) {
    std::fprintf(stderr, "%s\n", ws_last_error());
    return 65;
  }
  if (results_path) {
    char *res = ws_vectors_results(vs);
    FILE *f = std::fopen(results_path, "w");
    if (!f || !res) {
      std::fprintf(stderr, "cannot write %s\n", results_path);
      return 73;
    }
    std::fputs(res, f);
    std::fclose(f);
    ws_free(res);
  }
  ws_report *r = nullptr;
  if (ws_vectors_check(vs, &r) != WS_OK) {
    std::fprintf(stderr, "%s\n", ws_last_error());
    return 70;
  }
  std::fputs(ws_report_text(r), stdout);
  std::printf("gpgpu_sim_adapter: GPGPU-Sim %s; %lu vectors run, %lu skipped, %lu hung, "
              "%lu refused at PTX load, %lu crashed (vote-mode-init %d, pred-dest %s%s%s)\n",
              GPGPU_SIM_COMMIT, run, skipped, hung, refused, crashed, g_vote_mode_init,
              g_raw_pred ? "raw" : "consumer",
              g_split_sites ? ", split-sites" : "", g_force_popc ? ", force-popc" : "");
  for (auto &s : skip_why) std::printf("  skipped %lu  %s\n", s.second, s.first.c_str());
  for (auto &s : crash_why) std::printf("  did not complete %lu  %s\n", s.second, s.first.c_str());
  const int bad = ws_report_mismatches(r) != 0 ? 1 : (ws_report_compared(r) == 0 ? 2 : 0);
  ws_report_free(r);
  ws_vectors_close(vs);
  return bad;
}
