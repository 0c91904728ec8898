// A test's way to run dp2 from a thread whose floating-point environment is not the
// default (float_env.h in the rasterizer says why dp2 must not care).
#pragma once

#include <cfenv>
#include <cstdint>
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
#elif defined(__aarch64__)
    std::uint64_t fpcr;
    asm volatile("mrs %0, fpcr" : "=r"(fpcr));
    fpcr |= kFpcrFlushToZero;
    asm volatile("msr fpcr, %0" : : "r"(fpcr));
#endif
  }
  ~HostileFloatEnvironment() { std::fesetenv(&saved_); }

  // Whether the calling thread still has this environment (a test's check that dp2 gave
  // the thread its own back, and that setting it took effect at all).
  static bool in_effect() {
    if (std::fegetround() != FE_TOWARDZERO) return false;
#if defined(__x86_64__)
    return (_mm_getcsr() & (kFlushToZero | kDenormalsAreZero)) == (kFlushToZero | kDenormalsAreZero);
#elif defined(__aarch64__)
    std::uint64_t fpcr;
    asm volatile("mrs %0, fpcr" : "=r"(fpcr));
    return (fpcr & kFpcrFlushToZero) != 0;
#else
    return true;
#endif
  }
  HostileFloatEnvironment(const HostileFloatEnvironment&) = delete;
  HostileFloatEnvironment& operator=(const HostileFloatEnvironment&) = delete;

 private:
#if defined(__x86_64__)
  static constexpr unsigned kFlushToZero = 0x8000, kDenormalsAreZero = 0x0040;  // MXCSR bits
#elif defined(__aarch64__)
  static constexpr std::uint64_t kFpcrFlushToZero = std::uint64_t{1} << 24;  // FPCR.FZ
#endif
  std::fenv_t saved_;
};

}  // namespace dp2::test
