// `warpspec run` speed, single thread: whole explorations of the benchmark kernels in
// bench/programs (one block each).
//
//   run/divergent_256     8 divergent branches and 12 warp collectives a thread: explorations/s
//   run/straight_line     nothing to explore, a loop of integer arithmetic: thread-steps/s
//   run/loop_l5_36        the loop kernel of the hardware sets whose walk needs the most
//                         states (112 threads, 85,262; its launch from loop_l5_36.json): seconds
//   run/activemask_g15_98 the kernel whose __activemask groupings need the most states (48
//                         threads, 157,288 states, 13,922 outcomes): seconds
//   run/unknown_branches  32 threads, 4 branches on two unknown scalars: every input covered,
//                         class by class (`warpspec run --unknown`), where the Z3 checker is built
#include <benchmark/benchmark.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "model/input.hpp"
#include "model/json_file.hpp"
#include "programs/explore.hpp"
#include "programs/launch.hpp"
#include "programs/ptx_reader.hpp"
#ifdef WARPSPEC_BENCH_INPUTS
#include "checker/program_inputs.hpp"
#endif

namespace warpspec::bench {
namespace {

programs::Program kernel(const std::string& name) {
  std::ifstream in(std::string(WARPSPEC_BENCH_PROGRAMS) + "/" + name + ".ptx");
  std::stringstream s;
  s << in.rdbuf();
  auto r = programs::read_ptx(s.str());
  if (auto* e = std::get_if<programs::ReadError>(&r)) throw std::runtime_error(e->message);
  return std::get<programs::Program>(r);
}

programs::ParamValue words(std::size_t n, uint32_t seed) {
  programs::ParamValue v;
  v.is_buffer = true;
  for (std::size_t i = 0; i < n; ++i) v.words.push_back(static_cast<uint32_t>(i * seed));
  return v;
}

programs::ParamValue scalar(uint64_t x) {
  programs::ParamValue v;
  v.value = x;
  return v;
}

void explore_or_fail(benchmark::State& st, const programs::Program& p, const programs::Launch& l) {
  uint64_t steps = 0;
  for (auto _ : st) {
    const auto x = programs::explore(p, l);
    if (!x.complete || x.outcomes.size() != 1) st.SkipWithError("not one outcome");
    steps += x.steps;
  }
  st.counters["thread_steps_per_s"] =
      benchmark::Counter(static_cast<double>(steps), benchmark::Counter::kIsRate);
}

void divergent_256(benchmark::State& st) {
  programs::Launch l;
  l.threads = 256;
  l.params = {words(256, 2654435761u), words(256, 0)};
  explore_or_fail(st, kernel("divergent_256"), l);
}
BENCHMARK(divergent_256)->Name("run/divergent_256")->Unit(benchmark::kMillisecond);

void straight_line(benchmark::State& st) {
  programs::Launch l;
  l.threads = 256;
  l.params = {words(256, 7), words(256, 0), scalar(4000)};
  explore_or_fail(st, kernel("straight_line"), l);
}
BENCHMARK(straight_line)->Name("run/straight_line")->Unit(benchmark::kMillisecond);

// A kernel of the hardware sets, cut out with its launch (`name`.ptx, `name`.json): seconds
// for its whole walk, and the states it took.
void hardware_kernel(benchmark::State& st, const std::string& name) {
  const auto p = kernel(name);
  const std::string file = std::string(WARPSPEC_BENCH_PROGRAMS) + "/" + name + ".json";
  const model::JsonFile f(model::read_input(file), file);
  const auto l = programs::launch_from_json(f, f.root()).launch;
  std::size_t states = 0;
  for (auto _ : st) {
    const auto x = programs::explore(p, l);
    if (!x.complete) st.SkipWithError("not every schedule explored");
    states = x.states;
  }
  st.counters["states"] = static_cast<double>(states);
}
BENCHMARK_CAPTURE(hardware_kernel, loop_l5_36, "loop_l5_36")
    ->Name("run/loop_l5_36")
    ->Unit(benchmark::kSecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(hardware_kernel, activemask_g15_98, "activemask_g15_98")
    ->Name("run/activemask_g15_98")
    ->Unit(benchmark::kSecond)
    ->Iterations(1);

#ifdef WARPSPEC_BENCH_INPUTS
void unknown_branches(benchmark::State& st) {
  const auto p = kernel("unknown_branches");
  programs::Launch l;
  l.threads = 32;
  l.params = {words(32, 3), words(32, 0), scalar(32), scalar(0)};
  checker::InputQuery q;
  q.unknown = {2, 3};
  std::size_t classes = 0;
  for (auto _ : st) {
    const auto a = checker::explore_inputs(p, l, q);
    if (!a.complete) st.SkipWithError("not every input covered");
    classes = a.classes.size();
  }
  st.counters["classes"] = static_cast<double>(classes);
}
BENCHMARK(unknown_branches)->Name("run/unknown_branches")->Unit(benchmark::kMillisecond);
#endif

}  // namespace
}  // namespace warpspec::bench

BENCHMARK_MAIN();
