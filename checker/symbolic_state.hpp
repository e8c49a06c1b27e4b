#pragma once
// Symbolic warp and block states: one fresh Z3 constant per lane and field, the constraints that
// make them a well-formed state, and the way back from a Z3 model to a concrete state.
#include <string>

#include "checker/z3_domain.hpp"
#include "model/eval.hpp"
#include "spec/warp_state.hpp"

namespace warpspec::checker {

/// A warp state over the symbolic domain.
using SymWarp = spec::WarpState<Z3Domain>;
/// A block state over the symbolic domain.
using SymCta = spec::CtaState<Z3Domain>;

/// The thread count of the symbolic blocks the block-barrier proofs range over: two warps, so
/// that a barrier spanning warps is covered while the queries stay small.
inline constexpr unsigned kCtaThreads = 40;

/// A warp whose every field is a fresh constant named `<prefix>.<field>[<lane>]`.
SymWarp make_sym_warp(const Z3Domain& d, const std::string& prefix);
/// A block of `threads` threads whose every field is a fresh constant named after `prefix`.
SymCta make_sym_cta(const Z3Domain& d, const std::string& prefix, unsigned threads = kCtaThreads);

/// Well-formedness: a lane is never both executing and exited (exited takes precedence in the
/// semantics, so this only removes duplicate descriptions of one state).
z3::expr well_formed(const Z3Domain& d, const SymWarp& w);
/// Well-formedness of a block: a thread never both arrives and has exited.
z3::expr well_formed(const Z3Domain& d, const SymCta& c);

/// The concrete warp a model assigns to `w` (fields the model leaves free read as 0/false).
model::Warp concretize(const z3::model& m, const SymWarp& w);
/// The concrete block a model assigns to `c`.
model::Cta concretize(const z3::model& m, const SymCta& c);

/// Every constant of `w` equals the corresponding field of `v`: pins a symbolic state to a
/// concrete one (used to replay a concrete state through the symbolic reading).
z3::expr equals(const Z3Domain& d, const SymWarp& w, const model::Warp& v);

}  // namespace warpspec::checker
