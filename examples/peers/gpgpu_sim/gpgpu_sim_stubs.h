// gpgpu_sim_stubs.h: the smallest stand-ins for GPGPU-Sim's classes that let the functions
// build.sh cuts from a GPGPU-Sim checkout compile and run unchanged. Each stub exposes exactly
// the members those functions touch, with GPGPU-Sim's names and meanings; where a stub member
// does work (reading or writing a register, the order threads run in), the comment says which
// GPGPU-Sim code it stands for. Included once, by gpgpu_sim_adapter.cpp, after nothing else.
#ifndef GPGPU_SIM_STUBS_H
#define GPGPU_SIM_STUBS_H

#include <bitset>
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <list>
#include <map>
#include <string>
#include <vector>

#include "opcodes.h"  // theirs: enum opcode_t from opcodes.def
#include "tokens.h"   // generated from their ptx.y: SYNC_OPTION, U32_TYPE, ATOMIC_POPC, ...

#define GCC_VERSION 0  // ptx_reg_t's f16 member as float (no half.hpp needed; unused here)
typedef unsigned long long address_type;
#include "defines.inc"  // theirs: MAX_CTA_PER_SHADER, MAX_BARRIERS_PER_CTA, MAX_WARP_SIZE,
                        // active_mask_t, uarch_bar_t, uarch_red_t, WARP_PER_CTA_MAX, warp_set_t
#include "ptx_reg_t.inc"  // theirs: union ptx_reg_t (ptx_sim.h)

struct dim3 {
  unsigned x, y, z;
};

class ptx_thread_info;
class ptx_instruction;

// abstract_hardware_model.h: struct dram_callback_t (same shape).
struct dram_callback_t {
  void (*function)(const class inst_t *, class ptx_thread_info *) = nullptr;
  const class inst_t *instruction = nullptr;
  class ptx_thread_info *thread = nullptr;
};

// abstract_hardware_model.h: class inst_t, the members used here (bar_* set by
// set_bar_type / bar_impl; initial values as inst_t's constructor sets them).
class inst_t {
 public:
  virtual ~inst_t() {}
  int op = -1;
  barrier_type bar_type = NOT_BAR;
  reduction_type red_type = NOT_RED;
  unsigned bar_id = (unsigned)-1;
  unsigned bar_count = (unsigned)-1;
};

struct stub_core_config {
  unsigned warp_size = 32;
};
extern const stub_core_config g_core_config;

// abstract_hardware_model.h: class warp_inst_t, the members used here.
class warp_inst_t : public inst_t {
 public:
  struct per_thread_info {
    dram_callback_t callback;
  };
  const stub_core_config *m_config = &g_core_config;
  active_mask_t m_warp_active_mask;
  std::vector<per_thread_info> m_per_scalar_thread;
  bool m_per_scalar_thread_valid = false;
  bool m_isatomic = false;

  bool active(unsigned thread) const { return m_warp_active_mask.test(thread); }
  unsigned warp_size() const { return m_config->warp_size; }
  const active_mask_t &get_active_mask() const { return m_warp_active_mask; }
  active_mask_t get_warp_active_mask() const { return m_warp_active_mask; }
  // Same body as warp_inst_t::add_callback.
  void add_callback(unsigned lane_id, void (*function)(const class inst_t *, class ptx_thread_info *),
                    const inst_t *inst, class ptx_thread_info *thread, bool atomic) {
    if (!m_per_scalar_thread_valid) {
      m_per_scalar_thread.resize(m_config->warp_size);
      m_per_scalar_thread_valid = true;
      if (atomic) m_isatomic = true;
    }
    m_per_scalar_thread[lane_id].callback.function = function;
    m_per_scalar_thread[lane_id].callback.instruction = inst;
    m_per_scalar_thread[lane_id].callback.thread = thread;
  }
  void broadcast_barrier_reduction(const active_mask_t &access_mask);  // theirs
};

// ptx_ir.h: class operand_info. The instructions under test use only registers (d, a, m) and
// integer literals (the barrier number), and the predicate negation `!a`.
class operand_info {
 public:
  enum kind_t { REG, LITERAL };
  kind_t kind = LITERAL;
  int reg = -1;                  // register number in the thread's register map
  unsigned long long literal = 0;
  bool neg_pred = false;         // `!a`
  bool is_neg_pred() const { return neg_pred; }
  bool is_reg() const { return kind == REG; }
};

// ptx_ir.h: class ptx_instruction, the members used here. The m_* fields are those that their
// option decoding loop (cut from ptx_instruction::ptx_instruction) assigns.
class ptx_instruction : public warp_inst_t {
 public:
  enum vote_mode_t { vote_any, vote_all, vote_uni, vote_ballot };
  int m_opcode = -1;
  unsigned m_barrier_op = 0;
  int m_compare_op = -1;
  unsigned m_saturation_mode = 0;
  int m_rounding_mode = 0;
  bool m_hi = false, m_lo = false, m_wide = false, m_uni = false, m_exit = false;
  bool m_abs = false, m_neg = false, m_to_option = false;
  int m_geom_spec = 0, m_vector_spec = 0, m_atomic_spec = 0, m_membar_level = 0;
  int m_cache_option = 0, m_shfl_op = 0, m_prmt_op = 0;
  unsigned m_inst_size = 8;
  // Their constructor never assigns m_vote_mode unless .any/.all/.ballot is given: its value is
  // whatever the heap held. The adapter sets it before decoding (--vote-mode-init, default 0:
  // freshly mapped, zeroed memory).
  enum vote_mode_t m_vote_mode;
  int m_scalar_type = 0;
  std::vector<operand_info> m_operands;

  unsigned barrier_op() const { return m_barrier_op; }
  unsigned get_atomic() const { return m_atomic_spec; }
  enum vote_mode_t vote_mode() const { return m_vote_mode; }
  unsigned get_type() const { return m_scalar_type; }
  unsigned get_num_operands() const { return m_operands.size(); }
  const operand_info &dst() const { return m_operands.at(0); }
  const operand_info &src1() const { return m_operands.at(1); }
  const operand_info &src2() const { return m_operands.at(2); }
  const operand_info &src3() const { return m_operands.at(3); }
  void set_bar_id(unsigned id) { bar_id = id; }
  void set_bar_count(unsigned count) { bar_count = count; }
  void set_bar_type();  // theirs (cuda-sim.cc)
  // Runs their option loop (ptx_ir.cc, ptx_instruction::ptx_instruction) over the options
  // the parser collected, in order.
  void decode_options(const std::list<int> &options) {
    int rr = 0;
    std::list<int>::const_iterator i;
    unsigned n = 1;
#include "options_loop.inc"
    (void)rr;
  }
};

// abstract_hardware_model.h: class core_t, its barrier-reduction storage (zeroed in core_t's
// constructor, as theirs does) and the methods on it, cut from their class body.
class core_t {
 public:
  core_t() {
    for (unsigned i = 0; i < MAX_CTA_PER_SHADER; i++)
      for (unsigned j = 0; j < MAX_BARRIERS_PER_CTA; j++) reduction_storage[i][j] = 0;
  }
#include "core_reduction.inc"
  unsigned reduction_storage[MAX_CTA_PER_SHADER][MAX_BARRIERS_PER_CTA];
};

// ptx_sim.h: class ptx_thread_info, the members used here.
class ptx_thread_info {
 public:
  core_t *m_core = nullptr;
  unsigned m_hw_tid = 0;
  dim3 m_ntid = {1, 1, 1};
  std::map<int, ptx_reg_t> m_regs;  // stands for m_regs.back() (one call frame)
  dram_callback_t m_last_dram_callback;

  // Theirs: m_cta_info->get_sm_idx(), the CTA's slot on its SM; one CTA per vector: slot 0.
  unsigned long long get_cta_uid() { return 0; }
  unsigned get_hw_tid() const { return m_hw_tid; }
  dim3 get_ntid() const { return m_ntid; }
  // ptx_sim.h: the reduction forwards to the core.
  unsigned get_reduction_value(unsigned ctaid, unsigned barid) {
    return m_core->get_reduction_value(ctaid, barid);
  }
  void and_reduction(unsigned ctaid, unsigned barid, bool value) {
    m_core->and_reduction(ctaid, barid, value);
  }
  void or_reduction(unsigned ctaid, unsigned barid, bool value) {
    m_core->or_reduction(ctaid, barid, value);
  }
  void popc_reduction(unsigned ctaid, unsigned barid, bool value) {
    m_core->popc_reduction(ctaid, barid, value);
  }
  // instructions.cc, ptx_thread_info::get_operand_value, for the two operand kinds used here:
  // a register reads get_reg (an unset register reads 0, as theirs does after a warning); a
  // literal reads op.get_literal_value(). Negation (`-x`) applies to numeric types only and is
  // never written in these instructions; a predicate's `!` is left to the caller (is_neg_pred),
  // as theirs does.
  ptx_reg_t get_operand_value(const operand_info &op, operand_info, unsigned, ptx_thread_info *, int) {
    ptx_reg_t r;
    if (op.is_reg()) {
      auto it = m_regs.find(op.reg);
      if (it != m_regs.end()) r = it->second;
    } else {
      r.u64 = op.literal;
    }
    return r;
  }
  // instructions.cc, ptx_thread_info::set_operand_value, for a single register destination:
  // the register receives data.u64 whatever the type (setValue.u64 = data.u64; set_reg).
  void set_operand_value(const operand_info &dst, const ptx_reg_t &data, unsigned, ptx_thread_info *,
                         const ptx_instruction *) {
    assert(dst.is_reg());
    ptx_reg_t v;
    v.u64 = data.u64;
    m_regs[dst.reg] = v;
  }
};

// shader.h / shader.cc: the parts of shd_warp_t, gpgpu_sim and shader_core_ctx that the
// barrier code touches.
class shd_warp_t {
 public:
  warp_inst_t m_inst_at_barrier;
  void store_info_of_last_inst_at_barrier(const warp_inst_t *pI) { m_inst_at_barrier = *pI; }
  warp_inst_t *restore_info_of_last_inst_at_barrier() { return &m_inst_at_barrier; }
};
struct stub_gpgpu_sim {
  unsigned long long gpu_tot_sim_cycle = 0, gpu_sim_cycle = 0;
};
struct stub_shader_config {
  unsigned max_warps_per_shader = WARP_PER_CTA_MAX;
};
class shader_core_ctx {
 public:
  const stub_shader_config *m_config;
  shd_warp_t **m_warp;
  stub_gpgpu_sim m_gpu_stub;
  stub_gpgpu_sim *get_gpu() { return &m_gpu_stub; }
  void broadcast_barrier_reduction(unsigned cta_id, unsigned bar_id, warp_set_t warps);  // theirs
};

#include "barrier_set_class.inc"  // theirs: class barrier_set_t (shader.h)

#endif
