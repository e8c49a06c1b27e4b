// How many vectors per second `warpspec check` compares, single thread: a seeded suite of random
// vectors over every sm_90 form and the model's own results, both held in memory (no disk).
#include <benchmark/benchmark.h>

#include <istream>
#include <sstream>
#include <streambuf>

#include "json/lines.hpp"
#include "vectors/check.hpp"
#include "vectors/format.hpp"
#include "vectors/generate.hpp"

namespace {

using namespace warpspec;

struct Files {
  std::string vectors, results;
  std::size_t count = 0;
};

const Files& files() {
  static const Files f = [] {
    vectors::GenOptions o;
    o.random_count = 2000;
    o.seed = 7;
    const auto s = vectors::generate(o);
    std::ostringstream v, r;
    v << vectors::header_line({s.target, s.ptx, s.seed, s.vectors.size()}) << "\n";
    for (const auto& x : s.vectors) {
      const auto e = vectors::expected(x, s.target, s.ptx);
      v << vectors::vector_line(x, e) << "\n";
      const auto& form = spec::form_info(x.instr.instr.form);
      r << vectors::result_line(x.id, vectors::as_observed(e),
                                form.d_type == spec::ResultType::Pred, x.instr.instr.write_p)
        << "\n";
    }
    return Files{v.str(), r.str(), s.vectors.size()};
  }();
  return f;
}

// Reads a string in place: the benchmark measures checking, not copying the files into streams.
class ViewBuf : public std::streambuf {
 public:
  explicit ViewBuf(const std::string& s) {
    char* p = const_cast<char*>(s.data());
    setg(p, p, p + s.size());
  }
};

void check_vectors(benchmark::State& state) {
  const auto& f = files();
  for (auto _ : state) {
    ViewBuf vb(f.vectors), rb(f.results);
    std::istream v(&vb), r(&rb);
    auto rep = vectors::check(v, "vectors", r, "results");
    if (rep.mismatches) state.SkipWithError("the model's own results disagree");
    benchmark::DoNotOptimize(rep.vectors);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * f.count));
  state.counters["bytes_per_vector"] =
      static_cast<double>(f.vectors.size() + f.results.size()) / static_cast<double>(f.count);
}
BENCHMARK(check_vectors)->Unit(benchmark::kMillisecond)->MinTime(1.0);

// The parts of a check: reading the vector lines (validated, expectations as written), reading
// the results lines, and deriving the expectations again from the states.
struct Lines {
  std::vector<std::string> vectors, results;
  std::vector<vectors::ResultShape> shapes;
  std::vector<vectors::Vector> read;
};

const Lines& lines() {
  static const Lines l = [] {
    Lines out;
    std::istringstream v(files().vectors), r(files().results);
    std::string line;
    std::getline(v, line);  // the header
    vectors::VectorReader reader("vectors");
    while (std::getline(v, line)) {
      out.vectors.push_back(line);
      const auto& ex = reader.read(line, out.vectors.size() + 1);
      std::vector<std::size_t> widths;
      for (const auto& x : ex.rounds) widths.push_back(x.defined.size());
      out.shapes.push_back(vectors::result_shape(*ex.instr, widths));
      out.read.push_back(ex.vector);
    }
    while (std::getline(r, line)) out.results.push_back(line);
    return out;
  }();
  return l;
}

void read_vector_lines(benchmark::State& state) {
  const auto& l = lines();
  vectors::VectorReader reader("vectors");
  json::PaddedLine padded;
  for (auto _ : state)
    for (std::size_t i = 0; i < l.vectors.size(); ++i)
      benchmark::DoNotOptimize(reader.read(padded.set(l.vectors[i], i + 2)).id);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * l.vectors.size()));
}
BENCHMARK(read_vector_lines)->Unit(benchmark::kMillisecond)->MinTime(1.0);

void read_result_lines(benchmark::State& state) {
  const auto& l = lines();
  vectors::ResultReader reader("results");
  json::PaddedLine padded;
  for (auto _ : state)
    for (std::size_t i = 0; i < l.results.size(); ++i)
      benchmark::DoNotOptimize(reader.parse(padded.set(l.results[i], i + 1), l.shapes[i]).id);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * l.results.size()));
}
BENCHMARK(read_result_lines)->Unit(benchmark::kMillisecond)->MinTime(1.0);

void derive_expectations(benchmark::State& state) {
  const auto& l = lines();
  std::vector<vectors::Expected> out;
  for (auto _ : state)
    for (const auto& v : l.read) {
      vectors::expected_fast(v, spec::kDefaultTarget, spec::kLatestPtx, out);
      benchmark::DoNotOptimize(out.data());
    }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * l.read.size()));
}
BENCHMARK(derive_expectations)->Unit(benchmark::kMillisecond)->MinTime(1.0);

}  // namespace

BENCHMARK_MAIN();
