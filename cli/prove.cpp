// warpspec prove: proves the property library's laws (and the fast implementation's equivalence
// with the model, when it is built) with Z3 over the very semantics the model runs.
#ifdef WARPSPEC_HAVE_CHECKER
#include <fnmatch.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "checker/library.hpp"
#include "checker/prover.hpp"
#include "cli/command.hpp"
#include "cli/common.hpp"

namespace warpspec::cli {
namespace {

struct ProveArgs {
  std::vector<std::string> names;
  bool all = false;
  bool list = false;
  bool json = false;
  unsigned timeout_ms = 120000;
  unsigned memory_mb = 8192;
  uint64_t rlimit = 0;
  unsigned jobs = 2;
  std::string smt2;
};

// Where the time went, as `--json` gives it for a property and summed for the run.
nlohmann::json work_json(const checker::Work& w) {
  auto tally = [](const checker::QueryTally& t) {
    return nlohmann::json{{"queries", t.queries}, {"seconds", t.seconds}};
  };
  return {{"build_seconds", w.build_seconds},
          {"grouped", tally(w.grouped)},
          {"abandoned", tally(w.abandoned)},
          {"single", tally(w.single)}};
}

std::string fmt_seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f s", s);
  return buf;
}

std::vector<const checker::Property*> select(const std::vector<checker::Property>& lib,
                                             const ProveArgs& a) {
  std::vector<const checker::Property*> chosen;
  if (a.all) {
    for (const auto& p : lib) chosen.push_back(&p);
    return chosen;
  }
  for (const auto& n : a.names) {
    bool hit = false;
    for (const auto& p : lib)
      if (::fnmatch(n.c_str(), p.name.c_str(), 0) == 0) {
        hit = true;
        if (std::find(chosen.begin(), chosen.end(), &p) == chosen.end()) chosen.push_back(&p);
      }
    if (!hit)
      throw Failure{kExitUsage, "no property is called '" + n + "' (see warpspec prove --list)"};
  }
  return chosen;
}

int list_properties(const std::vector<checker::Property>& lib, bool json) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& p : lib) {
    if (json)
      out.push_back({{"name", p.name}, {"doc", p.doc}});
    else
      std::cout << p.name << "\n    " << p.doc << "\n";
  }
  if (json)
    std::cout << nlohmann::json{{"schema", "warpspec-properties/1"}, {"properties", out}}.dump(2)
              << "\n";
  return kExitOk;
}

int run_prove(const ProveArgs& a) {
  const auto lib = checker::property_library();
  if (a.list) return list_properties(lib, a.json);
  if (!a.all && a.names.empty())
    throw Failure{kExitUsage, "name the properties to prove, or pass --all (--list shows them)"};
  if (a.all && !a.names.empty())
    throw Failure{kExitUsage, "pass either property names or --all, not both"};
  if (a.jobs == 0) throw Failure{kExitUsage, "--jobs must be at least 1"};
  if (a.memory_mb && a.memory_mb < checker::kMinMemoryMb)
    throw Failure{kExitUsage,
                  "--memory-mb " + std::to_string(a.memory_mb) + ": Z3 cannot start in less than " +
                      std::to_string(checker::kMinMemoryMb) + " MiB (0 sets no ceiling)"};
  const auto chosen = checker::with_lemmas(lib, select(lib, a));

  checker::ProveOptions opt;
  opt.timeout_ms = a.timeout_ms;
  opt.memory_mb = a.memory_mb;
  opt.rlimit = a.rlimit;
  opt.jobs = a.jobs;
  opt.smt2_path = a.smt2;
  if (!a.smt2.empty() && chosen.size() > 1) {
    // Several queries go to a folder, one NAME.smt2 each.
    std::error_code ec;
    std::filesystem::create_directories(a.smt2, ec);
    if (ec || !std::filesystem::is_directory(a.smt2))
      throw Failure{kExitCantCreate, "--smt2 " + a.smt2 + ": cannot create the folder for " +
                                         std::to_string(chosen.size()) + " queries"};
    opt.smt2_is_dir = true;
  }

  const auto t0 = std::chrono::steady_clock::now();
  const auto verdicts = prove_with_progress(chosen, opt);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  std::size_t proved = 0, refuted = 0, unknown = 0;
  double solver_time = 0;
  uint64_t solver_steps = 0;
  checker::Work work;  // summed over the properties
  std::vector<std::string> errors, unwritten;
  for (const auto& v : verdicts) {
    if (!v.output_error.empty()) unwritten.push_back(v.output_error);
    solver_time += v.seconds;
    solver_steps += v.steps;
    work += v.work;
    if (!v.error.empty()) errors.push_back(v.name + ": " + v.error);
    if (v.status == checker::Status::Proved)
      ++proved;
    else if (v.status == checker::Status::Refuted)
      ++refuted;
    else
      ++unknown;
  }
  std::vector<const checker::Verdict*> by_time;
  for (const auto& v : verdicts) by_time.push_back(&v);
  std::sort(by_time.begin(), by_time.end(),
            [](auto* x, auto* y) { return x->seconds > y->seconds; });
  if (by_time.size() > 5) by_time.resize(5);

  if (a.json) {
    nlohmann::json props = nlohmann::json::array();
    for (std::size_t k = 0; k < verdicts.size(); ++k) {
      const auto& v = verdicts[k];
      nlohmann::json j{{"name", v.name},
                       {"doc", chosen[k]->doc},
                       {"verdict", checker::status_name(v.status)},
                       {"seconds", v.seconds},
                       {"steps", v.steps},
                       {"work", work_json(v.work)},
                       {"claims", v.claims}};
      if (!v.reason.empty()) j["reason"] = v.reason;
      if (v.status == checker::Status::Refuted) j["counterexample"] = v.counterexample_json;
      if (!v.error.empty()) j["error"] = v.error;
      props.push_back(j);
    }
    nlohmann::json slow = nlohmann::json::array();
    for (const auto* v : by_time) slow.push_back({{"name", v->name}, {"seconds", v->seconds}});
    std::cout << nlohmann::json{{"schema", "warpspec-prove/1"},
                                {"properties", props},
                                {"summary",
                                 {{"total", verdicts.size()},
                                  {"proved", proved},
                                  {"refuted", refuted},
                                  {"unknown", unknown},
                                  {"wall_seconds", wall},
                                  {"solver_seconds", solver_time},
                                  {"solver_steps", solver_steps},
                                  {"work", work_json(work)},
                                  {"jobs", a.jobs},
                                  {"slowest", slow}}}}
                     .dump(2)
              << "\n";
  } else {
    std::size_t width = 8;
    for (const auto& v : verdicts) width = std::max(width, v.name.size());
    std::printf("%-*s  %-8s %9s  %s\n", static_cast<int>(width), "property", "verdict", "time",
                "claims");
    for (const auto& v : verdicts) {
      std::printf("%-*s  %-8s %9s  %zu", static_cast<int>(width), v.name.c_str(),
                  std::string(checker::status_name(v.status)).c_str(),
                  fmt_seconds(v.seconds).c_str(), v.claims);
      if (v.status == checker::Status::Unknown && !v.reason.empty())
        std::printf("  (%s)", v.reason.c_str());
      std::printf("\n");
    }
    for (const auto& v : verdicts) {
      if (v.status != checker::Status::Refuted) continue;
      std::printf(
          "\nrefuted: %s\n  claim: %s\n  counterexample, replayed through the concrete model:\n%s",
          v.name.c_str(), v.reason.c_str(), v.counterexample.c_str());
    }
    std::printf(
        "\n%zu properties: %zu proved, %zu refuted, %zu unknown; wall time %s (%u workers, "
        "%s summed)\n",
        verdicts.size(), proved, refuted, unknown, fmt_seconds(wall).c_str(), a.jobs,
        fmt_seconds(solver_time).c_str());
    std::printf("slowest:");
    for (const auto* v : by_time)
      std::printf(" %s (%s)", v->name.c_str(), fmt_seconds(v->seconds).c_str());
    std::printf("\n");
    std::fflush(stdout);
  }
  if (!errors.empty()) {
    std::string msg = "the proof run failed:";
    for (const auto& e : errors) msg += "\n  " + e;
    throw Failure{kExitInternal, msg};
  }
  if (!unwritten.empty()) {
    std::string msg = "the verdicts above stand, but SMT-LIB output could not be written:";
    for (const auto& e : unwritten) msg += "\n  " + e;
    throw Failure{kExitCantCreate, msg};
  }
  if (refuted) return kExitRefuted;
  if (unknown) return kExitUnknown;
  return kExitOk;
}

const bool prove_registered = add_command(
    {"prove", "Prove the property library with Z3 (laws, UB facts, fast == model)", 60,
     [](CLI::App& sub) {
       auto a = std::make_shared<ProveArgs>();
       sub.add_option("names", a->names, "Properties to prove (shell patterns such as 'vote.*')");
       sub.add_flag("--all", a->all, "Prove every property");
       sub.add_flag("--list", a->list, "List the properties with their one-line statements");
       sub.add_flag("--json", a->json, "Print JSON for programs");
       sub.add_option("--timeout-ms", a->timeout_ms,
                      "Time limit per property in milliseconds; 0 for none (default 120000)");
       sub.add_option("--memory-mb", a->memory_mb,
                      "Z3 memory ceiling in MiB, shared by the workers, at least 64; 0 for none "
                      "(default 8192)");
       sub.add_option("--rlimit", a->rlimit, "Z3 resource limit per claim; 0 for none");
       sub.add_option("--jobs,-j", a->jobs,
                      "Worker threads, each with its own Z3 context (default 2)");
       sub.add_option("--smt2", a->smt2,
                      "Write the query in SMT-LIB 2 to FILE (a folder of NAME.smt2 when several "
                      "properties are chosen)")
           ->check(kPath);
       sub.footer(
           "Exit codes: 0 all proved, 1 some refuted, 2 some unknown and none refuted, "
           "64 usage, 70 a counterexample that does not replay (a bug), 73 cannot write.");
       return [a] { return run_prove(*a); };
     }});

}  // namespace
}  // namespace warpspec::cli
#endif  // WARPSPEC_HAVE_CHECKER
