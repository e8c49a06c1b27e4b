// warpspec report: the verification report a newcomer runs first. It states the catalog, then
// checks the model against every witness the project has: the published worked example, the
// kept conformance suites against a GPU's results for them, and, when built in, the property
// library and the recorded hardware corpus.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>

#include "cli/command.hpp"
#include "cli/common.hpp"
#include "cli/program_records.hpp"
#include "model/eval.hpp"
#include "model/input.hpp"
#include "model/render.hpp"
#ifdef WARPSPEC_HAVE_CAPTURE_FORMAT
#include "capture/replay.hpp"
#endif
#include "vectors/check.hpp"
#ifdef WARPSPEC_HAVE_CHECKER
#include "checker/library.hpp"
#include "checker/prover.hpp"
#endif

namespace warpspec::cli {
namespace {

// The worked example accompanying the CUDA warp match functions, with the output that was
// printed on a real GPU: lanes 0-1 hold 5, the other lanes 6, full mask. match_any printed 3 on
// lanes 0-1 and fffffffc elsewhere; match_all printed 0 with pred 0 on every lane.
bool worked_example() {
  model::Warp w = model::make_warp();
  for (unsigned i = 0; i < 32; ++i) w.a[i] = i > 1 ? 6 : 5;
  spec::Instr any, all;
  any.form = spec::FormId::MatchAnyB32;
  all.form = spec::FormId::MatchAllB32;
  all.write_p = true;
  const auto ra = model::evaluate(any, w);
  const auto rl = model::evaluate(all, w);
  unsigned agree = 0;
  for (unsigned i = 0; i < 32; ++i) {
    const uint32_t published_any = i < 2 ? 0x3u : 0xfffffffcu;
    agree += ra.outcome.d[i] == published_any && rl.outcome.d[i] == 0 && !rl.outcome.p[i] &&
             ra.defined(i) && rl.defined(i);
  }
  std::cout << "Worked example (lanes 0-1 hold 5, lanes 2-31 hold 6, mask 0xffffffff):\n"
            << "__match_any_sync:\n"
            << model::lane_table(any, w, &ra) << "__match_all_sync:\n"
            << model::lane_table(all, w, &rl) << "  published GPU output reproduced on " << agree
            << "/32 lanes: " << (agree == 32 ? "agrees" : "DISAGREES") << "\n\n";
  return agree == 32;
}

#ifdef WARPSPEC_HAVE_CAPTURE_FORMAT
// Replays the recorded hardware corpus: every lane the spec defines must agree.
bool hardware_corpus(const std::string& dir) {
  std::cout << "Hardware corpus (" << dir << "):\n";
  std::vector<std::filesystem::path> files;
  if (std::filesystem::exists(dir)) files = capture::capture_files(dir);
  if (files.empty()) {
    std::cout << "  no capture files found: skipped (give --corpus DIR)\n\n";
    return true;
  }
  capture::Replayer r(capture::Replayer::Options{0, 0});
  try {
    for (const auto& f : files) r.add_file(f);
  } catch (const std::exception& e) {
    throw Failure{kExitDataError, e.what()};
  }
  std::cout << capture::summary_table(r, "  ");
  const auto total = r.total();
  for (const auto& d : r.devices()) std::cout << "  recorded on " << d << "\n";
  if (total.d_open)
    std::cout << "  " << total.d_open
              << " shuffle lanes read a lane that does not take part: p compared, d observed\n";
  for (const auto& [_, ob] : r.leaders())
    std::cout << "  " << ob.form << " elected the lowest lane of its membermask in " << ob.lowest
              << " of " << ob.elections << " elections of two or more lanes\n";
  auto unconfirmed = capture::unconfirmed_forms(r);
  if (!unconfirmed.empty()) {
    std::cout << "  not confirmed on this hardware:";
    for (auto f : unconfirmed) std::cout << " " << spec::form_info(f).name;
    std::cout << "\n";
  }
  const bool ok = total.mismatched == 0;
  std::cout << "  " << total.agreed << " of " << total.lanes
            << " defined lanes agree with the model: "
            << (ok ? "agrees" : "DISAGREES (run warpspec capture-check for the lane tables)")
            << "\n\n";
  return ok;
}
#endif

// The kept conformance suites against the results a GPU gave for them (`NAME.jsonl` beside
// `NAME.DEVICE-results.jsonl`), checked as `warpspec check` checks an implementation.
bool suites_on_hardware(const std::string& dir) {
  namespace fs = std::filesystem;
  std::cout << "Conformance suites on hardware (" << dir << "):\n";
  std::vector<std::pair<fs::path, fs::path>> pairs;  // vectors, results
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
    throw Failure{kExitNoInput, "--suites " + dir + ": a file, not a folder of suites"};
  if (fs::is_directory(dir, ec))
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      const auto name = e.path().filename().string();
      const auto cut = name.find("-results.jsonl");
      if (cut == std::string::npos) continue;
      const auto dot = name.rfind('.', cut);
      if (dot == std::string::npos) continue;
      const fs::path suite = e.path().parent_path() / (name.substr(0, dot) + ".jsonl");
      if (fs::exists(suite)) pairs.emplace_back(suite, e.path());
    }
  std::sort(pairs.begin(), pairs.end());
  if (pairs.empty()) {
    std::cout << "  no suite with hardware results found: skipped\n\n";
    return true;
  }
  bool ok = true;
  for (const auto& [suite, results] : pairs) {
    vectors::CheckReport rep;
    try {
      model::InputFile v(suite.string()), r(results.string());
      rep = vectors::check(v.stream(), suite.string(), r.stream(), results.string());
    } catch (const model::MissingInput& e) {
      throw Failure{kExitNoInput, e.what()};
    } catch (const std::exception& e) {
      throw Failure{kExitDataError, e.what()};
    }
    // UB vectors are never run on a GPU; a defined vector skipped was not run on that device
    // (a suite grown since its results were taken).
    uint64_t skipped = 0, not_run = 0;
    for (const auto& [form, t] : rep.forms) {
      skipped += t.skipped - t.skipped_defined + t.ub_vectors;
      not_run += t.skipped_defined;
    }
    const auto name = results.filename().string();
    const auto device = name.substr(suite.stem().string().size() + 1,
                                    name.size() - suite.stem().string().size() - 15);
    const bool agrees = rep.mismatches == 0 && rep.compared > 0;
    ok = ok && agrees;
    std::cout << "  " << std::left << std::setw(32) << suite.filename().string() << std::right
              << "on " << std::left << std::setw(6) << device << std::right << rep.compared
              << " of " << rep.vectors << " vectors compared (" << skipped
              << " skipped: the GPU program runs no vector with undefined behaviour"
              << (not_run ? "; " + std::to_string(not_run) +
                                " without undefined behaviour not run on that device yet"
                          : std::string())
              << "): "
              << (agrees              ? "agrees"
                  : rep.compared == 0 ? "NOTHING COMPARED"
                                      : "DISAGREES")
              << "\n";
  }
  std::cout << "\n";
  return ok;
}

#ifdef WARPSPEC_HAVE_CHECKER
// Proves the property library (laws and fast == model). Unknown is reported as unknown.
bool property_library(unsigned timeout_ms) {
  const auto lib = checker::property_library();
  std::vector<const checker::Property*> all;
  for (const auto& p : lib) all.push_back(&p);
  checker::ProveOptions opt;
  opt.timeout_ms = timeout_ms;
  std::cout << "Property library (" << lib.size() << " properties, Z3, " << timeout_ms / 1000
            << " s each, 2 workers):\n"
            << std::flush;
  const auto t0 = std::chrono::steady_clock::now();
  const auto verdicts = prove_with_progress(all, opt);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::size_t proved = 0, refuted = 0, unknown = 0, eq_proved = 0, eq_total = 0;
  std::string unknown_names;
  for (const auto& v : verdicts) {
    const bool eq = v.name.starts_with("fast_eq_model.");
    eq_total += eq;
    if (v.status == checker::Status::Proved) ++proved, eq_proved += eq;
    if (v.status == checker::Status::Refuted) {
      ++refuted;
      std::cout << "  REFUTED " << v.name << ": " << v.reason << "\n" << v.counterexample;
    }
    if (v.status == checker::Status::Unknown) ++unknown, unknown_names += " " + v.name;
    if (!v.error.empty()) std::cout << "  ERROR " << v.name << ": " << v.error << "\n";
  }
  std::cout << "  " << proved << " proved, " << refuted << " refuted, " << unknown << " unknown in "
            << std::fixed << std::setprecision(1) << secs << " s; fast == model proved for "
            << eq_proved << " of " << eq_total << " properties\n";
  if (unknown) std::cout << "  unknown (not proved, not refuted):" << unknown_names << "\n";
  std::cout << "\n";
  return refuted == 0;
}
#endif

#ifdef WARPSPEC_HAVE_KERNEL_REPLAY
// Replays the recorded kernel launches: each must be an outcome its exploration predicts.
bool program_corpus(const std::string& index) {
  std::cout << "Kernels on hardware (" << index << "), each launch against `warpspec run`:\n";
  if (!std::filesystem::exists(index)) {
    std::cout << "  no kernel records found: skipped (give --programs INDEX)\n\n";
    return true;
  }
  // A set of records of which no launch was replayed confirms nothing: the report does not agree.
  const bool ok = replay_program_records(index, true, 20000, "  ") == RecordsVerdict::Agree;
  std::cout << "\n";
  return ok;
}
#endif

// A path the command line names must exist; a default one may be missing (an installed binary
// far from the project's data), and that part of the report then says it skipped.
void need_given(const CLI::App& sub, const char* option, const std::string& path) {
  std::error_code ec;
  if (sub.count(option) && !std::filesystem::exists(path, ec))
    throw Failure{kExitNoInput, std::string(option) + " " + path + ": no such file or folder"};
}

int run_report(const std::string& corpus, const std::string& suites, const std::string& programs,
               unsigned timeout_ms) {
  int semantic = 0, undefined = 0, open_value = 0;
  for (const auto& c : spec::kClauses)
    (c.kind == spec::ClauseKind::Semantic    ? semantic
     : c.kind == spec::ClauseKind::Undefined ? undefined
                                             : open_value)++;
  std::cout << "warpspec verification report\n"
            << "Catalog: " << spec::kFormCount << " instruction forms, " << spec::kClauseCount
            << " clauses (" << semantic << " semantic, " << undefined << " undefined-behaviour, "
            << open_value << " that leave one result undefined).\n\n";
  bool ok = worked_example();
#ifdef WARPSPEC_HAVE_CAPTURE_FORMAT
  ok = hardware_corpus(corpus) && ok;
#else
  (void)corpus;
#endif
  ok = suites_on_hardware(suites) && ok;
#ifdef WARPSPEC_HAVE_KERNEL_REPLAY
  ok = program_corpus(programs) && ok;
#else
  (void)programs;
#endif
#ifdef WARPSPEC_HAVE_CHECKER
  if (timeout_ms) ok = property_library(timeout_ms) && ok;
#else
  (void)timeout_ms;
#endif
  std::cout
      << (ok ? "Verdict: no witness disagrees with the model (unknown proofs are listed above, "
               "not counted as proved).\n"
             : "Verdict: DISAGREEMENT (see above).\n");
  return ok ? kExitOk : kExitRefuted;
}

const bool report_registered = add_command(
    {"report", "Verification report: the model checked against every witness the project has", 5,
     [](CLI::App& sub) {
       auto corpus = std::make_shared<std::string>(WARPSPEC_DEFAULT_CORPUS);
       auto suites = std::make_shared<std::string>(WARPSPEC_DEFAULT_VECTORS);
       auto timeout = std::make_shared<unsigned>(120000);
#ifdef WARPSPEC_HAVE_KERNEL_REPLAY
       auto programs = std::make_shared<std::string>(WARPSPEC_DEFAULT_PROGRAM_RECORDS);
       sub.add_option("--programs", *programs,
                      "Index of recorded kernel launches to replay against `warpspec run` "
                      "(each set's sample of its launches)")
           ->capture_default_str()
           ->check(kPath);
#else
       auto programs = std::make_shared<std::string>();
#endif
       sub.add_option("--corpus", *corpus, "Folder of hardware captures to replay")
           ->capture_default_str();
       sub.add_option("--suites", *suites,
                      "Folder of conformance suites kept with a GPU's results for them "
                      "(NAME.jsonl beside NAME.DEVICE-results.jsonl)")
           ->capture_default_str();
       sub.add_option("--timeout-ms", *timeout,
                      "Z3 time per property of the library (0 skips the proofs)")
           ->capture_default_str();
       sub.footer(
           "Exit codes: 0 nothing disagrees with the model (proofs that end unknown are listed, "
           "not counted as proved), 1 a disagreement or a refuted property, 64 usage, 65 "
           "malformed data, 66 missing input.");
       return [&sub, corpus, suites, programs, timeout] {
         need_given(sub, "--corpus", *corpus);
         need_given(sub, "--suites", *suites);
         need_given(sub, "--programs", *programs);
         return run_report(*corpus, *suites, *programs, *timeout);
       };
     }});

}  // namespace
}  // namespace warpspec::cli
