/* abi.c_compile: dp2/ddi.h must compile as strict C11 (-Wall -Wextra
 * -Wpedantic -Werror); its own static asserts check every layout.
 * run_abi_check.cmake also compiles this file for i686/x86_64 mingw targets
 * to check the 32-bit and LLP64 layouts. */
#include "dp2/ddi.h"

int main(void)
{
    return 0;
}
