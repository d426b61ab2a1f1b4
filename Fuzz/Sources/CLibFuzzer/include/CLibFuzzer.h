// libFuzzer's entry point for programs that have their own main (compiler-rt FuzzerInterface.h).
// The library itself is linked by `-sanitize=fuzzer`; this header only declares the driver.
#pragma once
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

// LeakSanitizer (sanitizer/lsan_interface.h): allocations made between these calls are never
// reported. Used only around one-time warm-up of system libraries (see FuzzText).
void __lsan_disable(void);
void __lsan_enable(void);
