#pragma once
// A launch as people write it: on the command line (`-p 64 -p words:1,2,3 -p zeros:16`) or as a
// JSON document ({"threads": 64, "params": [{"value": 64}, {"words": [1, 2, 3]}, {"zeros": 16}],
// and optionally "unknown": [3] or ["n"]},
// docs/programs.md). The kernel corpus' manifest uses the same form for each kernel.
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "programs/machine.hpp"

namespace warpspec::model {
class JsonFile;
}

namespace warpspec::programs {

/// One parameter from its command-line text: a number (decimal, 0x hex, a leading '-' for two's
/// complement), "words:W,W,..." or "zeros:N". Throws model::InputError (a usage error) naming
/// `what` otherwise.
ParamValue param_from_text(std::string_view text, const std::string& what);

/// A launch and the entry it names (empty: the only one) from its JSON form; "target" is
/// optional. Throws model::InputError (a data error) naming `where` and the JSON path.
struct LaunchSpec {
  Launch launch;
  std::string entry;
  /// "unknown": the parameters to leave unknown (`run --unknown`), each by its PTX name or its
  /// position from 1, as written.
  std::vector<std::string> unknown;
};
/// What a launch manifest's kernel holds besides its launch: its name and PTX file, and what the
/// corpus tests and the kernel generators keep with it (expected outcomes, why it is there, the
/// planted bug). Any other member is refused.
inline const std::vector<std::string_view> kManifestKernelMembers{"name", "ptx",   "expect",
                                                                  "why",  "buggy", "bug"};

/// Reads the launch `j`, the value at JSON path `at` of `file` (the whole file when `at` is
/// empty), which may hold the members `also` besides a launch's (a manifest's kernel has its
/// name and PTX file). Throws model::InputError (data) naming file:line:column and the path.
LaunchSpec launch_from_json(const model::JsonFile& file, const nlohmann::json& j,
                            const std::string& at = "",
                            const std::vector<std::string_view>& also = {});

}  // namespace warpspec::programs
