# Installation and packaging: `cmake --install <build> --prefix <dir>` lays out
#   include/dp2/*.h                       the public headers (C++ API, C API dp2.h, wire formats)
#   lib/libdp2.a, lib/libdp2_rasterizer.a both static; dp2 links the rasterizer privately
#   lib/cmake/dp2/dp2Config.cmake         find_package(dp2 CONFIG) → target dp2::dp2
#   lib/pkgconfig/dp2.pc                  pkg-config --cflags --libs [--static] dp2
# Included at the end of the top-level CMakeLists.txt, after the dp2 and dp2_rasterizer
# targets exist.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# include/dp2/version.h is written by hand; keep it honest against project(VERSION).
file(STRINGS ${PROJECT_SOURCE_DIR}/include/dp2/version.h _dp2_version_lines REGEX "^#define DP2_VERSION_(MAJOR|MINOR|PATCH) ")
set(_dp2_header_version "")
foreach(_part MAJOR MINOR PATCH)
  string(REGEX MATCH "DP2_VERSION_${_part} ([0-9]+)" _m "${_dp2_version_lines}")
  list(APPEND _dp2_header_version ${CMAKE_MATCH_1})
endforeach()
string(JOIN "." _dp2_header_version ${_dp2_header_version})
if(NOT _dp2_header_version VERSION_EQUAL PROJECT_VERSION)
  message(FATAL_ERROR "include/dp2/version.h says ${_dp2_header_version}, project(dp2 VERSION) says ${PROJECT_VERSION}")
endif()

# Installed consumers find the headers under <prefix>/include. (The build tree's include
# directories stay $<BUILD_INTERFACE:...>.)
target_include_directories(dp2 PUBLIC $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)

# dp2_rasterizer's own headers are an internal interface (include/dp2/*.h never include
# them) and its glm use is header-only: rasterizer/CMakeLists.txt marks both build-only, so
# the exported target is a plain static library that needs TBB at link time — only when
# DP2_WITH_TBB is on (dp2Config.cmake and dp2.pc say so; off, nothing asks for TBB).

set(DP2_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/dp2)

install(TARGETS dp2 dp2_rasterizer
  EXPORT dp2Targets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/dp2
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h")
install(EXPORT dp2Targets
  NAMESPACE dp2::
  DESTINATION ${DP2_INSTALL_CMAKEDIR})

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/dp2Config.cmake.in
  ${PROJECT_BINARY_DIR}/dp2Config.cmake
  INSTALL_DESTINATION ${DP2_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/dp2ConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)  # 0.x: a minor version may change the API
install(FILES ${PROJECT_BINARY_DIR}/dp2Config.cmake ${PROJECT_BINARY_DIR}/dp2ConfigVersion.cmake
  DESTINATION ${DP2_INSTALL_CMAKEDIR})

# pkg-config: the .pc is written at install time so it carries the prefix the install
# actually used (cmake --install --prefix), not only CMAKE_INSTALL_PREFIX.
set(DP2_PC_PREFIX "@DP2_PC_PREFIX@")  # left for the install step to fill in
if(DP2_WITH_TBB)  # Libs: carries -ltbb only in a build with TBB
  set(DP2_PC_TBB "-ltbb ")
else()
  set(DP2_PC_TBB "")
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/dp2.pc.in ${PROJECT_BINARY_DIR}/dp2.pc.in @ONLY)
install(CODE "
  set(DP2_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  configure_file(\"${PROJECT_BINARY_DIR}/dp2.pc.in\" \"${PROJECT_BINARY_DIR}/dp2.pc\" @ONLY)
")
install(FILES ${PROJECT_BINARY_DIR}/dp2.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
