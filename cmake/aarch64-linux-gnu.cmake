# Cross-build for AArch64 (the NEON kernels) on a Debian x86-64 machine, run under QEMU:
# `make aarch64` installs g++-aarch64-linux-gnu and qemu-user, configures the "aarch64"
# preset (this file, without TBB, no examples), builds, and runs every test.
# The header-only dependencies (GLM, doctest, stb) come from the host's packages.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
# Test discovery and ctest run the AArch64 binaries through QEMU's user mode.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /usr/aarch64-linux-gnu)
