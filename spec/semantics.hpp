#pragma once
// One entry point over every warp form: the dispatch reads the catalog's family, never a value.
#include "spec/activemask.hpp"
#include "spec/cta.hpp"
#include "spec/elect.hpp"
#include "spec/match.hpp"
#include "spec/redux.hpp"
#include "spec/shfl.hpp"
#include "spec/sync.hpp"
#include "spec/vote.hpp"

namespace warpspec::spec {

/// Evaluates a warp form on a warp state in domain D. `pre_volta` selects the sm_6x rules.
template <Domain D, int W>
Outcome<D, W> evaluate_warp(const D& d, const Instr& in, const WarpState<D, W>& s, bool pre_volta) {
  switch (form_info(in.form).family) {
    case Family::Match:
      return eval_match(d, in, s);
    case Family::Vote:
      return eval_vote(d, in, s, pre_volta);
    case Family::Redux:
      return eval_redux(d, in, s);
    case Family::WarpBarrier:
      return eval_syncwarp(d, in, s, pre_volta);
    case Family::Activemask:
      return eval_activemask(d, in, s);
    case Family::Shfl:
      return in.wide ? eval_shfl_pair(d, in, s, pre_volta) : eval_shfl(d, in, s, pre_volta);
    case Family::Elect:
      return eval_elect(d, in, s);
    case Family::CtaBarrier:
      break;
  }
  // Block-wide forms are evaluated with eval_cta over a CtaState; reaching here is a caller bug.
  return eval_syncwarp(d, in, s, pre_volta);
}

}  // namespace warpspec::spec
