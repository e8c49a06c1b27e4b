// Facts about undefined behaviour: when a warp-synchronous call is free of UB, which lanes UB
// can touch, and how the sm_6x rules only add to it.
#include "checker/laws.hpp"

namespace warpspec::checker::laws {

namespace {

/// One form per warp family whose UB clauses stand for the family's.
constexpr FormId kRepresentatives[] = {FormId::MatchAnyB32, FormId::VoteBallot, FormId::ReduxAddU32,
                                       FormId::BarWarpSync, FormId::ShflIdx};

/// The family's clause ids in the order every warp form lists its UB terms.
struct FamilyClauses {
  spec::ClauseId self, absent, mismatch;
};
FamilyClauses clauses_of(spec::Family f) {
  using C = spec::ClauseId;
  switch (f) {
    case spec::Family::Match:
      return {C::MatchUbSelfNotInMask, C::MatchUbPeerAbsent, C::MatchUbMaskMismatch};
    case spec::Family::Vote:
      return {C::VoteUbSelfNotInMask, C::VoteUbPeerAbsent, C::VoteUbMaskMismatch};
    case spec::Family::Redux:
      return {C::ReduxUbSelfNotInMask, C::ReduxUbPeerAbsent, C::ReduxUbMaskMismatch};
    case spec::Family::Shfl:
      return {C::ShflUbSelfNotInMask, C::ShflUbPeerAbsent, C::ShflUbMaskMismatch};
    default:
      return {C::SyncwarpUbSelfNotInMask, C::SyncwarpUbPeerAbsent, C::SyncwarpUbMaskMismatch};
  }
}

/// The documented condition for a UB-free call, stated lane by lane: each executing lane is in
/// its own mask, and every non-exited lane it names executes with the same mask.
template <class D>
typename D::B well_synchronised(const D& d, const spec::WarpState<D>& s, unsigned i) {
  auto ok = d.bit(s.mask[i], i);
  for (unsigned j = 0; j < spec::kWarpSize; ++j)
    if (j != i)
      ok = ok &&
           implies(d, d.bit(s.mask[i], j) && !s.exited[j], s.exec[j] && s.mask[j] == s.mask[i]);
  return implies(d, s.exec[i] && !s.exited[i], ok);
}

/// Every lane executes (none exited) with the full mask, from call site 0.
template <class E>
void assume_full_converged_warp(E& e) {
  const auto& d = e.d;
  for (unsigned i = 0; i < spec::kWarpSize; ++i) {
    e.assume(e.w0.exec[i] && !e.w0.exited[i]);
    e.assume(e.w0.mask[i] == d.w32(0xffffffffu));
    e.assume(e.w0.site[i] == d.w32(0));
  }
}

}  // namespace

void add_ub_laws(std::vector<Property>& out, const Subject& subject) {
  auto add = [&](std::string name, std::string doc, unsigned uses, auto body) {
    out.push_back(make_property(std::move(name), std::move(doc), uses, body, subject));
  };

  for (auto rep : kRepresentatives) {
    const auto fam = spec::form_info(rep).family;
    const std::string family = fam == spec::Family::WarpBarrier ? "syncwarp"
                               : fam == spec::Family::Shfl      ? "shfl"
                                                           : std::string(spec::family_name(fam));
    add("ub." + family + "_free_iff_well_synchronised",
        "A " + family +
            " call is free of UB exactly when every executing lane is in its own mask "
            "and every non-exited lane named in a mask executes with that same mask.",
        kUsesWarp, [rep](auto& e) {
          const auto& d = e.d;
          auto o = e.eval(instr(rep), e.w0);
          // Lane by lane, which gives the whole-warp statement: no lane has UB exactly when
          // every lane is well synchronised.
          e.claim_lanes("lane", [&](unsigned i) {
            return d.bit(o.ub_lanes(d), i) == !well_synchronised(d, e.w0, i);
          });
        });
  }

  add("ub.same_clauses_across_a_family",
      "Every warp form fires its family's three UB clauses on exactly the lanes its family's "
      "representative does (UB depends on masks and statuses, never on operands or mode).",
      kUsesWarp, [](auto& e) {
        const auto& d = e.d;
        for (auto rep : kRepresentatives) {
          const auto fam = spec::form_info(rep).family;
          const auto c = clauses_of(fam);
          auto r = e.eval(instr(rep), e.w0);
          for (auto f : forms_of(fam)) {
            if (f == rep) continue;
            for (bool neg : {false, true}) {
              if (neg && !spec::form_info(f).negatable) continue;
              auto o = e.eval(instr(f, neg), e.w0);
              e.claim(std::string(spec::form_info(f).name) + (neg ? " !a" : ""),
                      ub_of(d, o, c.self) == ub_of(d, r, c.self) &&
                          ub_of(d, o, c.absent) == ub_of(d, r, c.absent) &&
                          ub_of(d, o, c.mismatch) == ub_of(d, r, c.mismatch));
            }
          }
        }
      });

  add("ub.only_on_executing_lanes",
      "UB clauses only ever fire on lanes that execute the instruction, on every target.",
      kUsesWarp, [](auto& e) {
        const auto& d = e.d;
        for (auto f : warp_forms())
          for (bool pv : {false, true}) {
            auto o = e.eval(instr(f), e.w0, pv);
            e.claim(std::string(spec::form_info(f).name) + (pv ? " sm_6x" : ""),
                    spec::is_zero(d, o.ub_lanes(d) & ~executing_lanes(d, e.w0)));
          }
      });

  add("ub.defined_lane_names_only_partners",
      "If lane i is defined, every non-exited lane named in its mask executes with the same mask.",
      kUsesWarp, [](auto& e) {
        const auto& d = e.d;
        for (auto rep : kRepresentatives) {
          auto o = e.eval(instr(rep), e.w0);
          e.claim_lanes(std::string(spec::form_info(rep).name), [&](unsigned i) {
            auto ok = d.lit(true);
            for (unsigned j = 0; j < spec::kWarpSize; ++j)
              ok = ok && implies(d, d.bit(e.w0.mask[i], j) && !e.w0.exited[j],
                                 e.w0.exec[j] && e.w0.mask[j] == e.w0.mask[i]);
            return implies(d, o.defined(d, i), ok);
          });
        }
      });

  add("ub.full_warp_full_mask_is_free",
      "When all 32 lanes execute with the full mask from one call site, no form has UB on any "
      "target.",
      kUsesWarp, [](auto& e) {
        const auto& d = e.d;
        assume_full_converged_warp(e);
        for (auto f : warp_forms())
          for (bool pv : {false, true})
            e.claim(std::string(spec::form_info(f).name) + (pv ? " sm_6x" : ""),
                    no_ub(d, e.eval(instr(f), e.w0, pv)));
      });

  add("ub.immediate_full_mask_only_risks_absent_peers",
      "With the immediate membermask 0xffffffff, the only UB left is a named lane that neither "
      "executes nor has exited.",
      kUsesWarp, [](auto& e) {
        const auto& d = e.d;
        for (auto rep : kRepresentatives) {
          auto in = instr(rep);
          in.imm_mask = 0xffffffffu;
          auto o = e.eval(in, e.w0);
          const auto c = clauses_of(spec::form_info(rep).family);
          auto absent = d.w32(0);
          for (unsigned j = 0; j < spec::kWarpSize; ++j)
            absent = absent | spec::bit_if(d, !e.w0.exec[j] && !e.w0.exited[j], j);
          e.claim(std::string(spec::form_info(rep).name),
                  spec::is_zero(d, ub_of(d, o, c.self) | ub_of(d, o, c.mismatch)) &&
                      ub_of(d, o, c.absent) ==
                          d.ite(spec::is_zero(d, absent), d.w32(0), executing_lanes(d, e.w0)));
        }
      });

  add("ub.exited_lanes_need_not_arrive",
      "__syncwarp with the full mask is free of UB when every non-exited lane calls it, however "
      "many lanes have exited.",
      kUsesWarp, [](auto& e) {
        const auto& d = e.d;
        for (unsigned i = 0; i < spec::kWarpSize; ++i) {
          e.assume(e.w0.exec[i] || e.w0.exited[i]);
          e.assume(e.w0.mask[i] == d.w32(0xffffffffu));
        }
        e.claim("syncwarp", no_ub(d, e.eval(instr(FormId::BarWarpSync), e.w0)));
      });

  add("ub.sm6x_only_adds_ub",
      "On sm_6x, vote, shfl and __syncwarp fire every UB they fire on later targets, and lanes "
      "still defined there get the same results.",
      kUsesWarp, [](auto& e) {
        const auto& d = e.d;
        for (auto f : warp_forms()) {
          auto fam = spec::form_info(f).family;
          if (fam != spec::Family::Vote && fam != spec::Family::WarpBarrier &&
              fam != spec::Family::Shfl)
            continue;
          auto now = e.eval(instr(f), e.w0, false);
          auto old = e.eval(instr(f), e.w0, true);
          e.claim_lanes(std::string(spec::form_info(f).name), [&](unsigned i) {
            return implies(d, d.bit(now.ub_lanes(d), i), d.bit(old.ub_lanes(d), i)) &&
                   implies(d, old.defined(d, i), now.d[i] == old.d[i]);
          });
        }
      });

  add("ub.sm6x_divergent_call_sites_fire",
      "On sm_6x, a lane whose mask names an executing lane at another call site has vote UB.",
      kUsesWarp, [](auto& e) {
        const auto& d = e.d;
        auto o = e.eval(instr(FormId::VoteAll), e.w0, true);
        auto conv = ub_of(d, o, spec::ClauseId::VoteUbSm6xConvergence);
        e.claim_lanes("convergence", [&](unsigned i) {
          auto diverged = d.lit(false);
          for (unsigned j = 0; j < spec::kWarpSize; ++j)
            if (j != i)
              diverged = diverged || (d.bit(e.w0.mask[i], j) && e.w0.exec[j] && !e.w0.exited[j] &&
                                      e.w0.site[j] != e.w0.site[i]);
          return implies(d, e.w0.exec[i] && !e.w0.exited[i] && diverged, d.bit(conv, i));
        });
      });

  add("ub.inactive_named_lane_fires_peer_absent",
      "A lane whose mask names a lane that neither executes nor has exited has peer-absent UB.",
      kUsesWarp, [](auto& e) {
        const auto& d = e.d;
        for (auto rep : kRepresentatives) {
          auto o = e.eval(instr(rep), e.w0);
          auto absent_ub = ub_of(d, o, clauses_of(spec::form_info(rep).family).absent);
          e.claim_lanes(std::string(spec::form_info(rep).name), [&](unsigned i) {
            auto names_absent = d.lit(false);
            for (unsigned j = 0; j < spec::kWarpSize; ++j)
              names_absent =
                  names_absent || (d.bit(e.w0.mask[i], j) && !e.w0.exec[j] && !e.w0.exited[j]);
            return implies(d, e.w0.exec[i] && !e.w0.exited[i], d.bit(absent_ub, i) == names_absent);
          });
        }
      });

  add("ub.defined_means_executes",
      "A lane whose result is defined executes the instruction (exited and inactive lanes never "
      "get a defined result).",
      kUsesWarp, [](auto& e) {
        const auto& d = e.d;
        for (auto rep : kRepresentatives) {
          auto o = e.eval(instr(rep), e.w0);
          e.claim_lanes(std::string(spec::form_info(rep).name), [&](unsigned i) {
            return implies(d, o.defined(d, i), e.w0.exec[i] && !e.w0.exited[i]);
          });
        }
      });
}

}  // namespace warpspec::checker::laws
