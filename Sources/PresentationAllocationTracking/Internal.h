// What Runtime.c and Tracking.c share. Not a public header.
#ifndef PRESENTATION_ALLOCATION_TRACKING_INTERNAL_H
#define PRESENTATION_ALLOCATION_TRACKING_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "PresentationAllocationTracking.h"

#if defined(__linux__) && defined(__x86_64__)
#define PAT_SUPPORTED 1
#else
#define PAT_SUPPORTED 0
#endif

// The hot paths (the allocation hook, the retain adapter, the scope's records) are compiled without
// sanitizer instrumentation: they run inside every allocation and retain of the process, touch
// objects' headers only through the runtime's own (uninstrumented) functions, and take a lock of
// their own that no other code holds.
#if defined(__has_attribute)
#if __has_attribute(disable_sanitizer_instrumentation)
#define PAT_UNINSTRUMENTED __attribute__((disable_sanitizer_instrumentation))
#endif
#endif
#ifndef PAT_UNINSTRUMENTED
#define PAT_UNINSTRUMENTED
#endif

typedef void *(*pat_allocate_function)(const void *metadata, size_t size, size_t alignment_mask);
typedef void *(*pat_retain_function)(void *object);
/// `swift_task_localValueGet` (Swift calling convention): the address of the value the current
/// task (or, without one, the thread) has bound to the task-local `key`, or NULL.
typedef void *(*pat_local_value_get_function)(const void *key) __attribute__((swiftcall));

/// Filled by `pat_install` before the hook is published; read-only afterwards.
typedef struct pat_runtime_entry_points {
  _Atomic(pat_allocate_function) *allocate_pointer;  // &_swift_allocObject
  _Atomic(pat_retain_function) *retain_pointer;      // &_swift_retain
  _Atomic(pat_retain_function) *retain_adapter;      // &_ZL21_swift_retain_adapter (private)
  _Atomic(unsigned char) *swizzle_flag;
  pat_local_value_get_function local_value_get;
  /// The runtime's built-in allocation (`__swift_allocObject_`): what the hook's pin relies on
  /// when it is the function the hook calls.
  pat_allocate_function builtin_allocate;
  const void *task_local_key;
  const void *probe_metadata;
  /// The main executable's loaded ranges: a class counts when its descriptor lies in one.
  uintptr_t image_start[8];
  uintptr_t image_end[8];
  int image_ranges;
} pat_runtime_entry_points;

extern pat_runtime_entry_points pat_runtime;

/// What `_swift_allocObject` held when the hook was installed: the hook calls it first.
extern pat_allocate_function pat_previous_allocate;

/// The allocation hook (Tracking.c).
void *pat_allocation_hook(const void *metadata, size_t size, size_t alignment_mask);

/// Lets scopes have an owner thread that records without their lock, when `membarrier` works here
/// (Tracking.c); called by install before the hook is published.
void pat_allow_owners(void);

/// Whether Tracking.c may open scopes (set by a successful install, cleared by `pat_disable`).
extern _Atomic int pat_tracking_enabled;

/// The runtime's exported functions the tracker calls (C convention, libswiftCore).
extern void *swift_retain(void *object);
extern void swift_release(void *object);
extern void *swift_retain_n(void *object, uint32_t count);
extern void swift_release_n(void *object, uint32_t count);
extern void *swift_tryRetain(void *object);
extern void *swift_unownedRetain(void *object);
extern void swift_unownedRelease(void *object);
extern bool swift_isDeallocating(void *object);
extern size_t swift_retainCount(void *object);
extern void swift_slowDealloc(void *pointer, size_t size, size_t alignment_mask);

// Conversions without casts: in C a cast describes its type to the debugger even inside a function
// that is not described (see Runtime.c), so pointers and integers meet through unions.
#define PAT_NODEBUG __attribute__((nodebug))

PAT_NODEBUG static inline uintptr_t pat_bits(const void *pointer) {
  union {
    const void *pointer;
    uintptr_t bits;
  } value = {.pointer = pointer};
  return value.bits;
}

PAT_NODEBUG static inline void *pat_pointer(uintptr_t bits) {
  union {
    uintptr_t bits;
    void *pointer;
  } value = {.bits = bits};
  return value.pointer;
}

/// `offset` bytes past `base`.
PAT_NODEBUG static inline const void *pat_at(const void *base, size_t offset) {
  const uint8_t *bytes = base;
  return bytes + offset;
}

/// Fills `failure` and returns 0.
int pat_fail(pat_failure *failure, pat_failure_code code, const char *subject, const char *other, uint64_t first,
             uint64_t second, uint64_t third);

#endif
