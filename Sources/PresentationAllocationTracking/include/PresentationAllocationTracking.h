// The allocation tracker behind `.detectsLeaks(.everyObject)`: a hook on the Swift runtime's
// allocation entry point that records, per scope, the instances of the test process's own classes
// allocated by the tasks that carry the scope's task-local token. Not part of any product's API:
// PresentationModelDiagnostics wraps it (`EveryObjectTracking`, `EveryObjectScope`).
//
// Nothing here runs until `pat_install` is called; the hook is installed by it, once, never
// removed. Where the runtime is not recognised, `pat_install` installs nothing and says why.
#ifndef PRESENTATION_ALLOCATION_TRACKING_H
#define PRESENTATION_ALLOCATION_TRACKING_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Why something failed: a code, and the names and numbers it is about. Nothing here is worded
/// (the C code of this target holds no text: see Runtime.c); PresentationModelDiagnostics words it.
typedef enum __attribute__((enum_extensibility(closed))) pat_failure_code {
  pat_failure_none = 0,
  /// Not Linux on x86-64 (`first`: 1 on Apple platforms).
  pat_failure_platform,
  /// The runtime does not export `subject`.
  pat_failure_export_missing,
  /// No loaded image holds `swift_retain`.
  pat_failure_no_runtime_image,
  /// `subject` (a file) cannot be opened, read or mapped.
  pat_failure_file_unreadable,
  /// `subject` is not an x86-64 ELF file with section headers.
  pat_failure_not_elf,
  /// `subject` has no `.symtab`.
  pat_failure_no_symbol_table,
  /// `subject` on disk has another build ID than the library loaded.
  pat_failure_build_id_differs,
  /// The `.symtab` of `subject` disagrees with the addresses the dynamic linker gives.
  pat_failure_symbols_disagree,
  /// Function `subject` is not in the `.symtab` (or is there twice).
  pat_failure_function_missing,
  /// Function `subject` differs from toolchain `other`'s at byte `first` of `second`.
  pat_failure_function_differs,
  /// Function `subject`'s displacement at byte `first` does not lead to `other`.
  pat_failure_target_differs,
  /// The private retain adapter is not in the `.symtab`.
  pat_failure_adapter_missing,
  /// The main executable's segments are not found.
  pat_failure_main_image_missing,
  /// The private retain adapter pointer holds something else than the runtime's adapter.
  pat_failure_adapter_replaced,
  /// The self-test's payload `first` is not a tagged small-string word pointing into page zero.
  pat_failure_payload_not_tagged,
  /// `subject` (an entry point) changed or retained a tagged word.
  pat_failure_tagged_word_changed,
  /// `subject` (an entry point) did not return the pointer it was given.
  pat_failure_pointer_changed,
  /// Retain counts `first`, `second`, `third` where `first`, `first` + 4, `first` were expected.
  pat_failure_retain_counts,
  /// Tracking is not installed (or was disabled).
  pat_failure_not_installed,
  /// Out of memory.
  pat_failure_out_of_memory,
  /// `first` scopes are open already.
  pat_failure_too_many_scopes,
} pat_failure_code;

typedef struct pat_failure {
  pat_failure_code code;
  /// A function, symbol or file the failure is about (static storage), or NULL.
  const char *_Nullable subject;
  /// A second name: the symbol a displacement should lead to, a toolchain; or NULL.
  const char *_Nullable other;
  uint64_t first;
  uint64_t second;
  uint64_t third;
} pat_failure;

/// What `pat_install` checks and does, in order:
/// 1. the platform (Linux x86_64 only) and the runtime's entry points (`_swift_allocObject`, the
///    retain pointer, the swizzle flag; `swift_task_localValueGet`);
/// 2. libswiftCore's `.symtab`, read from the file the process loaded (same build ID), for the
///    private retain adapter pointer and the functions that dispatch through the pointers;
/// 3. every one of those functions byte for byte against a recognised toolchain's (see
///    RecognisedCode.inc), each call and %rip-relative operand against the symbol it must reach;
/// 4. mends the Swift 6.3 flaw: points the private retain adapter at one that tests the sign of
///    the unmasked pointer first, as the runtime's own fast path does;
/// 5. sets the swizzle flag, then retains and releases `tagged_payload` (a tagged small-string
///    word, which the flawed adapter dereferences) through `swift_retain`, `swift_release`,
///    `swift_retain_n`, `swift_release_n`, `swift_tryRetain`, and `probe` (a live object) plain and
///    with spare bits set, checking its retain count after each;
/// 6. installs the allocation hook with a compare-and-swap that chains to what the pointer held.
/// Returns 1 when installed (or already installed), 0 with `failure` filled otherwise. Call it once
/// (PresentationModelDiagnostics calls it from a `static let`); later calls return the first
/// outcome. `task_local_key` is the `TaskLocal` object whose value is a scope's token (`UInt64`);
/// `probe_metadata` is the class the self-test's probe scope counts.
int pat_install(const void *_Nonnull task_local_key, uintptr_t tagged_payload, void *_Nonnull probe,
                const void *_Nonnull probe_metadata, pat_failure *_Nonnull failure);

/// Stops all tracking for good (the self-test failed): no scope can begin any more.
void pat_disable(void);

/// Options of one scope. Strings and arrays are copied by `pat_scope_begin`.
typedef struct pat_scope_options {
  /// Module names to count; `module_count == 0` counts every module the process counts.
  const char *_Nonnull const *_Nullable module_names;
  size_t module_count;
  /// Nominal type descriptors of classes not to count (every specialisation of a generic class).
  const void *_Nonnull const *_Nullable ignored_descriptors;
  size_t ignored_count;
  /// Counts the self-test's probe class (and nothing else of PresentationModelDiagnostics).
  int probe;
} pat_scope_options;

/// Opens a scope and returns its token (never 0), or 0 with `failure` filled (not installed, out of
/// memory, or every slot in use). The scope records nothing until its token is bound to the
/// task-local.
uint64_t pat_scope_begin(const pat_scope_options *_Nonnull options, pat_failure *_Nonnull failure);

/// One object that outlived its scope, retained (+1) for the caller.
typedef struct pat_survivor {
  void *_Nonnull object;
  /// 1 for the scope's first tracked allocation, and so on.
  uint64_t order;
  /// The allocating hook's frame address (lower: deeper in the stack) and thread, to tell what an
  /// object made while it was being made (a singleton's initialiser) from what came later.
  uintptr_t frame;
  uintptr_t thread;
} pat_survivor;

typedef struct pat_findings {
  /// Survivors in allocation order, each retained (+1); `malloc`ed: free it with `pat_findings_free`.
  pat_survivor *_Nullable survivors;
  size_t survivor_count;
  /// Allocations the scope tracked.
  uint64_t tracked;
  /// Allocations the scope could not record (out of memory); their objects were not tracked.
  uint64_t dropped;
} pat_findings;

/// Closes the scope: later allocations under its token are not recorded. Returns the survivors
/// (objects still alive, retained for the caller) and releases every other record. Holds no lock
/// while it retains or releases. A second call, or a stale token, returns no findings.
pat_findings pat_scope_end(uint64_t token);

/// Frees the survivors array (the objects stay retained: the caller releases them).
void pat_findings_free(pat_findings *_Nonnull findings);

/// Statistics of an open scope, read under its lock; all zero for a closed one.
typedef struct pat_scope_statistics {
  /// Records not yet swept whose object is alive.
  uint64_t live;
  /// Records held (live objects and dead ones not yet swept).
  uint64_t held;
  uint64_t tracked;
  uint64_t swept;
} pat_scope_statistics;

pat_scope_statistics pat_scope_statistics_of(uint64_t token);

/// The runtime's state as this process sees it, for the check that nothing is installed until a
/// scope asks: whether `_swift_allocObject` holds our hook, whether it holds the runtime's
/// built-in function (an address inside libswiftCore), the swizzle flag, and whether the retain
/// adapter is ours. -1 where the runtime does not export what is asked.
typedef struct pat_runtime_state {
  int allocation_hook_is_ours;
  int allocation_pointer_in_runtime;
  int swizzle_flag;
} pat_runtime_state;

pat_runtime_state pat_read_runtime_state(void);

/// The nominal type descriptor of class metadata (NULL if it is not a Swift class's).
const void *_Nullable pat_class_descriptor(const void *_Nonnull metadata);

/// Retains and releases `object` `count` times through the public entry points (the benchmark's
/// retain/release figure).
void pat_retain_release_pairs(void *_Nonnull object, size_t count);

/// Checks a function's bytes against a pattern of RecognisedCode.inc by name (for the tests): 1 if
/// `code` matches the recognised toolchain's pattern of `function` (displacements not resolved),
/// 0 if not, -1 if no recognised toolchain has a pattern of that name.
int pat_matches_recognised_code(const char *_Nonnull function, const uint8_t *_Nonnull code, size_t size);

/// The address and size of a function of libswiftCore by its `.symtab` name (for the tests);
/// NULL if it is not found.
const uint8_t *_Nullable pat_runtime_function(const char *_Nonnull name, size_t *_Nonnull size);

#ifdef __cplusplus
}
#endif

#endif
