# Emits the kept default suite and the kept intrinsic suite as CUDA and compiles each (no GPU
# needed to compile): the intrinsic vectors run as the intrinsic calls themselves. (That the kept
# suites are what `warpspec vectors` writes today is tested apart.)
file(MAKE_DIRECTORY ${WORK})
foreach(step
    "${WARPSPEC};vectors;--in;${DATA}/sm_90-default.jsonl;--emit;cuda;-o;${WORK}/suite.cu"
    "${NVCC};-arch=sm_90;-o;${WORK}/suite;${WORK}/suite.cu"
    "${WARPSPEC};vectors;--in;${DATA}/sm_90-intrinsics.jsonl;--emit;cuda;-o;${WORK}/intrinsics.cu"
    "${NVCC};-arch=sm_90;-o;${WORK}/intrinsics;${WORK}/intrinsics.cu")
  execute_process(COMMAND ${step} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc)
    message(FATAL_ERROR "${step} failed (${rc}):\n${out}${err}")
  endif()
endforeach()
