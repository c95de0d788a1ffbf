#ifndef BENCH_RUNTIME_CALLS_H
#define BENCH_RUNTIME_CALLS_H

#include <stddef.h>

/// Retains and releases `object` `count` times through the Swift runtime's public entry points
/// (`swift_retain`, `swift_release`): every-object tracking's retain/release figure. In C, so that
/// the loop is the same in every build and nothing but the two calls is counted per pair.
void bench_retain_release_pairs(void *_Nonnull object, size_t count);

#endif
