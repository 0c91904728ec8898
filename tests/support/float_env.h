// A test's way to run dp2 from a thread whose floating-point environment is not the
// default (float_env.h in the rasterizer says why dp2 must not care).
#pragma once

#include <cfenv>
#if defined(__x86_64__)
#include <xmmintrin.h>
#endif

namespace dp2::test {

// Sets the calling thread's environment to what no dp2 arithmetic expects — rounding
// toward zero and, on x86-64, flush-to-zero and denormals-are-zero — and restores it after.
class HostileFloatEnvironment {
 public:
  HostileFloatEnvironment() {
    std::fegetenv(&saved_);
    std::fesetround(FE_TOWARDZERO);
#if defined(__x86_64__)
    _mm_setcsr(_mm_getcsr() | kFlushToZero | kDenormalsAreZero);
#endif
  }
  ~HostileFloatEnvironment() { std::fesetenv(&saved_); }
  HostileFloatEnvironment(const HostileFloatEnvironment&) = delete;
  HostileFloatEnvironment& operator=(const HostileFloatEnvironment&) = delete;

 private:
#if defined(__x86_64__)
  static constexpr unsigned kFlushToZero = 0x8000, kDenormalsAreZero = 0x0040;  // MXCSR bits
#endif
  std::fenv_t saved_;
};

}  // namespace dp2::test
