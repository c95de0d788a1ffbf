// Finding, checking and mending the runtime, then installing the allocation hook: `pat_install`.
//
// The Swift runtime (libswiftCore) keeps the pointers `_swift_allocObject`, `_swift_retain`,
// `_swift_release`, `_swift_retain_n`, `_swift_release_n`, `_swift_tryRetain` for Instruments.
// `swift_allocObject` compares `_swift_allocObject` with its built-in function on every call; once
// they differ it sets the flag `_swift_enableSwizzlingOfAllocationAndRefCountingFunctions_...`
// itself and calls through the pointer. From then on every retain and release of the process goes
// through the pointers too: `swift_release` through a private adapter that forwards unchanged,
// `swift_retain` through a private adapter pointer, `_swift_retain_adapter`, whose function in
// Swift 6.3 (`_swift_retain_adapterImpl`) masks the spare bits off the pointer *before* the
// built-in retain tests its sign. A tagged small-string word (sign bit set, so "not an object" to
// the fast path) loses its tag and is dereferenced: the process crashes at its first retain of
// such a string (fixed upstream in swiftlang/swift#88924). The fast path tests the sign first.
//
// So, before anything is hooked: every function that dispatches on the flag, both adapters and the
// built-in functions behind the pointers are checked byte for byte against a recognised toolchain
// (RecognisedCode.inc), their calls and %rip-relative operands resolved and checked against the
// symbols the disassembly names; the adapter pointer is pointed at `pat_retain_adapter`, which
// tests the sign of the unmasked pointer first, exactly as the fast path does; the flag is set and
// tagged words and a live object are retained and released through the public entry points. Only
// then is the allocation hook installed. Anything not recognised: nothing is installed, and the
// failure says what (PresentationModelDiagnostics words it).
#define _GNU_SOURCE
#include "Internal.h"

#include <sched.h>
#include <string.h>

#if PAT_SUPPORTED
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

// No debug information, and so no string literal (clang describes each literal to the debugger
// even in a function that is not): clang's default for C here is DWARF 5, whose forms valgrind
// 3.19 cannot read (it then gives up on the whole executable, so on every program that links the
// diagnostics), and a package's C target cannot choose its DWARF version without unsafe flags.
// Every name is a named array; failures are codes that PresentationModelDiagnostics words.
#pragma clang attribute push(__attribute__((nodebug)), apply_to = any(hasType(functionType), variable(unless(is_parameter))))

pat_runtime_entry_points pat_runtime;
pat_allocate_function pat_previous_allocate;

int pat_fail(pat_failure *failure, pat_failure_code code, const char *subject, const char *other, uint64_t first,
             uint64_t second, uint64_t third) {
  failure->code = code;
  failure->subject = subject;
  failure->other = other;
  failure->first = first;
  failure->second = second;
  failure->third = third;
  return 0;
}

/// One 32-bit displacement of a recognised function: where it is, where its instruction ends
/// (the displacement counts from there), and the symbol it must lead to.
typedef struct pat_code_target {
  size_t field;
  size_t end;
  const char *symbol;
} pat_code_target;

/// A recognised function: its `.symtab` name and size, its bytes ("??" for a displacement).
typedef struct pat_code_pattern {
  const char *name;
  size_t size;
  const char *bytes;
  const pat_code_target *targets;
  size_t target_count;
} pat_code_pattern;

typedef struct pat_recognised_runtime {
  const char *description;
  const pat_code_pattern *const *functions;
  size_t function_count;
} pat_recognised_runtime;

#include "RecognisedCode.inc"

static const pat_recognised_runtime *const pat_recognised_runtimes[] = {&pat_swift_6_3_1};
enum { pat_recognised_runtime_count = sizeof(pat_recognised_runtimes) / sizeof(pat_recognised_runtimes[0]) };

static int pat_hex_digit(char character) {
  if (character >= '0' && character <= '9') return character - '0';
  if (character >= 'a' && character <= 'f') return character - 'a' + 10;
  return -1;
}

/// Whether `code` matches `pattern`'s bytes, displacements aside. Writes the first differing
/// offset into `mismatch` (the size when the pattern is shorter than `size` says).
static int pat_bytes_match(const pat_code_pattern *pattern, const uint8_t *code, size_t size, size_t *mismatch) {
  if (size != pattern->size) {
    *mismatch = size < pattern->size ? size : pattern->size;
    return 0;
  }
  size_t offset = 0;
  for (const char *cursor = pattern->bytes; *cursor != 0;) {
    if (*cursor == ' ') {
      cursor++;
      continue;
    }
    if (offset >= size) {
      *mismatch = offset;
      return 0;
    }
    if (cursor[0] != '?') {
      int high = pat_hex_digit(cursor[0]), low = pat_hex_digit(cursor[1]);
      if (high < 0 || low < 0 || code[offset] != high * 16 + low) {
        *mismatch = offset;
        return 0;
      }
    }
    cursor += 2;
    offset++;
  }
  if (offset != size) {
    *mismatch = offset;
    return 0;
  }
  return 1;
}

int pat_matches_recognised_code(const char *function, const uint8_t *code, size_t size) {
  for (size_t runtime = 0; runtime < pat_recognised_runtime_count; runtime++) {
    const pat_recognised_runtime *recognised = pat_recognised_runtimes[runtime];
    for (size_t index = 0; index < recognised->function_count; index++) {
      const pat_code_pattern *pattern = recognised->functions[index];
      if (strcmp(pattern->name, function) == 0) {
        size_t mismatch;
        return pat_bytes_match(pattern, code, size, &mismatch);
      }
    }
  }
  return -1;
}

#if PAT_SUPPORTED

// MARK: - Names

static const char pat_name_allocate_pointer[] = "_swift_allocObject";
static const char pat_name_retain_pointer[] = "_swift_retain";
static const char pat_name_swizzle_flag[] = "_swift_enableSwizzlingOfAllocationAndRefCountingFunctions_forInstrumentsOnly";
static const char pat_name_local_value_get[] = "swift_task_localValueGet";
static const char pat_name_retain[] = "swift_retain";
static const char pat_name_retain_n[] = "swift_retain_n";
static const char pat_name_try_retain[] = "swift_tryRetain";
static const char pat_name_retain_adapter[] = "_ZL21_swift_retain_adapter";
static const char pat_name_flawed_adapter[] = "_ZL25_swift_retain_adapterImplPN5swift10HeapObjectE";
static const char pat_name_builtin_allocate[] = "__swift_allocObject_";
static const char pat_name_this_executable[] = "/proc/self/exe";

// MARK: - Symbols

enum { pat_wanted_capacity = 64, pat_addresses_per_symbol = 2 };

/// The symbols install needs from libswiftCore's `.symtab`, with their load addresses (a local
/// name may occur more than once: up to two are kept, a third makes it ambiguous).
typedef struct pat_symbols {
  const char *names[pat_wanted_capacity];
  uintptr_t addresses[pat_wanted_capacity][pat_addresses_per_symbol];
  size_t sizes[pat_wanted_capacity][pat_addresses_per_symbol];
  int found[pat_wanted_capacity];
  size_t count;
} pat_symbols;

static void pat_want(pat_symbols *symbols, const char *name) {
  for (size_t index = 0; index < symbols->count; index++) {
    if (strcmp(symbols->names[index], name) == 0) return;
  }
  if (symbols->count < pat_wanted_capacity) symbols->names[symbols->count++] = name;
}

/// The one address of `name`, or 0 when it is missing or ambiguous.
static uintptr_t pat_symbol(const pat_symbols *symbols, const char *name, size_t *size) {
  for (size_t index = 0; index < symbols->count; index++) {
    if (strcmp(symbols->names[index], name) == 0) {
      if (symbols->found[index] != 1) return 0;
      if (size) *size = symbols->sizes[index][0];
      return symbols->addresses[index][0];
    }
  }
  return 0;
}

/// Whether `address` is one of the (at most two) addresses of `name`.
static int pat_symbol_has_address(const pat_symbols *symbols, const char *name, uintptr_t address) {
  for (size_t index = 0; index < symbols->count; index++) {
    if (strcmp(symbols->names[index], name) == 0) {
      if (symbols->found[index] > pat_addresses_per_symbol) return 0;
      for (int which = 0; which < symbols->found[index]; which++) {
        if (symbols->addresses[index][which] == address) return 1;
      }
      return 0;
    }
  }
  return 0;
}

/// The loaded object that holds `address`: its load bias, its file name, its program headers.
typedef struct pat_image {
  const void *address;
  uintptr_t bias;
  const char *name;
  const ElfW(Phdr) * headers;
  int header_count;
  int found;
} pat_image;

static int pat_find_image(struct dl_phdr_info *info, size_t size, void *context) {
  (void)size;
  pat_image *image = context;
  uintptr_t address = pat_bits(image->address);
  for (int index = 0; index < info->dlpi_phnum; index++) {
    const ElfW(Phdr) *header = &info->dlpi_phdr[index];
    if (header->p_type != PT_LOAD) continue;
    uintptr_t start = info->dlpi_addr + header->p_vaddr;
    if (address >= start && address < start + header->p_memsz) {
      image->bias = info->dlpi_addr;
      image->name = info->dlpi_name && info->dlpi_name[0] ? info->dlpi_name : pat_name_this_executable;
      image->headers = info->dlpi_phdr;
      image->header_count = info->dlpi_phnum;
      image->found = 1;
      return 1;
    }
  }
  return 0;
}

/// Records the main executable's loaded ranges (the first object `dl_iterate_phdr` reports).
static int pat_record_main_image(struct dl_phdr_info *info, size_t size, void *context) {
  (void)size;
  pat_runtime_entry_points *runtime = context;
  for (int index = 0; index < info->dlpi_phnum && runtime->image_ranges < 8; index++) {
    const ElfW(Phdr) *header = &info->dlpi_phdr[index];
    if (header->p_type != PT_LOAD) continue;
    runtime->image_start[runtime->image_ranges] = info->dlpi_addr + header->p_vaddr;
    runtime->image_end[runtime->image_ranges] = info->dlpi_addr + header->p_vaddr + header->p_memsz;
    runtime->image_ranges++;
  }
  return 1;  // the first object only
}

/// The GNU build ID in a note area, or NULL.
static const uint8_t *pat_build_id(const uint8_t *notes, size_t size, size_t *length) {
  size_t offset = 0;
  while (offset + sizeof(ElfW(Nhdr)) <= size) {
    const ElfW(Nhdr) *note = pat_at(notes, offset);
    size_t name_size = (note->n_namesz + 3) & ~3UL, description_size = (note->n_descsz + 3) & ~3UL;
    size_t description = offset + sizeof(ElfW(Nhdr)) + name_size;
    if (description + description_size > size) return 0;
    const uint8_t *name = notes + offset + sizeof(ElfW(Nhdr));
    if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 && name[0] == 'G' && name[1] == 'N' &&
        name[2] == 'U' && name[3] == 0) {
      *length = note->n_descsz;
      return notes + description;
    }
    offset = description + description_size;
  }
  return 0;
}

/// Reads the wanted symbols from the `.symtab` of the file `image` was loaded from, after checking
/// that the file is that image (its build ID).
static int pat_read_symbols(const pat_image *image, pat_symbols *symbols, pat_failure *failure) {
  const char *path = image->name;
  int file = open(path, O_RDONLY | O_CLOEXEC);
  if (file < 0) return pat_fail(failure, pat_failure_file_unreadable, path, 0, 0, 0, 0);
  struct stat status;
  off_t smallest = sizeof(ElfW(Ehdr));
  if (fstat(file, &status) != 0 || status.st_size < smallest) {
    close(file);
    return pat_fail(failure, pat_failure_file_unreadable, path, 0, 0, 0, 0);
  }
  size_t size = status.st_size;
  void *mapped = mmap(0, size, PROT_READ, MAP_PRIVATE, file, 0);
  close(file);
  const uint8_t *bytes = mapped;
  if (pat_bits(mapped) == UINTPTR_MAX) return pat_fail(failure, pat_failure_file_unreadable, path, 0, 0, 0, 0);
  int result = 0;
  const ElfW(Ehdr) *header = mapped;
  if (header->e_ident[EI_MAG0] != ELFMAG0 || header->e_ident[EI_MAG1] != ELFMAG1 ||
      header->e_ident[EI_MAG2] != ELFMAG2 || header->e_ident[EI_MAG3] != ELFMAG3 ||
      header->e_ident[EI_CLASS] != ELFCLASS64 || header->e_machine != EM_X86_64 ||
      header->e_shentsize != sizeof(ElfW(Shdr)) || header->e_shoff > size ||
      (size - header->e_shoff) / sizeof(ElfW(Shdr)) < header->e_shnum) {
    pat_fail(failure, pat_failure_not_elf, path, 0, 0, 0, 0);
    goto done;
  }
  const ElfW(Shdr) *sections = pat_at(bytes, header->e_shoff);
  const ElfW(Shdr) *symbol_table = 0, *string_table = 0;
  const uint8_t *file_build_id = 0;
  size_t file_build_id_length = 0;
  for (size_t index = 0; index < header->e_shnum; index++) {
    const ElfW(Shdr) *section = &sections[index];
    if (section->sh_offset > size || section->sh_size > size - section->sh_offset) continue;
    if (section->sh_type == SHT_SYMTAB && section->sh_link < header->e_shnum) {
      symbol_table = section;
      string_table = &sections[section->sh_link];
    } else if (section->sh_type == SHT_NOTE && !file_build_id) {
      file_build_id = pat_build_id(bytes + section->sh_offset, section->sh_size, &file_build_id_length);
    }
  }
  if (!symbol_table || string_table->sh_offset > size || string_table->sh_size > size - string_table->sh_offset) {
    pat_fail(failure, pat_failure_no_symbol_table, path, 0, 0, 0, 0);
    goto done;
  }
  // The loaded image's build ID, from its PT_NOTE segments.
  const uint8_t *loaded_build_id = 0;
  size_t loaded_build_id_length = 0;
  for (int index = 0; index < image->header_count && !loaded_build_id; index++) {
    if (image->headers[index].p_type == PT_NOTE) {
      loaded_build_id = pat_build_id(pat_pointer(image->bias + image->headers[index].p_vaddr),
                                     image->headers[index].p_memsz, &loaded_build_id_length);
    }
  }
  if ((file_build_id != 0) != (loaded_build_id != 0) ||
      (file_build_id && (file_build_id_length != loaded_build_id_length ||
                         memcmp(file_build_id, loaded_build_id, file_build_id_length) != 0))) {
    pat_fail(failure, pat_failure_build_id_differs, path, 0, 0, 0, 0);
    goto done;
  }
  const ElfW(Sym) *entries = pat_at(bytes, symbol_table->sh_offset);
  size_t entry_count = symbol_table->sh_size / sizeof(ElfW(Sym));
  const char *strings = pat_at(bytes, string_table->sh_offset);
  size_t strings_size = string_table->sh_size;
  for (size_t entry = 0; entry < entry_count; entry++) {
    const ElfW(Sym) *symbol = &entries[entry];
    if (symbol->st_name == 0 || symbol->st_name >= strings_size || symbol->st_shndx == SHN_UNDEF) continue;
    const char *name = strings + symbol->st_name;
    if (memchr(name, 0, strings_size - symbol->st_name) == 0) continue;
    for (size_t index = 0; index < symbols->count; index++) {
      if (name[0] != symbols->names[index][0] || strcmp(name, symbols->names[index]) != 0) continue;
      uintptr_t address = image->bias + symbol->st_value;
      int duplicate = 0;
      int kept = symbols->found[index] < pat_addresses_per_symbol ? symbols->found[index] : pat_addresses_per_symbol;
      for (int which = 0; which < kept; which++) duplicate |= symbols->addresses[index][which] == address;
      if (duplicate) break;
      if (symbols->found[index] < pat_addresses_per_symbol) {
        symbols->addresses[index][symbols->found[index]] = address;
        symbols->sizes[index][symbols->found[index]] = symbol->st_size;
      }
      symbols->found[index]++;
      break;
    }
  }
  result = 1;
done:
  munmap(mapped, size);
  return result;
}

// MARK: - Recognition

/// Checks every function of `recognised` against the loaded code: bytes, and each displacement
/// against the symbol it must lead to.
static int pat_check_runtime(const pat_recognised_runtime *recognised, const pat_symbols *symbols,
                             pat_failure *failure) {
  for (size_t index = 0; index < recognised->function_count; index++) {
    const pat_code_pattern *pattern = recognised->functions[index];
    size_t size = 0;
    uintptr_t address = pat_symbol(symbols, pattern->name, &size);
    if (!address) return pat_fail(failure, pat_failure_function_missing, pattern->name, 0, 0, 0, 0);
    size_t mismatch = 0;
    if (!pat_bytes_match(pattern, pat_pointer(address), size, &mismatch)) {
      return pat_fail(failure, pat_failure_function_differs, pattern->name, recognised->description, mismatch, size,
                      0);
    }
    for (size_t target = 0; target < pattern->target_count; target++) {
      const pat_code_target *expected = &pattern->targets[target];
      int32_t displacement;
      memcpy(&displacement, pat_at(pat_pointer(address), expected->field), sizeof displacement);
      uintptr_t destination = address + expected->end + displacement;
      if (!pat_symbol_has_address(symbols, expected->symbol, destination)) {
        return pat_fail(failure, pat_failure_target_differs, pattern->name, expected->symbol, expected->field, 0, 0);
      }
    }
  }
  return 1;
}

// MARK: - The retain adapter

/// The spare bits the runtime's retain fast path masks off a positive pointer (x86-64). The
/// recognised `swift_retain` and `__swift_retain_` use this very constant (it is among their bytes).
#define PAT_RETAIN_MASK 0x00FFFFFFFFFFFFF8UL

/// Stands in for `_swift_retain_adapterImpl` once the flag is set: exactly the fast path's rule.
/// A word that is not positive (null, or a tagged non-pointer such as a small string's) is returned
/// untouched; a positive one has its spare bits masked off, is retained through `_swift_retain`
/// (whatever it holds), and is returned as it came.
static PAT_UNINSTRUMENTED void *pat_retain_adapter(void *object) {
  intptr_t word = pat_bits(object);
  if (word <= 0) return object;
  uintptr_t masked = word & PAT_RETAIN_MASK;
  pat_retain_function retain = atomic_load_explicit(pat_runtime.retain_pointer, memory_order_relaxed);
  if (masked == pat_bits(object)) return retain(object);
  retain(pat_pointer(masked));
  return object;
}

// MARK: - Install

static _Atomic int pat_install_state;  // 0 not tried, 1 installing, 2 installed, 3 failed
static pat_failure pat_install_failure;
_Atomic int pat_tracking_enabled;

/// Retains and releases through the public entry points with the flag set: tagged words must come
/// back untouched and leave nothing changed; a live object's count must move by exactly what was
/// asked, also when its pointer carries spare bits (as a native string's storage does).
static int pat_self_test_retains(uintptr_t tagged, void *probe, pat_failure *failure) {
  uintptr_t masked = tagged & PAT_RETAIN_MASK;
  intptr_t signed_tagged = tagged;
  if (signed_tagged >= 0 || masked == 0 || masked >= 4096) {
    return pat_fail(failure, pat_failure_payload_not_tagged, 0, 0, tagged, 0, 0);
  }
  void *word = pat_pointer(tagged);
  if (swift_retain(word) != word) return pat_fail(failure, pat_failure_tagged_word_changed, pat_name_retain, 0, 0, 0, 0);
  swift_release(word);
  if (swift_retain_n(word, 3) != word) {
    return pat_fail(failure, pat_failure_tagged_word_changed, pat_name_retain_n, 0, 0, 0, 0);
  }
  swift_release_n(word, 3);
  if (swift_tryRetain(word) != 0) {
    return pat_fail(failure, pat_failure_tagged_word_changed, pat_name_try_retain, 0, 0, 0, 0);
  }
  size_t before = swift_retainCount(probe);
  void *spare = pat_pointer(pat_bits(probe) | (1UL << 60));
  if (swift_retain(probe) != probe || swift_retain(spare) != spare) {
    return pat_fail(failure, pat_failure_pointer_changed, pat_name_retain, 0, 0, 0, 0);
  }
  if (swift_retain_n(probe, 2) != probe) {
    return pat_fail(failure, pat_failure_pointer_changed, pat_name_retain_n, 0, 0, 0, 0);
  }
  size_t raised = swift_retainCount(probe);
  void *tried = swift_tryRetain(probe);
  swift_release(probe);
  swift_release(probe);
  swift_release_n(probe, 3);
  size_t after = swift_retainCount(probe);
  if (tried != probe) return pat_fail(failure, pat_failure_pointer_changed, pat_name_try_retain, 0, 0, 0, 0);
  if (raised != before + 4 || after != before) {
    return pat_fail(failure, pat_failure_retain_counts, 0, 0, before, raised, after);
  }
  return 1;
}

static int pat_install_once(const void *task_local_key, uintptr_t tagged, void *probe, const void *probe_metadata,
                            pat_failure *failure) {
  pat_runtime_entry_points runtime = {0};
  runtime.task_local_key = task_local_key;
  runtime.probe_metadata = probe_metadata;
  runtime.allocate_pointer = dlsym(0, pat_name_allocate_pointer);
  runtime.retain_pointer = dlsym(0, pat_name_retain_pointer);
  runtime.swizzle_flag = dlsym(0, pat_name_swizzle_flag);
  union {
    void *pointer;
    pat_local_value_get_function function;
  } local_value_get = {.pointer = dlsym(0, pat_name_local_value_get)};
  runtime.local_value_get = local_value_get.function;
  void *retain = dlsym(0, pat_name_retain);
  const char *missing = !runtime.allocate_pointer ? pat_name_allocate_pointer
                        : !runtime.retain_pointer ? pat_name_retain_pointer
                        : !runtime.swizzle_flag   ? pat_name_swizzle_flag
                        : !runtime.local_value_get ? pat_name_local_value_get
                        : !retain                  ? pat_name_retain
                                                   : 0;
  if (missing) return pat_fail(failure, pat_failure_export_missing, missing, 0, 0, 0, 0);
  pat_image image = {.address = retain};
  dl_iterate_phdr(pat_find_image, &image);
  if (!image.found) return pat_fail(failure, pat_failure_no_runtime_image, 0, 0, 0, 0, 0);

  pat_symbols symbols = {0};
  static const char *const data_symbols[] = {
      pat_name_retain_adapter, pat_name_flawed_adapter, pat_name_allocate_pointer,
      pat_name_retain_pointer, pat_name_swizzle_flag,   pat_name_retain,
  };
  for (size_t index = 0; index < sizeof data_symbols / sizeof data_symbols[0]; index++) {
    pat_want(&symbols, data_symbols[index]);
  }
  for (size_t runtime_index = 0; runtime_index < pat_recognised_runtime_count; runtime_index++) {
    const pat_recognised_runtime *recognised = pat_recognised_runtimes[runtime_index];
    for (size_t index = 0; index < recognised->function_count; index++) {
      pat_want(&symbols, recognised->functions[index]->name);
      for (size_t target = 0; target < recognised->functions[index]->target_count; target++) {
        pat_want(&symbols, recognised->functions[index]->targets[target].symbol);
      }
    }
  }
  if (!pat_read_symbols(&image, &symbols, failure)) return 0;
  // The exported pointers the dynamic linker gives must be the ones the runtime's code uses (no
  // copy relocation in between).
  if (pat_symbol(&symbols, pat_name_retain, 0) != pat_bits(retain) ||
      pat_symbol(&symbols, pat_name_allocate_pointer, 0) != pat_bits(runtime.allocate_pointer) ||
      pat_symbol(&symbols, pat_name_retain_pointer, 0) != pat_bits(runtime.retain_pointer) ||
      pat_symbol(&symbols, pat_name_swizzle_flag, 0) != pat_bits(runtime.swizzle_flag)) {
    return pat_fail(failure, pat_failure_symbols_disagree, image.name, 0, 0, 0, 0);
  }
  const pat_recognised_runtime *matched = 0;
  pat_failure first_failure = {0};
  for (size_t index = 0; index < pat_recognised_runtime_count && !matched; index++) {
    pat_failure attempt = {0};
    if (pat_check_runtime(pat_recognised_runtimes[index], &symbols, &attempt)) {
      matched = pat_recognised_runtimes[index];
    } else if (index == 0) {
      first_failure = attempt;
    }
  }
  if (!matched) {
    *failure = first_failure;
    return 0;
  }
  runtime.retain_adapter = pat_pointer(pat_symbol(&symbols, pat_name_retain_adapter, 0));
  uintptr_t flawed = pat_symbol(&symbols, pat_name_flawed_adapter, 0);
  if (!runtime.retain_adapter || !flawed) return pat_fail(failure, pat_failure_adapter_missing, 0, 0, 0, 0, 0);
  union {
    uintptr_t bits;
    pat_allocate_function function;
  } builtin = {.bits = pat_symbol(&symbols, pat_name_builtin_allocate, 0)};
  runtime.builtin_allocate = builtin.function;
  dl_iterate_phdr(pat_record_main_image, &runtime);
  if (runtime.image_ranges == 0) return pat_fail(failure, pat_failure_main_image_missing, 0, 0, 0, 0, 0);

  // Everything is recognised. Publish what the hook and the adapter read, before either can run.
  pat_runtime = runtime;
  atomic_thread_fence(memory_order_seq_cst);

  // Mend the 6.3 flaw before the flag can be set: nothing reads the adapter pointer while the flag
  // is clear.
  union {
    uintptr_t bits;
    pat_retain_function function;
  } expected_adapter = {.bits = flawed};
  pat_retain_function expected = expected_adapter.function;
  if (!atomic_compare_exchange_strong(runtime.retain_adapter, &expected, pat_retain_adapter)) {
    return pat_fail(failure, pat_failure_adapter_replaced, 0, 0, 0, 0, 0);
  }
  unsigned char flag_before = atomic_load(runtime.swizzle_flag);
  atomic_store(runtime.swizzle_flag, 1);
  if (!pat_self_test_retains(tagged, probe, failure)) {
    // Leave the runtime as it was: with the allocation pointer still the built-in one, clearing the
    // flag puts every retain back on the fast path (a retain already on the flagged path is
    // correct either way, through the mended adapter).
    atomic_store(runtime.swizzle_flag, flag_before);
    return 0;
  }

  pat_allow_owners();
  // Install the hook: whatever the pointer holds is what the hook calls.
  pat_allocate_function current = atomic_load(runtime.allocate_pointer);
  do {
    pat_previous_allocate = current;
    atomic_thread_fence(memory_order_seq_cst);
  } while (!atomic_compare_exchange_weak(runtime.allocate_pointer, &current, pat_allocation_hook));
  atomic_store(&pat_tracking_enabled, 1);
  return 1;
}

int pat_install(const void *task_local_key, uintptr_t tagged_payload, void *probe, const void *probe_metadata,
                pat_failure *failure) {
  int expected = 0;
  if (atomic_compare_exchange_strong(&pat_install_state, &expected, 1)) {
    pat_failure outcome = {0};
    int installed = pat_install_once(task_local_key, tagged_payload, probe, probe_metadata, &outcome);
    pat_install_failure = outcome;
    atomic_store(&pat_install_state, installed ? 2 : 3);
  }
  // A second caller while the first installs: wait for its outcome (callers come through a Swift
  // `static let`, which already makes them wait; this is for any other).
  int state;
  while ((state = atomic_load(&pat_install_state)) == 1) sched_yield();
  if (state == 2) return 1;
  *failure = pat_install_failure;
  return 0;
}

pat_runtime_state pat_read_runtime_state(void) {
  pat_runtime_state state = {-1, -1, -1};
  _Atomic(pat_allocate_function) *pointer = dlsym(0, pat_name_allocate_pointer);
  _Atomic(unsigned char) *flag = dlsym(0, pat_name_swizzle_flag);
  void *retain = dlsym(0, pat_name_retain);
  if (pointer && retain) {
    pat_allocate_function current = atomic_load(pointer);
    state.allocation_hook_is_ours = current == pat_allocation_hook;
    union {
      pat_allocate_function function;
      const void *pointer;
    } held_address = {.function = current};
    pat_image held = {.address = held_address.pointer}, runtime = {.address = retain};
    dl_iterate_phdr(pat_find_image, &held);
    dl_iterate_phdr(pat_find_image, &runtime);
    state.allocation_pointer_in_runtime = held.found && runtime.found && held.bias == runtime.bias;
  }
  if (flag) state.swizzle_flag = atomic_load(flag);
  return state;
}

const uint8_t *pat_runtime_function(const char *name, size_t *size) {
  void *retain = dlsym(0, pat_name_retain);
  if (!retain) return 0;
  pat_image image = {.address = retain};
  dl_iterate_phdr(pat_find_image, &image);
  if (!image.found) return 0;
  pat_symbols symbols = {0};
  pat_want(&symbols, name);
  pat_failure failure;
  if (!pat_read_symbols(&image, &symbols, &failure)) return 0;
  return pat_pointer(pat_symbol(&symbols, name, size));
}

#else

int pat_install(const void *task_local_key, uintptr_t tagged_payload, void *probe, const void *probe_metadata,
                pat_failure *failure) {
  (void)task_local_key;
  (void)tagged_payload;
  (void)probe;
  (void)probe_metadata;
#if defined(__APPLE__)
  return pat_fail(failure, pat_failure_platform, 0, 0, 1, 0, 0);
#else
  return pat_fail(failure, pat_failure_platform, 0, 0, 0, 0, 0);
#endif
}

_Atomic int pat_tracking_enabled;

pat_runtime_state pat_read_runtime_state(void) {
  pat_runtime_state state = {-1, -1, -1};
  return state;
}

const uint8_t *pat_runtime_function(const char *name, size_t *size) {
  (void)name;
  (void)size;
  return 0;
}

#endif

void pat_disable(void) { atomic_store(&pat_tracking_enabled, 0); }

#pragma clang attribute pop
