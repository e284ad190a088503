// The driver itself comes from libFuzzer (linked by -sanitize=fuzzer); this target only
// declares it to Swift.
#include "CFuzzer.h"
