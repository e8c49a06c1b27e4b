#include "checker/smt2.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace warpspec::checker {

std::string to_smt2(z3::context& ctx, const z3::expr_vector& assertions) {
  z3::solver s(ctx, "QF_BV");
  for (unsigned i = 0; i < assertions.size(); ++i) s.add(assertions[i]);
  return "(set-logic QF_BV)\n" + s.to_smt2();
}

void write_file_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write " + tmp + ": " + std::strerror(errno));
    out << text;
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      throw std::runtime_error("cannot write " + tmp + ": " + std::strerror(errno));
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::remove(tmp.c_str());
    throw std::runtime_error("cannot rename " + tmp + " to " + path + ": " + why);
  }
}

std::string check_smt2_file(const std::string& path, unsigned timeout_ms) {
  z3::context ctx;
  z3::expr_vector fs = ctx.parse_file(path.c_str());
  z3::solver s(ctx, "QF_BV");
  if (timeout_ms) {
    z3::params p(ctx);
    p.set("timeout", timeout_ms);
    s.set(p);
  }
  s.add(fs);
  switch (s.check()) {
    case z3::sat:
      return "sat";
    case z3::unsat:
      return "unsat";
    default:
      return "unknown";
  }
}

}  // namespace warpspec::checker
