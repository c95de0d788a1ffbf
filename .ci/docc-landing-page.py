#!/usr/bin/env python3
"""Gives the merged documentation site's landing page, /documentation/, an introduction.

`docc merge` synthesizes that page with nothing but a card per module. This script rewrites its
data file (SITE/data/documentation.json) from the main module's landing page, the catalog's
`# ``PresentationModel``` page: its abstract, its overview (the introduction, with its links to
Getting started and to each guide) and its topic groups of articles, followed by the modules. So
the introduction is written once, in the catalog, and the Swift Package Index, which shows each
module's own page, shows the same text.

Usage: docc-landing-page.py SITE MODULE-PATH   (MODULE-PATH: documentation/presentationmodel)
"""
import json
import os
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    site, module_path = sys.argv[1:]
    root_file = os.path.join(site, "data", "documentation.json")
    module_file = os.path.join(site, "data", module_path + ".json")
    with open(root_file, encoding="utf-8") as handle:
        root = json.load(handle)
    with open(module_file, encoding="utf-8") as handle:
        module = json.load(handle)
    references = module.get("references", {})

    def is_article(identifier):
        return references.get(identifier, {}).get("kind") == "article"

    overview = [section for section in module.get("primaryContentSections", []) if section.get("kind") == "content"]
    if not overview:
        sys.exit("docc-landing-page: %s has no overview to show on the landing page" % module_file)
    # The groups of articles (Essentials, Guides, Examples, Design), not the symbols.
    article_groups = [
        section for section in module.get("topicSections", [])
        if section.get("identifiers") and all(is_article(identifier) for identifier in section["identifiers"])
    ]
    if not article_groups:
        sys.exit("docc-landing-page: %s lists no articles in its topics" % module_file)
    modules = [identifier for section in root.get("topicSections", []) for identifier in section.get("identifiers", [])]

    root["abstract"] = module.get("abstract", [])
    root["primaryContentSections"] = overview
    root["topicSections"] = article_groups + [{"title": "Modules", "anchor": "Modules", "identifiers": modules}]
    root["topicSectionsStyle"] = "list"
    # Every reference the copied text and groups name, next to the modules' own.
    merged = dict(references)
    merged.update(root.get("references", {}))
    root["references"] = merged
    with open(root_file, "w", encoding="utf-8") as handle:
        json.dump(root, handle, ensure_ascii=False)
    articles = sum(len(section["identifiers"]) for section in article_groups)
    print("docc-landing-page: /documentation/ shows the overview of %s, %d articles in %d groups, and %d modules"
          % (module_path, articles, len(article_groups), len(modules)))


if __name__ == "__main__":
    main()
