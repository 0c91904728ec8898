// Test-only (dp2_tests): make one operator new fail, to check that code under test leaves
// its state whole when an allocation throws std::bad_alloc. The executable's replacement
// operator new (test_frontend_memory.cpp) reads it.
#pragma once

namespace dp2::test {

// While alive, the n-th call of the plain operator new on this thread (counting from 1,
// any size; the over-aligned form is not counted) throws std::bad_alloc instead of
// allocating. Other threads are not affected.
class FailNthAllocation {
 public:
  explicit FailNthAllocation(long n);
  ~FailNthAllocation();
  FailNthAllocation(const FailNthAllocation&) = delete;
  FailNthAllocation& operator=(const FailNthAllocation&) = delete;
  // Whether the n-th allocation came (and threw).
  bool fired() const;
};

}  // namespace dp2::test
