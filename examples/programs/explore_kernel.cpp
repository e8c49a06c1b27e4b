// A simulator author's first use of the library: run one kernel (nvcc -ptx output) over every
// schedule of one block and list how the schedules end, one line per distinct outcome.
//   explore_kernel KERNEL.ptx THREADS
// Every pointer parameter gets a buffer of THREADS zero words, every other parameter the value
// THREADS. Exit: 0 every schedule completes, 1 some outcome does not (a deadlock, undefined
// behaviour, a race), 2 the input could not be used, 3 not every schedule was explored and
// nothing went wrong.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <variant>

#include "programs/explore.hpp"
#include "programs/ptx_reader.hpp"

namespace ps = warpspec::programs;

int main(int argc, char** argv) {
  if (argc != 3) return std::fprintf(stderr, "usage: %s KERNEL.ptx THREADS\n", argv[0]), 2;
  std::ifstream file(argv[1]);
  if (!file) return std::fprintf(stderr, "%s: cannot open the file\n", argv[1]), 2;
  std::stringstream text;
  text << file.rdbuf();
  const unsigned threads = static_cast<unsigned>(std::strtoul(argv[2], nullptr, 10));

  // read_ptx rejects anything outside the supported subset with a place and a reason instead of
  // skipping it, so a kernel that reads is a kernel that is modelled whole. No entry name: the
  // file's only .entry.
  auto read = ps::read_ptx(text.str());
  if (const auto* e = std::get_if<ps::ReadError>(&read))
    return std::fprintf(stderr, "%s:%u:%u: %s\n", argv[1], e->loc.line, e->loc.column,
                        e->message.c_str()),
           2;
  const auto& kernel = std::get<ps::Program>(read);

  // A Launch is the block size, the target (sm_90 by default) and one value per parameter, in
  // the order of Program::params. nvcc declares pointers as .u64, so those become buffers.
  ps::Launch launch;
  launch.threads = threads;
  for (const auto& param : kernel.params) {
    ps::ParamValue v;
    v.is_buffer = param.type == ps::Type::U64;
    v.value = threads;  // read for scalars only
    if (v.is_buffer) v.words.assign(threads, 0);
    launch.params.push_back(v);
  }

  // explore walks every schedule (within the default limits) and merges identical endings, so
  // the outcomes are what the block can do, not how many ways it can do it. It throws
  // std::invalid_argument when the launch does not fit the kernel (a bad block size, say).
  ps::Exploration x;
  try {
    x = ps::explore(kernel, launch);
  } catch (const std::invalid_argument& e) {
    return std::fprintf(stderr, "%s: %s\n", argv[1], e.what()), 2;
  }

  // kind_name gives the stable name of how an outcome ends; a finding's key is a stable clause
  // id: a catalog clause (`warpspec explain` on its form lists it) or a program.* clause
  // (ProgramClause in programs/machine.hpp), so scripts can match on it.
  for (std::size_t k = 0; k < x.outcomes.size(); ++k) {
    const auto& o = x.outcomes[k];
    std::printf("outcome %zu: %s, %llu end state%s, %s\n", k + 1,
                std::string(ps::kind_name(o.kind)).c_str(),
                static_cast<unsigned long long>(o.paths), o.paths == 1 ? "" : "s",
                o.findings.empty() ? "no finding" : o.findings.front().key.c_str());
  }
  // An incomplete exploration is never reported as clean: say why it stopped.
  for (const auto& why : x.limits) std::printf("not every schedule explored: %s\n", why.c_str());
  // Any ending but a completed block (a deadlock, undefined behaviour, a race) is a failure.
  for (const auto& o : x.outcomes)
    if (o.kind != ps::PathEnd::Kind::Completed) return 1;
  return x.complete ? 0 : 3;
}
