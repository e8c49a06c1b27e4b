// Laws of activemask: who it names, that lanes running it together agree, and what it ignores.
#include "checker/laws.hpp"

namespace warpspec::checker::laws {

void add_activemask_laws(std::vector<Property>& out, const Subject& subject) {
  auto add = [&](const char* name, const char* doc, unsigned uses, auto body) {
    out.push_back(make_property(name, doc, uses, body, subject));
  };
  const auto am = instr(FormId::Activemask);

  add("activemask.names_itself_and_only_executing_lanes",
      "Every lane executing activemask finds its own bit set, and no bit of a lane that has "
      "exited or does not execute it.",
      kUsesWarp, [am](auto& e) {
        const auto& d = e.d;
        auto r = e.eval(am, e.w0);
        const auto execs = executing_lanes(d, e.w0);
        e.claim_lanes("names", [&](unsigned i) {
          return implies(d, r.executes[i], d.bit(r.d[i], i) && spec::is_zero(d, r.d[i] & ~execs));
        });
      });

  add("activemask.one_word_per_call_site",
      "Two lanes executing activemask from one call site get one word, and a lane never names an "
      "executing lane of another call site (every pair of lanes).",
      kUsesWarp, [am](auto& e) {
        const auto& d = e.d;
        auto r = e.eval(am, e.w0);
        for (unsigned i = 0; i < spec::kWarpSize; ++i)
          for (unsigned j = i + 1; j < spec::kWarpSize; ++j) {
            const auto both = r.executes[i] && r.executes[j];
            const auto same = e.w0.site[i] == e.w0.site[j];
            // Under one site, lane j's word is lane i's with site j read as site i.
            e.claim(
                "one word (lane " + std::to_string(i) + "," + std::to_string(j) + ")",
                implies(d, both && same, e.rewrite(r.d[j], e.w0.site[j], e.w0.site[i]) == r.d[i]));
            // Under two sites, lane j is not in lane i's word.
            e.claim("apart (lane " + std::to_string(i) + "," + std::to_string(j) + ")",
                    implies(d, both && !same, !d.bit(r.d[i], j)));
          }
      });

  add("activemask.ignores_masks_and_operands",
      "activemask reads neither membermasks nor operands: giving every lane another mask and "
      "operand changes no lane's answer, and no lane's answer is ever undefined.",
      kUsesWarp, [am](auto& e) {
        const auto& d = e.d;
        auto other = e.w0;
        for (unsigned i = 0; i < spec::kWarpSize; ++i) {
          other.mask[i] = e.w1.mask[i];
          other.a[i] = e.w1.a[i];
        }
        auto r = e.eval(am, e.w0), s = e.eval(am, other);
        e.claim_lanes("ignores", [&](unsigned i) {
          return implies(d, r.executes[i], r.d[i] == s.d[i] && r.defined(d, i));
        });
      });
}

}  // namespace warpspec::checker::laws
