#if os(Linux) && canImport(Glibc)
  internal import Glibc

  /// A binary image (the test executable, a shared library) mapped into the process, with the
  /// extent of its writable segments (initialised data and `.bss`, where globals live), from its
  /// ELF program headers read through `/proc/self/mem`.
  struct LoadedImage: Sendable {
    let path: String
    /// What the image's addresses (its symbols' values) are offset by in this process.
    let bias: UInt
    /// `PT_LOAD` segments with write permission, `.bss` included (`p_memsz`, not `p_filesz`).
    let writableSegments: [Range<UInt>]

    /// Every image in `map` whose ELF header is mapped (each read once per process: an image stays
    /// where it was loaded).
    static func all(in map: MemoryMap) -> [LoadedImage] {
      var seen: Set<String> = []
      var images: [LoadedImage] = []
      for region in map.regions where region.isFileBacked && region.fileOffset == 0 && !seen.contains(region.path) {
        seen.insert(region.path)
        if let image = known.image(at: region.start, path: region.path) { images.append(image) }
      }
      return images
    }

    private static let known = ImageCache()

    /// Reads an ELF64 header and its program headers at `header` (the mapping of file offset 0).
    fileprivate init?(headerAt header: UInt, path: String) {
      guard
        MemoryLayout<UInt>.size == 8, let elf = ProcessMemory.bytes(at: header, count: 64),
        elf.prefix(4).elementsEqual([0x7F, 0x45, 0x4C, 0x46])  // "\u{7F}ELF"
      else { return nil }
      let programHeaders = UInt(elf.word(at: 0x20))
      let entrySize = Int(elf.half(at: 0x36))
      let count = Int(elf.half(at: 0x38))
      guard entrySize >= 56, count > 0, count < 64,
        let table = ProcessMemory.bytes(at: header &+ programHeaders, count: entrySize * count)
      else { return nil }
      var loads: [(offset: UInt, address: UInt, memorySize: UInt, writable: Bool)] = []
      for index in 0..<count {
        let entry = index * entrySize
        guard table.uint32(at: entry) == 1 else { continue }  // PT_LOAD
        let writable = table.uint32(at: entry + 4) & 2 != 0  // PF_W
        loads.append((table.word(at: entry + 8), table.word(at: entry + 16), table.word(at: entry + 40), writable))
      }
      // The segment at file offset 0 is mapped at `header`: that gives the bias.
      guard let first = loads.first(where: { $0.offset == 0 }), header >= first.address & ~0xFFF else { return nil }
      let bias = header - (first.address & ~0xFFF)
      self.path = path
      self.bias = bias
      self.writableSegments = loads.filter(\.writable).map { (bias + $0.address)..<(bias + $0.address + $0.memorySize) }
    }
  }

  /// The images read so far, by the address of their header and their path.
  final class ImageCache: Sendable {
    private let images = OnceCache<String, LoadedImage?>()

    func image(at header: UInt, path: String) -> LoadedImage? {
      images.value(for: "\(header) \(path)") { _ in LoadedImage(headerAt: header, path: path) }
    }
  }

  /// The symbol tables of binary images, read from their files (`.symtab`, or `.dynsym` when the
  /// file has no `.symtab`), once per image: they name the functions of closures and the globals
  /// that hold an object. Local symbols (closures, private globals) are only in `.symtab`.
  enum ImageSymbols {
    struct Symbol {
      /// The mangled name.
      let name: String
      /// Its address in this process.
      let address: UInt
      let size: UInt
    }

    private static let cache = SymbolTableCache()

    /// The symbol that covers `address` in `image`: a data symbol or function whose extent holds
    /// it (or that starts exactly there, when its size is not recorded).
    static func symbol(at address: UInt, in image: LoadedImage) -> Symbol? {
      guard let table = cache.table(for: image.path), address >= image.bias else { return nil }
      return table.symbol(covering: address - image.bias).map {
        Symbol(name: $0.name, address: $0.value + image.bias, size: $0.size)
      }
    }

    /// The symbol at `address` in whichever of `images` holds it: the image whose file is mapped
    /// there, or, for a writable segment's `.bss` (an anonymous mapping after the image's own), the
    /// image whose segment holds it.
    static func symbol(at address: UInt, in images: [LoadedImage], map: MemoryMap) -> Symbol? {
      let region = map.region(containing: address)
      let image =
        region.flatMap { region in images.first { region.isFileBacked && $0.path == region.path } }
        ?? images.first { image in image.writableSegments.contains { $0.contains(address) } }
      return image.flatMap { symbol(at: address, in: $0) }
    }

    /// The address in this process of the symbol named `name` in `image`.
    static func address(of name: String, in image: LoadedImage) -> UInt? {
      cache.table(for: image.path)?.value(of: name).map { $0 + image.bias }
    }
  }

  /// One image file's symbols, sorted by value.
  final class SymbolTable: Sendable {
    struct Entry: Sendable {
      let value: UInt
      let size: UInt
      let nameOffset: Int
    }
    private let entries: [Entry]
    private let strings: [UInt8]

    init(entries: [Entry], strings: [UInt8]) {
      self.entries = entries.sorted { $0.value < $1.value }
      self.strings = strings
    }

    func name(at offset: Int) -> String {
      guard offset >= 0, offset < strings.count else { return "" }
      let end = strings[offset...].firstIndex(of: 0) ?? strings.count
      return String(decoding: strings[offset..<end], as: UTF8.self)
    }

    func symbol(covering value: UInt) -> (name: String, value: UInt, size: UInt)? {
      var low = 0
      var high = entries.count
      while low < high {
        let middle = (low + high) / 2
        if entries[middle].value <= value { low = middle + 1 } else { high = middle }
      }
      // Several symbols may share an address (aliases); the first that covers it wins.
      var index = low - 1
      while index >= 0, index >= low - 8 {
        let entry = entries[index]
        if value < entry.value &+ max(entry.size, 1) { return (name(at: entry.nameOffset), entry.value, entry.size) }
        if entry.value &+ 65_536 < value { break }
        index -= 1
      }
      return nil
    }

    func value(of symbolName: String) -> UInt? {
      let wanted = Array(symbolName.utf8)
      for entry in entries {
        let start = entry.nameOffset
        guard start + wanted.count < strings.count, strings[start + wanted.count] == 0 else { continue }
        if strings[start..<(start + wanted.count)].elementsEqual(wanted) { return entry.value }
      }
      return nil
    }

    /// Reads the symbols of the ELF64 file at `path`: its section headers, then its `.symtab`
    /// (or `.dynsym`) and the string table it links to. Only defined functions and data objects.
    static func read(path: String) -> SymbolTable? {
      let file = open(path, O_RDONLY | O_CLOEXEC)
      guard file >= 0 else { return nil }
      defer { close(file) }
      func bytes(_ offset: UInt, _ count: Int) -> [UInt8]? {
        guard count > 0, count < 1 << 28 else { return nil }
        var buffer = [UInt8](repeating: 0, count: count)
        let read = buffer.withUnsafeMutableBytes { pread(file, $0.baseAddress, count, off_t(Int64(offset))) }
        return read == count ? buffer : nil
      }
      guard let header = bytes(0, 64), header[0] == 0x7F, header[4] == 2 else { return nil }  // ELFCLASS64
      let sectionsOffset = header.word(at: 0x28)
      let sectionSize = Int(header.half(at: 0x3A))
      let sectionCount = Int(header.half(at: 0x3C))
      guard sectionSize >= 64, sectionCount > 0,
        let sections = bytes(sectionsOffset, sectionSize * sectionCount)
      else { return nil }
      func section(_ index: Int) -> (type: UInt32, offset: UInt, size: UInt, link: Int, entrySize: UInt) {
        let base = index * sectionSize
        return (
          sections.uint32(at: base + 4), sections.word(at: base + 0x18), sections.word(at: base + 0x20),
          Int(sections.uint32(at: base + 0x28)), sections.word(at: base + 0x38)
        )
      }
      let all = (0..<sectionCount).map(section)
      // SHT_SYMTAB (2), else SHT_DYNSYM (11).
      guard let symbols = all.first(where: { $0.type == 2 }) ?? all.first(where: { $0.type == 11 }),
        symbols.entrySize >= 24, symbols.link < sectionCount,
        let table = bytes(symbols.offset, Int(symbols.size)),
        let strings = bytes(all[symbols.link].offset, Int(all[symbols.link].size))
      else { return nil }
      var entries: [Entry] = []
      let entrySize = Int(symbols.entrySize)
      table.withUnsafeBytes { raw in
        var offset = 0
        while offset + 24 <= raw.count {
          let nameOffset = Int(raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
          let kind = raw[offset + 4] & 0xF  // STT_OBJECT (1), STT_FUNC (2)
          let sectionIndex = raw.loadUnaligned(fromByteOffset: offset + 6, as: UInt16.self)
          let value = UInt(raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
          let size = UInt(raw.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self))
          if kind == 1 || kind == 2, sectionIndex != 0, value != 0 {
            entries.append(Entry(value: value, size: size, nameOffset: nameOffset))
          }
          offset += entrySize
        }
      }
      return SymbolTable(entries: entries, strings: strings)
    }
  }

  /// The symbol tables read so far, by image path: read once, kept for the process's life (a
  /// failing test's report may name many holders in the same images).
  final class SymbolTableCache: Sendable {
    // Read outside the lock (it takes a while); two readers may both read, harmlessly.
    private let tables = OnceCache<String, SymbolTable?>()

    func table(for path: String) -> SymbolTable? {
      tables.value(for: path) { SymbolTable.read(path: $0) }
    }
  }

  extension [UInt8] {
    fileprivate func word(at offset: Int) -> UInt {
      withUnsafeBytes { UInt($0.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
    }
    fileprivate func uint32(at offset: Int) -> UInt32 {
      withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
    }
    fileprivate func half(at offset: Int) -> UInt16 {
      withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt16.self) }
    }
  }

  /// Demangles a symbol name with the Swift runtime's own demangler, in the simplified form a
  /// backtrace prints (`closure #1 in Poller.start()`, `static Registry.shared`): the runtime's
  /// `_swift_backtrace_demangle` when it exports it, else `swift_demangle` (the full form, with
  /// module names and types).
  enum Demangler {
    private typealias Simplified =
      @convention(c) (
        UnsafePointer<CChar>?, Int, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?,
        UnsafeMutablePointer<Int32>?
      ) -> UnsafeMutablePointer<CChar>?
    private typealias Full =
      @convention(c) (
        UnsafePointer<CChar>?, Int, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?, UInt32
      ) -> UnsafeMutablePointer<CChar>?

    /// The addresses of the two entry points (0 when absent), looked up once.
    private static let entryPoints: (simplified: UInt, full: UInt) = {
      let process = dlopen(nil, RTLD_NOW)
      defer { if let process { dlclose(process) } }
      return (
        UInt(bitPattern: dlsym(process, "_swift_backtrace_demangle")),
        UInt(bitPattern: dlsym(process, "swift_demangle"))
      )
    }()

    /// The simplified form of `mangled`, or `nil` when it is not a Swift symbol.
    static func simplified(_ mangled: String) -> String? {
      guard mangled.hasPrefix("$s") || mangled.hasPrefix("_$s") else { return nil }
      if let entry = UnsafeRawPointer(bitPattern: entryPoints.simplified) {
        // Passed a status pointer whether or not this runtime's version takes one (some take five
        // arguments, some four: a fifth argument is ignored by the C calling convention).
        var status: Int32 = 0
        let demangle = unsafeBitCast(entry, to: Simplified.self)
        if let result = mangled.withCString({ demangle($0, strlen($0), nil, nil, &status) }) {
          defer { free(result) }
          return String(cString: result)
        }
      }
      return full(mangled)
    }

    /// The full form of `mangled` (`static MyTests.Registry.shared : MyTests.Registry`), or `nil`.
    static func full(_ mangled: String) -> String? {
      guard let entry = UnsafeRawPointer(bitPattern: entryPoints.full) else { return nil }
      let demangle = unsafeBitCast(entry, to: Full.self)
      guard let result = mangled.withCString({ demangle($0, strlen($0), nil, nil, 0) }) else { return nil }
      defer { free(result) }
      return String(cString: result)
    }
  }
#endif
