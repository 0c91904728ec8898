# cmake -P script behind the package.install_and_consume test (tests/package/CMakeLists.txt).
# Inputs: DP2_BUILD_DIR, DP2_CONSUMER_DIR, DP2_WORK_DIR, DP2_CONFIG, DP2_VERSION,
# DP2_C_COMPILER, DP2_CXX_COMPILER, DP2_C_FLAGS, DP2_CXX_FLAGS, DP2_LINKER_FLAGS, DP2_PKG_CONFIG,
# DP2_WITH_TBB, DP2_EMULATOR (a cross build's emulator, words separated by "|"; empty
# on a native build).
cmake_minimum_required(VERSION 3.25)
string(REPLACE "|" ";" emulator "${DP2_EMULATOR}")

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(JOIN " " cmd ${ARGN})
    message(FATAL_ERROR "failed (${rc}): ${cmd}\n${out}\n${err}")
  endif()
  message(STATUS "ok: ${ARGV0} ${ARGV1} ${ARGV2}")
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

if(NOT DP2_CONFIG OR DP2_CONFIG STREQUAL "")
  set(DP2_CONFIG RelWithDebInfo)
endif()
set(prefix ${DP2_WORK_DIR}/prefix)
set(build ${DP2_WORK_DIR}/consumer-build)
file(REMOVE_RECURSE ${DP2_WORK_DIR})
file(MAKE_DIRECTORY ${DP2_WORK_DIR})

# 1. Install the current build.
run(${CMAKE_COMMAND} --install ${DP2_BUILD_DIR} --prefix ${prefix} --config ${DP2_CONFIG})
foreach(f include/dp2/dp2.h include/dp2/version.h include/dp2/device.h include/dp2/ddi.h include/dp2/wddm.h)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()
# lib/ or a multiarch lib/<triplet>/ (GNUInstallDirs).
foreach(f libdp2.a libdp2_rasterizer.a dp2Config.cmake dp2ConfigVersion.cmake dp2Targets.cmake dp2.pc)
  file(GLOB_RECURSE found ${prefix}/lib*/${f})
  if(NOT found)
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()
# The installed headers must not reach into the source tree or the rasterizer.
file(GLOB headers ${prefix}/include/dp2/*.h)
foreach(h ${headers})
  file(STRINGS ${h} includes REGEX "^#[ ]*include[ ]*\"")
  foreach(line ${includes})
    if(NOT line MATCHES "\"dp2/[a-z_0-9]+\\.h\"")
      message(FATAL_ERROR "${h}: installed header includes a non-public header: ${line}")
    endif()
  endforeach()
endforeach()

# A build without TBB installs a package that never asks for it: no -ltbb in dp2.pc, no
# TBB target in the exported link interface, and the consumer below finds dp2 with
# find_package(TBB) disabled.
set(no_tbb_flag "")
if(DEFINED DP2_WITH_TBB AND NOT DP2_WITH_TBB)
  file(GLOB_RECURSE files ${prefix}/lib*/dp2.pc ${prefix}/lib*/dp2Targets*.cmake)
  foreach(f ${files})
    file(READ ${f} content)
    if(content MATCHES "-ltbb|TBB::")  # not a bare "tbb": the build dir may be build/notbb
      message(FATAL_ERROR "${f}: a DP2_WITH_TBB=OFF install mentions TBB")
    endif()
  endforeach()
  set(no_tbb_flag -DCMAKE_DISABLE_FIND_PACKAGE_TBB=ON)
endif()

# 2. find_package(dp2 CONFIG) + dp2::dp2: a C and a C++ consumer.
run(${CMAKE_COMMAND} -S ${DP2_CONSUMER_DIR} -B ${build} ${no_tbb_flag}
    -DCMAKE_BUILD_TYPE=${DP2_CONFIG}
    -DCMAKE_PREFIX_PATH=${prefix}
    -DCMAKE_C_COMPILER=${DP2_C_COMPILER}
    -DCMAKE_CXX_COMPILER=${DP2_CXX_COMPILER}
    "-DCMAKE_C_FLAGS=${DP2_C_FLAGS}"
    "-DCMAKE_CXX_FLAGS=${DP2_CXX_FLAGS}"
    "-DCMAKE_EXE_LINKER_FLAGS=${DP2_LINKER_FLAGS}"
    -DDP2_EXPECTED_VERSION=${DP2_VERSION})
run(${CMAKE_COMMAND} --build ${build} --config ${DP2_CONFIG} -j 2)
foreach(exe consumer_c consumer_cxx)
  set(path ${build}/${exe})
  if(NOT EXISTS ${path})
    set(path ${build}/${DP2_CONFIG}/${exe})
  endif()
  run(${emulator} ${path})
  message(STATUS "${exe}: ${last_output}")
endforeach()

# 3. pkg-config on a plain compiler line: cc consumer.c $(pkg-config --cflags --libs dp2).
if(DP2_PKG_CONFIG)
  file(GLOB_RECURSE pc_files ${prefix}/lib*/dp2.pc)
  list(GET pc_files 0 pc_file)
  get_filename_component(pc_dir ${pc_file} DIRECTORY)
  set(ENV{PKG_CONFIG_PATH} ${pc_dir})
  run(${DP2_PKG_CONFIG} --modversion dp2)
  string(STRIP "${last_output}" pc_version)
  if(NOT pc_version STREQUAL DP2_VERSION)
    message(FATAL_ERROR "dp2.pc says ${pc_version}, the project ${DP2_VERSION}")
  endif()
  run(${DP2_PKG_CONFIG} --cflags --libs dp2)
  string(STRIP "${last_output}" pc_flags)
  separate_arguments(pc_flags UNIX_COMMAND "${pc_flags}")
  separate_arguments(c_flags UNIX_COMMAND "${DP2_C_FLAGS} ${DP2_LINKER_FLAGS}")
  run(${DP2_C_COMPILER} -std=c11 ${c_flags} ${DP2_CONSUMER_DIR}/consumer.c -o ${DP2_WORK_DIR}/consumer_pkgconfig
      ${pc_flags})
  run(${emulator} ${DP2_WORK_DIR}/consumer_pkgconfig)
  message(STATUS "consumer_pkgconfig: ${last_output}")
else()
  message(STATUS "pkg-config not found: the pkg-config build line is skipped")
endif()
