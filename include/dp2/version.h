/* dp2/version.h — the library version, C and C++.
 *
 * Must match project(dp2 VERSION ...) in the top-level CMakeLists.txt: cmake/install.cmake
 * stops the configure step when they differ, and tests/package checks it again against the
 * CMake project version passed as compile definitions.
 */
#ifndef DP2_VERSION_H
#define DP2_VERSION_H

#define DP2_VERSION_MAJOR 0
#define DP2_VERSION_MINOR 1
#define DP2_VERSION_PATCH 0
#define DP2_VERSION_STRING "0.1.0"

/* One number that orders versions: 0xMMmmpp (major, minor, patch; 8 bits each). */
#define DP2_MAKE_VERSION(major, minor, patch) \
  ((((unsigned long)(major)) << 16) | (((unsigned long)(minor)) << 8) | ((unsigned long)(patch)))
#define DP2_VERSION DP2_MAKE_VERSION(DP2_VERSION_MAJOR, DP2_VERSION_MINOR, DP2_VERSION_PATCH)

#endif /* DP2_VERSION_H */
