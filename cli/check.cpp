// warpspec check: compares an implementation's results with a vector file.
#include "vectors/check.hpp"

#include <fstream>
#include <iostream>
#include <optional>

#include "cli/common.hpp"
#include "model/input.hpp"

namespace warpspec::cli {
namespace {

struct CheckOptions {
  std::string vectors, results;
  bool json = false;
  std::size_t max_failures = 5;
};

int run_check(const CheckOptions& o) {
  if (o.vectors == "-" && o.results == "-")
    throw Failure{kExitUsage, "--vectors and --results cannot both be standard input ('-')"};
  std::optional<model::InputFile> v, r;
  try {
    v.emplace(o.vectors);
    r.emplace(o.results);
  } catch (const model::MissingInput& e) {
    throw Failure{kExitNoInput, e.what()};
  }
  vectors::CheckReport rep;
  try {
    rep = vectors::check(v->stream(), o.vectors, r->stream(), o.results);
  } catch (const vectors::FormatError& e) {
    throw Failure{kExitDataError, e.what()};
  }
  std::cout << (o.json ? vectors::render_json(rep) + "\n" : vectors::render(rep, o.max_failures));
  if (rep.mismatches) return kExitRefuted;
  return rep.compared ? kExitOk : kExitUnknown;  // nothing compared: no verdict
}

const bool check_registered = add_command(
    {"check", "Check an implementation's results against conformance vectors", 45,
     [](CLI::App& sub) {
       auto o = std::make_shared<CheckOptions>();
       sub.add_option("--vectors", o->vectors, "The vector file (from 'warpspec vectors')")
           ->required();
       sub.add_option("--results", o->results,
                      "The implementation's results: one JSON line per vector, in the same order, "
                      "e.g. {\"id\": 7, \"d\": [\"0x3\", ...], \"p\": [1, ...]} (docs/vectors.md)")
           ->required();
       sub.add_flag("--json", o->json, "Print the report as JSON (schema warpspec-check/2)");
       sub.add_option("--max-failures", o->max_failures,
                      "Show at most this many violated clauses (default 5)");
       sub.footer(
           "Compares in the order UB, defined-ness, values; UB vectors are not compared.\n"
           "A defined lane with no result (null, missing, a list too short, a misspelled field) is "
           "a\n"
           "mismatch of its own; a round the implementation marks \"hang\": true must have UB.\n"
           "The vector file is validated and every expectation derived again from its state:\n"
           "an edited or stale file is refused.\n"
           "Exit: 0 every compared vector agrees, 1 some mismatch, 2 nothing compared (every\n"
           "vector skipped or UB), 65 malformed or stale file, 66 missing file.");
       return [o] { return run_check(*o); };
     }});

}  // namespace
}  // namespace warpspec::cli
