#pragma once
// Kernels kept as files beside a launch manifest (the corpus, the worked examples): read once
// and explored once per test program, whichever test asks first.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "model/json_file.hpp"
#include "programs/explore.hpp"
#include "programs/launch.hpp"
#include "programs/ptx_reader.hpp"

namespace warpspec::programs::testing_support {

inline std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// The corpus folder and its manifest.
inline const std::string kCorpus = std::string(WARPSPEC_TEST_DATA) + "/programs/corpus/";

/// The kernels of the manifest at `path`.
inline std::vector<nlohmann::json> manifest_kernels(const std::string& path) {
  const auto j = nlohmann::json::parse(slurp(path));
  return {j["kernels"].begin(), j["kernels"].end()};
}

/// Kernel `k` of the manifest in `dir` (an empty program, with the test failed, when it does
/// not read).
inline Program kernel_program(const std::string& dir, const nlohmann::json& k) {
  auto read = read_ptx(slurp(dir + k["ptx"].get<std::string>()), k["entry"].get<std::string>());
  if (auto* e = std::get_if<ReadError>(&read)) {
    ADD_FAILURE() << k["name"] << ":" << e->loc.line << ": " << e->message;
    return {};
  }
  return std::get<Program>(read);
}

/// The launch kernel `k` names.
inline Launch kernel_launch(const nlohmann::json& k) {
  const model::JsonFile f(k.dump(), k["name"].get<std::string>());
  return launch_from_json(f, f.root(), "", kManifestKernelMembers).launch;
}

/// Kernel `k`'s default exploration, computed once per test program.
inline const Exploration& explored(const std::string& dir, const nlohmann::json& k) {
  static std::map<std::string, Exploration> cache;
  const std::string key = dir + k["name"].get<std::string>();
  auto it = cache.find(key);
  if (it == cache.end())
    it = cache.emplace(key, explore(kernel_program(dir, k), kernel_launch(k))).first;
  return it->second;
}

}  // namespace warpspec::programs::testing_support
