#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every page the docs cite exists. In README.md and docs/*.md (code blocks left out):
# every relative Markdown link names a file of the tree (and its #anchor a heading there); every
# repository path written out (`proto/PROTOCOL.md`, deploy/agent.yaml, DESIGN.md) exists; every
# man page cited as name(N) is one the build writes (build/man) or one the system has; and every
# section cited by name ('see "Hooks and collectors" below', '(see Rows)') is a heading or a
# bold run-in paragraph head ('**Rows.**') of the same file.
set -u

SRC="${LST_SRC:-$(cd "$(dirname "$0")/../../.." && pwd)}"
command -v python3 >/dev/null || { echo "skip: python3 not installed"; exit 77; }
MAN_DIR="${LST_BUILD:+$LST_BUILD/man}"
if [ -z "$MAN_DIR" ] || [ ! -d "$MAN_DIR" ]; then
	echo "skip: no built man pages (build the 'man' target; LST_BUILD=$LST_BUILD)"
	exit 77
fi
exec python3 - "$SRC" "$MAN_DIR" <<'PY'
import os, re, subprocess, sys

src, man_dir = sys.argv[1], sys.argv[2]
files = ["README.md"] + sorted("docs/" + f for f in os.listdir(os.path.join(src, "docs"))
                               if f.endswith(".md"))
top = set(os.listdir(src))
fails = []

def prose(path):
    """(line number, text) of the lines outside fenced code blocks."""
    fence = False
    for n, line in enumerate(open(os.path.join(src, path), encoding="utf-8"), 1):
        if line.startswith("```"):
            fence = not fence
            continue
        if not fence:
            yield n, line.rstrip("\n")

def slug(text):
    text = re.sub(r"[`*]", "", text.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")

def sections(path):
    """Heading texts, their slugs, and bold run-in heads of a Markdown file."""
    names, slugs = set(), set()
    for _, line in prose(path):
        m = re.match(r"#+\s+(.*)", line)
        if m:
            names.add(m.group(1).strip().strip("`").lower())
            slugs.add(slug(m.group(1)))
        m = re.match(r"\*\*([^*]+)\*\*", line)  # "**Rows: combined, ...**", "**Time.**"
        if m:
            names.add(re.split(r"[.:]", m.group(1))[0].strip().lower())
    return names, slugs

def man_exists(name, sec):
    if os.path.exists(os.path.join(man_dir, f"{name}.{sec}")):
        return True
    return subprocess.run(["man", "-w", sec, name], capture_output=True).returncode == 0

checked = {"link": 0, "path": 0, "man": 0, "section": 0}
for path in files:
    base = os.path.dirname(os.path.join(src, path))
    names, _ = sections(path)
    for n, line in prose(path):
        where = f"{path}:{n}"
        for target in re.findall(r"\]\(([^)\s]+)\)", line):
            if re.match(r"[a-z]+:", target):
                continue  # http:, https:, mailto:
            file, _, anchor = target.partition("#")
            full = os.path.normpath(os.path.join(base, file)) if file else os.path.join(src, path)
            checked["link"] += 1
            if not os.path.exists(full):
                fails.append(f"{where}: link to {target}: no such file")
            elif anchor and full.endswith(".md"):
                rel = os.path.relpath(full, src)
                if anchor not in sections(rel)[1]:
                    fails.append(f"{where}: link to {target}: {rel} has no such heading")
        # paths written out: FOLDER/...ext with FOLDER a top-level entry, or a bare NAME.md
        for p in re.findall(r"(?<![\w/.$~-])((?:[\w.-]+/)+[\w.-]+\.(?:md|yaml|service|c|h|sh|bash|cmake|json)|[A-Z][\w-]*\.md)\b", line):
            if p.split("/")[0] not in top and "/" in p:
                continue  # a path inside a results folder, on a host, ...
            checked["path"] += 1
            if not any(os.path.exists(os.path.join(d, p)) for d in (src, base)):
                fails.append(f"{where}: cites {p}: no such file in the tree")
        for name, sec in re.findall(r"(?<![\w.-])([a-z][\w.-]*)\(([1-8])\)", line):
            checked["man"] += 1
            if not man_exists(name, sec):
                fails.append(f"{where}: cites {name}({sec}): no such man page")
        refs = re.findall(r'see "([^"]+)"', line, re.I)
        refs += re.findall(r"\(see ([A-Z][\w ,'-]*?)(?: below| above)?\)", line)
        for ref in refs:
            if "/" in ref or ".md" in ref or "(" in ref:
                continue
            checked["section"] += 1
            if ref.strip().lower() not in names:
                fails.append(f'{where}: cites section "{ref}": {path} has no such heading')

for f in fails:
    print("FAIL:", f)
if fails:
    sys.exit(1)
print("ok: %(link)d links, %(path)d paths, %(man)d man pages, %(section)d sections cited, all exist" % checked)
PY
