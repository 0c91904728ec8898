// The floating-point environment dp2 computes in: IEEE 754 round-to-nearest-even, every
// exception masked, no flush-to-zero, no denormals-are-zero (the C default, FE_DFL_ENV).
// The scalar pipeline's rules, setup's snap to 1/256 pixel (the 1.5·2^52 rounding) and the
// kernels' exact q / 255 all rest on it, and a host thread may run with another: an
// emulator's DSP code that sets flush-to-zero, a rounding mode left changed. The threads
// dp2 starts inherit the environment of the thread that starts them, and a host executor
// runs dp2's work on the host's threads, so each piece of work sets the default itself
// and gives the thread back as it found it (ARCHITECTURE.md: threads belong to the host).
//
// The whole environment (on x86-64 the x87 control word as well as MXCSR, where glibc's
// FE_DFL_ENV also clears flush-to-zero and denormals-are-zero): libm may use either unit.
// A save and a restore cost a few hundred cycles, paid per DrawPrimitives2 call, per
// command buffer the GPU worker runs, per Renderer::draw and flush, and per executor task
// on another thread (a tile or a setup chunk), not per primitive. Host callbacks that dp2
// calls inside these (the unknown-command callback, a host parallel_for, VertexFetch)
// run in the default environment too.
#pragma once

#include <cfenv>

namespace dp2::raster {

class DefaultFloatEnvironment {
 public:
  DefaultFloatEnvironment() noexcept {
    std::fegetenv(&saved_);
    std::fesetenv(FE_DFL_ENV);
  }
  ~DefaultFloatEnvironment() { std::fesetenv(&saved_); }
  DefaultFloatEnvironment(const DefaultFloatEnvironment&) = delete;
  DefaultFloatEnvironment& operator=(const DefaultFloatEnvironment&) = delete;

 private:
  std::fenv_t saved_;
};

}  // namespace dp2::raster
