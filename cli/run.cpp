// warpspec run: a whole kernel (PTX) over every schedule of one block.
#if WARPSPEC_HAVE_PROGRAMS
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/common.hpp"
#include "model/input.hpp"
#include "model/render.hpp"
#include "programs/explore.hpp"
#include "programs/ptx_reader.hpp"

namespace warpspec::cli {
namespace {

struct RunOptions {
  std::string file, entry, target;
  unsigned threads = 32;
  std::vector<std::string> params;
  uint64_t max_states = 200000;
  unsigned activemask_limit = 5;
  bool json = false, quiet = false;
};

// "64" (a scalar), "words:1,2,3" (a buffer of 32-bit words) or "zeros:16".
programs::ParamValue param_or_fail(const std::string& text, std::size_t k) {
  const std::string what = "--param " + std::to_string(k + 1) + " ('" + text + "')";
  programs::ParamValue v;
  if (text.rfind("zeros:", 0) == 0) {
    v.is_buffer = true;
    const uint64_t n = number_or_fail(text.substr(6), what);
    if (n > (1u << 20)) throw Failure{kExitUsage, what + ": at most 1048576 words"};
    v.words.assign(n, 0);
  } else if (text.rfind("words:", 0) == 0) {
    v.is_buffer = true;
    std::stringstream s(text.substr(6));
    for (std::string w; std::getline(s, w, ',');)
      v.words.push_back(static_cast<uint32_t>(number_or_fail(w, what)));
  } else {
    v.value = number_or_fail(text, what);
  }
  return v;
}

// A buffer's words, decimal below 65536 and hex above (masks read better in hex).
std::string words_text(const std::vector<uint32_t>& w, const std::vector<uint8_t>& undef) {
  std::string s = "[";
  const std::size_t shown = std::min<std::size_t>(w.size(), 16);
  for (std::size_t i = 0; i < shown; ++i) {
    if (i) s += ", ";
    s += undef[i]       ? std::string("undef")
         : w[i] < 65536 ? std::to_string(w[i])
                        : model::format_hex(w[i], 32);
  }
  if (shown < w.size()) s += ", ... (" + std::to_string(w.size()) + " words)";
  return s + "]";
}

nlohmann::ordered_json finding_json(const programs::Finding& f) {
  auto locs = nlohmann::ordered_json::array();
  for (const auto& l : f.where) locs.push_back({{"line", l.line}, {"column", l.column}});
  return {{"clause", f.key}, {"text", f.text}, {"threads", f.threads}, {"where", locs}};
}

nlohmann::ordered_json exploration_json(const programs::Program& p, const programs::Launch& l,
                                        const programs::Exploration& x) {
  auto outs = nlohmann::ordered_json::array();
  for (const auto& o : x.outcomes) {
    auto fs = nlohmann::ordered_json::array();
    for (const auto& f : o.findings) fs.push_back(finding_json(f));
    auto bufs = nlohmann::ordered_json::array();
    for (std::size_t k = 0; k < o.words.size(); ++k) {
      if (!l.params[k].is_buffer) {
        bufs.push_back(nullptr);
        continue;
      }
      auto ws = nlohmann::ordered_json::array();
      for (std::size_t i = 0; i < o.words[k].size(); ++i)
        ws.push_back(o.undefined[k][i] ? nlohmann::ordered_json(nullptr)
                                       : nlohmann::ordered_json(o.words[k][i]));
      bufs.push_back(ws);
    }
    outs.push_back({{"kind", programs::kind_name(o.kind)},
                    {"paths", o.paths},
                    {"findings", fs},
                    {"buffers", bufs},
                    {"schedule", o.schedule}});
  }
  return {{"schema", "warpspec.run/1"},
          {"kernel", p.name},
          {"threads", l.threads},
          {"target", spec::to_string(l.target)},
          {"states", x.states},
          {"complete", x.complete},
          {"limits", x.limits},
          {"deadlock", x.any(programs::PathEnd::Kind::Deadlock)},
          {"undefined", x.any(programs::PathEnd::Kind::Undefined)},
          {"race", x.any_finding(programs::clause_key(programs::ProgramClause::DataRace))},
          {"outcomes", outs}};
}

void print_text(const programs::Program& p, const programs::Launch& l,
                const programs::Exploration& x, const std::string& file) {
  std::cout << "kernel " << p.name << " (" << file << "): one block of " << l.threads
            << " threads, " << spec::to_string(l.target) << ", independent thread scheduling\n";
  std::cout << "explored " << x.states << (x.states == 1 ? " state: " : " states: ")
            << (x.complete ? "every schedule" : "NOT every schedule") << "\n";
  for (const auto& why : x.limits) std::cout << "  limit: " << why << "\n";
  std::cout << x.outcomes.size() << (x.outcomes.size() == 1 ? " outcome" : " outcomes") << ":\n";
  for (std::size_t k = 0; k < x.outcomes.size(); ++k) {
    const auto& o = x.outcomes[k];
    std::cout << "  " << k + 1 << ". " << programs::kind_name(o.kind) << " (" << o.paths
              << (o.paths == 1 ? " end state" : " end states") << ")\n";
    for (const auto& f : o.findings) std::cout << "     " << f.key << ": " << f.text << "\n";
    for (std::size_t i = 0; i < o.words.size(); ++i)
      if (l.params[i].is_buffer)
        std::cout << "     " << p.params[i].name << " = " << words_text(o.words[i], o.undefined[i])
                  << "\n";
    if (!o.schedule.empty()) {
      std::cout << "     schedule:";
      for (const auto& s : o.schedule) std::cout << "\n       - " << s;
      std::cout << "\n";
    }
  }
  const bool dead = x.any(programs::PathEnd::Kind::Deadlock);
  const bool ub = x.any(programs::PathEnd::Kind::Undefined);
  std::cout << "verdict: "
            << (dead || ub ? std::string(dead ? "can deadlock" : "") + (dead && ub ? "; " : "") +
                                 (ub ? "can reach undefined behaviour or a data race" : "")
                : x.outcomes.size() == 1
                    ? "every schedule completes with the same memory"
                    : "every schedule completes; the memory differs by schedule")
            << (x.complete ? "" : " (among the schedules explored)") << "\n";
}

int run_program(const RunOptions& o) {
  if (o.file.empty()) throw Failure{kExitUsage, "give a PTX file: warpspec run kernel.ptx"};
  std::string text;
  try {
    text = model::read_input(o.file);
  } catch (const model::MissingInput& e) {
    throw Failure{kExitNoInput, e.what()};
  }
  auto read = programs::read_ptx(text, o.entry);
  if (auto* e = std::get_if<programs::ReadError>(&read))
    throw Failure{kExitDataError, o.file + ":" + std::to_string(e->loc.line) + ":" +
                                      std::to_string(e->loc.column) + ": " + e->message};
  const auto& prog = std::get<programs::Program>(read);
  programs::Launch launch;
  launch.threads = o.threads;
  launch.target = target_or_fail(o.target, spec::kDefaultTarget);
  if (spec::is_pre_volta(launch.target))
    throw Failure{kExitUsage, "run explores independent thread scheduling (sm_70 and later); " +
                                  spec::to_string(launch.target) + " is not supported yet"};
  for (std::size_t k = 0; k < o.params.size(); ++k)
    launch.params.push_back(param_or_fail(o.params[k], k));
  programs::ExploreOptions eo;
  eo.max_states = o.max_states;
  eo.activemask_limit = o.activemask_limit;
  if (!o.quiet && !o.json)
    eo.progress = [](uint64_t n) {
      if (n % 20000 == 0) std::cerr << "  ... " << n << " states\n";
    };
  programs::Exploration x;
  try {
    x = programs::explore(prog, launch, eo);
  } catch (const std::invalid_argument& e) {
    throw Failure{kExitUsage, e.what()};
  }
  if (o.json)
    std::cout << exploration_json(prog, launch, x).dump(2) << "\n";
  else
    print_text(prog, launch, x, o.file);
  if (x.any(programs::PathEnd::Kind::Deadlock) || x.any(programs::PathEnd::Kind::Undefined))
    return kExitUb;
  return x.complete ? kExitOk : kExitUnknown;
}

const bool run_registered = add_command(
    {"run", "Run a kernel's PTX over every schedule of one block: outcomes, deadlocks, UB, races",
     55, [](CLI::App& sub) -> std::function<int()> {
       auto o = std::make_shared<RunOptions>();
       sub.add_option("file", o->file, "PTX file (nvcc -ptx output); - reads standard input");
       sub.add_option("--entry", o->entry, "the .entry to run when the file has several");
       sub.add_option("--threads,-n", o->threads, "threads in the block (1-1024)")
           ->check(CLI::Range(1, 1024));
       sub.add_option("--param,-p", o->params,
                      "one per kernel parameter, in order: a number (a scalar), words:1,2,3 (a "
                      "buffer of 32-bit words) or zeros:N (N zero words)");
       sub.add_option("--target", o->target, "sm_70 or later (default sm_90)");
       sub.add_option("--max-states", o->max_states,
                      "give up after this many states (the verdict then says so; default 200000)");
       sub.add_option("--activemask-limit", o->activemask_limit,
                      "up to this many threads at one __activemask, every grouping of them is "
                      "explored (default 5)");
       sub.add_flag("--json", o->json, "print the exploration as JSON (schema warpspec.run/1)");
       sub.add_flag("--quiet,-q", o->quiet, "no progress lines on standard error");
       sub.footer(
           "Every schedule the sm_70+ scheduler may choose is explored: which threads execute a "
           "warp collective together, which read __activemask together, and (through "
           "happens-before clocks) whether memory accesses race. Exit: 0 every schedule completes "
           "without UB, 3 some schedule deadlocks, races or reaches UB, 2 not every schedule "
           "was explored and none went wrong, 64 usage, 65 PTX outside the supported subset, 66 "
           "missing file.\n"
           "Example: warpspec run reduce.ptx -n 64 -p words:1,2,3 -p zeros:1 -p 64");
       return [o] { return run_program(*o); };
     }});

}  // namespace
}  // namespace warpspec::cli
#endif
