// Laws of elect.sync, stated as the text allows any leader: each holds for the model (which
// elects the lowest lane) and for any implementation that elects another lane of the membermask
// consistently, and each fails for an implementation that breaks the rule it names.
#include "checker/laws.hpp"
#include "spec/elect.hpp"

namespace warpspec::checker::laws {

void add_elect_laws(std::vector<Property>& out, const Subject& subject) {
  auto add = [&](const char* name, const char* doc, unsigned uses, auto body) {
    out.push_back(make_property(name, doc, uses, body, subject));
  };
  const auto el = instr(FormId::ElectSync);

  add("elect.leader_is_a_lane_of_the_membermask",
      "On every defined lane, d names a lane of the lane's membermask and p says whether that "
      "lane is the lane itself.",
      kUsesWarp, [el](auto& e) {
        const auto& d = e.d;
        auto r = e.eval(el, e.w0);
        e.claim_lanes("admissible", [&](unsigned i) {
          return implies(d, r.defined(d, i),
                         spec::elect_choice_admissible<std::decay_t<decltype(d)>, spec::kWarpSize>(
                             d, e.w0.mask[i], i, r.d[i], r.p[i]));
        });
      });

  add("elect.one_leader_per_membermask",
      "Every defined lane gets the d of the lowest lane its membermask names: lanes that pass "
      "the same membermask get the same d (one election, one leader).",
      kUsesWarp, [el](auto& e) {
        const auto& d = e.d;
        using D = std::decay_t<decltype(d)>;
        auto r = e.eval(el, e.w0);
        // The d of lane j, for a lane number j below the warp size.
        auto d_of = [&](const typename D::W32& j) {
          auto x = r.d[0];
          for (unsigned k = 1; k < spec::kWarpSize; ++k) x = d.ite(j == d.w32(k), r.d[k], x);
          return x;
        };
        // In a defined round every lane a membermask names executes with it, the lowest one
        // included, so this is the statement about every pair of lanes, 32 claims instead of 496.
        e.claim_lanes("same as the mask's lowest lane", [&](unsigned i) {
          return implies(d, r.defined(d, i),
                         r.d[i] == d_of(spec::lowest_lane<D, spec::kWarpSize>(d, e.w0.mask[i])));
        });
      });

  add("elect.same_membermask_same_leader_in_any_state",
      "A membermask elects the same lane in two unrelated warp states, whatever else runs "
      "beside it (lane 0 of one state and lane 31 of the other, and the same lane of both).",
      kUsesWarp, [el](auto& e) {
        const auto& d = e.d;
        auto r = e.eval(el, e.w0), s = e.eval(el, e.w1);
        const unsigned last = spec::kWarpSize - 1;
        for (auto [i, j] : {std::pair{0u, last}, std::pair{last, 0u}, std::pair{0u, 0u}})
          e.claim("lanes " + std::to_string(i) + "," + std::to_string(j),
                  implies(d, r.defined(d, i) && s.defined(d, j) && e.w0.mask[i] == e.w1.mask[j],
                          r.d[i] == s.d[j]));
      });

  add("elect.ub_free_iff_every_named_lane_runs_it",
      "An elect.sync call is free of UB exactly when every executing lane is in its own mask "
      "and every lane its mask names, exited ones included, executes it with that same mask.",
      kUsesWarp, [el](auto& e) {
        const auto& d = e.d;
        auto o = e.eval(el, e.w0);
        e.claim_lanes("lane", [&](unsigned i) {
          auto ok = d.bit(e.w0.mask[i], i);
          for (unsigned j = 0; j < spec::kWarpSize; ++j)
            if (j != i)
              ok = ok && implies(d, d.bit(e.w0.mask[i], j),
                                 e.w0.exec[j] && !e.w0.exited[j] && e.w0.mask[j] == e.w0.mask[i]);
          const auto runs = e.w0.exec[i] && !e.w0.exited[i];
          return d.bit(o.ub_lanes(d), i) == (runs && !ok);
        });
      });
}

}  // namespace warpspec::checker::laws
