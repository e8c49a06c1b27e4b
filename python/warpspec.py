"""warpspec from Python, through ctypes: no compilation step.

The module loads the C library (libwarpspec-c.so) from, in order: the path in the environment
variable WARPSPEC_LIBRARY, the folder of this file, ../lib beside it (an installed tree), and
build/capi under the source tree. Errors raise WarpspecError with the library's message.

    import warpspec as ws
    ballot = ws.Instr("vote.sync.ballot.b32 d, a, m;")
    s = ws.WarpState()                      # 32 lanes executing, membermask 0xffffffff
    for i in range(32): s.a[i] = i % 2
    s.status[1] = ws.EXITED
    print(hex(ballot.eval(s).d[0]))         # 0xaaaaaaa8
    v = ballot.step(s, d=[0xaaaaaaaa] * 32) # what a simulator computed
    print(v.agree, v.what, hex(v.lanes), v.clause)

    with ws.Vectors("suite.jsonl") as vs:   # a vector file, answered round by round
        for vec in vs:
            for k in range(vec.rounds):
                state, expected = vs.round(k)
                vs.answer(k, my_simulator(vec.instr.text, state))
        report = vs.check()
    print(report.text)
"""
import ctypes
import os

LANES = 32
MAX_THREADS = 1024
MAX_UB = 8
EXECUTES, EXITED, INACTIVE = 0, 1, 2

_STATUS = {0: "ok", 1: "end", -1: "invalid argument", -2: "parse error", -3: "i/o error",
           -4: "format error", -5: "unavailable", -6: "out of memory", -7: "internal error"}


class WarpspecError(Exception):
    """A failing call: `status` is the library's ws_status, the message its ws_last_error()."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status
        self.kind = _STATUS.get(status, str(status))


class WarpState(ctypes.Structure):
    _fields_ = [("status", ctypes.c_uint8 * LANES), ("mask", ctypes.c_uint32 * LANES),
                ("a", ctypes.c_uint64 * LANES), ("site", ctypes.c_uint32 * LANES),
                ("b", ctypes.c_uint32 * LANES), ("c", ctypes.c_uint32 * LANES)]

    def __init__(self):
        super().__init__()
        _lib().ws_warp_state_init(ctypes.byref(self))


class BlockState(ctypes.Structure):
    _fields_ = [("threads", ctypes.c_size_t), ("status", ctypes.c_uint8 * MAX_THREADS),
                ("pred", ctypes.c_uint32 * MAX_THREADS)]

    def __init__(self, threads=32):
        super().__init__()
        _check(_lib().ws_block_state_init(ctypes.byref(self), threads))


class WarpAnswer(ctypes.Structure):
    _fields_ = [("d", ctypes.c_uint32 * LANES), ("p", ctypes.c_uint8 * LANES),
                ("executes", ctypes.c_uint8 * LANES), ("defined", ctypes.c_uint8 * LANES),
                ("d_defined", ctypes.c_uint8 * LANES), ("ub_count", ctypes.c_size_t), ("ub_clause", ctypes.c_char_p * MAX_UB),
                ("ub_lanes", ctypes.c_uint32 * MAX_UB)]

    @property
    def ub(self):
        """The undefined-behaviour clauses that fire, as (clause key, lane word) pairs."""
        return [(self.ub_clause[k].decode(), self.ub_lanes[k]) for k in range(self.ub_count)]


class BlockAnswer(ctypes.Structure):
    _fields_ = [("threads", ctypes.c_size_t), ("d", ctypes.c_uint32),
                ("executes", ctypes.c_uint8 * MAX_THREADS),
                ("defined", ctypes.c_uint8 * MAX_THREADS), ("ub", ctypes.c_int),
                ("thread_d", ctypes.c_uint32 * MAX_THREADS)]


class Verdict(ctypes.Structure):
    _fields_ = [("agree", ctypes.c_int), ("ub_", ctypes.c_int), ("what_", ctypes.c_char_p),
                ("lanes", ctypes.c_uint32), ("first", ctypes.c_size_t),
                ("clause_", ctypes.c_char_p)]

    ub = property(lambda self: bool(self.ub_))
    what = property(lambda self: self.what_.decode())
    clause = property(lambda self: self.clause_.decode())

    def __bool__(self):
        return bool(self.agree)


class _Vector(ctypes.Structure):
    _fields_ = [("id", ctypes.c_uint64), ("instr", ctypes.c_void_p), ("ub", ctypes.c_int),
                ("is_block", ctypes.c_int), ("rounds", ctypes.c_size_t)]


_LIB = None


def _find_library():
    here = os.path.dirname(os.path.abspath(__file__))
    candidates = [os.environ.get("WARPSPEC_LIBRARY"),
                  os.path.join(here, "libwarpspec-c.so"),
                  os.path.join(here, "..", "..", "..", "lib", "libwarpspec-c.so"),
                  os.path.join(here, "..", "build", "capi", "libwarpspec-c.so")]
    for c in candidates:
        if c and os.path.exists(c):
            return c
    raise OSError("libwarpspec-c.so not found: build it (cmake --build build) or set "
                  "WARPSPEC_LIBRARY to its path")


def _lib():
    global _LIB
    if _LIB is not None:
        return _LIB
    lib = ctypes.CDLL(_find_library())
    P, c = ctypes.POINTER, ctypes
    u8p, u32p = P(c.c_uint8), P(c.c_uint32)
    sigs = {
        "ws_version": (c.c_char_p, []),
        "ws_last_error": (c.c_char_p, []),
        "ws_free": (None, [c.c_void_p]),
        "ws_instr_parse": (c.c_int, [c.c_char_p, c.c_char_p, c.c_char_p, P(c.c_void_p)]),
        "ws_instr_free": (None, [c.c_void_p]),
        "ws_instr_text": (c.c_char_p, [c.c_void_p]),
        "ws_instr_form": (c.c_char_p, [c.c_void_p]),
        "ws_instr_is_block": (c.c_int, [c.c_void_p]),
        "ws_instr_writes_d": (c.c_int, [c.c_void_p]),
        "ws_instr_writes_p": (c.c_int, [c.c_void_p]),
        "ws_instr_negates": (c.c_int, [c.c_void_p]),
        "ws_warp_state_init": (None, [P(WarpState)]),
        "ws_block_state_init": (c.c_int, [P(BlockState), c.c_size_t]),
        "ws_eval_warp": (c.c_int, [c.c_void_p, P(WarpState), P(WarpAnswer)]),
        "ws_eval_block": (c.c_int, [c.c_void_p, P(BlockState), P(BlockAnswer)]),
        "ws_step_warp": (c.c_int, [c.c_void_p, P(WarpState), u32p, u8p, u8p, c.c_int,
                                   P(Verdict)]),
        "ws_step_block": (c.c_int, [c.c_void_p, P(BlockState), u32p, u8p, c.c_int,
                                    P(Verdict)]),
        "ws_step_explain_warp": (c.c_void_p, [c.c_void_p, P(WarpState), u32p, u8p, u8p,
                                              c.c_int]),
        "ws_step_explain_block": (c.c_void_p, [c.c_void_p, P(BlockState), u32p, u8p, c.c_int]),
        "ws_vectors_open": (c.c_int, [c.c_char_p, P(c.c_void_p)]),
        "ws_vectors_close": (None, [c.c_void_p]),
        "ws_vectors_target": (c.c_char_p, [c.c_void_p]),
        "ws_vectors_ptx": (c.c_char_p, [c.c_void_p]),
        "ws_vectors_next": (c.c_int, [c.c_void_p, P(_Vector)]),
        "ws_vectors_round_warp": (c.c_int, [c.c_void_p, c.c_size_t, P(WarpState),
                                            P(WarpAnswer)]),
        "ws_vectors_round_block": (c.c_int, [c.c_void_p, c.c_size_t, P(BlockState),
                                             P(BlockAnswer)]),
        "ws_vectors_answer_warp": (c.c_int, [c.c_void_p, c.c_size_t, u32p, u8p, u8p, c.c_int]),
        "ws_vectors_answer_block": (c.c_int, [c.c_void_p, c.c_size_t, u32p, u8p, c.c_int]),
        "ws_vectors_skip": (c.c_int, [c.c_void_p]),
        "ws_vectors_check": (c.c_int, [c.c_void_p, P(c.c_void_p)]),
        "ws_vectors_results": (c.c_void_p, [c.c_void_p]),
        "ws_report_free": (None, [c.c_void_p]),
        "ws_report_vectors": (c.c_uint64, [c.c_void_p]),
        "ws_report_compared": (c.c_uint64, [c.c_void_p]),
        "ws_report_mismatches": (c.c_uint64, [c.c_void_p]),
        "ws_report_text": (c.c_char_p, [c.c_void_p]),
        "ws_report_json": (c.c_char_p, [c.c_void_p]),
    }
    for name, (res, args) in sigs.items():
        f = getattr(lib, name)
        f.restype, f.argtypes = res, args
    _LIB = lib
    return lib


def _check(status):
    if status < 0:
        raise WarpspecError(status, _lib().ws_last_error().decode())
    return status


def _array(ctype, n, values):
    """A C array of n values (None: a NULL pointer)."""
    if values is None:
        return None
    values = list(values)
    if len(values) != n:
        raise ValueError("expected %d values, got %d" % (n, len(values)))
    return (ctype * n)(*[int(x) for x in values])


def _take_string(ptr):
    if not ptr:
        raise WarpspecError(-7, _lib().ws_last_error().decode())
    try:
        return ctypes.string_at(ptr).decode()
    finally:
        _lib().ws_free(ptr)


def version():
    return _lib().ws_version().decode()


class Instr:
    """One instruction, parsed once (PTX text or an intrinsic call) for a target and PTX."""

    def __init__(self, text, target=None, ptx=None, _borrowed=None):
        self._owned = _borrowed is None
        if _borrowed is not None:
            self._h = ctypes.c_void_p(_borrowed)
            return
        h = ctypes.c_void_p()
        _check(_lib().ws_instr_parse(text.encode(), target.encode() if target else None,
                                     ptx.encode() if ptx else None, ctypes.byref(h)))
        self._h = h

    def __del__(self):
        if getattr(self, "_owned", False) and getattr(self, "_h", None):
            _lib().ws_instr_free(self._h)
            self._h = None

    text = property(lambda self: _lib().ws_instr_text(self._h).decode())
    form = property(lambda self: _lib().ws_instr_form(self._h).decode())
    is_block = property(lambda self: bool(_lib().ws_instr_is_block(self._h)))
    writes_d = property(lambda self: bool(_lib().ws_instr_writes_d(self._h)))
    writes_p = property(lambda self: bool(_lib().ws_instr_writes_p(self._h)))
    negates = property(lambda self: bool(_lib().ws_instr_negates(self._h)))

    def eval(self, state):
        """The specification's answer on a WarpState (WarpAnswer) or BlockState (BlockAnswer)."""
        if isinstance(state, BlockState):
            out = BlockAnswer()
            _check(_lib().ws_eval_block(self._h, ctypes.byref(state), ctypes.byref(out)))
        else:
            out = WarpAnswer()
            _check(_lib().ws_eval_warp(self._h, ctypes.byref(state), ctypes.byref(out)))
        return out

    def _args(self, state, d, p, present):
        n = state.threads if isinstance(state, BlockState) else LANES
        return (_array(ctypes.c_uint32, n, d), _array(ctypes.c_uint8, n, p),
                _array(ctypes.c_uint8, n, present))

    def step(self, state, d=None, p=None, present=None, hang=False):
        """Compares what a simulator computed for this instruction on `state` (Verdict)."""
        dd, pp, pr = self._args(state, d, p, present)
        out = Verdict()
        if isinstance(state, BlockState):
            _check(_lib().ws_step_block(self._h, ctypes.byref(state), dd, pr, int(hang),
                                        ctypes.byref(out)))
        else:
            _check(_lib().ws_step_warp(self._h, ctypes.byref(state), dd, pp, pr, int(hang),
                                       ctypes.byref(out)))
        return out

    def explain(self, state, d=None, p=None, present=None, hang=False):
        """The report `warpspec check` prints for this one step, lane table included."""
        dd, pp, pr = self._args(state, d, p, present)
        if isinstance(state, BlockState):
            return _take_string(_lib().ws_step_explain_block(self._h, ctypes.byref(state), dd,
                                                             pr, int(hang)))
        return _take_string(_lib().ws_step_explain_warp(self._h, ctypes.byref(state), dd, pp,
                                                        pr, int(hang)))


class Vector:
    """One vector of a file: id, instr, ub, is_block, rounds."""

    def __init__(self, raw):
        self.id = raw.id
        self.instr = Instr(None, _borrowed=raw.instr)
        self.ub = bool(raw.ub)
        self.is_block = bool(raw.is_block)
        self.rounds = raw.rounds


class Report:
    def __init__(self, h):
        lib = _lib()
        self.vectors = lib.ws_report_vectors(h)
        self.compared = lib.ws_report_compared(h)
        self.mismatches = lib.ws_report_mismatches(h)
        self.text = lib.ws_report_text(h).decode()
        self.json = lib.ws_report_json(h).decode()
        lib.ws_report_free(h)

    def __bool__(self):
        """True only for a verdict of no mismatch over at least one compared vector."""
        return self.compared > 0 and self.mismatches == 0


class Vectors:
    """A vector file, iterated vector by vector; answers are handed in per round."""

    def __init__(self, path):
        h = ctypes.c_void_p()
        _check(_lib().ws_vectors_open(os.fsencode(path), ctypes.byref(h)))
        self._h = h
        self._cur = None

    def close(self):
        if getattr(self, "_h", None):
            _lib().ws_vectors_close(self._h)
            self._h = None

    __del__ = close

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    target = property(lambda self: _lib().ws_vectors_target(self._h).decode())
    ptx = property(lambda self: _lib().ws_vectors_ptx(self._h).decode())

    def __iter__(self):
        while True:
            raw = _Vector()
            if _check(_lib().ws_vectors_next(self._h, ctypes.byref(raw))) == 1:
                return
            self._cur = Vector(raw)
            yield self._cur

    def round(self, k):
        """Round k of the current vector: (state, the specification's answer)."""
        if self._cur is not None and self._cur.is_block:
            s, e = BlockState(), BlockAnswer()
            _check(_lib().ws_vectors_round_block(self._h, k, ctypes.byref(s), ctypes.byref(e)))
        else:
            s, e = WarpState(), WarpAnswer()
            _check(_lib().ws_vectors_round_warp(self._h, k, ctypes.byref(s), ctypes.byref(e)))
        return s, e

    def answer(self, k, d=None, p=None, present=None, hang=False):
        """The implementation's answer for round k of the current vector."""
        if self._cur is not None and self._cur.is_block:
            s = BlockState()  # the round's thread count, without the specification's answer
            _check(_lib().ws_vectors_round_block(self._h, k, ctypes.byref(s), None))
            n = s.threads
            _check(_lib().ws_vectors_answer_block(self._h, k, _array(ctypes.c_uint32, n, d),
                                                  _array(ctypes.c_uint8, n, present),
                                                  int(hang)))
        else:
            _check(_lib().ws_vectors_answer_warp(
                self._h, k, _array(ctypes.c_uint32, LANES, d), _array(ctypes.c_uint8, LANES, p),
                _array(ctypes.c_uint8, LANES, present), int(hang)))

    def skip(self):
        _check(_lib().ws_vectors_skip(self._h))

    def results(self):
        """The answers so far as a results file (warpspec-results/1)."""
        return _take_string(_lib().ws_vectors_results(self._h))

    def check(self):
        """Compares every answer with the specification, as `warpspec check` does (Report)."""
        h = ctypes.c_void_p()
        _check(_lib().ws_vectors_check(self._h, ctypes.byref(h)))
        return Report(h)
