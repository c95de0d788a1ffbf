// The allocation hook and the scopes it records into.
//
// The hook runs inside every `swift_allocObject` of the process once installed. With no scope
// open it costs a call and a load. With scopes open, an allocation is recorded when:
// - its metadata is a class's (kind 0: closure contexts and boxes are not classes);
// - the class counts: its nominal type descriptor lies in the main executable and its module is
//   not the toolchain's, a test framework's or this package's own (decided once per metadata and
//   cached in a lock-free table);
// - the allocating task (or thread) has a scope's token bound to the tracker's task-local, which
//   child tasks, task groups, `async let` and `Task {}` inherit and `Task.detached`, Dispatch and
//   `Thread` do not (read with `swift_task_localValueGet`, which only reads);
// - the scope accepts it (its module narrowing, its ignored types).
// A record pins the object's memory with one unowned reference (`swift_unownedRetain`): after its
// deinit the object's memory stays allocated until that reference goes, so its address cannot be
// handed to another object, and its header can be read (`swift_isDeallocating`) without reading
// freed memory. Dead records are swept (their unowned reference released, which frees the memory
// the deinit left) when a scope's array is full, before it grows: amortised, inside the hook, with
// no user code run. At the scope's end an object is alive exactly when `swift_tryRetain` succeeds.
//
// A scope's records are guarded by a lock of its own, taken only here (inside the hook and by the
// scope's begin, end and statistics), never held by user code, never held while a Swift object is
// allocated (nothing under it allocates one: it reallocates memory, releases unowned references,
// reads headers), so the hook cannot wait on user code nor on itself.
//
// The owner's path: the first thread to record into a scope becomes its owner and records without
// the lock for as long as no other thread records into it (the lock's locked instruction was a
// fifth of the time tracking added to an allocation: 1,000,000 objects made and freed took 2.09
// times their untracked CPU time with it, 1.87 without). The owner says it is recording (a plain store),
// then checks it still owns the scope; a second thread, the scope's end or its statistics take the
// lock, revoke the ownership for good, make every thread of the process execute a full barrier
// (`membarrier`), and wait until the owner is not recording: then the owner either saw the
// revocation or is seen recording (an asymmetric Dekker, as in userspace RCU). Without `membarrier`
// (an old kernel, valgrind) nobody owns a scope: every record takes the lock.
#define _GNU_SOURCE
#include "Internal.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#if PAT_SUPPORTED
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

// No debug information: clang's default for C here is DWARF 5, whose forms valgrind 3.19 cannot
// read (it then gives up on the whole executable), and a package's C target cannot choose its
// DWARF version without unsafe flags. So nothing in this file is described to a debugger, and no
// explicit cast is written (clang describes a cast's type even inside a nodebug function: a
// `(uintptr_t)` cast made a DWARF 5 unit, and valgrind gave up on the demo); `pat_bits` converts.
#pragma clang attribute push(__attribute__((nodebug)), apply_to = any(hasType(functionType), variable(unless(is_parameter))))

#define PAT_SLOT_BITS 10
#define PAT_SLOT_COUNT (1u << PAT_SLOT_BITS)
#define PAT_CACHE_BITS 14
#define PAT_CACHE_CAPACITY (1u << PAT_CACHE_BITS)
#define PAT_CACHE_PROBES 16
#define PAT_MODULE_CAPACITY 512u
#define PAT_NOT_COUNTED 0xFFFFFFFFu
#define PAT_PROBE_MODULE 0xFFFFFFFEu
#define PAT_FIRST_CAPACITY 64u

typedef struct pat_record {
  void *object;
  uint64_t order;
  /// Where the allocation was made: the hook's frame on its thread's stack, and the thread (the
  /// address of a thread-local). A singleton's own parts are told from what a test gives it by
  /// these (see `pat_survivor`).
  uintptr_t frame;
  uintptr_t thread;
} pat_record;

/// One byte per thread whose address names the thread (initial-exec: a register and an offset).
static __thread char pat_thread_marker __attribute__((tls_model("initial-exec")));

struct pat_slot;

/// One thread's state for the owner's path; made at the thread's first recorded allocation and
/// never freed (a revoker may read an exited owner's), kept reachable in `pat_threads`.
typedef struct pat_thread {
  /// The slot this thread is recording into without the lock, or NULL.
  _Atomic(struct pat_slot *) recording;
  struct pat_thread *next;
} pat_thread;

/// One scope's state. A slot is claimed by `pat_scope_begin` (`claimed`), published with its
/// token, closed by `pat_scope_end` (token back to 0) and freed for reuse. Everything but `claimed`
/// and `lock` is read and written under `lock`; `token` is also read without it, as a hint.
typedef struct pat_slot {
  _Atomic uint32_t lock;
  _Atomic uint32_t claimed;
  _Atomic uint64_t token;
  pat_record *records;
  size_t count;
  size_t capacity;
  uint64_t tracked;
  uint64_t swept;
  uint64_t dropped;
  char **module_names;
  size_t module_count;
  /// Per module of the table: 0 not decided yet, 1 counted by this scope, 2 not. NULL: all count.
  uint8_t *verdicts;
  const void **ignored;
  size_t ignored_count;
  int probe;
  /// Whether `pat_accepts` has anything to check (a probe scope, narrowing or ignored types).
  int filtered;
  /// The thread that records without the lock, NULL before the first record, or `&pat_revoked`.
  _Atomic(pat_thread *) owner;
} pat_slot;

static pat_slot pat_slots[PAT_SLOT_COUNT];
static pat_thread pat_revoked;
static _Atomic(pat_thread *) pat_threads;
static __thread pat_thread *pat_self __attribute__((tls_model("initial-exec")));
/// Whether `membarrier` works here (registered at install): scopes may then have owners.
static _Atomic int pat_owners_allowed;
/// Scopes open now: the one thing the hook reads when none is.
static _Atomic uint64_t pat_open_scopes __attribute__((aligned(64)));
static _Atomic uint64_t pat_next_generation = 1;
static _Atomic uint32_t pat_slot_hint;

typedef struct pat_cache_entry {
  _Atomic(const void *) metadata;
  _Atomic uint32_t verdict;
} pat_cache_entry;

/// Class metadata → verdict: PAT_NOT_COUNTED, PAT_PROBE_MODULE, or its module's index + 1.
static pat_cache_entry pat_cache[PAT_CACHE_CAPACITY];

typedef struct pat_module {
  const void *descriptor;
  const char *name;
} pat_module;

/// The modules whose classes count, in the order they were first seen; entries never change once
/// `pat_module_count` covers them.
static pat_module pat_modules[PAT_MODULE_CAPACITY];
static _Atomic uint32_t pat_module_count;
static _Atomic uint32_t pat_module_lock;

// MARK: - Locks

static PAT_UNINSTRUMENTED inline void pat_lock(_Atomic uint32_t *lock) {
  while (atomic_exchange_explicit(lock, 1, memory_order_acquire) != 0) {
    for (unsigned spins = 0; atomic_load_explicit(lock, memory_order_relaxed) != 0; spins++) {
      if (spins < 64) {
#if defined(__x86_64__)
        __builtin_ia32_pause();
#endif
      } else {
        sched_yield();
      }
    }
  }
}

static PAT_UNINSTRUMENTED inline void pat_unlock(_Atomic uint32_t *lock) {
  atomic_store_explicit(lock, 0, memory_order_release);
}

// MARK: - Which classes count

/// Modules whose classes never count: the toolchain's (when linked statically), the test
/// frameworks', and this package's. Everything else declared in the main executable counts. One
/// array of names, each ended by a NUL, the list by an empty name (no string literals: see
/// Runtime.c).
static const char pat_excluded_modules[] =
    "Swift\0_Concurrency\0_StringProcessing\0_RegexParser\0RegexBuilder\0Synchronization\0Observation\0"
    "Distributed\0Cxx\0CxxStdlib\0Runtime\0_Backtracing\0_Differentiation\0SwiftOnoneSupport\0"
    "Foundation\0FoundationEssentials\0FoundationInternationalization\0FoundationNetworking\0FoundationXML\0"
    "_FoundationCollections\0_FoundationCShims\0_FoundationUnicode\0CoreFoundation\0Dispatch\0"
    "XCTest\0Testing\0_TestingInternals\0_TestDiscovery\0_Testing_Foundation\0_Testing_CoreGraphics\0"
    "_Testing_CoreImage\0_Testing_UIKit\0_Testing_AppKit\0"
    "PresentationModel\0PresentationModelDiagnostics\0PresentationModelTesting\0PresentationCaptureReading\0";

static int pat_module_excluded(const char *name) {
  for (const char *excluded = pat_excluded_modules; *excluded; excluded += strlen(excluded) + 1) {
    if (strcmp(name, excluded) == 0) return 1;
  }
  return 0;
}

static int pat_in_main_image(const void *address) {
  uintptr_t value = pat_bits(address);
  for (int index = 0; index < pat_runtime.image_ranges; index++) {
    if (value >= pat_runtime.image_start[index] && value < pat_runtime.image_end[index]) return 1;
  }
  return 0;
}

const void *pat_class_descriptor(const void *metadata) {
#if PAT_SUPPORTED
  // Class metadata without Objective-C interop (64-bit): kind (0), superclass, flags (4 bytes),
  // instance address point (4), instance size (4), alignment mask (2), reserved (2), class size
  // (4), class address point (4), then the nominal type descriptor at byte 40.
  const uintptr_t *kind = metadata;
  if (*kind != 0) return 0;
  const void *const *descriptor = pat_at(metadata, 40);
  return *descriptor;
#else
  (void)metadata;
  return 0;
#endif
}

/// A relative pointer of a context descriptor: a 32-bit offset from its own address; with
/// `indirectable`, an odd offset leads to a pointer to the target instead.
static const void *pat_relative(const uint8_t *field, int indirectable) {
  int32_t offset;
  memcpy(&offset, field, sizeof offset);
  if (offset == 0) return 0;
  if (indirectable && (offset & 1)) {
    const void *slot = field + (offset & ~1);
    const void *const *indirect = slot;
    return *indirect;
  }
  return field + offset;
}

static uint32_t pat_module_index(const void *descriptor, const char *name) {
  uint32_t count = atomic_load_explicit(&pat_module_count, memory_order_acquire);
  for (uint32_t index = 0; index < count; index++) {
    if (pat_modules[index].descriptor == descriptor) return index;
  }
  pat_lock(&pat_module_lock);
  // Acquire, though the lock already orders it: the lock is not instrumented, so only this load
  // shows ThreadSanitizer that the entries another thread added under it happened before the
  // reads below (with a relaxed load it reported those reads as a race).
  count = atomic_load_explicit(&pat_module_count, memory_order_acquire);
  uint32_t found = PAT_NOT_COUNTED;
  for (uint32_t index = 0; index < count && found == PAT_NOT_COUNTED; index++) {
    if (pat_modules[index].descriptor == descriptor) found = index;
  }
  if (found == PAT_NOT_COUNTED && count < PAT_MODULE_CAPACITY) {
    pat_modules[count].descriptor = descriptor;
    pat_modules[count].name = name;
    atomic_store_explicit(&pat_module_count, count + 1, memory_order_release);
    found = count;
  }
  pat_unlock(&pat_module_lock);
  return found;
}

/// Decides whether a class's instances count, and for which module. Reads only the metadata and
/// descriptors of a class the runtime is allocating an instance of (so they are valid).
static uint32_t pat_decide(const void *metadata) {
  if (metadata == pat_runtime.probe_metadata) return PAT_PROBE_MODULE;
  const uint8_t *descriptor = pat_class_descriptor(metadata);
  if (!descriptor || !pat_in_main_image(descriptor)) return PAT_NOT_COUNTED;
  uint32_t flags;
  memcpy(&flags, descriptor, sizeof flags);
  if ((flags & 0x1F) != 16) return PAT_NOT_COUNTED;  // not a class descriptor
  // Up the parent chain (anonymous contexts, extensions, enclosing types) to the module.
  const uint8_t *context = descriptor;
  for (int depth = 0; depth < 64; depth++) {
    memcpy(&flags, context, sizeof flags);
    if ((flags & 0x1F) == 0) break;
    context = pat_relative(context + 4, 1);
    if (!context) return PAT_NOT_COUNTED;
  }
  if ((flags & 0x1F) != 0) return PAT_NOT_COUNTED;
  const char *name = pat_relative(context + 8, 0);
  if (!name || pat_module_excluded(name)) return PAT_NOT_COUNTED;
  uint32_t index = pat_module_index(context, name);
  return index == PAT_NOT_COUNTED ? PAT_NOT_COUNTED : index + 1;
}

static inline size_t pat_cache_index(const void *metadata) {
  return ((pat_bits(metadata) >> 4) * 0x9E3779B97F4A7C15ULL) >> (64 - PAT_CACHE_BITS);
}

static PAT_UNINSTRUMENTED __attribute__((noinline)) uint32_t pat_decide_and_cache(const void *metadata) {
  uint32_t verdict = pat_decide(metadata);
  size_t index = pat_cache_index(metadata);
  for (int probe = 0; probe < PAT_CACHE_PROBES; probe++, index = (index + 1) & (PAT_CACHE_CAPACITY - 1)) {
    const void *key = 0;
    if (atomic_compare_exchange_strong_explicit(&pat_cache[index].metadata, &key, metadata, memory_order_acq_rel,
                                                memory_order_acquire) ||
        key == metadata) {
      // Two threads deciding the same class store the same verdict.
      atomic_store_explicit(&pat_cache[index].verdict, verdict, memory_order_release);
      break;
    }
  }
  return verdict;  // a full neighbourhood: decided again next time
}

/// The verdict past the first probe: the rest of the neighbourhood, or a decision.
static PAT_UNINSTRUMENTED __attribute__((noinline)) uint32_t pat_verdict_probing(const void *metadata) {
  size_t index = pat_cache_index(metadata);
  for (int probe = 0; probe < PAT_CACHE_PROBES; probe++, index = (index + 1) & (PAT_CACHE_CAPACITY - 1)) {
    const void *key = atomic_load_explicit(&pat_cache[index].metadata, memory_order_acquire);
    if (key == metadata) {
      uint32_t verdict = atomic_load_explicit(&pat_cache[index].verdict, memory_order_acquire);
      if (verdict != 0) return verdict;
      break;
    }
    if (key == 0) break;
  }
  return pat_decide_and_cache(metadata);
}

static PAT_UNINSTRUMENTED inline __attribute__((always_inline)) uint32_t pat_verdict(const void *metadata) {
  pat_cache_entry *entry = &pat_cache[pat_cache_index(metadata)];
  if (__builtin_expect(atomic_load_explicit(&entry->metadata, memory_order_acquire) == metadata, 1)) {
    uint32_t verdict = atomic_load_explicit(&entry->verdict, memory_order_acquire);
    if (verdict != 0) return verdict;
  }
  return pat_verdict_probing(metadata);
}

// MARK: - Records

/// Whether `slot`'s scope counts this allocation (called under its lock).
static PAT_UNINSTRUMENTED int pat_accepts(pat_slot *slot, uint32_t verdict, const void *metadata) {
  if (verdict == PAT_PROBE_MODULE || slot->probe) return verdict == PAT_PROBE_MODULE && slot->probe;
  uint32_t module = verdict - 1;
  if (slot->verdicts) {
    uint8_t decided = slot->verdicts[module];
    if (decided == 0) {
      decided = 2;
      for (size_t index = 0; index < slot->module_count; index++) {
        if (strcmp(pat_modules[module].name, slot->module_names[index]) == 0) decided = 1;
      }
      slot->verdicts[module] = decided;
    }
    if (decided != 1) return 0;
  }
  if (slot->ignored_count) {
    const void *descriptor = pat_class_descriptor(metadata);
    for (size_t index = 0; index < slot->ignored_count; index++) {
      if (slot->ignored[index] == descriptor) return 0;
    }
  }
  return 1;
}

/// Whether a recorded (so pinned, so allocated) object has begun to deinitialise: the IsDeiniting bit
/// (32) of its inline reference counts, as the recognised `__swift_tryRetain_` tests it; with a side
/// table (bit 63), through the runtime.
static PAT_UNINSTRUMENTED inline __attribute__((always_inline)) int pat_is_deallocating(void *object) {
  const _Atomic uint64_t *counts = pat_at(object, 8);
  uint64_t word = atomic_load_explicit(counts, memory_order_relaxed);
  if (word >> 63) return swift_isDeallocating(object);
  return (word >> 32) & 1;
}

/// Releases the record of an object that has begun to deinitialise. When its inline word says the
/// record holds the last unowned reference (no side table, deiniting, unowned count 1: its deinit
/// and the runtime's deallocation are over, and nothing else can reach it), this is what the
/// recognised `swift_unownedRelease` does then: `swift_slowDealloc` with the class's instance size
/// and alignment mask. Otherwise, through the runtime.
static PAT_UNINSTRUMENTED inline __attribute__((always_inline)) void pat_release_dead(void *object) {
  const _Atomic uint64_t *counts = pat_at(object, 8);
  uint64_t word = atomic_load_explicit(counts, memory_order_acquire);
  if ((word >> 63) == 0 && ((word >> 32) & 1) && ((word >> 1) & 0x7FFFFFFF) == 1) {
    const void *const *header = object;
    const uint32_t *instance_size = pat_at(*header, 24);
    const uint16_t *alignment_mask = pat_at(*header, 28);
    swift_slowDealloc(object, *instance_size, *alignment_mask);
    return;
  }
  swift_unownedRelease(object);
}

/// Releases the records of objects that have begun to deinitialise (under the slot's lock).
/// `swift_unownedRelease` frees the memory a finished deinit left; no user code runs.
static PAT_UNINSTRUMENTED void pat_sweep(pat_slot *slot) {
  size_t kept = 0;
  for (size_t index = 0; index < slot->count; index++) {
    pat_record record = slot->records[index];
    if (pat_is_deallocating(record.object)) {
      pat_release_dead(record.object);
      slot->swept++;
    } else {
      slot->records[kept++] = record;
    }
  }
  slot->count = kept;
}

/// Makes room for one record: a sweep first; the array grows when over half of it is still in
/// use, so that the next sweep is at least half an array of records away (amortised constant).
static PAT_UNINSTRUMENTED int pat_make_room(pat_slot *slot) {
  pat_sweep(slot);
  if (slot->count > slot->capacity / 2 || slot->capacity == 0) {
    size_t capacity = slot->capacity ? slot->capacity * 2 : PAT_FIRST_CAPACITY;
    pat_record *records = realloc(slot->records, capacity * sizeof *records);
    if (!records) return slot->count < slot->capacity;
    slot->records = records;
    slot->capacity = capacity;
  }
  return 1;
}

/// Pins a fresh object's memory with one more unowned reference. From the runtime's built-in
/// allocation, its header was just written {metadata, 3} (strong 1, unowned 1; the recognised
/// `__swift_allocObject_`) and nobody else has its address yet: one more unowned reference is +2
/// on that word (the recognised `incrementUnowned`: the unowned count in bits 1-31), a plain store.
/// Otherwise, through the runtime.
static PAT_UNINSTRUMENTED inline __attribute__((always_inline)) void pat_pin(void *object) {
  if (pat_previous_allocate == pat_runtime.builtin_allocate) {
    uint64_t *counts = pat_pointer(pat_bits(object) + 8);
    if (*counts == 3) {
      *counts = 5;
      return;
    }
  }
  swift_unownedRetain(object);
}

/// Records one allocation into a slot whose token is the allocating task's (under the slot's lock,
/// or by its owner).
static PAT_UNINSTRUMENTED inline __attribute__((always_inline)) void pat_record_allocation(pat_slot *slot, uint32_t verdict,
                                                                             const void *metadata, void *object) {
  if ((slot->filtered || verdict == PAT_PROBE_MODULE) && !pat_accepts(slot, verdict, metadata)) return;
  // The record before the last, first: in a body that makes objects one after another and drops
  // each once the next is made (or at once), it is dead by now, and releasing it here hands its
  // memory back to the allocator while it is still the allocator's most recent (the next
  // allocation of that size takes it back).
  if (slot->count >= 2 && pat_is_deallocating(slot->records[slot->count - 2].object)) {
    pat_release_dead(slot->records[slot->count - 2].object);
    slot->records[slot->count - 2] = slot->records[slot->count - 1];
    slot->count--;
    slot->swept++;
  }
  if (slot->count < slot->capacity || pat_make_room(slot)) {
    // Pinned before the record is seen by anyone: the scope's end releases every record it takes.
    pat_pin(object);
    slot->records[slot->count].object = object;
    slot->records[slot->count].order = ++slot->tracked;
    slot->records[slot->count].frame = pat_bits(__builtin_frame_address(0));
    slot->records[slot->count].thread = pat_bits(&pat_thread_marker);
    slot->count++;
  } else {
    slot->dropped++;
  }
}

static PAT_UNINSTRUMENTED __attribute__((noinline)) pat_thread *pat_register_thread(void) {
  pat_thread *self = calloc(1, sizeof *self);
  if (!self) return 0;
  pat_thread *head = atomic_load(&pat_threads);
  do {
    self->next = head;
  } while (!atomic_compare_exchange_weak(&pat_threads, &head, self));
  pat_self = self;
  return self;
}

/// Ends the owner's path of a slot for good (under its lock): after it, every record takes the
/// lock, and no record is being made without it.
static PAT_UNINSTRUMENTED void pat_revoke(pat_slot *slot) {
  pat_thread *owner = atomic_load_explicit(&slot->owner, memory_order_relaxed);
  atomic_store_explicit(&slot->owner, &pat_revoked, memory_order_relaxed);
  if (owner == 0 || owner == &pat_revoked) return;
  // Every thread executes a full barrier: the owner's "recording" store before its last check of
  // the ownership is visible now, or that check sees the revocation.
#if PAT_SUPPORTED
  syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
#endif
  while (atomic_load_explicit(&owner->recording, memory_order_acquire) == slot) sched_yield();
}

static PAT_UNINSTRUMENTED __attribute__((noinline)) void pat_track(void *object, const void *metadata) {
  const uintptr_t *kind = metadata;
  if (*kind != 0) return;  // not a class: a closure context, a box, a task
  uint32_t verdict = pat_verdict(metadata);
  if (verdict == PAT_NOT_COUNTED) return;
  const uint64_t *bound = pat_runtime.local_value_get(pat_runtime.task_local_key);
  if (!bound) return;
  uint64_t token = *bound;
  if (token == 0) return;
  pat_slot *slot = &pat_slots[token & (PAT_SLOT_COUNT - 1)];
  if (atomic_load_explicit(&slot->token, memory_order_relaxed) != token) return;
  pat_thread *self = pat_self;
  if (self && atomic_load_explicit(&slot->owner, memory_order_relaxed) == self) {
    atomic_store_explicit(&self->recording, slot, memory_order_relaxed);
    atomic_signal_fence(memory_order_seq_cst);  // the other half of the fence is the revoker's membarrier
    if (atomic_load_explicit(&slot->owner, memory_order_relaxed) == self &&
        atomic_load_explicit(&slot->token, memory_order_relaxed) == token) {
      pat_record_allocation(slot, verdict, metadata, object);
      atomic_store_explicit(&self->recording, 0, memory_order_release);
      return;
    }
    atomic_store_explicit(&self->recording, 0, memory_order_release);
  }
  pat_lock(&slot->lock);
  if (atomic_load_explicit(&slot->token, memory_order_relaxed) == token) {
    pat_thread *owner = atomic_load_explicit(&slot->owner, memory_order_relaxed);
    if (owner == 0 && atomic_load_explicit(&pat_owners_allowed, memory_order_relaxed)) {
      if (!self) self = pat_register_thread();
      atomic_store_explicit(&slot->owner, self ? self : &pat_revoked, memory_order_relaxed);
    } else if (owner != self && owner != &pat_revoked) {
      pat_revoke(slot);  // a second thread records: the lock for everyone from now on
    }
    pat_record_allocation(slot, verdict, metadata, object);
  }
  pat_unlock(&slot->lock);
}

void pat_allow_owners(void) {
#if PAT_SUPPORTED
  if (syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0 &&
      syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0) {
    atomic_store(&pat_owners_allowed, 1);
  }
#endif
}

PAT_UNINSTRUMENTED void *pat_allocation_hook(const void *metadata, size_t size, size_t alignment_mask) {
  void *object = pat_previous_allocate(metadata, size, alignment_mask);
  if (__builtin_expect(atomic_load_explicit(&pat_open_scopes, memory_order_relaxed) != 0, 0)) {
    pat_track(object, metadata);
  }
  return object;
}

// MARK: - Scopes

static void pat_free_options(char **names, size_t name_count, uint8_t *verdicts, const void **ignored) {
  for (size_t index = 0; index < name_count; index++) free(names[index]);
  free(names);
  free(verdicts);
  free(ignored);
}

uint64_t pat_scope_begin(const pat_scope_options *options, pat_failure *failure) {
  if (!atomic_load(&pat_tracking_enabled)) {
    pat_fail(failure, pat_failure_not_installed, 0, 0, 0, 0, 0);
    return 0;
  }
  char **names = 0;
  uint8_t *verdicts = 0;
  const void **ignored = 0;
  size_t name_count = 0;
  if (options->module_count) {
    names = calloc(options->module_count, sizeof *names);
    verdicts = calloc(PAT_MODULE_CAPACITY, 1);
    for (; names && name_count < options->module_count; name_count++) {
      names[name_count] = strdup(options->module_names[name_count]);
      if (!names[name_count]) break;
    }
    if (!names || !verdicts || name_count != options->module_count) {
      pat_free_options(names, name_count, verdicts, 0);
      pat_fail(failure, pat_failure_out_of_memory, 0, 0, 0, 0, 0);
      return 0;
    }
  }
  if (options->ignored_count) {
    ignored = malloc(options->ignored_count * sizeof *ignored);
    if (!ignored) {
      pat_free_options(names, name_count, verdicts, 0);
      pat_fail(failure, pat_failure_out_of_memory, 0, 0, 0, 0, 0);
      return 0;
    }
    memcpy(ignored, options->ignored_descriptors, options->ignored_count * sizeof *ignored);
  }
  uint32_t hint = atomic_fetch_add(&pat_slot_hint, 1);
  pat_slot *slot = 0;
  uint32_t slot_index = 0;
  for (uint32_t attempt = 0; attempt < PAT_SLOT_COUNT && !slot; attempt++) {
    slot_index = (hint + attempt) & (PAT_SLOT_COUNT - 1);
    uint32_t expected = 0;
    if (atomic_compare_exchange_strong(&pat_slots[slot_index].claimed, &expected, 1)) slot = &pat_slots[slot_index];
  }
  if (!slot) {
    pat_free_options(names, name_count, verdicts, ignored);
    pat_fail(failure, pat_failure_too_many_scopes, 0, 0, PAT_SLOT_COUNT, 0, 0);
    return 0;
  }
  uint64_t token = (atomic_fetch_add(&pat_next_generation, 1) << PAT_SLOT_BITS) | slot_index;
  pat_lock(&slot->lock);
  slot->module_names = names;
  slot->module_count = name_count;
  slot->verdicts = verdicts;
  slot->ignored = ignored;
  slot->ignored_count = options->ignored_count;
  slot->probe = options->probe != 0;
  slot->filtered = slot->probe || verdicts || options->ignored_count;
  atomic_store_explicit(&slot->owner, 0, memory_order_relaxed);
  slot->records = 0;
  slot->count = slot->capacity = 0;
  slot->tracked = slot->swept = slot->dropped = 0;
  atomic_store_explicit(&slot->token, token, memory_order_release);
  pat_unlock(&slot->lock);
  atomic_fetch_add(&pat_open_scopes, 1);
  return token;
}

static int pat_by_order(const void *left, const void *right) {
  const pat_survivor *first = left, *second = right;
  uint64_t a = first->order, b = second->order;
  return (a > b) - (a < b);
}

pat_findings pat_scope_end(uint64_t token) {
  pat_findings findings = {0};
  if (token == 0) return findings;
  pat_slot *slot = &pat_slots[token & (PAT_SLOT_COUNT - 1)];
  pat_lock(&slot->lock);
  if (atomic_load_explicit(&slot->token, memory_order_relaxed) != token) {
    pat_unlock(&slot->lock);
    return findings;
  }
  pat_revoke(slot);
  atomic_store_explicit(&slot->token, 0, memory_order_relaxed);
  pat_record *records = slot->records;
  size_t count = slot->count;
  findings.tracked = slot->tracked;
  findings.dropped = slot->dropped;
  char **names = slot->module_names;
  size_t name_count = slot->module_count;
  uint8_t *verdicts = slot->verdicts;
  const void **ignored = slot->ignored;
  slot->records = 0;
  slot->count = slot->capacity = 0;
  slot->module_names = 0;
  slot->module_count = 0;
  slot->verdicts = 0;
  slot->ignored = 0;
  slot->ignored_count = 0;
  slot->filtered = 0;
  pat_unlock(&slot->lock);
  atomic_fetch_sub(&pat_open_scopes, 1);
  atomic_store(&slot->claimed, 0);
  pat_free_options(names, name_count, verdicts, ignored);

  // Outside the lock: which objects are alive. Every record still holds its unowned reference, so
  // each header read here is of allocated memory, whatever became of the object.
  pat_survivor *survivors = count ? malloc(count * sizeof *survivors) : 0;
  size_t alive = 0;
  for (size_t index = 0; index < count; index++) {
    void *object = records[index].object;
    if (survivors && swift_tryRetain(object) != 0) {
      survivors[alive].object = object;
      survivors[alive].order = records[index].order;
      survivors[alive].frame = records[index].frame;
      survivors[alive].thread = records[index].thread;
      alive++;
    }
    swift_unownedRelease(object);
  }
  if (count && !survivors) findings.dropped += count;  // out of memory: none could be checked
  free(records);
  if (alive) qsort(survivors, alive, sizeof *survivors, pat_by_order);
  findings.survivors = survivors;
  findings.survivor_count = alive;
  return findings;
}

void pat_findings_free(pat_findings *findings) {
  free(findings->survivors);
  findings->survivors = 0;
  findings->survivor_count = 0;
}

pat_scope_statistics pat_scope_statistics_of(uint64_t token) {
  pat_scope_statistics statistics = {0};
  if (token == 0) return statistics;
  pat_slot *slot = &pat_slots[token & (PAT_SLOT_COUNT - 1)];
  pat_lock(&slot->lock);
  if (atomic_load_explicit(&slot->token, memory_order_relaxed) == token) {
    pat_revoke(slot);
    for (size_t index = 0; index < slot->count; index++) {
      statistics.live += !swift_isDeallocating(slot->records[index].object);
    }
    statistics.held = slot->count;
    statistics.tracked = slot->tracked;
    statistics.swept = slot->swept;
  }
  pat_unlock(&slot->lock);
  return statistics;
}

void pat_retain_release_pairs(void *object, size_t count) {
  for (size_t index = 0; index < count; index++) {
    swift_retain(object);
    swift_release(object);
  }
}

#pragma clang attribute pop
