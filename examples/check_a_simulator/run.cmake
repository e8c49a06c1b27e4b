# vectors -> toy simulator -> check; the check must fail (exit 1) and its report is kept. SUITE
# is the default suite as `warpspec vectors -o suite.jsonl` writes it.
file(MAKE_DIRECTORY ${WORK})
file(COPY_FILE ${SUITE} ${WORK}/suite.jsonl)
execute_process(COMMAND ${TOY} ${WORK}/suite.jsonl OUTPUT_FILE ${WORK}/results.jsonl RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "the toy simulator failed: ${rc}")
endif()
execute_process(COMMAND ${WARPSPEC} check --vectors ${WORK}/suite.jsonl --results ${WORK}/results.jsonl
                RESULT_VARIABLE rc OUTPUT_VARIABLE out)
message("${out}")
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "check exited ${rc}, expected 1 (mismatch)")
endif()
# Both bugs must be found and named: the clause, and the known bug that reproduces them (how
# many vectors fail depends on the suite, so any count will do).
foreach(expect
    "vote.sync.ballot.b32: [0-9]+ failing vectors\n  breaks vote.participants"
    "behaves like the known bug 'membermask_ignored'"
    "redux.sync.min.u32: [0-9]+ failing vectors\n  breaks redux.minmax.int"
    "redux.sync.max.u32: [0-9]+ failing vectors\n  breaks redux.minmax.int"
    "behaves like the known bug 'minmax_sign_swapped'")
  string(REGEX MATCH "${expect}" found "${out}")
  if(NOT found)
    message(FATAL_ERROR "the report does not say: ${expect}")
  endif()
endforeach()
file(WRITE ${WORK}/report.txt "${out}")
