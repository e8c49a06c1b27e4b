# Generates the default suite and the intrinsic suite, emits each as CUDA and compiles it (no GPU
# needed to compile): the intrinsic vectors run as the intrinsic calls themselves.
file(MAKE_DIRECTORY ${WORK})
foreach(step
    "${WARPSPEC};vectors;-o;${WORK}/suite.jsonl"
    "${WARPSPEC};vectors;--in;${WORK}/suite.jsonl;--emit;cuda;-o;${WORK}/suite.cu"
    "${NVCC};-arch=sm_90;-o;${WORK}/suite;${WORK}/suite.cu"
    "${WARPSPEC};vectors;--intrinsics;-o;${WORK}/intrinsics.jsonl"
    "${WARPSPEC};vectors;--in;${WORK}/intrinsics.jsonl;--emit;cuda;-o;${WORK}/intrinsics.cu"
    "${NVCC};-arch=sm_90;-o;${WORK}/intrinsics;${WORK}/intrinsics.cu")
  execute_process(COMMAND ${step} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc)
    message(FATAL_ERROR "${step} failed (${rc}):\n${out}${err}")
  endif()
endforeach()
