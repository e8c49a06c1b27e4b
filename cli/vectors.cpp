// warpspec vectors: conformance vectors for chosen forms and a target, with their clause
// coverage, the mutant catalog's kill report, and a self-checking CUDA program.
#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>

#include "cli/common.hpp"
#include "json/lines.hpp"
#include "model/input.hpp"
#include "model/output.hpp"
#include "vectors/emit_cuda.hpp"
#include "vectors/format.hpp"
#include "vectors/generate.hpp"
#include "vectors/intrinsics.hpp"
#ifdef WARPSPEC_HAVE_CHECKER
#include "checker/witness.hpp"
#endif

namespace warpspec::cli {
namespace {

struct VectorsOptions {
  std::string out, in, target, ptx, emit, reference;
  std::vector<std::string> forms;
  std::size_t count = 0;
  uint64_t seed = 1;
  bool boundary = false, report = false, mutants = false, no_z3 = false, intrinsics = false;
};

std::vector<vectors::Vector> read_vectors(const std::string& path, vectors::VectorsHeader& header) {
  std::optional<model::InputFile> file;
  try {
    file.emplace(path);
  } catch (const model::MissingInput& e) {
    throw Failure{kExitNoInput, e.what()};
  }
  json::LineReader lines(file->stream());
  json::Line line;
  bool empty = true;
  std::vector<vectors::Vector> out;
  // Every vector is held to the specification as `check` holds it: an `expect` that was edited
  // or has gone stale is refused at its line.
  std::optional<vectors::VectorReader> reader;
  try {
    while (lines.next(line)) {
      if (empty) {
        empty = false;
        header = vectors::parse_header(line, path);
        out.reserve(static_cast<std::size_t>(std::min<uint64_t>(header.count, 1u << 20)));
        continue;
      }
      if (!reader) reader.emplace(path, header);
      out.push_back(reader->expect(line).vector);
    }
  } catch (const vectors::FormatError& e) {
    throw Failure{kExitDataError, e.what()};
  }
  if (empty)
    throw Failure{kExitDataError, path + ":1:1: the file is empty; expected a vector file header"};
  if (header.count_given && header.count != out.size())
    throw Failure{kExitDataError, path + ":1:1: the header says " + std::to_string(header.count) +
                                      " vectors, but the file has " + std::to_string(out.size()) +
                                      " (a truncated or edited file)"};
  return out;
}

void print_report(const std::map<spec::FormId, vectors::FormCoverage>& cov,
                  const std::vector<vectors::Vector>& vs, std::ostream& os) {
  std::size_t clauses = 0, covered = 0, muts = 0, killed = 0, vecs = 0, z3 = 0, points = 0, hit = 0,
              unreachable = 0;
  std::map<spec::FormId, std::size_t> witnesses;  // vectors found by Z3, per form
  for (const auto& v : vs) witnesses[v.instr.instr.form] += v.source == "witness";
  auto ratio = [](std::size_t a, std::size_t b) {
    return std::to_string(a) + "/" + std::to_string(b);
  };
  os << std::left << std::setw(28) << "form" << std::right << std::setw(8) << "vectors"
     << std::setw(5) << "Z3" << std::setw(10) << "clauses" << std::setw(10) << "mutants"
     << std::setw(13) << "coverpoints"
     << "  not covered\n";
  for (const auto& [form, c] : cov) {
    std::string missing;
    for (auto cl : c.clauses)
      if (std::find(c.covered.begin(), c.covered.end(), cl) == c.covered.end())
        missing += " " + std::string(spec::clause_info(cl).key);
    for (auto m : c.mutants)
      if (std::find(c.killed.begin(), c.killed.end(), m) == c.killed.end())
        missing += " mutant:" + std::string(vectors::mutant_info(m).key);
    for (auto p : c.coverpoints)
      if (std::find(c.hit.begin(), c.hit.end(), p) == c.hit.end())
        missing += " cp:" + std::string(vectors::coverpoint_info(p).key);
    os << std::left << std::setw(28) << spec::form_info(form).name << std::right << std::setw(8)
       << c.vectors << std::setw(5) << witnesses[form] << std::setw(10)
       << ratio(c.covered.size(), c.clauses.size()) << std::setw(10)
       << ratio(c.killed.size(), c.mutants.size()) << std::setw(13)
       << ratio(c.hit.size(), c.coverpoints.size()) << " " << (missing.empty() ? " -" : missing)
       << "\n";
    clauses += c.clauses.size();
    covered += c.covered.size();
    muts += c.mutants.size();
    killed += c.killed.size();
    points += c.coverpoints.size();
    hit += c.hit.size();
    unreachable += c.unreachable.size();
    vecs += c.vectors;
    z3 += witnesses[form];
  }
  auto pct = [](std::size_t a, std::size_t b) { return b ? 100 * a / b : 100; };
  os << "total: " << vecs << " vectors (" << z3 << " Z3 witnesses); clauses covered " << covered
     << "/" << clauses << " (" << pct(covered, clauses) << "%); mutants killed " << killed << "/"
     << muts << " (" << pct(killed, muts) << "%); coverpoints hit " << hit << "/" << points << " ("
     << pct(hit, points) << "%)";
  os << (unreachable ? "; " + std::to_string(unreachable) + " not reachable on the target:\n"
                     : "\n");
  for (const auto& [form, c] : cov)
    for (const auto& u : c.unreachable)
      os << "  " << spec::form_info(form).name << " " << vectors::coverpoint_info(u.id).key << ": "
         << u.unreachable << "\n";
}

int print_mutants(const std::vector<vectors::Vector>& vs, spec::Target t, spec::PtxVersion p,
                  std::ostream& os) {
  int alive = 0;
  os << std::left << std::setw(28) << "mutant" << std::setw(10) << "verdict"
     << "clause / killed by\n";
  for (const auto& m : vectors::mutants()) {
    std::size_t applicable = 0;
    const vectors::Vector* killer = nullptr;
    for (const auto& v : vs) {
      if (!vectors::applies(m.id, v.instr)) continue;
      ++applicable;
      if (!killer && vectors::kills(m.id, v, vectors::expected(v, t, p), t, p)) killer = &v;
    }
    if (applicable == 0) {
      os << std::left << std::setw(28) << m.key << std::setw(10) << "n/a"
         << "no vector of a form it applies to\n";
      continue;
    }
    if (!killer) ++alive;
    os << std::left << std::setw(28) << m.key << std::setw(10) << (killer ? "killed" : "SURVIVES")
       << spec::clause_info(m.clause).key
       << (killer ? " / vector " + std::to_string(killer->id) + " (" +
                        std::string(spec::form_info(killer->instr.instr.form).name) + ")"
                  : "")
       << "\n";
  }
  os << (alive ? std::to_string(alive) + " mutant(s) survive.\n"
               : "Every applicable mutant is killed.\n");
  return alive;
}

int run_vectors(const VectorsOptions& o) {
  vectors::VectorsHeader header;
  std::vector<vectors::Vector> vs;
  std::map<spec::FormId, vectors::FormCoverage> cov;
  double secs = 0;
  if (!o.in.empty()) {
    if (!o.forms.empty() || o.count || o.boundary || !o.target.empty() || !o.ptx.empty() ||
        o.intrinsics)
      throw Failure{kExitUsage,
                    "--in reads an existing file: --form, --count, --boundary, --intrinsics, "
                    "--target and --ptx do not apply"};
    vs = read_vectors(o.in, header);
    if (o.report) cov = vectors::coverage_of(vs, header.target, header.ptx);
  } else {
    vectors::GenOptions g;
    g.target = target_or_fail(o.target, spec::kDefaultTarget);
    g.ptx = ptx_or_fail(o.ptx, spec::kLatestPtx);
    g.seed = o.seed;
    g.random_count = o.count;
    g.boundary = o.boundary;
#ifdef WARPSPEC_HAVE_CHECKER
    if (!o.no_z3) g.witnesses = checker::z3_witness_source();
#endif
    for (const auto& name : o.forms) {
      auto f = spec::find_form(name);
      if (!f)
        throw Failure{kExitUsage, "--form '" + name + "': unknown form (see 'warpspec list')"};
      auto av = spec::check_availability(spec::form_info(*f).avail, g.target, g.ptx);
      if (!av.available)
        throw Failure{kExitUsage, "--form " + name + ": not available: " + av.reason};
      g.forms.push_back(*f);
    }
    Progress progress;
    if (g.witnesses)
      g.on_witnessed = [&](spec::FormId f, std::size_t done, std::size_t total) {
        progress.show("  Z3 witnesses: " + std::to_string(done) + " of " + std::to_string(total) +
                      " forms done (" + std::string(spec::form_info(f).name) + ")");
      };
    const auto t0 = std::chrono::steady_clock::now();
    auto suite = vectors::generate(g);
    progress.clear();
    if (o.intrinsics) {
      // The overloads' own vectors; their coverage is counted again, per lowered form.
      suite.vectors = vectors::intrinsic_suite(suite);
      if (o.report) suite.coverage = vectors::coverage_of(suite.vectors, g.target, g.ptx);
    }
    secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    vs = std::move(suite.vectors);
    cov = std::move(suite.coverage);
    header = {g.target, g.ptx, g.seed, vs.size()};
  }
  // Reports go to standard error whenever the vectors themselves go to standard output.
  const bool data_to_stdout = o.emit.empty() && (o.out == "-" || (o.out.empty() && o.in.empty()));
  std::ostream& info = data_to_stdout || o.out.empty() ? std::cerr : std::cout;
  if (!o.emit.empty()) {
    if (o.emit != "cuda" && o.emit != "cpp")
      throw Failure{kExitUsage, "--emit '" + o.emit + "': the emitters are 'cuda' and 'cpp'"};
    if (o.out.empty())
      throw Failure{kExitUsage,
                    "--emit " + o.emit + " needs -o FILE" + (o.emit == "cuda" ? ".cu" : ".hpp")};
    vectors::EmitStats st;
    std::string src;
    try {
      src = o.emit == "cuda" ? vectors::emit_cuda(vs, header, st)
                             : vectors::emit_cpp_driver(vs, header, st);
    } catch (const std::invalid_argument& e) {
      throw Failure{kExitDataError, e.what()};
    }
    model::OutputFile f(o.out);
    if (f.ok()) f.stream() << src;
    if (!f.commit()) throw Failure{kExitCantCreate, f.error()};
    if (o.emit == "cuda")
      info << "wrote " << o.out << ": " << st.vectors << " vectors, " << st.kernels << " kernels, "
           << st.skipped_ub << " UB vectors listed as skipped\n";
    else
      info << "wrote " << o.out << ": " << st.vectors << " vectors for " << st.kernels
           << " intrinsic overloads, " << st.skipped_ub
           << " UB vectors reported skipped unless run_ub is set\n";
  } else if (o.in.empty() || !o.out.empty()) {  // with --in, -o writes the file read, checked
    auto write = [&](std::ostream& os) { vectors::write_vectors(os, header, vs); };
    if (o.out.empty() || o.out == "-") {
      write(std::cout);
    } else {
      model::OutputFile f(o.out);
      if (f.ok()) write(f.stream());
      if (!f.commit()) throw Failure{kExitCantCreate, f.error()};
      std::size_t z3 = 0;
      for (const auto& v : vs) z3 += v.source == "witness";
      info << "wrote " << o.out << ": " << vs.size() << " vectors in " << std::fixed
           << std::setprecision(2) << secs << " s (" << z3 << " Z3 witnesses)\n";
    }
  }
  if (!o.reference.empty()) {
    // The results a correct implementation writes: the model's own answers.
    model::OutputFile f(o.reference);
    if (!f.ok()) throw Failure{kExitCantCreate, f.error()};
    f.stream() << "{\"schema\":\"" << vectors::kResultsSchema << "\"}\n";
    for (const auto& v : vs) {
      const auto& form = spec::form_info(v.instr.instr.form);
      f.stream() << vectors::result_line(
                        v.id, vectors::as_observed(vectors::expected(v, header.target, header.ptx)),
                        form.d_type == spec::ResultType::Pred, v.instr.instr.write_p)
                 << "\n";
    }
    if (!f.commit()) throw Failure{kExitCantCreate, f.error()};
  }
  int rc = kExitOk;
  if (o.report) print_report(cov, vs, info);
  if (o.mutants && print_mutants(vs, header.target, header.ptx, info) > 0) rc = kExitRefuted;
  return rc;
}

const bool vectors_registered = add_command(
    {"vectors", "Write conformance vectors; report clause coverage and mutant kills; emit CUDA", 40,
     [](CLI::App& sub) {
       auto o = std::make_shared<VectorsOptions>();
       sub.add_option("-o,--out", o->out,
                      "Write the vectors (JSON Lines) or the .cu file here (default: stdout)")
           ->check(kPath);
       sub.add_option("--form", o->forms,
                      "Only these forms (repeatable; default: all available on the target)");
       sub.add_option("--target", o->target, "Target (default sm_90)");
       sub.add_option("--ptx", o->ptx, "PTX ISA version (default 8.8)");
       // CLI11 reads "-1" into an unsigned as its two's complement: refused here, as a count of
       // 2^64 - 1 would only run until memory ran out.
       sub.add_option("--count", o->count,
                      "Add this many seeded random vectors per form (at most 1,000,000)")
           ->check(CLI::Range(std::size_t{0}, std::size_t{1000000}));
       sub.add_option("--seed", o->seed, "Seed for the random states (same seed, same file)")
           ->check(CLI::Validator(
               [](std::string& s) {
                 return !s.empty() && s[0] == '-' ? std::string("a seed is not negative")
                                                  : std::string();
               },
               "SEED"));
       sub.add_flag("--boundary", o->boundary, "Add every boundary design of each form");
       sub.add_flag("--report", o->report,
                    "Print which clauses, mutants and coverpoints the vectors cover, per form");
       sub.add_flag("--mutants", o->mutants,
                    "Run the mutant catalog against the vectors; exit 1 if one survives");
       sub.add_option("--in", o->in,
                      "Use an existing vector file instead of generating one (every vector is "
                      "held to the specification: an edited or stale expectation is refused, "
                      "exit 65)")
           ->check(kPath);
       sub.add_option(
           "--reference-results", o->reference,
           "Also write the results a correct implementation gives (the model's answers)");
       sub.add_option("--emit", o->emit,
                      "Emit 'cuda': one self-checking .cu program; 'cpp': a header-only C++ "
                      "driver that runs intrinsic vectors against your functions (with -o)");
       sub.add_flag("--intrinsics", o->intrinsics,
                    "Write vectors for every CUDA intrinsic overload (__match_any_sync on float, "
                    "__ballot_sync, __reduce_min_sync on int, ...), spelled as the call, with "
                    "operands chosen for its C type");
       sub.add_flag("--no-z3", o->no_z3,
                    "Find witnesses by seeded search only, without asking Z3 (the default when "
                    "warpspec is built without Z3)");
       sub.footer(
           "The default suite is the smallest set found that kills every mutant in the catalog, "
           "covers\n"
           "every clause of each form and hits every reachable coverpoint (docs/vectors.md); UB "
           "vectors\n"
           "come last, marked \"ub\": true.\n"
           "Z3 witnesses come first (\"source\": \"witness\"): for each mutant and UB clause Z3 "
           "finds a\n"
           "state that shows it, replayed through the model; boundary designs and seeded random\n"
           "states cover what they leave.\n"
           "Examples:\n"
           "  warpspec vectors -o suite.jsonl --report\n"
           "  warpspec vectors --form vote.sync.ballot.b32 --count 1000 --seed 7 -o ballot.jsonl\n"
           "  warpspec vectors --in suite.jsonl --mutants\n"
           "  warpspec vectors --in suite.jsonl --emit cuda -o suite.cu\n"
           "  warpspec vectors --intrinsics -o intrinsics.jsonl\n"
           "  warpspec vectors --in intrinsics.jsonl --emit cpp -o intrinsics.hpp");
       return [o] { return run_vectors(*o); };
     }});

}  // namespace
}  // namespace warpspec::cli
