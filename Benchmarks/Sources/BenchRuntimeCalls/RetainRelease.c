#include "BenchRuntimeCalls.h"

// No debug information: clang's default for C here is DWARF 5, whose forms valgrind 3.19 cannot
// read (it then gives up on the whole executable, and every callgrind figure with it), and a
// package's C target cannot choose its DWARF version without unsafe flags. The library's C target,
// PresentationAllocationTracking, does the same.
#pragma clang attribute push(__attribute__((nodebug)), apply_to = any(hasType(functionType), variable(unless(is_parameter))))

// The Swift runtime's public entry points (libswiftCore, which every Swift executable links).
extern void *swift_retain(void *object);
extern void swift_release(void *object);

void bench_retain_release_pairs(void *object, size_t count) {
  for (size_t index = 0; index < count; index++) {
    swift_retain(object);
    swift_release(object);
  }
}

#pragma clang attribute pop
