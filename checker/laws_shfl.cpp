// Laws of shfl.sync: what the lane arithmetic does with the intrinsics' encodings, round trips,
// what p says, when d alone is left open, and which bits of b and c count.
#include "checker/laws.hpp"

namespace warpspec::checker::laws {

namespace {

/// The segment widths the intrinsics accept.
constexpr unsigned kWidths[] = {1, 2, 4, 8, 16, 32};

/// c as the CUDA intrinsics encode a width `w` (a power of two): the segment mask 32 - w in
/// c[12:8], and a clamp of 0 for .up and 31 for the other modes.
constexpr uint32_t width_c(FormId f, unsigned w) {
  return ((32u - w) << 8) | (f == FormId::ShflUp ? 0u : 0x1fu);
}

/// The shuffle `f` writing d and p (`d|p`), with b, c and the membermask from the state.
spec::Instr shfl(FormId f) {
  auto in = instr(f);
  in.write_p = true;
  return in;
}

/// The same with the immediate membermask 0xffffffff and, when given, an immediate c.
spec::Instr shfl_full_mask(FormId f, std::optional<uint32_t> c = {}) {
  auto in = shfl(f);
  in.imm_mask = 0xffffffffu;
  in.imm_c = c;
  return in;
}

std::string name_of(FormId f) {
  return std::string(spec::form_info(f).name);
}

/// `s` with every lane executing (none exited): with the full membermask, a warp where every
/// lane's d and p are defined.
template <class D>
spec::WarpState<D> all_executing(const D& d, const spec::WarpState<D>& s) {
  auto t = s;
  for (unsigned j = 0; j < spec::kWarpSize; ++j)
    t.exec[j] = d.lit(true), t.exited[j] = d.lit(false);
  return t;
}

/// `s` with lane 0's b on every lane, as when the offset or source lane is one value.
template <class D>
spec::WarpState<D> one_b(const spec::WarpState<D>& s) {
  auto t = s;
  for (unsigned j = 1; j < spec::kWarpSize; ++j) t.b[j] = s.b[0];
  return t;
}

/// `s` with one b on every lane: lane 0's bits above bit 4, and `low` in bits [4:0]. A law over
/// one b splits into 32 cases, each with a constant offset that the solver settles by
/// propagation; over a symbolic b it would have to reason about xor and sums across lanes.
template <class D>
spec::WarpState<D> one_b_with_low(const D& d, const spec::WarpState<D>& s, unsigned low) {
  auto t = s;
  const auto b = (s.b[0] & d.w32(~0x1fu)) | d.w32(low);
  for (auto& x : t.b) x = b;
  return t;
}

/// `s` with lane 0's c on every lane.
template <class D>
spec::WarpState<D> one_c(const spec::WarpState<D>& s) {
  auto t = s;
  for (unsigned j = 1; j < spec::kWarpSize; ++j) t.c[j] = s.c[0];
  return t;
}

/// `s` with each lane holding its own lane number as a: a shuffle's d then names the lane read.
template <class D>
spec::WarpState<D> lane_numbers(const D& d, const spec::WarpState<D>& s) {
  return with_values(s, [&](unsigned j) { return d.w64(j); });
}

/// A 32-bit word zero-extended to 64 bits: how one shuffle's d becomes the next one's a. The
/// value domain has no widening (no semantics needs one), so each reading supplies its own.
template <class D>
typename D::W64 widen(const D& d, const typename D::W32& x) {
  (void)d;
  if constexpr (std::is_same_v<D, Z3Domain>)
    return z3::zext(x, 32);
  else
    return static_cast<typename D::W64>(x);
}

/// `s` with each lane holding its own lane bit as a: a shuffle's d then names the lane read by
/// its one set bit, whose test needs no comparison of lane numbers.
template <class D>
spec::WarpState<D> lane_bits(const D& d, const spec::WarpState<D>& s) {
  return with_values(s, [&](unsigned j) { return d.w64(uint64_t{1} << j); });
}

/// `s` with each lane's a replaced by its d in `o`: the second shuffle of a round trip.
template <class D>
spec::WarpState<D> values_from(const D& d, const spec::WarpState<D>& s, const spec::Outcome<D>& o) {
  return with_values(s, [&](unsigned j) { return widen(d, o.d[j]); });
}

/// The conjunction of `terms`, as a balanced tree: Z3 takes seconds to free a left-leaning chain
/// of a few thousand `&&`, and no time to free a tree of the same terms.
template <class D>
typename D::B conjunction(const D& d, std::vector<typename D::B> terms) {
  if (terms.empty()) return d.lit(true);
  while (terms.size() > 1) {
    std::vector<typename D::B> next;
    for (std::size_t j = 0; j + 1 < terms.size(); j += 2) next.push_back(terms[j] && terms[j + 1]);
    if (terms.size() % 2) next.push_back(terms.back());
    terms = std::move(next);
  }
  return terms.front();
}

/// Claims `f(lane)` of every lane as one obligation: the laws that split over b ask one query per
/// value of b, which bit-blasts the warp's lane arithmetic once, rather than one per lane.
template <class E, class F>
void claim_every_lane(E& e, const std::string& label, F&& f) {
  std::vector<typename E::B> lanes;
  for (unsigned i = 0; i < spec::kWarpSize; ++i) lanes.push_back(f(i));
  e.claim(label, conjunction(e.d, std::move(lanes)));
}

}  // namespace

void add_shfl_laws(std::vector<Property>& out, const Subject& subject) {
  auto add = [&](const char* name, const char* doc, unsigned uses, auto body) {
    out.push_back(make_property(name, doc, uses, body, subject));
  };

  add("shfl.idx_reads_lane_b_of_each_segment",
      "With one b on every lane, every lane executing, the full membermask and c encoding a width "
      "w as __shfl_sync does (w = 1, 2, 4, ..., 32), shfl.idx gives every lane, with p true and d "
      "defined, the value of lane b mod w of its own w-lane segment; with w = 32 (c = 0x1f) that "
      "broadcasts lane b mod 32 to the whole warp.",
      kUsesWarp, [](auto& e) {
        const auto& d = e.d;
        using B = typename std::decay_t<decltype(e)>::B;
        const auto s = one_b(all_executing(d, e.w0));
        for (unsigned w : kWidths) {
          auto r = e.eval(shfl_full_mask(FormId::ShflIdx, width_c(FormId::ShflIdx, w)), s);
          e.claim_lanes("width " + std::to_string(w), [&](unsigned i) {
            std::vector<B> ok{r.p[i], r.d_defined(d, i)};
            const unsigned first = i & ~(w - 1);
            for (unsigned k = 0; k < w; ++k)
              ok.push_back(implies(d, (s.b[0] & d.w32(w - 1)) == d.w32(k),
                                   r.d[i] == d.lo32(s.a[first + k])));
            return conjunction(d, std::move(ok));
          });
        }
      });

  add("shfl.bfly_twice_gives_back_own_value",
      "Every lane executing with the full membermask and one b and c on every lane, shfl.bfly "
      "applied twice reads every lane back from itself, except a lane whose p is true while its "
      "partner's (lane xor b) is false (shown with each lane holding its lane number; values "
      "follow lane numbers by shfl.d_depends_only_on_the_lane_read). With c encoding a width w as "
      "__shfl_xor_sync does and b mod 32 below w, p is true and any value comes back on every "
      "lane.",
      kUsesWarp, [](auto& e) {
        const auto& d = e.d;
        using B = typename std::decay_t<decltype(e)>::B;
        const auto bfly = FormId::ShflBfly;
        const auto full = all_executing(d, e.w0);
        const auto numbered = lane_numbers(d, one_c(full));
        for (unsigned k = 0; k < spec::kWarpSize; ++k) {
          const auto s = one_b_with_low(d, numbered, k);
          auto r1 = e.eval(shfl_full_mask(bfly), s);
          auto r2 = e.eval(shfl_full_mask(bfly), values_from(d, s, r1));
          claim_every_lane(e, "any c, b mod 32 = " + std::to_string(k), [&](unsigned i) {
            return implies(d, !(r1.p[i] && !r1.p[i ^ k]), r2.d[i] == d.w32(i));
          });
        }
        for (unsigned w : kWidths) {
          const auto in = shfl_full_mask(bfly, width_c(bfly, w));
          std::vector<B> back;
          for (unsigned k = 0; k < w; ++k) {
            const auto s = one_b_with_low(d, full, k);
            auto r1 = e.eval(in, s);
            auto r2 = e.eval(in, values_from(d, s, r1));
            for (unsigned i = 0; i < spec::kWarpSize; ++i)
              back.push_back(r1.p[i] && r2.d[i] == d.lo32(s.a[i]));
          }
          e.claim("width " + std::to_string(w) + ", b mod 32 below it",
                  conjunction(d, std::move(back)));
        }
      });

  add("shfl.down_and_up_by_one_b_undo_each_other",
      "Every lane executing with the full membermask and one b on every lane (any c, each lane "
      "its own, and another c for the second shuffle), shfl.down then shfl.up by b, and shfl.up "
      "then shfl.down by b, read a lane back from itself whenever both reads were in range: the "
      "lane's own second read, and the first read of the lane it read (shown with each lane "
      "holding its lane number; values follow lane numbers by "
      "shfl.d_depends_only_on_the_lane_read).",
      kUsesWarp | kUsesTwoWarps, [](auto& e) {
        const auto& d = e.d;
        using B = typename std::decay_t<decltype(e)>::B;
        const auto numbered = lane_numbers(d, all_executing(d, e.w0));
        for (unsigned k = 0; k < spec::kWarpSize; ++k) {
          const auto s = one_b_with_low(d, numbered, k);
          auto s_up = s;
          for (unsigned j = 0; j < spec::kWarpSize; ++j) s_up.c[j] = e.w1.c[j];
          const auto offset = ", b mod 32 = " + std::to_string(k);
          auto down = e.eval(shfl_full_mask(FormId::ShflDown), s);
          auto up = e.eval(shfl_full_mask(FormId::ShflUp), values_from(d, s_up, down));
          // Lane i's up reads lane i - k, whose down read lane i.
          std::vector<B> down_up;
          for (unsigned i = k; i < spec::kWarpSize; ++i)
            down_up.push_back(implies(d, up.p[i] && down.p[i - k], up.d[i] == d.w32(i)));
          e.claim("down then up" + offset, conjunction(d, std::move(down_up)));
          auto up1 = e.eval(shfl_full_mask(FormId::ShflUp), s_up);
          auto down2 = e.eval(shfl_full_mask(FormId::ShflDown), values_from(d, s, up1));
          // Lane i's down reads lane i + k, whose up read lane i.
          std::vector<B> up_down;
          for (unsigned i = 0; i + k < spec::kWarpSize; ++i)
            up_down.push_back(implies(d, down2.p[i] && up1.p[i + k], down2.d[i] == d.w32(i)));
          e.claim("up then down" + offset, conjunction(d, std::move(up_down)));
        }
      });

  add("shfl.p_false_means_reading_itself",
      "Every lane executing with the full membermask, any b and c: a lane whose p is false gets "
      "its own value; for .up, .down and .bfly with b mod 32 non-zero, p is true exactly when the "
      "lane gets another lane's value, and with b mod 32 = 0 every lane gets its own value "
      "whatever p says (c alone decides p then).",
      kUsesWarp, [](auto& e) {
        const auto& d = e.d;
        const auto s = lane_numbers(d, all_executing(d, e.w0));
        for (auto f : forms_of(spec::Family::Shfl)) {
          auto r = e.eval(shfl_full_mask(f), s);
          e.claim_lanes(name_of(f), [&](unsigned i) {
            const auto own = r.d[i] == d.w32(i);
            auto ok = implies(d, !r.p[i], own);
            if (f != FormId::ShflIdx) {
              const auto offset = s.b[i] & d.w32(0x1f);
              ok = ok && implies(d, offset != d.w32(0), r.p[i] == !own) &&
                   implies(d, offset == d.w32(0), own);
            }
            return ok;
          });
        }
      });

  add("shfl.width_keeps_reads_within_the_segment",
      "Every lane executing with the full membermask, any b on each lane, and c encoding a width w "
      "as the intrinsics do (w = 1, 2, 4, ..., 32; clamp 0 for .up, 31 otherwise): .up, .down and "
      ".idx read a lane of the reader's own w-lane segment, .idx always with p true; .bfly reads "
      "its own segment or a lower one, never a higher one.",
      kUsesWarp, [](auto& e) {
        const auto& d = e.d;
        const auto s = lane_numbers(d, all_executing(d, e.w0));
        for (auto f : forms_of(spec::Family::Shfl))
          for (unsigned w : kWidths) {
            auto r = e.eval(shfl_full_mask(f, width_c(f, w)), s);
            const auto seg = d.w32(32 - w);
            e.claim_lanes(name_of(f) + " width " + std::to_string(w), [&](unsigned i) {
              const auto theirs = r.d[i] & seg, mine = d.w32(i & (32 - w));
              if (f == FormId::ShflBfly) return !d.ult(mine, theirs);
              if (f == FormId::ShflIdx) return theirs == mine && r.p[i];
              return theirs == mine;
            });
          }
      });

  add("shfl.d_left_open_only_when_reading_an_absent_or_unnamed_lane",
      "On a lane that executes and is in its own membermask, shfl.source_undefined leaves d open "
      "exactly when the lane read does not execute the shuffle or is not in the reader's "
      "membermask; it is then another lane, read in range (p true): a lane that reads itself, in "
      "range or not, never has its d left open.",
      kUsesWarp, [](auto& e) {
        const auto& d = e.d;
        const auto s = lane_numbers(d, e.w0);
        for (auto f : forms_of(spec::Family::Shfl)) {
          auto r = e.eval(shfl(f), s);
          const auto open = r.loose_d_lanes(d);
          e.claim_lanes(name_of(f), [&](unsigned i) {
            auto unreadable = d.lit(false);
            for (unsigned k = 0; k < spec::kWarpSize; ++k)
              unreadable = unreadable || (r.d[i] == d.w32(k) &&
                                          !(s.exec[k] && !s.exited[k] && d.bit(s.mask[i], k)));
            const auto is_open = d.bit(open, i);
            return implies(
                d, takes_part(d, s, i),
                is_open == unreadable && implies(d, is_open, r.p[i] && r.d[i] != d.w32(i)));
          });
        }
      });

  add("shfl.ignores_b_above_bit_4_and_c_outside_its_fields",
      "Changing b's bits above bit 4, or c's bits outside [4:0] and [12:8], on any lanes changes "
      "no shuffle's d, p or d-definedness on any lane.",
      kUsesWarp | kUsesTwoWarps, [](auto& e) {
        const auto& d = e.d;
        auto t = e.w0;
        for (unsigned j = 0; j < spec::kWarpSize; ++j) {
          t.b[j] = (e.w0.b[j] & d.w32(0x1f)) | (e.w1.b[j] & d.w32(~0x1fu));
          t.c[j] = (e.w0.c[j] & d.w32(0x1f1f)) | (e.w1.c[j] & d.w32(~0x1f1fu));
        }
        for (auto f : forms_of(spec::Family::Shfl)) {
          auto r = e.eval(shfl(f), e.w0), q = e.eval(shfl(f), t);
          e.claim_lanes(name_of(f), [&](unsigned i) {
            return r.d[i] == q.d[i] && r.p[i] == q.p[i] && r.d_defined(d, i) == q.d_defined(d, i);
          });
        }
      });

  add("shfl.d_depends_only_on_the_lane_read",
      "Every lane reads exactly one lane (with each lane holding its own lane bit as a, every d "
      "has one bit set), and changing one lane's a changes d only on the lanes that read that "
      "lane: no other lane's value reaches a lane's d, defined or not.",
      kUsesWarp | kUsesTwoWarps, [](auto& e) {
        const auto& d = e.d;
        using B = typename std::decay_t<decltype(e)>::B;
        for (auto f : forms_of(spec::Family::Shfl)) {
          auto r = e.eval(shfl(f), e.w0);
          auto which = e.eval(shfl(f), lane_bits(d, e.w0));
          claim_every_lane(e, name_of(f) + ", one lane read", [&](unsigned i) {
            const auto x = which.d[i];
            return x != d.w32(0) && (x & (x + d.w32(0xffffffffu))) == d.w32(0);
          });
          std::vector<B> unchanged;
          for (unsigned k = 0; k < spec::kWarpSize; ++k) {
            auto t = e.w0;
            t.a[k] = e.w1.a[k];
            auto q = e.eval(shfl(f), t);
            for (unsigned i = 0; i < spec::kWarpSize; ++i)
              unchanged.push_back(d.bit(which.d[i], k) || q.d[i] == r.d[i]);
          }
          e.claim(name_of(f) + ", one lane's a changed", conjunction(d, std::move(unchanged)));
        }
      });

  add("shfl.full_warp_defines_every_d",
      "On sm_70 and later, when every lane executes with the full membermask, no shuffle has UB "
      "and every lane's d and p are defined, whatever b and c each lane passes.",
      kUsesWarp, [](auto& e) {
        const auto& d = e.d;
        auto s = all_executing(d, e.w0);
        for (unsigned j = 0; j < spec::kWarpSize; ++j) s.mask[j] = d.w32(0xffffffffu);
        for (auto f : forms_of(spec::Family::Shfl)) {
          auto r = e.eval(shfl(f), s);
          e.claim(name_of(f) + " no UB", no_ub(d, r));
          e.claim_lanes(name_of(f), [&](unsigned i) { return r.d_defined(d, i); });
        }
      });

  add("shfl.offset_modes_are_idx_of_the_computed_lane",
      "Every lane executing with the full membermask and c covering the whole warp (0 for .up, "
      "0x1f otherwise): where p is true, shfl.down, shfl.up and shfl.bfly by b give each lane the "
      "value shfl.idx gives when that lane passes lane + b, lane - b or lane xor b as its b.",
      kUsesWarp, [](auto& e) {
        const auto& d = e.d;
        const auto s = all_executing(d, e.w0);
        auto idx_of = [&](auto lane_of) {
          auto t = s;
          for (unsigned j = 0; j < spec::kWarpSize; ++j) t.b[j] = lane_of(j);
          return e.eval(shfl_full_mask(FormId::ShflIdx, 0x1f), t);
        };
        for (auto f : {FormId::ShflDown, FormId::ShflUp, FormId::ShflBfly}) {
          auto r = e.eval(shfl_full_mask(f, width_c(f, 32)), s);
          auto x = idx_of([&](unsigned j) {
            const auto lane = d.w32(j), off = s.b[j] & d.w32(0x1f);
            if (f == FormId::ShflDown) return lane + off;
            if (f == FormId::ShflUp) return lane + (~off + d.w32(1));
            return lane ^ off;
          });
          e.claim_lanes(name_of(f),
                        [&](unsigned i) { return implies(d, r.p[i], r.d[i] == x.d[i]); });
        }
      });
}

}  // namespace warpspec::checker::laws
