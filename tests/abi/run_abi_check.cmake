# Runs the abi.mingw check (see CMakeLists.txt / abi_gen.cpp).
# Inputs: GEN (dp2_abi_gen), CLANG, INC (mingw-w64 include dir), DP2_INC
# (dp2 include dir), CCHECK (ddi_c_check.c), OUT (scratch directory); EMULATOR, a cross
# build's emulator for GEN (words separated by "|"), may be empty.
foreach(v GEN CLANG INC DP2_INC CCHECK OUT)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "run_abi_check.cmake: -D${v}=... missing")
  endif()
endforeach()

file(MAKE_DIRECTORY "${OUT}")
string(REPLACE "|" ";" emulator "${EMULATOR}")
execute_process(COMMAND ${emulator} "${GEN}" "${OUT}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "dp2_abi_gen failed (${rc}):\n${out}${err}")
endif()
message(STATUS "${out}")

set(failed FALSE)
foreach(target x86_64-w64-mingw32 i686-w64-mingw32)
  # mingw headers vs. the values dp2/ddi.h gives the same names
  foreach(tu abi_dx7 abi_dx8 abi_dx9)
    execute_process(
      COMMAND "${CLANG}" -target ${target} -fsyntax-only -std=c11 -ferror-limit=0
              -Wno-everything -isystem "${INC}" "${OUT}/${tu}.c"
      RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(rc EQUAL 0)
      message(STATUS "${target} ${tu}: OK")
    else()
      set(failed TRUE)
      message(SEND_ERROR "${target} ${tu}: dp2/ddi.h disagrees with mingw-w64:\n${out}${err}")
    endif()
  endforeach()
  # ddi.h's own layout asserts on this target (32-bit / LLP64 layouts)
  execute_process(
    COMMAND "${CLANG}" -target ${target} -fsyntax-only -std=c11
            -Wall -Wextra -Wpedantic -Werror
            -isystem "${INC}" -I "${DP2_INC}" "${CCHECK}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0)
    message(STATUS "${target} ddi_c_check.c: OK")
  else()
    set(failed TRUE)
    message(SEND_ERROR "${target}: dp2/ddi.h does not compile:\n${out}${err}")
  endif()
endforeach()

if(failed)
  message(FATAL_ERROR "abi.mingw: FAILED")
endif()
