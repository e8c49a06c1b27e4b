// Warp-instructions per second of the model and of the fast implementation on every form of the
// catalog, single thread, on states from a fixed seed (warp_states.hpp).
//
//   model/<form>          model::evaluate, one warp at a time
//   fast/<form>           fast::evaluate_batch on 256 warps per call (the lean interface)
//   fast_evaluate/<form>  fast::evaluate, one warp at a time, building the model's result type
//
// Block barriers are counted in barriers per second (blocks of 256 threads). With --table the
// program prints one summary table instead of Google Benchmark's listing (docs/benchmarks.md).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bench/warp_states.hpp"
#include "model/fast/fast.hpp"

namespace warpspec::bench {
namespace {

constexpr std::size_t kWarps = 256;  // states per call: inputs and outputs stay in L2
constexpr uint64_t kSeed = 20240601;

struct Case {
  spec::FormId form;
  Values values;
  bool both_distributions;  // name the distribution in the label

  std::string label() const {
    std::string s(spec::form_info(form).name);
    if (both_distributions) s += values == Values::Few ? " few" : " distinct";
    return s;
  }
  spec::Target target() const {
    // The .f32 reductions exist on sm_100a only; the others are measured on the H100's sm_90.
    return spec::form_info(form).a_type == spec::OperandType::F32 ? spec::Target{100, 'a'}
                                                                  : spec::kDefaultTarget;
  }
  spec::Instr instr() const {
    spec::Instr in;
    in.form = form;
    in.write_p = spec::form_info(form).optional_p;
    return in;
  }
};

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const auto& f : spec::kForms) {
    const bool match_any = f.family == spec::Family::Match && f.mode == spec::Mode::Any;
    out.push_back({f.id, Values::Few, match_any});
    if (match_any) out.push_back({f.id, Values::Distinct, true});
  }
  return out;
}

void register_warp_case(const Case& c) {
  const auto& f = spec::form_info(c.form);
  const auto states =
      std::make_shared<std::vector<model::Warp>>(warps(f.a_type, c.values, kWarps, kSeed));
  if (spec::has_operands_bc(c.form)) add_shfl_operands(*states, f.mode, kSeed);
  benchmark::RegisterBenchmark(("model/" + c.label()).c_str(), [c, states](benchmark::State& st) {
    const auto in = c.instr();
    for (auto _ : st)
      for (const auto& w : *states) benchmark::DoNotOptimize(model::evaluate(in, w, c.target()));
    st.SetItemsProcessed(static_cast<int64_t>(st.iterations() * states->size()));
  })->MinTime(0.2);
  benchmark::RegisterBenchmark(("fast/" + c.label()).c_str(), [c, states](benchmark::State& st) {
    const auto in = c.instr();
    std::vector<fast::WarpLanes> out(states->size());
    for (auto _ : st) {
      benchmark::DoNotOptimize(fast::evaluate_batch(in, *states, out, c.target()));
      benchmark::ClobberMemory();
    }
    st.SetItemsProcessed(static_cast<int64_t>(st.iterations() * states->size()));
  })->MinTime(0.2);
  benchmark::RegisterBenchmark(("fast_evaluate/" + c.label()).c_str(), [c, states](
                                                                           benchmark::State& st) {
    const auto in = c.instr();
    for (auto _ : st)
      for (const auto& w : *states) benchmark::DoNotOptimize(fast::evaluate(in, w, c.target()));
    st.SetItemsProcessed(static_cast<int64_t>(st.iterations() * states->size()));
  })->MinTime(0.2);
}

void register_block_case(const Case& c) {
  const auto states = std::make_shared<std::vector<model::Cta>>(blocks(64, kSeed));
  auto body = [c, states](auto evaluate) {
    return [c, states, evaluate](benchmark::State& st) {
      const auto in = c.instr();
      for (auto _ : st)
        for (const auto& b : *states) benchmark::DoNotOptimize(evaluate(in, b, c.target()));
      st.SetItemsProcessed(static_cast<int64_t>(st.iterations() * states->size()));
    };
  };
  auto model_eval = [](const spec::Instr& in, const model::Cta& b, spec::Target t) {
    return model::evaluate_cta(in, b, t);
  };
  auto fast_eval = [](const spec::Instr& in, const model::Cta& b, spec::Target t) {
    return fast::evaluate_cta(in, b, t);
  };
  benchmark::RegisterBenchmark(("model/" + c.label()).c_str(), body(model_eval))->MinTime(0.2);
  benchmark::RegisterBenchmark(("fast/" + c.label()).c_str(), body(fast_eval))->MinTime(0.2);
}

// ------------------------------------------------------------------------------- --table

std::string cpu_name() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown CPU";
}

// The goal a form's row is held to (the project's issue "[fast]"), or empty.
std::string goal(const Case& c, double model_rate, double fast_rate) {
  const auto& f = spec::form_info(c.form);
  const double ratio = fast_rate / model_rate;
  auto verdict = [](bool ok) { return ok ? std::string(" met") : std::string(" MISSED"); };
  if (f.family == spec::Family::Match && f.mode == spec::Mode::Any) {
    if (f.a_type == spec::OperandType::B32)
      return ">=25x, >=30M/s:" + verdict(ratio >= 25 && fast_rate >= 30e6);
    return ">=25x:" + verdict(ratio >= 25);
  }
  const bool integer_redux = f.family == spec::Family::Redux && f.a_type != spec::OperandType::F32;
  if (f.family == spec::Family::Vote || integer_redux || f.family == spec::Family::Match)
    return ">=100M/s:" + verdict(fast_rate >= 100e6);
  // The rest of the warp-level family (the issue "[family]").
  if (f.family == spec::Family::Activemask || f.family == spec::Family::Shfl ||
      f.family == spec::Family::Elect)
    return ">=25x, >=100M/s:" + verdict(ratio >= 25 && fast_rate >= 100e6);
  return "";
}

class TableReporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context& context) override {
    std::cerr << "measuring " << cases().size() << " forms on " << cpu_name() << " ("
              << context.cpu_info.num_cpus << " CPUs), single thread\n";
    return true;
  }
  // Keeps the best repetition of each case: on a shared machine the slow ones measure the
  // neighbours, not the code.
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const auto& r : runs) {
      const auto it = r.counters.find("items_per_second");
      if (r.error_occurred || r.run_type != Run::RT_Iteration || it == r.counters.end()) continue;
      double& best = rates_[r.run_name.function_name];
      best = std::max(best, static_cast<double>(it->second.value));
      std::cerr << "." << std::flush;
    }
  }
  void Finalize() override {
    std::cerr << "\n";
    std::ostringstream os;
    os << "CPU: " << cpu_name() << ", one thread; fast ISA: " << fast::isa_name(fast::best_isa())
       << "; best of the repetitions; rates in millions of warp-instructions per second (block "
          "barriers: barriers per second, 256 threads)\n\n";
    os << "| form | model | fast | fast/model | fast evaluate() | goal |\n";
    os << "|---|---:|---:|---:|---:|---|\n";
    for (const auto& c : cases()) {
      const double m = rates_["model/" + c.label()], f = rates_["fast/" + c.label()];
      const auto single = rates_.find("fast_evaluate/" + c.label());
      os << "| " << c.label() << " | " << millions(m) << " | " << millions(f) << " | " << std::fixed
         << std::setprecision(0) << (m > 0 ? f / m : 0) << "x | "
         << (single == rates_.end() ? std::string("-") : millions(single->second)) << " | "
         << (m > 0 ? goal(c, m, f) : "") << " |\n";
    }
    std::cout << os.str();
  }

 private:
  static std::string millions(double rate) {
    std::ostringstream os;
    os << std::fixed << std::setprecision(rate < 1e7 ? 3 : 1) << rate / 1e6;
    return os.str();
  }
  std::map<std::string, double> rates_;
};

}  // namespace
}  // namespace warpspec::bench

int main(int argc, char** argv) {
  using namespace warpspec::bench;
  bool table = false;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--table") == 0)
      table = true;
    else
      args.push_back(argv[i]);
  }
  for (const auto& c : cases()) {
    if (warpspec::spec::is_warp_form(c.form))
      register_warp_case(c);
    else
      register_block_case(c);
  }
  // The table reports the best of three repetitions unless told otherwise, and runs them in
  // random order among the other cases': a busy minute on a shared machine then slows one
  // repetition of many cases rather than every repetition of a few.
  static char repetitions[] = "--benchmark_repetitions=3";
  static char interleave[] = "--benchmark_enable_random_interleaving=true";
  auto given = [&](const char* flag) {
    return std::any_of(args.begin(), args.end(), [&](const char* a) {
      return std::strncmp(a, flag, std::strlen(flag)) == 0;
    });
  };
  if (table && !given("--benchmark_repetitions")) args.push_back(repetitions);
  if (table && !given("--benchmark_enable_random_interleaving")) args.push_back(interleave);
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());
  if (benchmark::ReportUnrecognizedArguments(n, args.data())) return 64;
  if (table) {
    TableReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
  } else {
    benchmark::RunSpecifiedBenchmarks();
  }
  benchmark::Shutdown();
  return 0;
}
