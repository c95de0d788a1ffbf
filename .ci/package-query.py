#!/usr/bin/env python3
"""What the package says, one item a line, for the scripts that compile its sources by hand
(.ci/check-uikit-faces.sh, .ci/apple-symbol-graphs.sh).

Usage: package-query.py DUMP.json DESCRIBE.json QUERY [ARGUMENT]
  DUMP.json      `swift package dump-package`
  DESCRIBE.json  `swift package describe --type json`
  name                the package's name in lower case (the compiler's -package-name)
  targets-under DIR   the targets whose path is below DIR
  sources TARGET      its Swift files, as paths from the package root, sorted
  flags TARGET        the swiftc flags of its Swift settings: -swift-version, -enable-upcoming-feature,
                      -enable-experimental-feature, -D; a setting this cannot map fails
  dependencies TARGET the package targets it depends on
"""
import json, sys

dump = json.load(open(sys.argv[1]))
describe = json.load(open(sys.argv[2]))
query, argument = sys.argv[3], (sys.argv[4] if len(sys.argv) > 4 else None)
described = {t["name"]: t for t in describe["targets"]}
declared = {t["name"]: t for t in dump["targets"]}


def fail(message):
    sys.exit(f"package-query: {message}; update .ci/package-query.py")


if query == "name":
    print(dump["name"].lower())
elif query == "targets-under":
    for name in sorted(described):
        if (described[name]["path"] + "/").startswith(argument.rstrip("/") + "/"):
            print(name)
elif query == "sources":
    target = described[argument]
    for source in sorted(target["sources"]):
        if source.endswith(".swift"):
            print(f'{target["path"]}/{source}')
elif query == "dependencies":
    for name in described[argument].get("target_dependencies", []):
        print(name)
elif query == "flags":
    modes = dump.get("swiftLanguageVersions") or []
    mode = modes[0] if modes else None
    flags = []
    for setting in declared[argument].get("settings") or []:
        if setting.get("tool") != "swift":
            continue
        if setting.get("condition"):
            fail(f"{argument} has a conditional Swift setting {json.dumps(setting)}")
        (kind, value), = setting["kind"].items()
        value = value.get("_0") if isinstance(value, dict) else value
        if kind == "swiftLanguageMode":
            mode = value
        elif kind == "enableUpcomingFeature":
            flags += ["-enable-upcoming-feature", value]
        elif kind == "enableExperimentalFeature":
            flags += ["-enable-experimental-feature", value]
        elif kind == "define":
            flags += ["-D", value]
        else:
            fail(f"{argument} has a Swift setting {kind} that this check does not map to a flag")
    if mode is None:
        fail("the package names no Swift language mode")
    print("-swift-version")
    print(mode)
    print("\n".join(flags))
else:
    fail(f"unknown query {query}")
