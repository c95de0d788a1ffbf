#!/usr/bin/env python3
"""Reads the symbol graphs of one library module, as .ci/symbol-graphs.sh emits them.

Usage:
  symbol-graph-tool.py api MODULE GRAPH-DIR > API/MODULE.txt
      The text record of the module's public API, one line per declaration and per conformance,
      sorted, so that `diff` shows an API change as the lines it adds and removes.
  symbol-graph-tool.py platform MODULE GRAPH-DIR PLATFORM-GRAPH-DIR > API/MODULE+PLATFORM.txt
      What the module's API is on a platform (graphs of .ci/apple-symbol-graphs.sh) beyond the
      one in GRAPH-DIR (Linux): `+ line` for each line only the platform has, `- line` for each
      line it lacks; sorted.
  symbol-graph-tool.py own MODULE GRAPH-DIR OUT-DIR
      Copies the module's graphs to OUT-DIR without the symbols it re-exports from the package's
      other modules, so DocC documents each declaration once, under the module that declares it.

Only what the module declares in its own sources counts (Sources/MODULE/...): symbols it re-exports
from another module are recorded under that module, and members that a protocol's default
implementation synthesises follow from the conformance lines. Source positions and documentation
are left out, so moving or documenting a declaration is not an API change.
"""
import glob
import json
import os
import sys


def spell(fragments):
    return "".join(fragment["spelling"] for fragment in fragments or []).strip()


def graph_paths(module, graph_dir):
    paths = sorted(glob.glob(os.path.join(graph_dir, module + ".symbols.json")))
    return paths + sorted(glob.glob(os.path.join(graph_dir, module + "@*.symbols.json")))


def is_reexported(symbol, module):
    """Declared in another module of this package's Sources/ (and re-exported with @_exported)."""
    uri = symbol.get("location", {}).get("uri", "")
    return "/Sources/" in uri and "/Sources/%s/" % module not in uri


def copy_own(module, graph_dir, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    for path in graph_paths(module, graph_dir):
        with open(path, encoding="utf-8") as handle:
            graph = json.load(handle)
        dropped = {s["identifier"]["precise"] for s in graph["symbols"] if is_reexported(s, module)}
        graph["symbols"] = [s for s in graph["symbols"] if s["identifier"]["precise"] not in dropped]
        graph["relationships"] = [r for r in graph["relationships"] if r["source"] not in dropped]
        with open(os.path.join(out_dir, os.path.basename(path)), "w", encoding="utf-8") as handle:
            json.dump(graph, handle)


def api_lines(module, graph_dir):
    source_marker = "/Sources/%s/" % module
    names = {}  # precise identifier -> dotted path, for relationship targets
    own = {}  # precise identifier -> symbol, declared in this module's sources
    relationships = []
    for path in graph_paths(module, graph_dir):
        with open(path, encoding="utf-8") as handle:
            graph = json.load(handle)
        for symbol in graph["symbols"]:
            precise = symbol["identifier"]["precise"]
            names[precise] = ".".join(symbol["pathComponents"])
            uri = symbol.get("location", {}).get("uri", "")
            if source_marker in uri and "::SYNTHESIZED::" not in precise:
                own[precise] = symbol
        relationships += graph["relationships"]

    lines = set()
    for symbol in own.values():
        path = ".".join(symbol["pathComponents"])
        declaration = " ".join(spell(symbol["declarationFragments"]).split())
        extension = symbol.get("swiftExtension", {})
        constraints = extension.get("constraints", [])
        where = ""
        if constraints and symbol["kind"]["identifier"] != "swift.extension":
            where = " (in an extension where %s)" % ", ".join(
                "%s %s %s" % (c["lhs"], {"conformance": ":", "sameType": "==", "superclass": ":"}.get(c["kind"], c["kind"]), c["rhs"])
                for c in constraints
            )
        availability = symbol.get("availability", [])
        available = ""
        if availability:
            available = " [%s]" % ", ".join(
                " ".join(str(part) for part in (entry.get("domain", "*"), entry.get("introduced", ""), "deprecated" if entry.get("isUnconditionallyDeprecated") or entry.get("deprecated") else "", entry.get("message", "")) if part)
                for entry in availability
            )
        lines.add("%s (%s): %s%s%s" % (path, symbol["kind"]["displayName"].lower(), declaration, where, available))

    # Another module's type that this module extends: conformances it adds to it count too
    # (DispatchQueue conforms to StepScheduler).
    extended = {r["target"] for r in relationships if r["kind"] == "memberOf" and r["source"] in own}
    for relationship in relationships:
        if relationship["kind"] == "memberOf" and relationship["source"] in own:
            names.setdefault(relationship["target"], ".".join(own[relationship["source"]]["pathComponents"][:-1]))
    for relationship in relationships:
        kind = relationship["kind"]
        if kind not in ("conformsTo", "inheritsFrom") or relationship["source"] not in own.keys() | extended:
            continue
        target = relationship.get("targetFallback") or names.get(relationship["target"]) or relationship["target"]
        if target in ("Swift.Copyable", "Swift.Escapable"):
            continue  # every type has these unless it says ~Copyable, which its declaration shows
        verb = "conforms to" if kind == "conformsTo" else "inherits from"
        constraints = relationship.get("swiftConstraints", [])
        where = ""
        if constraints:
            where = " where " + ", ".join("%s : %s" % (c["lhs"], c["rhs"]) for c in constraints)
        source = names.get(relationship["source"]) or relationship.get("sourceFallback") or relationship["source"]
        lines.add("%s %s %s%s" % (source, verb, target, where))

    return lines


def print_api(module, graph_dir):
    for line in sorted(api_lines(module, graph_dir)):
        print(line)


def print_platform(module, graph_dir, platform_graph_dir):
    base = api_lines(module, graph_dir)
    platform = api_lines(module, platform_graph_dir)
    if not platform:
        sys.exit("symbol-graph-tool: no symbol of %s in %s" % (module, platform_graph_dir))
    for line in sorted(platform - base):
        print("+ " + line)
    for line in sorted(base - platform):
        print("- " + line)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "api":
        print_api(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 5 and sys.argv[1] == "platform":
        print_platform(sys.argv[2], sys.argv[3], sys.argv[4])
    elif len(sys.argv) == 5 and sys.argv[1] == "own":
        copy_own(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit(
            "usage: symbol-graph-tool.py api MODULE GRAPH-DIR | platform MODULE GRAPH-DIR PLATFORM-GRAPH-DIR"
            " | own MODULE GRAPH-DIR OUT-DIR")
