#pragma once
// The step semantics of one thread block running a Program under independent thread scheduling
// (sm_70 and later). Each thread has its own program counter and registers. Thread-local
// instructions and memory accesses run eagerly; the scheduler's remaining freedom is explicit
// data (a Choice): which threads meet at a warp collective, and which threads of a warp read
// __activemask() together. Every collective's result comes from the per-instruction model
// (model::evaluate, model::evaluate_cta), so one definition serves single instructions and
// programs.
//
// Memory accesses between two synchronisations are run in one order. That loses nothing where
// the program is free of data races: then every order of them gives the same state. Races are
// found with happens-before clocks (only bar.warp.sync and the block barriers order memory), and
// a race ends its path as a finding.
#include <array>
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "programs/program.hpp"
#include "programs/terms.hpp"
#include "spec/target.hpp"

namespace warpspec::programs {

/// A kernel parameter's value at launch.
struct ParamValue {
  bool is_buffer = false;
  uint64_t value = 0;           ///< scalars
  std::vector<uint32_t> words;  ///< buffers: their initial 32-bit words
};

/// A one-block launch.
struct Launch {
  unsigned threads = 32;  ///< block size, 1 to 1024
  spec::Target target = spec::kDefaultTarget;
  std::vector<ParamValue> params;  ///< one per Program::params, in order
  /// When set, the parameters it names as unknown (Terms::input) are tracked through terms, and
  /// every decision a walk takes on them is pinned there (terms.hpp).
  std::shared_ptr<Terms> terms;
};

/// The program-level clauses: what the per-instruction model cannot see on its own.
enum class ProgramClause : uint8_t {
  CollectivePeerElsewhere,  ///< a collective's membermask names a thread that waits elsewhere
  BarrierNeverCompletes,    ///< threads wait at a block barrier the rest of the block never reaches
  BarrierDivergent,         ///< a barrier without a thread count reached through different
                            ///< instructions: not a block-uniform condition
  DataRace,                 ///< conflicting accesses not ordered by a barrier
  UndefinedControl,         ///< a guard, an address, a membermask or a barrier operand is an
                            ///< undefined value
  BadAddress,               ///< an access outside every buffer and the shared window
  RunsAway,                 ///< a thread runs too long without reaching a synchronisation
  Unavailable,              ///< a collective the target does not have
};

/// Every program clause, in the order above.
inline constexpr ProgramClause kProgramClauses[] = {ProgramClause::CollectivePeerElsewhere,
                                                    ProgramClause::BarrierNeverCompletes,
                                                    ProgramClause::BarrierDivergent,
                                                    ProgramClause::DataRace,
                                                    ProgramClause::UndefinedControl,
                                                    ProgramClause::BadAddress,
                                                    ProgramClause::RunsAway,
                                                    ProgramClause::Unavailable};
static_assert(std::size(kProgramClauses) ==
                  static_cast<std::size_t>(ProgramClause::Unavailable) + 1,
              "every program clause is listed");

/// The program clause whose key is `key`, if any.
std::optional<ProgramClause> find_program_clause(std::string_view key);

/// "program.data_race" and the like.
std::string_view clause_key(ProgramClause c);
/// True for the keys of undefined behaviour: every catalog clause a finding carries, and the
/// program clauses but a data race (defined, if weak, in the PTX memory model), a barrier with a
/// thread count that never completes (a hang, not undefined), and a thread that runs away.
bool is_undefined(std::string_view key);
/// One line in our words.
std::string_view clause_text(ProgramClause c);

/// Thread status.
/// AtBarrier: stands before a block barrier with a thread count, not yet counted: which warps
/// fill a counted phase depends on the order they arrive in, and that order is the scheduler's
/// choice (Choice::Kind::Arrive).
enum class Status : uint8_t { Runs, Waits, Exited, AtBarrier };

/// Thread::owes when the thread owes no barrier.
inline constexpr uint32_t kOwesNothing = UINT32_MAX;

namespace detail {
/// Blocks of `bytes` bytes, kept by the thread that freed them for its next request of that
/// size: a walk clones and drops the same few sizes of state parts on every step, which the
/// general allocator serves slowly above its small-block caches. (Blocks go straight to the
/// general allocator under AddressSanitizer, which then sees every use after a free.)
void* pool_allocate(std::size_t bytes);
void pool_free(void* block, std::size_t bytes) noexcept;

/// A std::allocator through the pool, for the per-thread register files.
template <class T>
struct PoolAllocator {
  using value_type = T;
  PoolAllocator() = default;
  template <class U>
  PoolAllocator(const PoolAllocator<U>&) {}  // NOLINT: rebinding
  T* allocate(std::size_t n) { return static_cast<T*>(pool_allocate(n * sizeof(T))); }
  void deallocate(T* p, std::size_t n) noexcept { pool_free(p, n * sizeof(T)); }
  bool operator==(const PoolAllocator&) const { return true; }
};
}  // namespace detail

/// A part of a state that states share until one of them changes it (copy on write): copying a
/// state copies one pointer per thread and buffer, and a step clones only what it changes. The
/// part's digest is kept once taken, until the part is changed. The count of sharers is a plain
/// integer, not an atomic one (a state is copied and dropped on every step of a walk): states
/// that share parts must stay on one thread.
template <class T>
class Shared {
 public:
  Shared() : cell_(new Cell{}) {}
  explicit Shared(T value) : cell_(new Cell{std::move(value)}) {}
  Shared(const Shared& o) : cell_(o.cell_) { ++cell_->sharers; }
  Shared(Shared&& o) noexcept : cell_(o.cell_) { o.cell_ = nullptr; }
  Shared& operator=(Shared o) noexcept {
    std::swap(cell_, o.cell_);
    return *this;
  }
  ~Shared() {
    if (cell_ && --cell_->sharers == 0) delete cell_;
  }
  const T& operator*() const { return cell_->value; }
  const T* operator->() const { return &cell_->value; }
  operator const T&() const { return cell_->value; }  // NOLINT: reads see the value
  /// The value to change: cloned first where another state shares it; forgets the digest.
  T& mut() {
    if (cell_->sharers > 1) {
      Cell* own = new Cell{cell_->value};  // first: a copy that throws leaves the count as it was
      --cell_->sharers;
      cell_ = own;
    }
    cell_->hashed = false;
    return cell_->value;
  }
  /// `hash(value)`, computed once per version of the value.
  template <class F>
  uint64_t digest(F&& hash) const {
    if (!cell_->hashed) {
      cell_->hash = hash(cell_->value);
      cell_->hashed = true;
    }
    return cell_->hash;
  }
  bool operator==(const Shared& o) const { return cell_ == o.cell_ || **this == *o; }

 private:
  struct Cell {
    T value;
    mutable uint64_t hash = 0;
    mutable bool hashed = false;
    uint32_t sharers = 1;
    static void* operator new(std::size_t bytes) { return detail::pool_allocate(bytes); }
    static void operator delete(void* p, std::size_t bytes) { detail::pool_free(p, bytes); }
  };
  Cell* cell_;
};

/// One thread: program counter, registers and their defined flags, happens-before clock.
struct Thread {
  uint32_t pc = 0;
  Status status = Status::Runs;
  std::vector<uint64_t, detail::PoolAllocator<uint64_t>> regs;
  std::vector<uint8_t, detail::PoolAllocator<uint8_t>> undef;  ///< 1 where the register holds
                                                               ///< an undefined value
  /// Vector clock over the block's threads; only synchronisation changes it, so the states and
  /// barrier arrivals that hold it unchanged share it.
  Shared<std::vector<uint32_t>> clock;
  /// The conditional branches the thread took since it last executed a collective: threads
  /// with the same path are the ones a scheduler most plausibly keeps together.
  uint64_t path = 0;
  /// The .aligned barrier (its pc) that warp-mates stood waiting at while this thread executed a
  /// warp collective: the warp was split at that barrier, and this thread must come to the same
  /// instruction before it exits or arrives at another barrier. kOwesNothing when none.
  uint32_t owes = kOwesNothing;
  /// Per register, its term over the unknown inputs (terms.hpp); empty when there are none.
  std::vector<uint32_t> terms;
};

/// Per byte of memory: the last write and the reads since it, as (thread, clock) epochs.
struct Epoch {
  uint32_t thread = 0, clock = 0;
  uint32_t pc = 0;      ///< the instruction that made the access
  bool strong = false;  ///< made by ld/st.volatile
  bool operator==(const Epoch&) const = default;
};
struct AccessLog {
  std::optional<Epoch> write;
  std::vector<Epoch> reads;
  bool operator==(const AccessLog&) const = default;
};

/// The access logs of a buffer's bytes, kBytes of them: the part of the log a step clones when it
/// accesses one of them.
struct LogPage {
  static constexpr std::size_t kBytes = 64;
  std::array<AccessLog, kBytes> at;
  bool operator==(const LogPage&) const = default;
};

/// One buffer's bytes and their defined flags.
struct Buffer {
  std::vector<uint8_t> bytes, undef;
  std::vector<Shared<LogPage>> log;  ///< byte k's log: log[k / LogPage::kBytes]->at[k % kBytes]
  /// Per byte, its term over the unknown inputs (terms.hpp); empty while every byte is known.
  std::vector<uint32_t> terms;
  bool operator==(const Buffer&) const = default;
};

/// A finding on a path: a catalog clause (per-instruction UB) or a program clause.
struct Finding {
  std::string key;   ///< "shfl.ub.peer_absent", "program.data_race", ...
  std::string text;  ///< one line: what happened, on which threads, where
  std::vector<unsigned> threads;
  std::vector<SourceLoc> where;  ///< the instructions involved
};

/// A thread counted in a barrier's open phase: where it arrived and the operands it gave then
/// (a thread that arrived through bar.arrive has moved on since).
struct Arrival {
  unsigned thread = 0;
  uint32_t pc = 0;
  uint32_t bar = 0, count = 0, pred = 0;
  bool counted = false;  ///< the instruction writes a thread count
  /// The thread's clock when it arrived: what it releases (shared by the states that hold the
  /// arrival, which never change it).
  Shared<std::vector<uint32_t>> clock;
  bool operator==(const Arrival&) const = default;
};

/// One path of a warp in the lockstep reading (sm_6x): the lanes on it, where they are, and
/// where they meet the lanes the branch split from them (UINT32_MAX for the whole warp's path).
struct PathEntry {
  uint32_t pc = 0, rpc = 0, mask = 0;
  bool arrived = false;    ///< its lanes stand counted at the block barrier at `pc`
  bool unordered = false;  ///< one of the two sides of a split whose order is still to choose
  bool operator==(const PathEntry&) const = default;
};

/// Facts of a kernel found before it runs (cfg.hpp), for a walk under independent scheduling.
struct KernelFacts {
  /// Per pc, the registers a thread standing there may still read (`live_registers`; the last
  /// entry for exited threads): the digest and `same_state` look at those only, as no later step
  /// can tell the others apart. Every state of one walk has the same table, since a thread's
  /// digest, once taken, is kept by all the states that share the thread.
  std::vector<std::vector<uint32_t>> live;
  /// Per pc, the `activemask` instructions a thread standing there may still come to.
  std::vector<std::vector<uint32_t>> ahead;
  /// After each `activemask` (at its pc + 1; empty elsewhere), the first `.aligned` block
  /// barriers the paths from there come to (where warp-mates that run a collective meanwhile
  /// come to owe it), `first_reached`.
  std::vector<std::vector<uint32_t>> barriers_next;
};

/// The state of the block.
struct Machine {
  std::vector<uint64_t> params;       ///< the parameter space: scalars, and buffers' addresses
  std::vector<uint32_t> param_terms;  ///< per parameter, its term (terms.hpp); empty: none
  std::vector<Shared<Thread>> threads;
  std::vector<Shared<Buffer>> buffers;  ///< [0] the shared window, then one per buffer parameter
  /// Per barrier number: the threads counted in its open phase, in arrival order.
  std::vector<Shared<std::vector<Arrival>>> phase;
  std::optional<Finding> stop;  ///< the path ended on this finding
  /// Lockstep only: a phase of a barrier with a thread count completed while other live threads
  /// could still have come to it: the warps that formed it were taken in the order the threads
  /// ran, one of several orders. (Under independent scheduling the order is a choice.)
  bool one_order = false;
  /// Volatile accesses to one byte that nothing orders were made: not a data race in the PTX
  /// memory model, but each order of them may give another result, and one order was taken.
  bool strong_order = false;
  /// Lockstep only: per warp, its paths, the running one last.
  std::vector<std::vector<PathEntry>> stacks;
  /// Lockstep only: where the lanes each branch splits meet again (cfg.hpp), shared by states.
  std::shared_ptr<const std::vector<uint32_t>> reconverge;
  /// What the explorer knows of the kernel before running it, shared by the states of a walk.
  std::shared_ptr<const KernelFacts> facts;
  /// Instructions the threads have executed on the path to this state (not part of the state).
  uint64_t steps = 0;
  /// When set, each thread's executed instructions are appended here, as runs of consecutive
  /// pcs [first, last]: a replay of a schedule for a printed trace (not part of the state).
  std::shared_ptr<std::vector<std::vector<std::pair<uint32_t, uint32_t>>>> trace;
};

/// What the scheduler may choose in a state.
struct Choice {
  enum class Kind : uint8_t {
    Collective,  ///< `threads` execute a warp collective together
    Activemask,  ///< `threads` read __activemask together
    PathOrder,   ///< lockstep: of a split branch's two sides, the one `threads` are on runs first
    Arrive,      ///< `threads` (of one warp) arrive at the counted barrier they stand before
  } kind = Kind::Collective;
  std::vector<unsigned> threads;
  /// Where set, `threads` act as these groups in turn, each together: for an activemask, every
  /// thread standing at it reads it, each group its own value; for collectives, groups that
  /// overlap no other group, each at its own instruction.
  std::vector<std::vector<unsigned>> parts;
};

/// One step of a printed schedule: the instruction, its line and who executes it together,
/// e.g. "line 38 (vote.sync.ballot.b32 %r15, %p2, %r8): threads 1-4,6 together".
std::string describe(const Program& p, const Machine& m, const Choice& c);

/// Builds the start state; throws std::invalid_argument on a launch that does not fit the
/// program (parameter count or kinds, block size).
Machine start(const Program& p, const Launch& l);

/// Runs every thread until it waits at a collective or __activemask, exits, or its path stops;
/// completes every block barrier phase that can complete. Idempotent.
void settle(const Program& p, const Launch& l, Machine& m);

/// The choices open in a settled state; empty when the block has finished or is stuck. With
/// `reduce`, only the first warp's, and a lone ready group alone (see collectives.cpp).
/// `bounded` is set when not every grouping of an __activemask was offered (more than
/// `activemask_limit` threads at it).
std::vector<Choice> choices(const Program& p, const Machine& m, unsigned activemask_limit,
                            bool& bounded, bool reduce = true);

/// Applies a choice and settles.
void apply(const Program& p, const Launch& l, Machine& m, const Choice& c);

/// In a settled state with no choice and threads left: why each waiting thread waits, as
/// findings (deadlock).
std::vector<Finding> stuck(const Program& p, const Launch& l, const Machine& m);

/// A 64-bit digest of every part of the state that `same_state` compares, for the explorer's
/// visited set. The explorer keeps digests only: two distinct states share one with a chance
/// of about n^2 / 2^65 for n states visited (below 10^-9 for a million).
uint64_t digest(const Machine& m);
/// Exact state equality (for tests of the digest).
bool same_state(const Machine& a, const Machine& b);

/// Describes a set of threads as ranges: "threads 0-15, 32".
std::string thread_ranges(const std::vector<unsigned>& threads);

}  // namespace warpspec::programs
