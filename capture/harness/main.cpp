// warpspec-capture: runs generated warp and block states on the GPU and writes what each lane
// observed in the capture format (docs/capture-format.md), plus a throughput measurement.
//
//   warpspec-capture info
//   warpspec-capture list
//   warpspec-capture warp VARIANT SET COUNT SEED OUT.jsonl[.gz] [INDEX]
//   warpspec-capture cta VARIANT COUNT SEED OUT.jsonl[.gz]
//   warpspec-capture named VARIANT SET COUNT SEED OUT.jsonl[.gz] [FIRST [LAST]]
//   warpspec-capture merge OUT.jsonl[.gz] IN...
//   warpspec-capture bench OUT.json [VARIANT...]
//
// With INDEX, `warp` runs only state INDEX of the COUNT generated, alone in its launch; if that
// launch traps, or does not return within the deadline, the state is written with that as its
// observation ("fault"). Use it for probes, whose traps or hangs would otherwise take a whole
// batch down. `list` names each warp variant's state sets, a set that must run state by state
// marked ":alone".
// `named` runs the named block barriers: states FIRST to LAST (default all COUNT) of the set, in
// batches whose launches run side by side under a deadline. The kernels leave their marks in
// host memory, so a batch that hangs is still read: each block that did not finish is written
// with a "hang" fault and the threads that came back. The process then leaves (the hung kernel
// ends with it), printing "next N" where a later run must go on; a trap likewise, without the
// batch's records (run its states one by one: FIRST and LAST = FIRST + 1).
// Exit codes: 0 done, 64 usage, 69 device or launch error (a trap), 70 a harness check failed (a
// state that could hang, or a lane that ran when it should not have), 75 `named` stopped after a
// hang before LAST ("next N" says where to go on).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "capture/format.hpp"
#include "capture/generate.hpp"
#include "capture/harness/device.hpp"
#include "capture/variants.hpp"
#include "model/eval.hpp"

namespace warpspec::capture {
namespace {

constexpr int kExitUsage = 64, kExitDevice = 69, kExitCheck = 70, kExitResume = 75;

int fail(int code, const std::string& msg) {
  std::cerr << "warpspec-capture: " << msg << "\n";
  return code;
}

/// PTX ISA version that each CUDA release's compiler emits by default.
std::string ptx_isa_of(int cuda_major, int cuda_minor) {
  static const std::map<std::pair<int, int>, std::string> table{
      {{12, 0}, "8.0"}, {{12, 1}, "8.1"}, {{12, 2}, "8.2"}, {{12, 3}, "8.3"}, {{12, 4}, "8.4"},
      {{12, 5}, "8.5"}, {{12, 6}, "8.5"}, {{12, 8}, "8.7"}, {{12, 9}, "8.8"}, {{13, 0}, "9.0"}};
  auto it = table.find({cuda_major, cuda_minor});
  return it == table.end() ? std::string() : it->second;
}

std::string version(int v) {
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

bool header_of(Header& h, gpu::DeviceInfo& info, std::string& err) {
  if (!gpu::device_info(info, err)) return false;
  h.device = info.name;
  h.sm = "sm_" + std::to_string(info.major * 10 + info.minor);
  h.driver = version(info.driver);
  h.runtime = version(info.runtime);
  h.compiler = info.compiler;
  int cmaj = 0, cmin = 0;
  std::sscanf(info.compiler.c_str(), "nvcc %d.%d", &cmaj, &cmin);
  h.ptx = ptx_isa_of(cmaj, cmin);
  return true;
}

const Variant* variant_arg(const char* name) {
  auto id = find_variant(name);
  return id ? &variant_info(*id) : nullptr;
}

/// The model must agree with the generator about a state: main sets fire no UB clause at all; a
/// probe fires only the clauses it is about.
std::optional<std::string> model_objection(const WarpRecord& r, StateSet set) {
  const auto res = model::evaluate(instr_of(r), warp_of(r), spec::kDefaultTarget);
  for (const auto& f : res.ub)
    if (!probe_fires(set, r.form, f.clause))
      return std::string(spec::clause_info(f.clause).key) + " fires";
  return std::nullopt;
}

/// How long a warp launch may run before it counts as hung. A batch of 2,000 states returns in
/// well under a second.
constexpr double kDeadlineSeconds = 3;

/// Leaves at once, without the CUDA runtime's teardown, which would wait for a hung kernel; the
/// driver ends the kernel with the process.
[[noreturn]] void leave(int code) {
  std::cout.flush();
  std::cerr.flush();
  std::_Exit(code);
}

int cmd_info() {
  Header h;
  gpu::DeviceInfo info;
  std::string err;
  if (!header_of(h, info, err)) return fail(kExitDevice, err);
  nlohmann::json o = nlohmann::json::parse(to_line(h));
  o["sms"] = info.sms;
  o["clock_khz"] = info.clock_khz;
  std::cout << o.dump(2) << "\n";
  return 0;
}

int cmd_list() {
  for (const auto& v : kVariants) {
    if (is_named(v)) {
      std::cout << "named " << v.name << " ";
      const char* sep = "";
      for (CtaSet s : cta_sets(v)) {
        std::cout << sep << cta_set_name(s);
        sep = ",";
      }
      std::cout << "\n";
      continue;
    }
    if (static_cast<int>(v.id) >= kFirstCtaVariant) {
      std::cout << "cta  " << v.name << "\n";
      continue;
    }
    std::cout << "warp " << v.name << " ";
    const char* sep = "";
    for (StateSet s : state_sets(v)) {
      std::cout << sep << state_set_name(s) << (runs_alone(s) ? ":alone" : "");
      sep = ",";
    }
    std::cout << "\n";
  }
  return 0;
}

int write_records(const std::string& out, const Header& h, const std::vector<WarpRecord>& recs) {
  try {
    Writer w(out, h);
    for (const auto& r : recs) w.write(r);
    w.close();
  } catch (const std::exception& e) {
    return fail(kExitDevice, e.what());
  }
  return 0;
}

int cmd_warp(const Variant& v, StateSet set, std::size_t count, uint64_t seed,
             const std::string& out, std::optional<std::size_t> index) {
  if (static_cast<int>(v.id) >= kFirstCtaVariant)
    return fail(kExitUsage, std::string(v.name) + " is a block barrier: use 'cta'");
  if (runs_alone(set) && !index)
    return fail(kExitUsage,
                std::string(state_set_name(set)) + " may hang: run its states one by one (INDEX)");
  auto recs = generate_warp_states(v, set, seed, count);
  if (index) {
    if (*index >= recs.size()) return fail(kExitUsage, "INDEX must be below COUNT");
    recs = {recs[*index]};
  }
  std::vector<gpu::LaneIn> in(recs.size() * 32);
  for (std::size_t s = 0; s < recs.size(); ++s) {
    const WarpRecord& r = recs[s];
    if (auto why = hang_risk(r, set))
      return fail(kExitCheck, "refusing state " + std::to_string(s) + ": " + *why);
    if (auto why = model_objection(r, set))
      return fail(kExitCheck, "refusing state " + std::to_string(s) + ": " + *why);
    uint32_t alive = 0;
    for (unsigned i = 0; i < 32; ++i)
      if (r.status[i] != model::LaneStatus::Exited) alive |= 1u << i;
    for (unsigned i = 0; i < 32; ++i) {
      auto& x = in[s * 32 + i];
      x.a = r.a[i];
      x.mask = r.mask[i];
      x.alive = alive;
      x.status = r.status[i] == model::LaneStatus::Executes ? gpu::kExecutes
                 : r.status[i] == model::LaneStatus::Exited ? gpu::kExited
                                                            : gpu::kInactive;
      x.site = r.site[i];
      x.b = r.b[i];
      x.c = r.c[i];
      x.width = r.width ? (*r.width)[i] : 32;
    }
  }
  Header h;
  gpu::DeviceInfo info;
  std::string err;
  if (!header_of(h, info, err)) return fail(kExitDevice, err);
  h.set = std::string(state_set_name(set));
  h.seed = seed;
  std::vector<gpu::LaneOut> res(in.size());
  std::string fault;
  bool hung = false;
  if (!gpu::run_warp_batch(static_cast<int>(v.id), in.data(), res.data(), recs.size(),
                           kDeadlineSeconds, err, fault, hung)) {
    if (!index || fault.empty()) {
      const int rc = fail(kExitDevice, std::string(v.name) + " " + h.set + ": " + err);
      if (hung) leave(rc);
      return rc;
    }
    // One state alone in its launch: the trap, or the hang, is that state's observation.
    recs[0].fault = fault;
    int rc = write_records(out, h, recs);
    if (!rc)
      std::cout << v.name << " " << h.set << " state " << *index << ": "
                << (hung ? "hung" : "trapped") << " (" << fault << ") -> " << out << "\n";
    if (hung) leave(rc);
    return rc;
  }
  for (std::size_t s = 0; s < recs.size(); ++s) {
    WarpRecord& r = recs[s];
    r.active.emplace();
    for (unsigned i = 0; i < 32; ++i) {
      const auto& o = res[s * 32 + i];
      const bool exec = r.status[i] == model::LaneStatus::Executes;
      const uint32_t want = exec ? 1 + r.site[i] : 0;
      if (o.ran != want)
        return fail(kExitCheck, std::string(v.name) + " state " + std::to_string(s) + " lane " +
                                    std::to_string(i) + ": ran marker " + std::to_string(o.ran) +
                                    ", expected " + std::to_string(want));
      r.d[i] = exec ? o.d : 0;
      r.p[i] = exec && o.p != 0;
      (*r.active)[i] = exec ? o.active : 0;
    }
  }
  if (int rc = write_records(out, h, recs)) return rc;
  std::cout << v.name << " " << h.set << ": " << recs.size() << " states -> " << out << "\n";
  return 0;
}

int cmd_merge(const std::string& out, const std::vector<std::string>& inputs) {
  try {
    std::optional<Writer> w;
    std::size_t n = 0;
    for (const auto& in : inputs) {
      Reader r(in);
      if (!w) w.emplace(out, r.header());
      Record rec;
      while (r.next(rec)) w->write(rec), ++n;
    }
    if (w) w->close();
    std::cout << "merged " << n << " records from " << inputs.size() << " files -> " << out << "\n";
  } catch (const std::exception& e) {
    return fail(kExitDevice, e.what());
  }
  return 0;
}

int cmd_cta(const Variant& v, std::size_t count, uint64_t seed, const std::string& out) {
  if (static_cast<int>(v.id) < kFirstCtaVariant)
    return fail(kExitUsage, std::string(v.name) + " is a warp form: use 'warp'");
  if (is_named(v))
    return fail(kExitUsage, std::string(v.name) + " is a named barrier: use 'named'");
  auto recs = generate_cta_states(v, seed, count);
  for (std::size_t s = 0; s < recs.size(); ++s)
    if (auto why = hang_risk(recs[s]))
      return fail(kExitCheck, "refusing block " + std::to_string(s) + ": " + *why);
  Header h;
  gpu::DeviceInfo info;
  std::string err;
  if (!header_of(h, info, err)) return fail(kExitDevice, err);
  h.set = "main";
  h.seed = seed;
  // One launch per block size.
  std::map<std::size_t, std::vector<std::size_t>> by_size;
  for (std::size_t s = 0; s < recs.size(); ++s) by_size[recs[s].exited.size()].push_back(s);
  for (const auto& [n, ids] : by_size) {
    std::vector<uint8_t> ex(n * ids.size());
    std::vector<uint32_t> pred(n * ids.size()), d(n * ids.size()), ran(n * ids.size());
    for (std::size_t b = 0; b < ids.size(); ++b)
      for (std::size_t t = 0; t < n; ++t) {
        ex[b * n + t] = recs[ids[b]].exited[t];
        pred[b * n + t] = recs[ids[b]].pred[t];
      }
    if (!gpu::run_cta_batch(static_cast<int>(v.id), static_cast<unsigned>(n), ex.data(),
                            pred.data(), d.data(), ran.data(), ids.size(), err))
      return fail(kExitDevice,
                  std::string(v.name) + " blocks of " + std::to_string(n) + ": " + err);
    for (std::size_t b = 0; b < ids.size(); ++b) {
      CtaRecord& r = recs[ids[b]];
      for (std::size_t t = 0; t < n; ++t) {
        if (ran[b * n + t] != (r.exited[t] ? 0u : 1u))
          return fail(kExitCheck, std::string(v.name) + " block " + std::to_string(ids[b]) +
                                      " thread " + std::to_string(t) + ": unexpected ran flag");
        r.d[t] = r.exited[t] ? 0 : d[b * n + t];
      }
    }
  }
  try {
    Writer w(out, h);
    for (const auto& r : recs) w.write(r);
    w.close();
  } catch (const std::exception& e) {
    return fail(kExitDevice, e.what());
  }
  std::cout << v.name << ": " << recs.size() << " blocks -> " << out << "\n";
  return 0;
}

/// The model must agree with the generator about a block state: main and leftover fire no UB
/// clause; a probe fires its own (and maybe cta.ub.not_reached). bar.sync without a count has no
/// partner form to run.
std::optional<std::string> model_objection(const CtaRecord& r, CtaSet set) {
  const auto res = model::evaluate_cta(instr_of(r), cta_of(r), spec::kDefaultTarget);
  bool own = false;
  for (const auto& f : res.ub) {
    if (!cta_probe_fires(set, f.clause))
      return std::string(spec::clause_info(f.clause).key) + " fires";
    own = own || f.clause == cta_probe_clause(set);
  }
  if (is_cta_probe(set) && !own)
    return std::string(spec::clause_info(*cta_probe_clause(set)).key) + " does not fire";
  if (!instr_of(r).has_count &&
      std::find(r.partner.begin(), r.partner.end(), true) != r.partner.end())
    return "a partner beside a barrier without a count";
  return std::nullopt;
}

/// The kernel inputs of one block state, and its immediate pair (-1 for registers).
int named_inputs(const CtaRecord& r, gpu::NamedIn* in) {
  const spec::Instr ins = instr_of(r);
  int imm = -1;
  if (ins.imm_bar && ins.has_count && ins.imm_count)
    for (int k = 0; k < kNamedImmediateCount; ++k)
      if (kNamedImmediates[k].a == *ins.imm_bar && kNamedImmediates[k].b == *ins.imm_count) imm = k;
  for (std::size_t t = 0; t < r.exited.size(); ++t) {
    gpu::NamedIn& x = in[t];
    x.role = r.exited[t]     ? uint32_t{gpu::kExited}
             : !r.arrives(t) ? uint32_t{gpu::kElsewhere}
             : r.partner[t]  ? uint32_t{gpu::kPartner}
                             : uint32_t{gpu::kArrives};
    x.pred = r.pred[t];
    x.bar = r.bar.empty() ? ins.imm_bar.value_or(0) : r.bar[t];
    x.count = r.count.empty() ? ins.imm_count.value_or(0) : r.count[t];
  }
  return imm;
}

/// How many states one batch of `named` holds: a main set in one batch, so that a reading of the
/// text the hardware does not share costs one deadline per variant, not one per batch; few
/// enough that blocks hung in it leave the GPU room for the others (a block that never started
/// is run again by the next process).
constexpr std::size_t kNamedBatch = 1000;
/// How long a thread elsewhere stays alive before it finishes.
constexpr unsigned kIdleMicroseconds = 200;

int cmd_named(const Variant& v, CtaSet set, std::size_t count, uint64_t seed,
              const std::string& out, std::size_t first, std::size_t last) {
  if (!is_named(v)) return fail(kExitUsage, std::string(v.name) + " is not a named barrier");
  const auto sets = cta_sets(v);
  if (std::find(sets.begin(), sets.end(), set) == sets.end())
    return fail(kExitUsage,
                std::string(v.name) + " is not captured in set " + std::string(cta_set_name(set)));
  if (first >= last || last > count) return fail(kExitUsage, "need FIRST < LAST <= COUNT");
  auto all = generate_cta_states(v, set, seed, count);
  std::vector<CtaRecord> recs(all.begin() + static_cast<long>(first),
                              all.begin() + static_cast<long>(last));
  for (std::size_t s = 0; s < recs.size(); ++s) {
    const auto why = hang_risk(recs[s]) ? hang_risk(recs[s]) : model_objection(recs[s], set);
    if (why) return fail(kExitCheck, "refusing block " + std::to_string(first + s) + ": " + *why);
  }
  Header h;
  gpu::DeviceInfo info;
  std::string err;
  if (!header_of(h, info, err)) return fail(kExitDevice, err);
  h.set = std::string(cta_set_name(set));
  h.seed = seed;
  auto write = [&](std::size_t upto) {
    try {
      Writer w(out, h);
      for (std::size_t s = 0; s < upto; ++s) w.write(recs[s]);
      w.close();
    } catch (const std::exception& e) {
      return fail(kExitDevice, e.what());
    }
    return 0;
  };
  for (std::size_t b0 = 0; b0 < recs.size(); b0 += kNamedBatch) {
    const std::size_t b1 = std::min(recs.size(), b0 + kNamedBatch);
    // One launch per block size and immediate pair, all side by side.
    std::map<std::pair<std::size_t, int>, std::vector<std::size_t>> groups;
    std::vector<std::vector<gpu::NamedIn>> ins(b1 - b0);
    for (std::size_t s = b0; s < b1; ++s) {
      ins[s - b0].resize(recs[s].exited.size());
      const int imm = named_inputs(recs[s], ins[s - b0].data());
      if (v.operands == NamedOperands::Immediates && imm < 0)
        return fail(kExitCheck, "block " + std::to_string(first + s) + ": \"" + recs[s].instr +
                                    "\" names no compiled immediate pair");
      groups[{recs[s].exited.size(), imm}].push_back(s);
    }
    std::vector<gpu::NamedLaunch> launches;
    std::vector<std::vector<gpu::NamedIn>> in_of;
    std::vector<std::vector<gpu::NamedOut>> out_of;
    for (const auto& [key, ids] : groups) {
      const std::size_t n = key.first;
      in_of.emplace_back(n * ids.size());
      out_of.emplace_back(n * ids.size());
      for (std::size_t k = 0; k < ids.size(); ++k)
        std::copy(ins[ids[k] - b0].begin(), ins[ids[k] - b0].end(), in_of.back().begin() + k * n);
    }
    std::size_t g = 0;
    for (const auto& [key, ids] : groups) {
      launches.push_back({static_cast<unsigned>(key.first), key.second, ids.size(), in_of[g].data(),
                          out_of[g].data()});
      ++g;
    }
    std::string fault;
    bool hung = false;
    const bool ok = gpu::run_named(static_cast<int>(v.id), launches.data(), launches.size(),
                                   kDeadlineSeconds, kIdleMicroseconds, err, fault, hung);
    if (!ok && !hung && (fault.empty() || recs.size() > 1)) {
      // A trap takes the whole context: keep what came before this batch, and say where to go on.
      if (b0 > 0 && write(b0) == 0)
        std::cout << v.name << " " << h.set << ": " << b0 << " blocks -> " << out << "\n";
      std::cout << "next " << first + b0 << "\n";
      return fail(kExitDevice, std::string(v.name) + " " + h.set + " blocks " +
                                   std::to_string(first + b0) + "-" +
                                   std::to_string(first + b1 - 1) + ": " + err);
    }
    // Read every block back: who came back, and d where the instruction itself ran.
    std::size_t next = b1;
    g = 0;
    for (const auto& [key, ids] : groups) {
      const std::size_t n = key.first;
      for (std::size_t k = 0; k < ids.size(); ++k) {
        CtaRecord& r = recs[ids[k]];
        const gpu::NamedOut* o = out_of[g].data() + k * n;
        bool finished = true, started = false;
        r.ran.emplace(n, false);
        for (std::size_t t = 0; t < n; ++t) {
          const uint32_t mark = o[t].mark;
          started = started || mark != gpu::kNoMark;
          const uint32_t want = r.exited[t]     ? gpu::kNoMark
                                : !r.arrives(t) ? gpu::kLeft
                                                : gpu::kCameBack;
          finished = finished && mark == want;
          // On the way a thread may still show kNoMark or kEntered; never another role's mark.
          const bool wrong =
              mark > gpu::kLeft || (r.exited[t] && mark != gpu::kNoMark) ||
              (!r.exited[t] && (mark == gpu::kCameBack || mark == gpu::kLeft) && mark != want);
          if (wrong)
            return fail(kExitCheck, std::string(v.name) + " block " +
                                        std::to_string(first + ids[k]) + " thread " +
                                        std::to_string(t) + ": mark " + std::to_string(mark) +
                                        " where " + std::to_string(want) + " belongs");
          (*r.ran)[t] = mark == gpu::kCameBack;
          r.d[t] = mark == gpu::kCameBack && r.executes(t) ? o[t].d : 0;
        }
        if (ok && !finished)
          return fail(kExitCheck, std::string(v.name) + " block " + std::to_string(first + ids[k]) +
                                      ": the launch returned, but a thread left no mark");
        if (finished) continue;
        if (hung && !started) {
          next = std::min(next, ids[k]);  // never scheduled beside the hung blocks: run it again
          continue;
        }
        r.fault = fault;
      }
      ++g;
    }
    if (ok) continue;
    // A hang (or a lone state's trap): the blocks up to `next` are observed; leave at once.
    const int rc = write(next);
    const auto faulted = std::count_if(recs.begin(), recs.begin() + static_cast<long>(next),
                                       [](const CtaRecord& r) { return !r.fault.empty(); });
    std::cout << v.name << " " << h.set << ": " << next << " blocks (" << faulted
              << " of them: " << fault << ") -> " << out << "\n";
    if (first + next < last) std::cout << "next " << first + next << "\n";
    const int code = rc ? rc : first + next < last ? kExitResume : 0;
    if (hung) leave(code);
    return code;
  }
  if (int rc = write(recs.size())) return rc;
  std::cout << v.name << " " << h.set << ": " << recs.size() << " blocks -> " << out << "\n";
  return 0;
}

int cmd_bench(const std::string& out, std::vector<const Variant*> which) {
  Header h;
  gpu::DeviceInfo info;
  std::string err;
  if (!header_of(h, info, err)) return fail(kExitDevice, err);
  if (which.empty())
    for (const auto& v : kVariants)
      if (!is_named(v)) which.push_back(&v);
  nlohmann::json doc = nlohmann::json::parse(to_line(h));
  doc["sms"] = info.sms;
  doc["clock_khz"] = info.clock_khz;
  doc["results"] = nlohmann::json::array();
  int status = 0;
  for (const Variant* v : which) {
    const bool warp = static_cast<int>(v->id) < kFirstCtaVariant;
    const bool has_operand = v->values != ValueKind::None && warp;
    for (bool runtime_mask : {false, true})
      for (bool distinct : {false, true}) {
        if ((distinct && !has_operand) || (runtime_mask && !warp)) continue;
        gpu::BenchResult r;
        if (!gpu::bench(static_cast<int>(v->id), distinct, runtime_mask, r, err)) {
          std::cerr << "warpspec-capture: bench " << v->name << ": " << err << "\n";
          status = kExitDevice;
          continue;
        }
        nlohmann::json o{{"variant", v->name},
                         {"form", spec::form_info(v->form).name},
                         {"operands", distinct ? "distinct" : "uniform"},
                         {"mask", warp ? (runtime_mask ? "runtime" : "constant") : "-"},
                         {"blocks", r.blocks},
                         {"threads", r.threads},
                         {"per_thread", r.per_thread},
                         {"ms", r.ms},
                         {"repeats", r.repeats},
                         {"warp_instructions", r.warp_instructions},
                         {"per_second", r.per_second}};
        if (info.clock_khz > 0)
          o["per_sm_per_clock"] = r.per_second / (double(info.sms) * info.clock_khz * 1e3);
        std::cout << v->name << (distinct ? " distinct" : " uniform")
                  << (runtime_mask ? " runtime-mask" : "") << ": " << r.per_second / 1e9
                  << " G warp-instr/s\n";
        doc["results"].push_back(o);
      }
  }
  std::ofstream f(out + ".tmp");
  f << doc.dump(2) << "\n";
  f.close();
  if (!f || std::rename((out + ".tmp").c_str(), out.c_str()) != 0)
    return fail(kExitDevice, out + ": could not be written");
  return status;
}

int run(int argc, char** argv) {
  const std::string usage =
      "usage: warpspec-capture info | list | warp VARIANT SET COUNT SEED OUT [INDEX] | "
      "cta VARIANT COUNT SEED OUT | named VARIANT SET COUNT SEED OUT [FIRST [LAST]] | "
      "merge OUT IN... | bench OUT.json [VARIANT...]";
  if (argc < 2) return fail(kExitUsage, usage);
  const std::string cmd = argv[1];
  auto number = [](const char* s, uint64_t& v) {
    char* end = nullptr;
    v = std::strtoull(s, &end, 0);
    return end && *end == 0 && end != s;
  };
  if (cmd == "info" && argc == 2) return cmd_info();
  if (cmd == "list" && argc == 2) return cmd_list();
  if (cmd == "warp" && (argc == 7 || argc == 8)) {
    const Variant* v = variant_arg(argv[2]);
    auto set = find_state_set(argv[3]);
    uint64_t count = 0, seed = 0, index = 0;
    if (!v || !set || !number(argv[4], count) || !number(argv[5], seed) || count == 0 ||
        count > 100000)
      return fail(kExitUsage, usage);
    const auto sets = state_sets(*v);
    if (std::find(sets.begin(), sets.end(), *set) == sets.end())
      return fail(kExitUsage, std::string(v->name) + " is not captured in set " + argv[3]);
    if (argc == 8 && !number(argv[7], index)) return fail(kExitUsage, usage);
    return cmd_warp(*v, *set, count, seed, argv[6],
                    argc == 8 ? std::optional<std::size_t>(index) : std::nullopt);
  }
  if (cmd == "merge" && argc >= 4)
    return cmd_merge(argv[2], std::vector<std::string>(argv + 3, argv + argc));
  if (cmd == "cta" && argc == 6) {
    const Variant* v = variant_arg(argv[2]);
    uint64_t count = 0, seed = 0;
    if (!v || !number(argv[3], count) || !number(argv[4], seed) || count == 0 || count > 100000)
      return fail(kExitUsage, usage);
    return cmd_cta(*v, count, seed, argv[5]);
  }
  if (cmd == "named" && argc >= 7 && argc <= 9) {
    const Variant* v = variant_arg(argv[2]);
    auto set = find_cta_set(argv[3]);
    uint64_t count = 0, seed = 0, first = 0, last = 0;
    if (!v || !set || !number(argv[4], count) || !number(argv[5], seed) || count == 0 ||
        count > 100000)
      return fail(kExitUsage, usage);
    last = count;
    if (argc >= 8 && !number(argv[7], first)) return fail(kExitUsage, usage);
    if (argc == 9 && !number(argv[8], last)) return fail(kExitUsage, usage);
    return cmd_named(*v, *set, count, seed, argv[6], first, last);
  }
  if (cmd == "bench" && argc >= 3) {
    std::vector<const Variant*> which;
    for (int i = 3; i < argc; ++i) {
      const Variant* v = variant_arg(argv[i]);
      if (!v) return fail(kExitUsage, std::string("unknown variant ") + argv[i]);
      which.push_back(v);
    }
    return cmd_bench(argv[2], which);
  }
  return fail(kExitUsage, usage);
}

}  // namespace
}  // namespace warpspec::capture

int main(int argc, char** argv) {
  return warpspec::capture::run(argc, argv);
}
