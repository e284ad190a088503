#ifndef CFUZZER_H
#define CFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver, for a program with a `main` of its own (LLVM 11 and later).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
