# Generates the default suite, emits it as CUDA and compiles it (no GPU needed to compile).
file(MAKE_DIRECTORY ${WORK})
foreach(step
    "${WARPSPEC};vectors;-o;${WORK}/suite.jsonl"
    "${WARPSPEC};vectors;--in;${WORK}/suite.jsonl;--emit;cuda;-o;${WORK}/suite.cu"
    "${NVCC};-arch=sm_90;-o;${WORK}/suite;${WORK}/suite.cu")
  execute_process(COMMAND ${step} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc)
    message(FATAL_ERROR "${step} failed (${rc}):\n${out}${err}")
  endif()
endforeach()
