// libFuzzer's driver, for a main() of our own (https://llvm.org/docs/LibFuzzer.html, "Using libFuzzer as a
// library"): SwiftPM gives every executable a Swift main, so the targets call the driver rather than using
// libFuzzer's main. The symbol comes from the toolchain's libclang_rt.fuzzer, which `-sanitize=fuzzer` links.
#ifndef KEYSCOPE_CLIBFUZZER_SHIM_H
#define KEYSCOPE_CLIBFUZZER_SHIM_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
