// The emitted C++ driver (warpspec vectors --intrinsics, then --emit cpp) run against a CPU
// emulation of the intrinsics written here from the CUDA guide: lanes meet at a rendezvous of the
// non-exited lanes of their membermask (the __syncthreads family: of every non-exited thread),
// then each computes its result from the values of that set. `intrinsic_driver_test BUG` plants
// one bug a CPU emulation is known to have, so that `warpspec check` must find it:
//   none                 the emulation as written
//   with_ub              as written, the votes alone, also running their vectors with undefined
//                        behaviour (which hang: the driver reports them and goes on)
//   float_by_value       __match_*_sync on float/double compares values (+0.0 == -0.0, NaN != NaN)
//   all_exited_false     __all_sync counts the exited lanes of its mask as voting false
//   count_low_byte       __syncthreads_count counts a predicate only when its low byte is set
//   xor_width_ignored    __shfl_xor_sync ignores width: the partner may be in a later group
// and three bugs of the 64-bit shuffle overloads, which move a value as two 32-bit words:
//   wide_low_word_only   only the low word moves (one 32-bit register shuffled): each lane keeps
//                        its own high word
//   wide_high_zero       only the low word moves, through an unsigned: the high word comes back 0
//   wide_high_no_width   the high word's shuffle leaves out the width (it defaults to the whole
//                        warp): that word may come from another lane than the low word
#include WARPSPEC_INTRINSIC_DRIVER

#include <algorithm>
#include <bit>
#include <condition_variable>
#include <cstring>
#include <iostream>
#include <mutex>
#include <string>

namespace ws = warpspec_intrinsics;

namespace {

std::string bug = "none";

// One round's meeting point: each calling lane leaves its value and waits for the others. A
// waiter sleeps on a lane it still misses, so an arrival wakes only the lanes waiting for it
// (one condition for the whole block would wake every waiter at every arrival).
struct Meeting {
  std::mutex m;
  std::condition_variable cv[1024];
  uint64_t value[1024] = {};
  bool arrived[1024] = {};

  void reset() {
    std::lock_guard<std::mutex> g(m);
    std::memset(arrived, 0, sizeof arrived);
  }
  // Leaves `v` and waits until every lane of `who` (a lane set of the round) has arrived.
  void meet(uint64_t v, const std::vector<unsigned>& who) {
    {
      std::lock_guard<std::mutex> g(m);
      value[ws::lane()] = v;
      arrived[ws::lane()] = true;
    }
    cv[ws::lane()].notify_all();
    wait_for(who);
  }
  // Waits until every lane of `who` has arrived (having arrived itself). Lanes tend to arrive
  // in order, so a waiter sleeps on the last lane it misses: woken once, it usually misses none.
  void wait_for(const std::vector<unsigned>& who) {
    std::unique_lock<std::mutex> g(m);
    for (;;) {
      auto missing = std::find_if(who.rbegin(), who.rend(), [&](unsigned j) { return !arrived[j]; });
      if (missing == who.rend()) return;
      const unsigned j = *missing;
      cv[j].wait(g, [&] { return arrived[j]; });
    }
  }
};
// Never destroyed: the lanes of a hung round still wait on it when the program ends.
Meeting& meeting = *new Meeting;

// The non-exited lanes of `mask`.
std::vector<unsigned> members(unsigned mask) {
  std::vector<unsigned> out;
  for (unsigned j = 0; j < 32; ++j)
    if (((mask >> j) & 1u) && !ws::exited(j)) out.push_back(j);
  return out;
}
// Every non-exited thread of the block.
std::vector<unsigned> block() {
  std::vector<unsigned> out;
  for (unsigned t = 0; t < ws::threads(); ++t)
    if (!ws::exited(t)) out.push_back(t);
  return out;
}

template <class T>
uint64_t bits_of(T v) {
  if constexpr (sizeof(T) == 4) {
    uint32_t b;
    std::memcpy(&b, &v, 4);
    return b;
  } else {
    uint64_t b;
    std::memcpy(&b, &v, 8);
    return b;
  }
}

template <class T>
bool same(uint64_t a, uint64_t b) {
  if constexpr (std::is_floating_point_v<T>)
    if (bug == "float_by_value") return ws::bits_to<T>(a) == ws::bits_to<T>(b);
  return a == b;
}

template <class T>
unsigned match_any(unsigned mask, T v) {
  const auto who = members(mask);
  meeting.meet(bits_of(v), who);
  unsigned d = 0;
  for (unsigned j : who)
    if (same<T>(meeting.value[j], bits_of(v))) d |= 1u << j;
  return d;
}

template <class T>
unsigned match_all(unsigned mask, T v, int* pred) {
  const auto who = members(mask);
  meeting.meet(bits_of(v), who);
  unsigned d = 0;
  bool all = true;
  for (unsigned j : who) {
    d |= 1u << j;
    all = all && same<T>(meeting.value[j], meeting.value[who.front()]);
  }
  *pred = all;
  return all ? d : 0;
}

// The votes: `f(true votes, participants)`.
template <class F>
auto vote(unsigned mask, int p, F f) {
  const auto who = members(mask);
  meeting.meet(static_cast<uint32_t>(p), who);
  unsigned yes = 0, part = 0;
  for (unsigned j : who) {
    part |= 1u << j;
    if (static_cast<uint32_t>(meeting.value[j]) != 0) yes |= 1u << j;
  }
  return f(yes, part);
}

template <class T, class F>
T reduce(unsigned mask, T v, F op) {
  const auto who = members(mask);
  meeting.meet(static_cast<uint32_t>(v), who);
  T acc = static_cast<T>(static_cast<uint32_t>(meeting.value[who.front()]));
  for (std::size_t k = 1; k < who.size(); ++k)
    acc = op(acc, static_cast<T>(static_cast<uint32_t>(meeting.value[who[k]])));
  return acc;
}

// The shuffles, as the CUDA guide describes them: the warp is split into groups of `width`
// lanes; __shfl_sync reads lane srcLane modulo width of the caller's group, __shfl_up_sync and
// __shfl_down_sync the lane delta below or above when it is in the group (else the caller's own
// value), __shfl_xor_sync the lane xor laneMask unless that lies in a later group. Like the
// instruction they lower to, they read the lane argument's low five bits.
enum class Shfl { Idx, Up, Down, Xor };

// The lane a shuffle of `kind` reads.
unsigned source(Shfl kind, unsigned b, int width) {
  const unsigned lane = ws::lane(), w = static_cast<unsigned>(width), first = lane & ~(w - 1);
  b &= 31u;
  switch (kind) {
    case Shfl::Idx:
      return first + (b & (w - 1));
    case Shfl::Up:
      return lane - first >= b ? lane - b : lane;
    case Shfl::Down:
      return lane - first + b < w ? lane + b : lane;
    case Shfl::Xor:
      if (bug != "xor_width_ignored" && (lane ^ b) >= first + w) return lane;
      return lane ^ b;
  }
  return lane;
}

// The lanes executing the round.
std::vector<unsigned> executing() {
  std::vector<unsigned> out;
  for (unsigned j = 0; j < 32; ++j)
    if (ws::executes(j)) out.push_back(j);
  return out;
}

template <class T>
T shuffle(Shfl kind, unsigned mask, T v, unsigned b, int width) {
  meeting.meet(bits_of(v), members(mask));
  const uint64_t got = meeting.value[source(kind, b, width)];
  if constexpr (sizeof(T) == 8) {  // the 64-bit overloads: two words
    const uint64_t low = got & 0xffffffffu;
    if (bug == "wide_low_word_only") return ws::bits_to<T>((bits_of(v) & ~0xffffffffull) | low);
    if (bug == "wide_high_zero") return ws::bits_to<T>(low);
    if (bug == "wide_high_no_width") {
      // The whole warp's lanes are read from now on: wait for every lane running the round, so
      // that the word read is this round's.
      meeting.wait_for(executing());
      const uint64_t high = meeting.value[source(kind, b, 32)] >> 32;
      return ws::bits_to<T>(high << 32 | low);
    }
  }
  return ws::bits_to<T>(got);
}

template <class T>
void set_shuffles(ws::Runner& r, auto ws::Runner::*idx, auto ws::Runner::*up,
                  auto ws::Runner::*down, auto ws::Runner::*x) {
  r.*idx = [](unsigned m, T v, int b, int w) { return shuffle(Shfl::Idx, m, v, b, w); };
  r.*up = [](unsigned m, T v, unsigned b, int w) { return shuffle(Shfl::Up, m, v, b, w); };
  r.*down = [](unsigned m, T v, unsigned b, int w) { return shuffle(Shfl::Down, m, v, b, w); };
  r.*x = [](unsigned m, T v, int b, int w) { return shuffle(Shfl::Xor, m, v, b, w); };
}

// The __syncthreads family: `f(count of true predicates, arriving threads)`.
template <class F>
int barrier(int p, F f) {
  const auto who = block();
  meeting.meet(static_cast<uint32_t>(p), who);
  int count = 0;
  for (unsigned t : who) {
    const auto x = static_cast<uint32_t>(meeting.value[t]);
    count += bug == "count_low_byte" ? (x & 0xffu) != 0 : x != 0;
  }
  return f(count, static_cast<int>(who.size()));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1) bug = argv[1];
  ws::Runner r;
  r.before_round = [](const ws::Lane*, unsigned) { meeting.reset(); };
  r.match_any_int = match_any<int>;
  r.match_any_unsigned = match_any<unsigned>;
  r.match_any_long = match_any<long>;
  r.match_any_unsigned_long = match_any<unsigned long>;
  r.match_any_long_long = match_any<long long>;
  r.match_any_unsigned_long_long = match_any<unsigned long long>;
  r.match_any_float = match_any<float>;
  r.match_any_double = match_any<double>;
  r.match_all_int = match_all<int>;
  r.match_all_unsigned = match_all<unsigned>;
  r.match_all_long = match_all<long>;
  r.match_all_unsigned_long = match_all<unsigned long>;
  r.match_all_long_long = match_all<long long>;
  r.match_all_unsigned_long_long = match_all<unsigned long long>;
  r.match_all_float = match_all<float>;
  r.match_all_double = match_all<double>;
  r.all = [](unsigned mask, int p) {
    return vote(mask, p, [mask](unsigned yes, unsigned part) {
      return static_cast<int>(bug == "all_exited_false" ? yes == mask : yes == part);
    });
  };
  r.any = [](unsigned mask, int p) {
    return vote(mask, p, [](unsigned yes, unsigned) { return static_cast<int>(yes != 0); });
  };
  r.uni = [](unsigned mask, int p) {
    return vote(mask, p,
                [](unsigned yes, unsigned part) { return static_cast<int>(yes == 0 || yes == part); });
  };
  r.ballot = [](unsigned mask, int p) {
    return vote(mask, p, [](unsigned yes, unsigned) { return yes; });
  };
  r.reduce_add_int = [](unsigned m, int v) {
    return reduce<int>(m, v, [](int a, int b) {
      return static_cast<int>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
    });
  };
  r.reduce_add_unsigned = [](unsigned m, unsigned v) {
    return reduce<unsigned>(m, v, [](unsigned a, unsigned b) { return a + b; });
  };
  r.reduce_min_int = [](unsigned m, int v) {
    return reduce<int>(m, v, [](int a, int b) { return a < b ? a : b; });
  };
  r.reduce_min_unsigned = [](unsigned m, unsigned v) {
    return reduce<unsigned>(m, v, [](unsigned a, unsigned b) { return a < b ? a : b; });
  };
  r.reduce_max_int = [](unsigned m, int v) {
    return reduce<int>(m, v, [](int a, int b) { return a > b ? a : b; });
  };
  r.reduce_max_unsigned = [](unsigned m, unsigned v) {
    return reduce<unsigned>(m, v, [](unsigned a, unsigned b) { return a > b ? a : b; });
  };
  r.reduce_and_unsigned = [](unsigned m, unsigned v) {
    return reduce<unsigned>(m, v, [](unsigned a, unsigned b) { return a & b; });
  };
  r.reduce_or_unsigned = [](unsigned m, unsigned v) {
    return reduce<unsigned>(m, v, [](unsigned a, unsigned b) { return a | b; });
  };
  r.reduce_xor_unsigned = [](unsigned m, unsigned v) {
    return reduce<unsigned>(m, v, [](unsigned a, unsigned b) { return a ^ b; });
  };
  r.syncwarp = [](unsigned mask) { meeting.meet(0, members(mask)); };
  r.syncthreads = [] { barrier(0, [](int, int) { return 0; }); };
  r.syncthreads_count = [](int p) { return barrier(p, [](int c, int) { return c; }); };
  r.syncthreads_and = [](int p) { return barrier(p, [](int c, int n) { return c == n ? 1 : 0; }); };
  r.syncthreads_or = [](int p) { return barrier(p, [](int c, int) { return c > 0 ? 1 : 0; }); };
  // The lanes that execute the call from the caller's call site run it together (no
  // rendezvous: a query).
  r.activemask = [] {
    unsigned d = 0;
    for (unsigned j = 0; j < 32; ++j)
      if (ws::executes(j) && ws::site(j) == ws::site(ws::lane())) d |= 1u << j;
    return d;
  };
  set_shuffles<int>(r, &ws::Runner::shfl_int, &ws::Runner::shfl_up_int, &ws::Runner::shfl_down_int,
                    &ws::Runner::shfl_xor_int);
  set_shuffles<unsigned>(r, &ws::Runner::shfl_unsigned, &ws::Runner::shfl_up_unsigned,
                         &ws::Runner::shfl_down_unsigned, &ws::Runner::shfl_xor_unsigned);
  set_shuffles<float>(r, &ws::Runner::shfl_float, &ws::Runner::shfl_up_float,
                      &ws::Runner::shfl_down_float, &ws::Runner::shfl_xor_float);
  set_shuffles<long>(r, &ws::Runner::shfl_long, &ws::Runner::shfl_up_long,
                     &ws::Runner::shfl_down_long, &ws::Runner::shfl_xor_long);
  set_shuffles<unsigned long>(
      r, &ws::Runner::shfl_unsigned_long, &ws::Runner::shfl_up_unsigned_long,
      &ws::Runner::shfl_down_unsigned_long, &ws::Runner::shfl_xor_unsigned_long);
  set_shuffles<long long>(r, &ws::Runner::shfl_long_long, &ws::Runner::shfl_up_long_long,
                          &ws::Runner::shfl_down_long_long, &ws::Runner::shfl_xor_long_long);
  set_shuffles<unsigned long long>(
      r, &ws::Runner::shfl_unsigned_long_long, &ws::Runner::shfl_up_unsigned_long_long,
      &ws::Runner::shfl_down_unsigned_long_long, &ws::Runner::shfl_xor_unsigned_long_long);
  set_shuffles<double>(r, &ws::Runner::shfl_double, &ws::Runner::shfl_up_double,
                       &ws::Runner::shfl_down_double, &ws::Runner::shfl_xor_double);
  if (bug == "with_ub") {
    // The votes' vectors the specification leaves undefined run too. They wait for a lane that
    // never comes: the driver must report each such round as hung and go on with fresh threads
    // (each form's undefined vectors come last, before the next form's).
    ws::Runner votes;
    votes.before_round = r.before_round;
    votes.all = r.all;
    votes.any = r.any;
    votes.uni = r.uni;
    votes.ballot = r.ballot;
    votes.run_ub = true;
    votes.timeout = std::chrono::milliseconds(1000);  // five hangs: five seconds
    std::cerr << votes.run(std::cout) << " rounds hung\n";
    return 0;
  }
  return r.run(std::cout) == 0 ? 0 : 3;
}
