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

# The C interface through pkg-config, against the shared and then the static library, and the
# Python module as installed (it finds the shared library in the prefix by itself). Not in a
# sanitized build: a plain C program or Python cannot load the sanitizers' runtime after the fact.
if(SANITIZED OR NOT WITH_C)
  return()
endif()
set(prefix ${WORK_DIR}/prefix)
file(GLOB_RECURSE pc ${prefix}/*/warpspec.pc)
if(NOT pc)
  message(FATAL_ERROR "warpspec.pc was not installed")
endif()
get_filename_component(pcdir ${pc} DIRECTORY)
foreach(kind shared static)
  set(static_flag "")
  if(kind STREQUAL static)
    set(static_flag --static)
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${pcdir} pkg-config --define-variable=prefix=${prefix} ${static_flag} --cflags --libs warpspec
                  RESULT_VARIABLE rc OUTPUT_VARIABLE flags ERROR_VARIABLE err
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(rc)
    message(FATAL_ERROR "pkg-config failed: ${err}")
  endif()
  separate_arguments(flags UNIX_COMMAND "${flags}")
  set(link_mode "")
  if(kind STREQUAL static)
    set(link_mode -Wl,-Bstatic)
    list(TRANSFORM flags REPLACE "^-lstdc\\+\\+$" "")
    list(TRANSFORM flags REPLACE "^-lpthread$" "")
    list(TRANSFORM flags REPLACE "^-lm$" "")
    list(REMOVE_ITEM flags "")
    list(APPEND flags -Wl,-Bdynamic -lstdc++ -lpthread -lm)
  endif()
  execute_process(COMMAND cc ${SOURCE_DIR}/../consumer_c.c -o ${WORK_DIR}/consumer_c_${kind} ${link_mode} ${flags}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(rc)
    message(FATAL_ERROR "building the C consumer (${kind}) failed: ${err}")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E env LD_LIBRARY_PATH=${prefix}/lib ${WORK_DIR}/consumer_c_${kind}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out)
  if(rc OR NOT out MATCHES "c ballot=0x0000ffff")
    message(FATAL_ERROR "the C consumer (${kind}) said: ${out} (${rc})")
  endif()
endforeach()
find_program(PYTHON3 python3)
if(PYTHON3)
  file(GLOB_RECURSE module ${prefix}/*/warpspec.py)
  get_filename_component(moddir ${module} DIRECTORY)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=WARPSPEC_LIBRARY PYTHONPATH=${moddir}
                          ${PYTHON3} -c "import warpspec as ws; s = ws.WarpState(); print('py ballot=0x%08x' % ws.Instr('vote.sync.ballot.b32 d, a, m;').eval(s).d[0])"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc OR NOT out MATCHES "py ballot=0x00000000")
    message(FATAL_ERROR "the installed Python module said: ${out}${err} (${rc})")
  endif()
endif()
