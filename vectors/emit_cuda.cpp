#include "vectors/emit_cuda.hpp"

#include <cinttypes>
#include <cstdio>
#include <map>
#include <sstream>

namespace warpspec::vectors {

namespace {

// The inline PTX (or intrinsic call) that runs one instruction on one lane. Inputs: L.a (operand),
// L.mask; outputs: dv, pv, and dvh (a 64-bit shuffle overload's high word).
// The intrinsic call itself, for a vector spelled as one (warpspec vectors --intrinsics).
std::string intrinsic_body(const spec::ParsedInstr& p) {
  const auto& in = *p.intrinsic;
  const auto& f = spec::form_info(p.instr.form);
  const std::string name(in.name);
  const std::string pred = "static_cast<int>(static_cast<unsigned>(L.a))";
  std::string value;
  switch (in.value_type) {
    case spec::CType::Float:
      value = "__uint_as_float(static_cast<unsigned>(L.a))";
      break;
    case spec::CType::Double:
      value = "__longlong_as_double(static_cast<long long>(L.a))";
      break;
    default:
      value = "static_cast<" + std::string(spec::ctype_name(in.value_type)) + ">(" +
              (spec::ctype_bits(in.value_type) == 32 ? "static_cast<unsigned>(L.a)" : "L.a") + ")";
  }
  if (f.family == spec::Family::Activemask) return "dv = " + name + "();";
  if (f.family == spec::Family::Shfl) {
    // The width the call was written with: the segment mask of the c it lowers to.
    const uint32_t width = 32 - ((p.instr.imm_c.value_or(0x1f) >> 8) & 0x1f);
    const std::string lane = f.mode == spec::Mode::Up || f.mode == spec::Mode::Down
                                 ? "static_cast<unsigned>(L.b)"
                                 : "static_cast<int>(L.b)";
    const std::string call =
        name + "(L.mask, " + value + ", " + lane + ", " + std::to_string(width) + ")";
    if (p.instr.wide) {  // the 64-bit result, cut into its two words
      const std::string bits = in.value_type == spec::CType::Double
                                   ? "static_cast<unsigned long long>(__double_as_longlong(r))"
                                   : "static_cast<unsigned long long>(r)";
      return "{ const auto r = " + call + "; const unsigned long long u = " + bits +
             "; dv = static_cast<unsigned>(u); dvh = static_cast<unsigned>(u >> 32); }";
    }
    return in.value_type == spec::CType::Float ? "dv = __float_as_uint(" + call + ");"
                                               : "dv = static_cast<unsigned>(" + call + ");";
  }
  if (in.value_type == spec::CType::Void) return name + (in.has_mask ? "(L.mask);" : "();");
  if (f.family == spec::Family::CtaBarrier)
    return "dv = static_cast<unsigned>(" + name + "(" + pred + "))" +
           (f.d_type == spec::ResultType::Pred ? " != 0;" : ";");
  if (f.family == spec::Family::Vote)
    return "dv = static_cast<unsigned>(" + name + "(L.mask, " + pred + "))" +
           (f.d_type == spec::ResultType::Pred ? " != 0;" : ";");
  if (in.pred_out)
    return "{ int q = 0; dv = " + name + "(L.mask, " + value + ", &q); pv = q != 0; }";
  return "dv = static_cast<unsigned>(" + name + "(L.mask, " + value + "));";
}

// A named block barrier as inline PTX: a and b as the vector writes them (immediates stay
// immediates; registers come from L.b and L.c), and the partner form for the threads that reach
// the barrier through it (L.partner).
std::string named_body(const spec::ParsedInstr& p) {
  const auto& f = spec::form_info(p.instr.form);
  const std::string a = p.instr.imm_bar ? std::to_string(*p.instr.imm_bar) : "%2";
  const std::string b =
      !p.instr.has_count ? "" : ", " + (p.instr.imm_count ? std::to_string(*p.instr.imm_count) : "%3");
  const std::string ops = a + b;
  const std::string in = ": \"r\"(static_cast<unsigned>(L.a)), \"r\"(L.b), \"r\"(L.c) : \"memory\");";
  auto plain = [&](const std::string& op) {
    return "asm volatile(\"{ mov.u32 %0, 0; " + op + " " + ops + "; }\" : \"=r\"(dv) " + in;
  };
  std::string own;
  const std::string neg = p.instr.negate ? "!" : "";
  switch (f.mode) {
    case spec::Mode::Popc:
      own = "asm volatile(\"{ .reg .pred q; setp.ne.u32 q, %1, 0; bar.red.popc.u32 %0, " + ops +
            ", " + neg + "q; }\" : \"=r\"(dv) " + in;
      break;
    case spec::Mode::And:
    case spec::Mode::Or:
      own = "asm volatile(\"{ .reg .pred q, r; setp.ne.u32 q, %1, 0; " + std::string(f.name) +
            " r, " + ops + ", " + neg + "q; selp.u32 %0, 1, 0, r; }\" : \"=r\"(dv) " + in;
      break;
    default:
      own = plain(std::string(f.name));
  }
  return "if (L.partner) { " + plain(std::string(spec::partner_name(p.instr.form))) + " } else { " +
         own + " }";
}

std::string body(const spec::ParsedInstr& p) {
  if (p.intrinsic) return intrinsic_body(p);
  const auto& f = spec::form_info(p.instr.form);
  const std::string name(f.name);
  const std::string neg = p.instr.negate ? "!" : "";
  const std::string a32 = "static_cast<unsigned>(L.a)";
  switch (f.family) {
    case spec::Family::Match:
      if (f.mode == spec::Mode::Any)
        return "asm volatile(\"" + name + " %0, %1, %2;\" : \"=r\"(dv) : " +
               (f.a_type == spec::OperandType::B64 ? "\"l\"(L.a)" : "\"r\"(" + a32 + ")") +
               ", \"r\"(L.mask));";
      return "asm volatile(\"{ .reg .pred q; " + name +
             " %0|q, %2, %3; selp.u32 %1, 1, 0, q; }\" : \"=r\"(dv), \"=r\"(pv) : " +
             (f.a_type == spec::OperandType::B64 ? "\"l\"(L.a)" : "\"r\"(" + a32 + ")") +
             ", \"r\"(L.mask));";
    case spec::Family::Vote:
      if (f.mode == spec::Mode::Ballot)
        return "asm volatile(\"{ .reg .pred a; setp.ne.u32 a, %1, 0; " + name + " %0, " + neg +
               "a, %2; }\" : \"=r\"(dv) : \"r\"(" + a32 + "), \"r\"(L.mask));";
      return "asm volatile(\"{ .reg .pred a, d; setp.ne.u32 a, %1, 0; " + name + " d, " + neg +
             "a, %2; selp.u32 %0, 1, 0, d; }\" : \"=r\"(dv) : \"r\"(" + a32 + "), \"r\"(L.mask));";
    case spec::Family::Redux:
      return "asm volatile(\"" + name + " %0, %1, %2;\" : \"=r\"(dv) : \"r\"(" + a32 +
             "), \"r\"(L.mask));";
    case spec::Family::WarpBarrier:
      return "asm volatile(\"bar.warp.sync %0;\" :: \"r\"(L.mask));";
    case spec::Family::Activemask:
      return "asm volatile(\"activemask.b32 %0;\" : \"=r\"(dv));";
    case spec::Family::Shfl:
      // b and c travel as registers even when the vector writes them as immediates.
      return "asm volatile(\"{ .reg .pred q; " + name +
             " %0|q, %2, %3, %4, %5; selp.u32 %1, 1, 0, q; }\" : \"=r\"(dv), \"=r\"(pv) : "
             "\"r\"(" + a32 + "), \"r\"(L.b), \"r\"(L.c), \"r\"(L.mask));";
    case spec::Family::Elect:
      // d travels as a register even when the vector writes the sink `_`.
      return "asm volatile(\"{ .reg .pred q; elect.sync %0|q, %2; selp.u32 %1, 1, 0, q; }\" : "
             "\"=r\"(dv), \"=r\"(pv) : \"r\"(L.mask));";
    case spec::Family::CtaBarrier: {
      if (!p.instr.imm_bar || *p.instr.imm_bar != 0 || p.instr.has_count) return named_body(p);
      const std::string pred = p.instr.negate ? "!" + a32 : a32;
      switch (f.mode) {
        case spec::Mode::Popc:
          return "dv = __syncthreads_count(" + pred + ");";
        case spec::Mode::And:
          return "dv = __syncthreads_and(" + pred + ") != 0;";
        case spec::Mode::Or:
          return "dv = __syncthreads_or(" + pred + ") != 0;";
        default:
          return "__syncthreads();";
      }
    }
  }
  return "";
}

}  // namespace

std::string emit_cuda(const std::vector<Vector>& vectors, const VectorsHeader& header,
                      EmitStats& stats) {
  std::map<std::string, int> kernels;  // instruction text -> kernel index
  std::ostringstream data, rounds, ks, table;
  std::size_t offset = 0;
  stats = {};
  for (const auto& v : vectors) {
    const auto e = expected(v, header.target, header.ptx);
    const bool ub = has_ub(e);
    if (ub) ++stats.skipped_ub;
    auto [it, fresh] = kernels.emplace(v.instr.text, static_cast<int>(kernels.size()));
    if (fresh) {
      ks << "// " << v.instr.text << "\n__global__ void kernel_" << it->second
         << "(const LaneIn* in, unsigned* d, unsigned* dh, unsigned* p, unsigned* present) {\n"
         << "  const unsigned t = threadIdx.x;\n  const LaneIn L = in[t];\n"
         << "  if (L.status == 1) return;  // exited before the instruction\n"
         << "  unsigned dv = 0, dvh = 0, pv = 0;\n"
         << "  if (L.status == 0) {\n"
         << "    // Lanes at different call sites reach the instruction from different branches.\n"
         << "    if (L.site & 1) {\n      " << body(v.instr) << "\n    } else {\n      "
         << body(v.instr) << "\n    }\n"
         << "    d[t] = dv;\n    dh[t] = dvh;\n    p[t] = pv;\n    present[t] = !L.partner;  // a partner runs another instruction\n  }\n}\n\n";
    }
    table << "  {" << v.id << "ull, " << v.rounds.size() << ", " << (ub ? 1 : 0) << ", "
          << (v.instr.instr.write_p ? 1 : 0) << ", " << (v.instr.instr.wide ? 1 : 0) << "},\n";
    for (const auto& r : v.rounds) {
      const auto lanes = lane_records(v, r);
      rounds << "  {" << v.id << "ull, " << it->second << ", " << lanes.size() << ", " << offset
             << "},\n";
      for (const auto& x : lanes) {
        char b[128];
        std::snprintf(b, sizeof b, "{%u,0x%08xu,%uu,0x%016" PRIx64 "ull,0x%08xu,0x%08xu,%u},",
                      x.status, x.mask, x.site, x.a, x.b, x.c, x.partner ? 1u : 0u);
        data << b;
        if (++offset % 4 == 0) data << "\n";
      }
    }
    ++stats.vectors;
  }
  stats.kernels = kernels.size();
  std::ostringstream os;
  os << "// Conformance vectors as a self-checking CUDA program, generated by warpspec.\n"
     << "// Target " << spec::to_string(header.target) << ", PTX ISA "
     << spec::to_string(header.ptx) << ", " << stats.vectors << " vectors (" << stats.skipped_ub
     << " with undefined behaviour are not run).\n"
     << "// Build: nvcc -arch=" << spec::to_string(header.target) << " -o vectors vectors.cu\n"
     << "// Run:   ./vectors > results.jsonl && warpspec check --vectors VECTORS --results "
        "results.jsonl\n"
     << "#include <cstdio>\n#include <cstdlib>\n\n"
     << "struct LaneIn { unsigned status, mask, site; unsigned long long a; unsigned b, c, "
        "partner; };  // status: 0 executes, 1 exited, 2 inactive; b, c: a shuffle's operands, "
        "or a block barrier's number and thread count; partner: reaches the barrier through the "
        "partner form\n"
     << "struct RoundIn { unsigned long long vector; int kernel; unsigned threads; unsigned long "
        "offset; };\n"
     << "struct VectorIn { unsigned long long id; unsigned rounds; int ub, p, wide; };  // wide: "
        "a 64-bit d (high word in dh)\n\n"
     << ks.str() << "static const LaneIn kLanes[] = {\n"
     << data.str() << "{0,0,0,0,0,0,0}};\n"
     << "static const RoundIn kRounds[] = {\n"
     << rounds.str() << "};\n"
     << "static const VectorIn kVectors[] = {\n"
     << table.str() << "};\n\n"
     << "static void launch(int k, unsigned n, const LaneIn* in, unsigned* d, unsigned* dh, "
        "unsigned* p, unsigned* present) {\n"
     << "  switch (k) {\n";
  for (const auto& [text, k] : kernels)
    os << "    case " << k << ": kernel_" << k << "<<<1, n>>>(in, d, dh, p, present); break;\n";
  os << "  }\n}\n\n"
     << "#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \\\n"
     << "  std::fprintf(stderr, \"CUDA error %s at line %d\\n\", cudaGetErrorString(e_), "
        "__LINE__); std::exit(2); } } while (0)\n\n"
     << "int main() {\n"
     << "  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // a hang keeps the lines before it\n"
     << "  LaneIn* in; unsigned *d, *dh, *p, *present;\n"
     << "  CHECK(cudaMalloc(&in, 1024 * sizeof(LaneIn)));\n"
     << "  CHECK(cudaMalloc(&d, 1024 * sizeof(unsigned)));\n"
     << "  CHECK(cudaMalloc(&dh, 1024 * sizeof(unsigned)));\n  CHECK(cudaMalloc(&p, 1024 * "
        "sizeof(unsigned)));\n"
     << "  CHECK(cudaMalloc(&present, 1024 * sizeof(unsigned)));\n"
     << "  static unsigned hd[1024], hdh[1024], hp[1024], hpresent[1024];\n"
     << "  std::printf(\"{\\\"schema\\\":\\\"warpspec-results/1\\\"}\\n\");\n"
     << "  size_t r = 0;\n"
     << "  for (const VectorIn& v : kVectors) {\n"
     << "    if (v.ub) {  // undefined behaviour can hang a GPU: not run\n"
     << "      std::printf(\"{\\\"id\\\":%llu,\\\"skipped\\\":true}\\n\", v.id);\n"
     << "      r += v.rounds;\n      continue;\n    }\n"
     << "    std::printf(\"{\\\"id\\\":%llu,\\\"rounds\\\":[\", v.id);\n"
     << "    for (unsigned k = 0; k < v.rounds; ++k, ++r) {\n"
     << "      const RoundIn& R = kRounds[r];\n"
     << "      CHECK(cudaMemcpy(in, kLanes + R.offset, R.threads * sizeof(LaneIn), "
        "cudaMemcpyHostToDevice));\n"
     << "      CHECK(cudaMemset(present, 0, R.threads * sizeof(unsigned)));\n"
     << "      launch(R.kernel, R.threads, in, d, dh, p, present);\n"
     << "      CHECK(cudaGetLastError());\n      CHECK(cudaDeviceSynchronize());\n"
     << "      CHECK(cudaMemcpy(hd, d, R.threads * sizeof(unsigned), cudaMemcpyDeviceToHost));\n"
     << "      CHECK(cudaMemcpy(hdh, dh, R.threads * sizeof(unsigned), cudaMemcpyDeviceToHost));\n"
     << "      CHECK(cudaMemcpy(hp, p, R.threads * sizeof(unsigned), cudaMemcpyDeviceToHost));\n"
     << "      CHECK(cudaMemcpy(hpresent, present, R.threads * sizeof(unsigned), "
        "cudaMemcpyDeviceToHost));\n"
     << "      std::printf(\"%s{\\\"d\\\":[\", k ? \",\" : \"\");\n"
     << "      for (unsigned t = 0; t < R.threads; ++t)\n"
     << "        !hpresent[t] ? std::printf(\"%snull\", t ? \",\" : \"\")\n"
     << "        : v.wide ? std::printf(\"%s\\\"0x%08x%08x\\\"\", t ? \",\" : \"\", hdh[t], "
        "hd[t])\n"
     << "                 : std::printf(\"%s\\\"0x%08x\\\"\", t ? \",\" : \"\", hd[t]);\n"
     << "      std::printf(\"]\");\n"
     << "      if (v.p) {  // only instructions that write a predicate p report one\n"
     << "        std::printf(\",\\\"p\\\":[\");\n"
     << "        for (unsigned t = 0; t < R.threads; ++t)\n"
     << "          hpresent[t] ? std::printf(\"%s%u\", t ? \",\" : \"\", hp[t]) : "
        "std::printf(\"%snull\", t ? \",\" : \"\");\n"
     << "        std::printf(\"]\");\n"
     << "      }\n"
     << "      std::printf(\"}\");\n"
     << "    }\n"
     << "    std::printf(\"]}\\n\");\n"
     << "  }\n"
     << "  return 0;\n}\n";
  return os.str();
}

}  // namespace warpspec::vectors
