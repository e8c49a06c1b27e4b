#include "checker/symbolic_state.hpp"

namespace warpspec::checker {

namespace {

std::string field(const std::string& prefix, const char* name, unsigned i) {
  return prefix + "." + name + "[" + std::to_string(i) + "]";
}

bool model_bool(const z3::model& m, const z3::expr& e) {
  return m.eval(e, true).is_true();
}

uint64_t model_word(const z3::model& m, const z3::expr& e) {
  return m.eval(e, true).get_numeral_uint64();
}

}  // namespace

SymWarp make_sym_warp(const Z3Domain& d, const std::string& prefix) {
  auto& c = d.ctx();
  constexpr int W = spec::kWarpSize;
  return SymWarp{
      spec::lanes_of<W>([&](unsigned i) { return c.bool_const(field(prefix, "exec", i).c_str()); }),
      spec::lanes_of<W>(
          [&](unsigned i) { return c.bool_const(field(prefix, "exited", i).c_str()); }),
      spec::lanes_of<W>(
          [&](unsigned i) { return c.bv_const(field(prefix, "mask", i).c_str(), 32); }),
      spec::lanes_of<W>([&](unsigned i) { return c.bv_const(field(prefix, "a", i).c_str(), 64); }),
      spec::lanes_of<W>(
          [&](unsigned i) { return c.bv_const(field(prefix, "site", i).c_str(), 32); }),
      spec::lanes_of<W>([&](unsigned i) { return c.bv_const(field(prefix, "b", i).c_str(), 32); }),
      spec::lanes_of<W>([&](unsigned i) { return c.bv_const(field(prefix, "c", i).c_str(), 32); })};
}

SymCta make_sym_cta(const Z3Domain& d, const std::string& prefix, unsigned threads) {
  auto& c = d.ctx();
  SymCta s;
  for (unsigned t = 0; t < threads; ++t) {
    s.arrive.push_back(c.bool_const(field(prefix, "arrive", t).c_str()));
    s.exited.push_back(c.bool_const(field(prefix, "exited", t).c_str()));
    s.pred.push_back(c.bv_const(field(prefix, "pred", t).c_str(), 32));
    s.bar.push_back(c.bv_const(field(prefix, "bar", t).c_str(), 32));
    s.count.push_back(c.bv_const(field(prefix, "count", t).c_str(), 32));
    s.partner.push_back(c.bool_const(field(prefix, "partner", t).c_str()));
  }
  return s;
}

z3::expr well_formed(const Z3Domain& d, const SymWarp& w) {
  auto ok = d.lit(true);
  for (unsigned i = 0; i < spec::kWarpSize; ++i) ok = ok && !(w.exec[i] && w.exited[i]);
  return ok;
}

z3::expr well_formed(const Z3Domain& d, const SymCta& c) {
  auto ok = d.lit(true);
  for (std::size_t t = 0; t < c.arrive.size(); ++t) ok = ok && !(c.arrive[t] && c.exited[t]);
  return ok;
}

model::Warp concretize(const z3::model& m, const SymWarp& w) {
  model::Warp v{};
  for (unsigned i = 0; i < spec::kWarpSize; ++i) {
    v.exec[i] = model_bool(m, w.exec[i]);
    v.exited[i] = model_bool(m, w.exited[i]);
    v.mask[i] = static_cast<uint32_t>(model_word(m, w.mask[i]));
    v.a[i] = model_word(m, w.a[i]);
    v.site[i] = static_cast<uint32_t>(model_word(m, w.site[i]));
    v.b[i] = static_cast<uint32_t>(model_word(m, w.b[i]));
    v.c[i] = static_cast<uint32_t>(model_word(m, w.c[i]));
  }
  return v;
}

model::Cta concretize(const z3::model& m, const SymCta& c) {
  model::Cta v;
  for (std::size_t t = 0; t < c.arrive.size(); ++t) {
    v.arrive.push_back(model_bool(m, c.arrive[t]));
    v.exited.push_back(model_bool(m, c.exited[t]));
    v.pred.push_back(static_cast<uint32_t>(model_word(m, c.pred[t])));
    v.bar.push_back(static_cast<uint32_t>(model_word(m, c.bar[t])));
    v.count.push_back(static_cast<uint32_t>(model_word(m, c.count[t])));
    v.partner.push_back(model_bool(m, c.partner[t]));
  }
  return v;
}

z3::expr equals(const Z3Domain& d, const SymWarp& w, const model::Warp& v) {
  auto eq = d.lit(true);
  for (unsigned i = 0; i < spec::kWarpSize; ++i) {
    eq = eq && w.exec[i] == d.lit(v.exec[i]) && w.exited[i] == d.lit(v.exited[i]) &&
         w.mask[i] == d.w32(v.mask[i]) && w.a[i] == d.w64(v.a[i]) && w.site[i] == d.w32(v.site[i]);
    // A form without b and c holds them as the literal 0: nothing to pin there.
    if (!w.b[i].is_numeral()) eq = eq && w.b[i] == d.w32(v.b[i]);
    if (!w.c[i].is_numeral()) eq = eq && w.c[i] == d.w32(v.c[i]);
  }
  return eq;
}

}  // namespace warpspec::checker
