// warpspec run: a whole kernel (PTX) over every schedule of one block.
#if WARPSPEC_HAVE_PROGRAMS
#include <algorithm>
#include <climits>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/common.hpp"
#include "model/input.hpp"
#include "model/json_file.hpp"
#include "model/render.hpp"
#include "programs/explore.hpp"
#include "programs/launch.hpp"
#include "programs/ptx_reader.hpp"
#ifdef WARPSPEC_HAVE_CHECKER
#include "checker/program_inputs.hpp"
#endif

namespace warpspec::cli {
namespace {

struct RunOptions {
  std::string file, entry, target, launch_file;
  unsigned threads = 32;
  bool threads_given = false;
  std::vector<std::string> params, show, unknown;
  std::size_t unknown_given = 0;  // of `unknown`, the names the command line gives (first)
  std::shared_ptr<const model::JsonFile> launch_doc;  // the launch file, read, for messages
  uint64_t max_states = 200000;
  unsigned max_classes = 256;
  unsigned activemask_limit = 5;
  uint64_t max_memory_mib = 4096;
  bool json = false, quiet = false, deterministic = false;
};

// A buffer's words, decimal below 65536 and hex above (masks read better in hex).
template <class Word>
std::string words_text(const std::vector<Word>& w, const std::vector<uint8_t>& undef) {
  std::string s = "[";
  const std::size_t shown = std::min<std::size_t>(w.size(), 16);
  for (std::size_t i = 0; i < shown; ++i) {
    if (i) s += ", ";
    s += undef[i]       ? std::string("undef")
         : w[i] < 65536 ? std::to_string(w[i])
                        : model::format_hex(w[i], w[i] > 0xffffffffu ? 64 : 32);
  }
  if (shown < w.size()) s += ", ... (" + std::to_string(w.size()) + " words)";
  return s + "]";
}

// A PTX location, with the CUDA file and line of its instruction where the PTX carries them.
nlohmann::ordered_json location_json(const programs::Program& p, programs::SourceLoc l) {
  nlohmann::ordered_json j{{"line", l.line}, {"column", l.column}};
  for (const auto& in : p.code)
    if (in.loc.line == l.line && in.loc.column == l.column)
      if (auto f = p.files.find(in.source.file); f != p.files.end() && in.source.line)
        j["cuda"] = {{"file", f->second}, {"line", in.source.line}};
  return j;
}

nlohmann::ordered_json finding_json(const programs::Program& p, const programs::Finding& f) {
  auto locs = nlohmann::ordered_json::array();
  for (const auto& l : f.where) locs.push_back(location_json(p, l));
  return {{"clause", f.key}, {"text", f.text}, {"threads", f.threads}, {"where", locs}};
}

// One run of consecutive instructions as PTX lines, with the CUDA lines where the PTX has them:
// "lines 20-31 (k.cu:6-8)".
std::string run_text(const programs::Program& p, std::pair<uint32_t, uint32_t> r) {
  const auto& a = p.code[r.first];
  const auto& b = p.code[r.second];
  std::string s = a.loc.line == b.loc.line
                      ? "line " + std::to_string(a.loc.line)
                      : "lines " + std::to_string(a.loc.line) + "-" + std::to_string(b.loc.line);
  unsigned lo = UINT_MAX, hi = 0;
  uint32_t file = 0;
  for (uint32_t pc = r.first; pc <= r.second; ++pc)
    if (const auto& src = p.code[pc].source; src.line && p.files.count(src.file)) {
      if (!file) file = src.file;
      if (src.file != file) continue;
      lo = std::min(lo, src.line);
      hi = std::max(hi, src.line);
    }
  if (file)
    s += " (" + programs::source_file_name(p, file) + ":" + std::to_string(lo) +
         (hi > lo ? "-" + std::to_string(hi) : "") + ")";
  return s;
}

// A thread group's instructions, loops folded: a block of up to four runs that repeats at once
// is written once with its count.
std::string trace_text(const programs::Program& p, const programs::ThreadTrace& t) {
  const auto& runs = t.runs;
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < runs.size();) {
    std::size_t best_k = 1, best_n = 1;
    for (std::size_t k = 1; k <= 4 && i + 2 * k <= runs.size(); ++k) {
      std::size_t n = 1;
      while (i + (n + 1) * k <= runs.size() &&
             std::equal(runs.begin() + i, runs.begin() + i + k, runs.begin() + i + n * k))
        ++n;
      if (n > 1 && n * k > best_n * best_k) best_k = k, best_n = n;
    }
    std::string block;
    for (std::size_t j = 0; j < best_k; ++j) block += (j ? ", " : "") + run_text(p, runs[i + j]);
    parts.push_back(best_n > 1 ? "[" + block + "] x" + std::to_string(best_n) : block);
    i += best_k * best_n;
  }
  std::string s;
  const std::size_t keep = 10;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (parts.size() > keep && i == keep / 2) {
      s += "; ... " + std::to_string(parts.size() - keep) + " more";
      i = parts.size() - keep / 2;
    }
    s += (s.empty() ? "" : "; ") + parts[i];
  }
  return (s.empty() ? std::string("no instruction") : s) + "; " + t.end;
}

// Each thread group's instructions along the outcome's schedule, as PTX line ranges.
nlohmann::ordered_json trace_json(const programs::Program& p, const programs::PathEnd& o) {
  auto out = nlohmann::ordered_json::array();
  for (const auto& t : o.trace) {
    auto runs = nlohmann::ordered_json::array();
    for (const auto& r : t.runs)
      runs.push_back({p.code[r.first].loc.line, p.code[r.second].loc.line});
    out.push_back({{"threads", t.threads}, {"lines", runs}, {"end", t.end}});
  }
  return out;
}

nlohmann::ordered_json exploration_json(const programs::Program& p, const programs::Launch& l,
                                        const programs::Exploration& x,
                                        const std::vector<uint32_t>& shown) {
  auto outs = nlohmann::ordered_json::array();
  for (const auto& o : x.outcomes) {
    auto fs = nlohmann::ordered_json::array();
    for (const auto& f : o.findings) fs.push_back(finding_json(p, f));
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
    auto regs = nlohmann::ordered_json::object();
    for (std::size_t r = 0; r < o.registers.size(); ++r) {
      auto vals = nlohmann::ordered_json::array();
      for (const auto& v : o.registers[r])
        vals.push_back(v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr));
      regs[p.regs[shown[r]].name] = vals;
    }
    outs.push_back({{"kind", programs::kind_name(o.kind)},
                    {"end_states", o.paths},
                    {"findings", fs},
                    {"buffers", bufs},
                    {"registers", regs},
                    {"schedule", o.schedule},
                    {"trace", trace_json(p, o)}});
  }
  return {{"schema", "warpspec-run/1"},
          {"kernel", p.name},
          {"threads", l.threads},
          {"target", spec::to_string(l.target)},
          {"states", x.states},
          {"complete", x.complete},
          {"limits", x.limits},
          {"deadlock", x.any(programs::PathEnd::Kind::Deadlock)},
          {"undefined", x.any_undefined()},
          {"race", x.any(programs::PathEnd::Kind::Race)},
          {"outcomes", outs}};
}

// The first line of every text answer: which kernel, which launch, which scheduling.
void print_kernel_line(const programs::Program& p, const programs::Launch& l,
                       const std::string& file) {
  std::cout << "kernel " << p.name << " (" << file << "): one block of " << l.threads
            << " threads, " << spec::to_string(l.target)
            << (spec::is_pre_volta(l.target)
                    ? ", lockstep warps (reconverging at each branch's immediate post-dominator)\n"
                    : ", independent thread scheduling\n");
}

void print_text(const programs::Program& p, const programs::Launch& l,
                const programs::Exploration& x, const std::string& file,
                const std::vector<uint32_t>& shown) {
  print_kernel_line(p, l, file);
  std::cout << "explored " << x.states << (x.states == 1 ? " state: " : " states: ")
            << (x.complete ? "every schedule" : "NOT every schedule") << "\n";
  for (const auto& why : x.limits) std::cout << "  limit: " << why << "\n";
  // Buffers no outcome changes are inputs: shown once, not under every outcome.
  std::vector<bool> changed(l.params.size(), false);
  for (const auto& o : x.outcomes)
    for (std::size_t i = 0; i < o.words.size(); ++i)
      changed[i] = changed[i] || (l.params[i].is_buffer &&
                                  (o.words[i] != l.params[i].words ||
                                   std::count(o.undefined[i].begin(), o.undefined[i].end(), 1)));
  for (std::size_t i = 0; i < l.params.size(); ++i)
    if (l.params[i].is_buffer && !changed[i] && !x.outcomes.empty())
      std::cout << "input " << p.params[i].name << " = "
                << words_text(l.params[i].words, std::vector<uint8_t>(l.params[i].words.size(), 0))
                << " (no schedule changes it)\n";
  std::cout << x.outcomes.size() << (x.outcomes.size() == 1 ? " outcome" : " outcomes") << ":\n";
  for (std::size_t k = 0; k < x.outcomes.size(); ++k) {
    const auto& o = x.outcomes[k];
    std::cout << "  " << k + 1 << ". " << programs::kind_name(o.kind);
    if (o.paths > 1) std::cout << " (" << o.paths << " distinct end states)";
    std::cout << "\n";
    for (const auto& f : o.findings) std::cout << "     " << f.key << ": " << f.text << "\n";
    for (std::size_t i = 0; i < o.words.size(); ++i)
      if (l.params[i].is_buffer && changed[i])
        std::cout << "     " << p.params[i].name << " = " << words_text(o.words[i], o.undefined[i])
                  << "\n";
    for (std::size_t r = 0; r < o.registers.size(); ++r) {
      std::vector<uint64_t> vals;
      std::vector<uint8_t> undef;
      for (const auto& v : o.registers[r]) {
        vals.push_back(v.value_or(0));
        undef.push_back(!v.has_value());
      }
      std::cout << "     " << p.regs[shown[r]].name << " by thread = " << words_text(vals, undef)
                << "\n";
    }
    // The shortest schedule to this outcome, where there is something to tell apart.
    if (!o.schedule.empty() && (x.outcomes.size() > 1 || !o.findings.empty())) {
      std::cout << "     schedule (" << o.schedule.size()
                << (o.schedule.size() == 1 ? " step" : " steps") << "):";
      const std::size_t shown = std::min<std::size_t>(o.schedule.size(), 24);
      for (std::size_t i = 0; i < shown; ++i) std::cout << "\n       - " << o.schedule[i];
      if (shown < o.schedule.size()) std::cout << "\n       ... (--json lists every step)";
      std::cout << "\n";
    }
    // Where each thread went on that schedule, for an outcome with a finding.
    if (!o.findings.empty() && !o.trace.empty()) {
      std::cout << "     per-thread trace along it:\n";
      const std::size_t shown = std::min<std::size_t>(o.trace.size(), 8);
      for (std::size_t i = 0; i < shown; ++i)
        std::cout << "       " << programs::thread_ranges(o.trace[i].threads) << ": "
                  << trace_text(p, o.trace[i]) << "\n";
      if (shown < o.trace.size())
        std::cout << "       ... " << o.trace.size() - shown
                  << " more groups of threads (--json lists every one)\n";
    }
  }
  std::vector<std::string> bad;
  if (x.any(programs::PathEnd::Kind::Deadlock)) bad.push_back("can deadlock");
  if (x.any_undefined()) bad.push_back("can reach undefined behaviour");
  if (x.any(programs::PathEnd::Kind::Race)) bad.push_back("has a data race");
  std::string verdict;
  for (const auto& b : bad) verdict += (verdict.empty() ? "" : "; ") + b;
  if (verdict.empty() && x.outcomes.empty())
    verdict = "no schedule was followed to its end";
  else if (verdict.empty() && x.any(programs::PathEnd::Kind::GaveUp))
    verdict = "some paths were given up before their end";
  else if (verdict.empty())
    verdict = x.outcomes.size() == 1 ? "every schedule completes with the same memory"
                                     : "every schedule completes; the memory differs by schedule";
  std::cout << "verdict: " << verdict << (x.complete ? "" : " (among the schedules explored)")
            << "\n";
}

#ifdef WARPSPEC_HAVE_CHECKER
// The parameter an --unknown names: by its name in the PTX or its position from 1.
// `in_file`: the name is element `in_file` of the launch file's "unknown", not from the command
// line.
unsigned param_or_fail(const programs::Program& p, const std::string& name,
                       std::optional<std::size_t> in_file, const RunOptions& o) {
  for (unsigned k = 0; k < p.params.size(); ++k)
    if (p.params[k].name == name || std::to_string(k + 1) == name) return k;
  std::string names;
  for (const auto& q : p.params) names += (names.empty() ? "" : ", ") + q.name;
  const std::string why = "the kernel has no parameter of that name or position (1-" +
                          std::to_string(p.params.size()) + ": " + names + ")";
  if (in_file) {
    const auto at = "unknown[" + std::to_string(*in_file) + "]";
    throw Failure{kExitDataError,
                  o.launch_doc->message(at, "'" + spec::shown_text(name) + "': " + why)};
  }
  throw Failure{kExitUsage, "--unknown " + name + ": " + why};
}

// The unknowns' values in one class's input: "n = 40, in = [1, 2, 3]".
std::string input_text(const programs::Program& p, const programs::Launch& l,
                       const std::vector<unsigned>& unknown) {
  std::string s;
  for (unsigned k : unknown) {
    const auto& v = l.params[k];
    s += (s.empty() ? "" : ", ") + p.params[k].name + " = " +
         (v.is_buffer ? words_text(v.words, std::vector<uint8_t>(v.words.size(), 0))
                      : std::to_string(v.value));
  }
  return s;
}

nlohmann::ordered_json input_json(const programs::Program& p, const programs::Launch& l,
                                  const std::vector<unsigned>& unknown) {
  auto j = nlohmann::ordered_json::object();
  for (unsigned k : unknown)
    j[p.params[k].name] = l.params[k].is_buffer ? nlohmann::ordered_json(l.params[k].words)
                                                : nlohmann::ordered_json(l.params[k].value);
  return j;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// "one", "proved", "differs", "unknown" or "not asked".
std::string schedules_name(checker::InputClass::Schedules s) {
  using S = checker::InputClass::Schedules;
  switch (s) {
    case S::One:
      return "one";
    case S::Proved:
      return "proved";
    case S::Differs:
      return "differs";
    case S::Unknown:
      return "unknown";
    case S::NotAsked:
      break;
  }
  return "not asked";
}

// A launch the kernel cannot take: the launch file's fault when it gave the parameters (with
// --unknown too), the command line's otherwise.
Failure launch_refused(const RunOptions& o, const std::invalid_argument& e) {
  if (o.launch_doc && o.params.empty()) {
    const std::string at = o.launch_doc->root().contains("params") ? "params" : "";
    return Failure{kExitDataError, o.launch_doc->message(at, e.what())};
  }
  return Failure{kExitUsage, e.what()};
}

// What the classes say of one kind of finding: "some" inputs reach it (with the classes that
// do), "none" do (every input covered), or "unknown".
struct Question {
  std::string name;
  std::function<bool(const programs::Exploration&)> reaches;
};

int run_inputs(const RunOptions& o, const programs::Program& prog, const programs::Launch& launch,
               const programs::ExploreOptions& eo) {
  checker::InputQuery q;
  for (std::size_t k = 0; k < o.unknown.size(); ++k)
    q.unknown.push_back(
        param_or_fail(prog, o.unknown[k],
                      k >= o.unknown_given ? std::optional(k - o.unknown_given) : std::nullopt, o));
  std::sort(q.unknown.begin(), q.unknown.end());
  q.unknown.erase(std::unique(q.unknown.begin(), q.unknown.end()), q.unknown.end());
  q.explore = eo;
  q.explore.progress = nullptr;
  q.max_classes = o.max_classes;
  if (!o.json) q.shown_pins = 3;
  if (!o.quiet && !o.json)
    q.progress = [](std::size_t n) {
      if (n % 16 == 0) std::cerr << "  ... " << n << " classes of inputs\n";
    };
  checker::InputAnswer a;
  try {
    a = checker::explore_inputs(prog, launch, q);
  } catch (const std::invalid_argument& e) {
    throw launch_refused(o, e);
  }
  const std::vector<Question> questions{
      {"deadlock", [](const auto& x) { return x.any(programs::PathEnd::Kind::Deadlock); }},
      {"undefined", [](const auto& x) { return x.any_undefined(); }},
      {"race", [](const auto& x) { return x.any(programs::PathEnd::Kind::Race); }}};
  auto verdict = [&](const Question& qn) {
    for (const auto& c : a.classes)
      if (qn.reaches(c.exploration)) return std::string("some");
    return std::string(a.complete ? "none" : "unknown");
  };
  bool bad = false;
  for (const auto& qn : questions) bad = bad || verdict(qn) == "some";
  auto ranges_text = [](const checker::InputGroup& g) {
    std::string s;
    for (const auto& [lo, hi] : g.values)
      s += (s.empty() ? "" : ", ") +
           (lo == hi ? std::to_string(lo) : std::to_string(lo) + ".." + std::to_string(hi));
    return s + (g.more ? ", ..." : "");
  };
  if (o.json) {
    auto classes = nlohmann::ordered_json::array();
    for (const auto& c : a.classes)
      classes.push_back({{"input", input_json(prog, c.launch, q.unknown)},
                         {"pins", c.pins},
                         {"condition", lines_of(c.condition)},
                         {"when", c.when},
                         {"schedules", schedules_name(c.schedules)},
                         {"differs_on", c.differs_on ? input_json(prog, *c.differs_on, q.unknown)
                                                     : nlohmann::ordered_json(nullptr)},
                         {"run", exploration_json(prog, c.launch, c.exploration, eo.registers)}});
    auto groups = nlohmann::ordered_json::array();
    for (const auto& g : a.groups) {
      nlohmann::ordered_json j{{"ends", g.ends}, {"bad", g.bad}, {"classes", g.classes}};
      if (!g.values.empty()) {
        j["values"] = g.values;
        j["more_values"] = g.more;
      }
      groups.push_back(j);
    }
    nlohmann::ordered_json j{{"schema", "warpspec-run-inputs/1"},
                             {"kernel", prog.name},
                             {"threads", launch.threads},
                             {"target", spec::to_string(launch.target)},
                             {"unknowns", a.names},
                             {"complete", a.complete}};
    if (!a.complete) j["why_not"] = a.why_not;
    for (const auto& qn : questions) j[qn.name] = verdict(qn);
    j["schedules"] = schedules_name(a.schedules);
    j["groups"] = groups;
    j["classes"] = classes;
    std::cout << j.dump(2) << "\n";
  } else {
    print_kernel_line(prog, launch, o.file);
    std::string names;
    for (unsigned k : q.unknown)
      names += (names.empty() ? "" : ", ") + prog.params[k].name +
               (launch.params[k].is_buffer
                    ? " (" + std::to_string(launch.params[k].words.size()) + " words)"
                    : " (" + std::string(programs::type_name(prog.params[k].type)) + ")");
    std::cout << "unknown: " << names << "; the values given are the first input run\n";
    std::cout << a.classes.size() << (a.classes.size() == 1 ? " class" : " classes")
              << " of inputs, each run over every schedule: "
              << (a.complete ? "every input is in one of them" : "NOT every input: " + a.why_not)
              << "\n";
    for (std::size_t gi = 0; gi < a.groups.size(); ++gi) {
      const auto& g = a.groups[gi];
      std::string ends;
      for (const auto& e : g.ends) ends += (ends.empty() ? "" : "; ") + e;
      std::cout << "  " << gi + 1 << ". " << (ends.empty() ? std::string("no outcome") : ends)
                << " (" << g.classes.size() << (g.classes.size() == 1 ? " class" : " classes")
                << ")\n";
      if (!g.values.empty())
        std::cout << "     " << prog.params[q.unknown.front()].name << " in " << ranges_text(g)
                  << (a.complete ? "" : " (among the classes found)") << "\n";
      const auto& c = a.classes[g.classes.front()];
      std::cout << "     e.g. " << input_text(prog, c.launch, q.unknown) << "\n";
      for (const auto& out : c.exploration.outcomes)
        for (const auto& f : out.findings)
          std::cout << "       " << f.key << ": " << f.text << "\n";
      if (!g.values.empty()) continue;
      // Without ranges, the condition of the example's class.
      const auto& conds = c.when;
      const std::size_t shown = std::min<std::size_t>(conds.size(), 3);
      if (c.pins == 0) std::cout << "     for every input\n";
      for (std::size_t k = 0; k < shown; ++k)
        std::cout << (k ? "          " : "     when ") << conds[k] << "\n";
      if (shown < c.pins)
        std::cout << "          ... " << c.pins - shown << " more conditions (--json lists them)\n";
    }
    for (const auto& qn : questions) {
      const std::string v = verdict(qn);
      const std::string what = qn.name == "deadlock"    ? "deadlock"
                               : qn.name == "undefined" ? "reach undefined behaviour"
                                                        : "race";
      std::cout << (qn.name == "deadlock" ? "verdict: " : "         ");
      if (v == "some") {
        std::string which;
        for (std::size_t gi = 0; gi < a.groups.size(); ++gi) {
          bool reaches = false;
          for (std::size_t i : a.groups[gi].classes)
            reaches = reaches || qn.reaches(a.classes[i].exploration);
          if (reaches) which += (which.empty() ? "" : ", ") + std::to_string(gi + 1);
        }
        std::cout << "some inputs " << (qn.name == "race" ? "race" : what) << " (see " << which
                  << ")\n";
      } else if (v == "none") {
        std::cout << "no input can " << what << "\n";
      } else {
        std::cout << "no input found that can " << what << " (not every input was covered)\n";
      }
    }
    using S = checker::InputClass::Schedules;
    if (a.schedules == S::Proved)
      std::cout << "         every schedule of every input ends with the same memory (proved)\n";
    for (const auto& c : a.classes)
      if (c.differs_on) {
        std::cout << "         the memory depends on the schedule, e.g. for "
                  << input_text(prog, *c.differs_on, q.unknown) << "\n";
        break;
      }
    if (a.schedules == S::Unknown)
      std::cout << "         whether the memory depends on the schedule is not known\n";
  }
  if (bad) return kExitUb;
  if (o.deterministic && a.schedules == checker::InputClass::Schedules::Differs)
    return kExitRefuted;
  return a.complete ? kExitOk : kExitUnknown;
}
#endif

// The register a --show name gives ("%r9"), by the name the kernel declares.
uint32_t register_or_fail(const programs::Program& p, const std::string& name) {
  for (uint32_t r = 0; r < p.regs.size(); ++r)
    if (p.regs[r].name == name) return r;
  throw Failure{kExitUsage, "--show " + name + ": the kernel declares no register of that name" +
                                (name.empty() || name[0] != '%' ? " (names start with %)" : "")};
}

int run_program(const RunOptions& given) {
  RunOptions o = given;  // a launch file may name unknowns too
  if (o.file.empty()) throw Failure{kExitUsage, "give a PTX file: warpspec run kernel.ptx"};
  if (o.file == "-" && o.launch_file == "-")
    throw Failure{kExitUsage, "the kernel and --launch cannot both be standard input"};
  o.unknown_given = o.unknown.size();
  std::string text;
  try {
    text = model::read_input(o.file);
  } catch (const model::MissingInput& e) {
    throw Failure{kExitNoInput, e.what()};
  }
  programs::Launch launch;
  std::string entry = o.entry;
  try {
    if (!o.launch_file.empty()) {
      o.launch_doc =
          std::make_shared<const model::JsonFile>(model::read_input(o.launch_file), o.launch_file);
      auto spec = programs::launch_from_json(*o.launch_doc, o.launch_doc->root());
      launch = std::move(spec.launch);
      if (entry.empty()) entry = spec.entry;
      o.unknown.insert(o.unknown.end(), spec.unknown.begin(), spec.unknown.end());
    }
    if (o.threads_given) launch.threads = o.threads;
    for (std::size_t k = 0; k < o.params.size(); ++k)
      launch.params.push_back(
          programs::param_from_text(o.params[k], "--param " + std::to_string(k + 1)));
  } catch (const model::MissingInput& e) {
    throw Failure{kExitNoInput, e.what()};
  } catch (const model::InputError& e) {
    throw as_failure(e);
  }
  launch.target = target_or_fail(o.target, launch.target);
  auto read = programs::read_ptx(text, entry);
  if (auto* e = std::get_if<programs::ReadError>(&read);
      e && e->no_entry && o.entry.empty() && !entry.empty())
    // The launch file named the entry.
    throw Failure{kExitDataError, o.launch_doc->message("entry", o.file + ": " + e->message)};
  if (auto* e = std::get_if<programs::ReadError>(&read))
    throw Failure{kExitDataError, o.file + ":" + std::to_string(e->loc.line) + ":" +
                                      std::to_string(e->loc.column) + ": " + e->message};
  const auto& prog = std::get<programs::Program>(read);
  programs::ExploreOptions eo;
  for (const auto& name : o.show) eo.registers.push_back(register_or_fail(prog, name));
  eo.max_states = o.max_states;
  eo.activemask_limit = o.activemask_limit;
  eo.max_frontier_bytes = static_cast<std::size_t>(o.max_memory_mib) << 20;
  if (!o.quiet && !o.json)
    eo.progress = [](uint64_t n) {
      if (n % 20000 == 0) std::cerr << "  ... " << n << " states\n";
    };
  if (!o.unknown.empty()) {
#ifdef WARPSPEC_HAVE_CHECKER
    return run_inputs(o, prog, launch, eo);
#else
    throw Failure{kExitUsage, "--unknown needs the Z3 checker, which this build leaves out"};
#endif
  }
  programs::Exploration x;
  try {
    x = programs::explore(prog, launch, eo);
  } catch (const std::invalid_argument& e) {
    throw launch_refused(o, e);
  }
  if (o.json)
    std::cout << exploration_json(prog, launch, x, eo.registers).dump(2) << "\n";
  else
    print_text(prog, launch, x, o.file, eo.registers);
  if (x.any(programs::PathEnd::Kind::Deadlock) || x.any(programs::PathEnd::Kind::Undefined) ||
      x.any(programs::PathEnd::Kind::Race))
    return kExitUb;
  if (o.deterministic && x.outcomes.size() > 1) return kExitRefuted;
  return x.complete ? kExitOk : kExitUnknown;
}

const bool run_registered = add_command(
    {"run", "Run a kernel's PTX over every schedule of one block: outcomes, deadlocks, UB, races",
     55, [](CLI::App& sub) -> std::function<int()> {
       auto o = std::make_shared<RunOptions>();
       sub.add_option("file", o->file, "PTX file (nvcc -ptx output); - reads standard input");
       sub.add_option("--entry", o->entry, "the .entry to run when the file has several");
       sub.add_option_function<unsigned>(
              "--threads,--block,-n",
              [o](unsigned n) {
                o->threads = n;
                o->threads_given = true;
              },
              "threads in the block (1-1024; default 32)")
           ->check(CLI::Range(1, 1024));
       sub.add_option("--launch", o->launch_file,
                      "a JSON launch: {\"threads\": 64, \"params\": [{\"value\": 64}, "
                      "{\"words\": [1, 2]}, {\"zeros\": 16}], \"unknown\": [1]} (flags given as "
                      "well win; its unknowns join --unknown's)")
           ->check(kPath);
       sub.add_option("--show", o->show,
                      "registers whose final value in every thread is part of each outcome, "
                      "e.g. --show %r9")
           ->delimiter(',');
       sub.add_option("--param,-p", o->params,
                      "one per kernel parameter, in order: a number (a scalar), words:1,2,3 (a "
                      "buffer of 32-bit words) or zeros:N (N zero words)");
       sub.add_option("--target", o->target, "sm_70 or later (default sm_90)");
       sub.add_option("--max-states", o->max_states,
                      "give up after this many states (the verdict then says so; default 200000)");
       sub.add_option("--activemask-limit", o->activemask_limit,
                      "up to this many threads at one __activemask, every grouping of them is "
                      "explored (default 5)")
           ->check(CLI::Range(1, 10));
       sub.add_option("--max-memory", o->max_memory_mib,
                      "MiB the states waiting to be explored may hold: breadth first (shortest "
                      "schedules) within half of it, depth first beyond, and the walk stops past "
                      "all of it (default 4096)")
           ->check(CLI::Range(uint64_t{16}, uint64_t{1} << 20));
       sub.add_option("--unknown,-u", o->unknown,
                      "a parameter (its PTX name, or its position from 1) whose value is unknown: "
                      "every input is covered, class by class (a buffer: each of its words; its "
                      "size stays as given). The values given are the first input run")
           ->delimiter(',');
       sub.add_option("--max-classes", o->max_classes,
                      "with --unknown: stop after this many classes of inputs (default 256)")
           ->check(CLI::Range(1u, 1000000u));
       sub.add_flag("--deterministic", o->deterministic,
                    "exit 1 when the schedules complete with different memory or registers");
       sub.add_flag("--json", o->json,
                    "print the exploration as JSON (schema warpspec-run/1; with --unknown, "
                    "warpspec-run-inputs/1)");
       sub.add_flag("--quiet,-q", o->quiet, "no progress lines on standard error");
       sub.footer(
           "Every schedule the sm_70+ scheduler may choose is explored: which threads execute a "
           "warp collective together, which read __activemask together, and (through "
           "happens-before clocks) whether memory accesses race. Exit: 0 every schedule completes "
           "without UB, 1 (with --deterministic) the schedules complete differently, 3 some "
           "schedule deadlocks, races or reaches UB, 2 not every schedule was explored and none "
           "went wrong, 64 usage, 65 PTX or launch file outside what is supported, 66 missing "
           "file. With --unknown the same codes speak of every input: 0 no input goes wrong, 3 "
           "some input does (an input that shows it is printed), 2 not every input was covered.\n"
           "Example: warpspec run reduce.ptx -n 64 -p words:1,2,3 -p zeros:1 -p 64\n"
           "         warpspec run reduce.ptx -n 64 -p words:1,2,3 -p zeros:1 -p 64 --unknown 3");
       return [o] { return run_program(*o); };
     }});

}  // namespace
}  // namespace warpspec::cli
#endif
