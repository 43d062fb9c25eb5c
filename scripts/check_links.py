#!/usr/bin/env python3
"""Every relative link in the repository's Markdown pages resolves, and no page names a path
outside the repository.

Walks every *.md file of the tree (README.md, CHANGELOG.md, docs/, data/, python/; not target/,
node_modules/ or .git/) and checks each inline link or image `[text](target)`, each reference
definition `[name]: target` and each HTML `href`/`src`:

- a relative target names a file or folder of the repository (resolved from the page's folder),
  and never one outside it (`../shared/STYLE.md` from the top);
- an anchor (`page.md#heading`, or `#heading` on the same page) is the GitHub slug of a heading of
  that page (lower case, punctuation dropped, each space a hyphen, `-1`, `-2` for repeats) or an
  HTML `id`/`name` in it;
- an absolute file path (`/work/...`, `file://...`) is never a target, and no page names a
  machine's own folders (`/work/`, `/root/`, `/home/`) even in plain text or code;
- a repository path written as code (`docs/FORMAT.md`, `scripts/korf24.sh`) names a file or
  folder that exists, from the top or from the page's folder; not in CHANGELOG.md, which names
  files as they were when each change was made.

Links inside fenced code blocks and inline code are not links and are skipped. Web addresses
(`https://...`, `mailto:`) are not fetched: CI has no internet.

Usage: python3 scripts/check_links.py [ROOT]   (exit status 1 and one line per failure)
"""

import os
import re
import sys
import unicodedata

SKIP_DIRS = {".git", "target", "node_modules", ".venv", "__pycache__", ".pytest_cache", ".mypy_cache"}
# folders of the machine the pages were written on: a reader's clone has none of them
MACHINE_PATHS = re.compile(r"(?<![\w.~/-])(/work/|/root/|/home/)")
INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
HTML_REF = re.compile(r"""\b(?:href|src)\s*=\s*["']([^"']+)["']""")
HTML_ID = re.compile(r"""<[^>]*\b(?:id|name)\s*=\s*["']([^"']+)["']""")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
# a path into the repository's own folders, written as inline code
CODE_PATH = re.compile(r"`((?:\./)?(?:src|docs|data|scripts|tests|python|benches|fuzz|\.ci)/[^`\s]*)`")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def markdown_files(root):
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        for name in sorted(files):
            if name.endswith(".md"):
                yield os.path.join(folder, name)


def prose_lines(text):
    """(line number, line) of the lines outside fenced code blocks, inline code blanked."""
    fence = None
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.lstrip()
        marker = re.match(r"(`{3,}|~{3,})", stripped)
        if marker:
            if fence is None:
                fence = marker.group(1)
                continue
            # a closing fence: the opening's character alone, at least as many of it
            closing = stripped.strip()
            if set(closing) == {fence[0]} and len(closing) >= len(fence):
                fence = None
                continue
        if fence is not None:
            continue
        yield number, re.sub(r"(`+)(.+?)\1", lambda m: " " * len(m.group(0)), line)


def code_lines(text):
    """(line number, line) of the lines outside fenced code blocks, inline code kept."""
    lines = text.splitlines()
    return [(n, lines[n - 1]) for n, _ in prose_lines(text)]


def slug(heading):
    """GitHub's anchor for a heading's text (github-slugger's rules)."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML
    text = text.replace("`", "")
    text = re.sub(r"(\*\*|__|\*|(?<!\w)_|_(?!\w)|~~)", "", text)  # emphasis markers
    text = text.strip().lower()
    kept = []
    for ch in text:
        category = unicodedata.category(ch)
        if ch in " -_" or category[0] in "LNM" or category == "Pc":
            kept.append(ch)
    return "".join(kept).replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        found = set()
        seen = {}
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for _, line in code_lines(text):
            m = HEADING.match(line)
            if m:
                base = slug(m.group(2))
                n = seen.get(base, 0)
                seen[base] = n + 1
                found.add(base if n == 0 else f"{base}-{n}")
            found.update(HTML_ID.findall(line))
        cache[path] = found
    return cache[path]


def check(root):
    root = os.path.realpath(root)
    failures = []
    checked = 0
    for page in markdown_files(root):
        rel_page = os.path.relpath(page, root)
        with open(page, encoding="utf-8") as f:
            text = f.read()
        for number, line in enumerate(text.splitlines(), 1):
            m = MACHINE_PATHS.search(line)
            if m:
                failures.append(f"{rel_page}:{number}: names {m.group(1)}..., a folder outside the repository")
        if rel_page != "CHANGELOG.md":
            for number, line in code_lines(text):
                for m in CODE_PATH.finditer(line):
                    path = m.group(1).split("#")[0].rstrip(".,:;")
                    if any(c in path for c in "*?{}<>$|"):
                        continue  # a pattern or a placeholder, not a path
                    checked += 1
                    if not any(os.path.exists(os.path.join(base, path)) for base in (root, os.path.dirname(page))):
                        failures.append(f"{rel_page}:{number}: `{path}` names no file in the repository")
        for number, line in prose_lines(text):
            targets = INLINE.findall(line) + HTML_REF.findall(line)
            m = REFERENCE.match(line)
            if m:
                targets.append(m.group(1))
            for target in targets:
                checked += 1
                problem = check_target(root, page, target)
                if problem:
                    failures.append(f"{rel_page}:{number}: ({target}) {problem}")
    return failures, checked


def check_target(root, page, target):
    if not target:
        return "an empty link"
    if target.startswith("file:") or target.startswith("/"):
        return "an absolute path: a reader's clone is elsewhere"
    if SCHEME.match(target):
        return None  # a web address: not fetched
    path, _, anchor = target.partition("#")
    path = path.split("?", 1)[0]
    if path:
        resolved = os.path.realpath(os.path.join(os.path.dirname(page), path))
        if os.path.commonpath([resolved, root]) != root:
            return "a path outside the repository"
        if not os.path.exists(resolved):
            return "no such file in the repository"
    else:
        resolved = page
    if anchor:
        if not resolved.endswith(".md") or os.path.isdir(resolved):
            return None  # an anchor into a file that is not a page (a line of code): not checked
        if anchor not in anchors(resolved):
            return f"no heading or id '{anchor}' in {os.path.relpath(resolved, root)}"
    return None


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    failures, checked = check(root)
    for failure in failures:
        print(failure)
    pages = sum(1 for _ in markdown_files(root))
    if failures:
        print(f"check_links: {len(failures)} broken or outside link(s) in {pages} pages", file=sys.stderr)
        return 1
    print(f"check_links: all {checked} links and paths in {pages} pages hold (web addresses not fetched)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
