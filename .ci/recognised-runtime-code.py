#!/usr/bin/env python3
"""Writes Sources/PresentationAllocationTracking/RecognisedCode.inc from a libswiftCore.so.

The allocation tracker (PresentationAllocationTracking) installs itself only where it recognises,
byte for byte, the runtime code that changes behaviour once the runtime's swizzle flag is set: the
reference-counting entry points, their flagged dispatch, the retain and release adapters and the
built-in implementations the pointers hold. This script disassembles those functions (objdump) and
writes them as patterns: every byte is exact except the 32-bit displacements of calls, jumps and
%rip-relative operands, which the tracker resolves at run time and checks against the symbol the
disassembly names (from the library's .symtab).

    python3 .ci/recognised-runtime-code.py /opt/swift/usr/lib/swift/linux/libswiftCore.so \\
        swift_6_3_1 "Swift 6.3.1, Linux x86_64" > Sources/PresentationAllocationTracking/RecognisedCode.inc

Adding a toolchain: run it against that toolchain's library, read the disassembly of the retain
adapter yourself (does it test the sign of the unmasked pointer before it masks?), then append its
table to the header with a new name and list it in pat_recognised_runtimes (Runtime.c).
"""
import re
import subprocess
import sys

FUNCTIONS = [
    # (symbol, role)
    ("swift_allocObject", "compares _swift_allocObject with the built-in one, sets the flag, calls through it"),
    ("__swift_allocObject_", "the built-in allocation"),
    ("swift_retain", "flag set: jumps through _swift_retain_adapter"),
    ("_ZL25_swift_retain_adapterImplPN5swift10HeapObjectE", "the retain adapter (the 6.3 flaw: masks before the sign test)"),
    ("__swift_retain_", "the built-in retain: sign test, then mask"),
    ("swift_release", "flag set: jumps to the release adapter"),
    ("_ZL22_swift_release_adapterPN5swift10HeapObjectE", "the release adapter: forwards unchanged"),
    ("__swift_release_", "the built-in release: sign test first"),
    ("swift_retain_n", "flag set: jumps through _swift_retain_n"),
    ("__swift_retain_n_", "the built-in retain_n: sign test first"),
    ("swift_release_n", "flag set: jumps through _swift_release_n"),
    ("__swift_release_n_", "the built-in release_n: sign test first"),
    ("swift_tryRetain", "flag set: jumps through _swift_tryRetain"),
    ("__swift_tryRetain_", "the built-in tryRetain: sign test first"),
    ("swift_unownedRetain", "one more unowned reference: what the hook's pin does to a fresh object"),
    ("_ZN5swift9RefCountsINS_13RefCountBitsTILNS_19RefCountInlinednessE1EEEE16incrementUnownedEj",
     "the unowned count in bits 1-31 of the inline word: +2 per reference"),
    ("swift_unownedRelease", "the last unowned reference of a deinitialised object frees it through swift_slowDealloc"),
    ("swift_slowDealloc", "free"),
]


def symbols(library):
    table = {}
    out = subprocess.run(["readelf", "-sW", library], check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 8 and parts[3] in ("FUNC", "OBJECT"):
            table.setdefault(parts[7], (int(parts[1], 16), int(parts[2], 0)))
    return table


def disassemble(library, start, size):
    out = subprocess.run(
        ["objdump", "-d", "-w", f"--start-address={start}",
         f"--stop-address={start + size}", library],
        check=True, capture_output=True, text=True).stdout
    instructions = []
    for line in out.splitlines():
        match = re.match(r"\s*([0-9a-f]+):\t([0-9a-f ]+)\t(.*)$", line)
        if match:
            address = int(match.group(1), 16)
            code = bytes.fromhex(match.group(2).replace(" ", ""))
            instructions.append((address, code, match.group(3)))
    return instructions


def pattern(library, name, start, size):
    text = []
    targets = []
    for address, code, assembly in disassemble(library, start, size):
        offset = address - start
        field = None
        target_name = re.search(r"<([^>+]+)(\+0x[0-9a-f]+)?>", assembly)
        if "(%rip)" in assembly:
            # ModRM with a rip-relative operand: the displacement is the 4 bytes after the ModRM,
            # which objdump does not show separately; find it from the target in the comment.
            comment = re.search(r"# ([0-9a-f]+) <", assembly)
            target = int(comment.group(1), 16)
            end = address + len(code)
            for position in range(len(code) - 3):
                displacement = int.from_bytes(code[position:position + 4], "little", signed=True)
                # An immediate may follow the displacement (movb $imm, disp(%rip)).
                for immediate in range(0, len(code) - position - 3):
                    if position + 4 + immediate == len(code) and end + displacement == target:
                        field = (position, len(code))
                        break
                if field:
                    break
            assert field, (name, hex(address), assembly)
        elif code[0] in (0xE8, 0xE9) and len(code) == 5:
            field = (1, 5)
        elif len(code) == 6 and code[0] == 0x0F and 0x80 <= code[1] <= 0x8F:
            field = (2, 6)
        if field and "(%rip)" not in assembly and target_name and target_name.group(1) == name:
            field = None  # a branch inside the function: its displacement does not move with the layout
        hexes = [f"{b:02x}" for b in code]
        if field:
            for index in range(field[0], field[0] + 4):
                hexes[index] = "??"
            if target_name is None:
                raise SystemExit(f"{name}+{offset:#x}: a displacement without a named target: {assembly}")
            if target_name.group(2):
                raise SystemExit(f"{name}+{offset:#x}: a target inside a symbol: {assembly}")
            # A call through the PLT (free@plt) has no symbol of its own: its displacement stays
            # unchecked (the PLT's target is the dynamic linker's business).
            if not target_name.group(1).endswith("@plt"):
                targets.append((offset + field[0], offset + field[1], target_name.group(1)))
        text.extend(hexes)
    return " ".join(text), targets


def main():
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    library, toolchain, description = sys.argv[1], sys.argv[2], sys.argv[3]
    build_id = subprocess.run(["readelf", "-n", library], check=True, capture_output=True, text=True).stdout
    build_id = re.search(r"Build ID: ([0-9a-f]+)", build_id)
    table = symbols(library)
    lines = [
        f"// Generated by .ci/recognised-runtime-code.py from {library} ({description}; build ID "
        f"{build_id.group(1) if build_id else 'none'}); do not edit.",
        "// Each pattern: the function's bytes, ?? where a 32-bit displacement is resolved at run time;",
        "// each target: (offset of the displacement, offset of the instruction's end, the symbol it names).",
        "// Every string is a named array: a string literal would give this file debug information (see",
        "// Runtime.c).",
        "",
        f'static const char pat_{toolchain}_description[] = "{description}";',
    ]
    names = {}

    def name(symbol):
        if symbol not in names:
            names[symbol] = f"pat_{toolchain}_symbol_{len(names)}"
            lines.append(f'static const char {names[symbol]}[] = "{symbol}";')
        return names[symbol]

    for function, _ in FUNCTIONS:
        if function not in table:
            raise SystemExit(f"{function}: not in the library's .symtab")
        name(function)
    lines.append("")
    for function, role in FUNCTIONS:
        start, size = table[function]
        code, targets = pattern(library, function, start, size)
        ident = f"pat_{toolchain}_" + re.sub(r"[^A-Za-z0-9]", "_", function)
        lines.append(f"// {function}: {role}.")
        target_names = [name(target) for _, _, target in targets]
        lines.append(f"static const char {ident}_bytes[] =")
        chunks = code.split(" ")
        for index in range(0, len(chunks), 24):
            lines.append('  "' + " ".join(chunks[index:index + 24]) + ' "')
        lines[-1] += ";"
        lines.append(f"static const pat_code_target {ident}_targets[] = {{")
        for (field, end, _), target_name in zip(targets, target_names):
            lines.append(f"  {{{field}, {end}, {target_name}}},")
        if not targets:
            lines.append("  {0, 0, 0},  // none (an empty initialiser is not C11)")
        lines.append("};")
        lines.append(
            f"static const pat_code_pattern {ident} = {{{names[function]}, {size}, {ident}_bytes, {ident}_targets, "
            f"{len(targets)}}};")
        lines.append("")
    lines.append(f"static const pat_code_pattern *const pat_{toolchain}_functions[] = {{")
    for function, _ in FUNCTIONS:
        lines.append(f"  &pat_{toolchain}_" + re.sub(r"[^A-Za-z0-9]", "_", function) + ",")
    lines.append("};")
    lines.append(f"static const pat_recognised_runtime pat_{toolchain} = {{")
    lines.append(f"  pat_{toolchain}_description, pat_{toolchain}_functions, {len(FUNCTIONS)}}};")
    print("\n".join(lines))

if __name__ == "__main__":
    main()
