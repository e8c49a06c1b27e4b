# Installs the build tree to a scratch prefix, then configures, builds and runs the consumer.
#   cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -P run_consumer.cmake
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "install failed: ${rc}")
endif()
foreach(step
    "${CMAKE_COMMAND};-S;${SOURCE_DIR};-B;${WORK_DIR}/build;-G;Ninja;-DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix"
    "${CMAKE_COMMAND};--build;${WORK_DIR}/build"
    "${WORK_DIR}/build/consumer")
  execute_process(COMMAND ${step} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc)
    message(FATAL_ERROR "${step} failed (${rc}):\n${out}${err}")
  endif()
endforeach()
if(NOT out MATCHES "ballot=0x0000ffff ub=0")
  message(FATAL_ERROR "unexpected consumer output: ${out}")
endif()
if(NOT EXISTS ${WORK_DIR}/prefix/bin/warpspec)
  message(FATAL_ERROR "the warpspec tool was not installed")
endif()
