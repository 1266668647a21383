#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The architecture check: the rooms of docs/ARCHITECTURE.md, read from the built objects.

Usage: check_architecture.py TABLE LIBS [--nm NM] [--stats]

TABLE is the declarative table (cmake/architecture.txt): each library, the libraries it may
use, the file pairs allowed to call each other and the known circles still present. LIBS is a
folder holding the static libraries (liblst_NAME.a, one per library) or a file listing their
paths, one a line (the build writes one, so an old library left in a reused build folder is
not read). The check reads `nm` of every
object in every library and fails (exit 1) when

  - a library in LIBS has no row in the table (every library is checked, none by omission);
  - an object of library X uses a symbol defined in library Y that X's row does not allow,
    or one that Y keeps to itself (lst_y__name: the library-internal convention);
  - the files of one library call each other in a circle (A uses a symbol of B and B one of A,
    or a longer cycle) that is neither an allowed pair nor inside a known circle of the table.

Each failure names the files and the symbols that make it. Known circles are tolerated but
reported, and a known circle that is gone is reported so that its row can be deleted. --stats
also prints files per library and the largest objects (the before/after of a refactor).
Symbols come from nm, not from the sources, so what is checked is what the linker sees:
a call hidden behind a macro counts, a static helper does not.
"""
import os
import re
import subprocess
import sys
from collections import defaultdict

USAGE = "usage: check_architecture.py TABLE LIBS [--nm NM] [--stats]"


class TableError(Exception):
    pass


class Table:
    """The parsed table: libraries with folders and uses, allowed pairs, known circles."""

    def __init__(self):
        self.folder = {}  # library -> folder in the source tree
        self.uses = {}  # library -> set of libraries it may use
        self.allow = []  # (library, frozenset of 2 files, reason)
        self.known = []  # (library, frozenset of files, what removes it)


def parse_table(path):
    """Reads TABLE; a malformed row raises TableError naming its line."""
    t = Table()
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    # A row may continue on lines that start with white space (long file lists).
    rows = []
    for no, raw in enumerate(lines, 1):
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        if line[0].isspace() and rows:
            rows[-1][1] += " " + line.strip()
        else:
            rows.append([no, line.strip()])
    for no, line in rows:
        where = "%s:%d" % (path, no)
        kw, _, rest = line.partition(" ")
        if kw == "lib":
            m = re.fullmatch(r"(\w+)\s+in\s+(\S+)\s+uses(.*)", rest.strip())
            if not m:
                raise TableError("%s: expected 'lib NAME in FOLDER uses [LIB...]'" % where)
            name, folder, uses = m.group(1), m.group(2), m.group(3).split()
            if name in t.folder:
                raise TableError("%s: library %s has a second row" % (where, name))
            t.folder[name] = folder
            t.uses[name] = set(uses)
        elif kw in ("allow", "known"):
            sep = "because" if kw == "allow" else "until"
            head, found, reason = rest.partition(" %s " % sep)
            words = head.split()
            if not found or not reason.strip() or len(words) < 3:
                raise TableError(
                    "%s: expected '%s LIB FILE FILE... %s REASON'" % (where, kw, sep))
            if kw == "allow" and len(words) != 3:
                raise TableError("%s: an allowed circle is a pair of files" % where)
            entry = (words[0], frozenset(words[1:]), reason.strip())
            (t.allow if kw == "allow" else t.known).append(entry)
        else:
            raise TableError("%s: unknown row '%s' (lib, allow or known)" % (where, kw))
    for name, uses in t.uses.items():
        for u in sorted(uses - set(t.folder)):
            raise TableError("%s: library %s may use %s, which has no row" % (path, name, u))
    for lib, files, _ in t.allow + t.known:
        if lib not in t.folder:
            raise TableError("%s: a circle names library %s, which has no row" % (path, lib))
    return t


DEFINED = set("TDBRCGSVWiu")
# lst_x__y: a function or object shared by the files of one library and by no other one.
INTERNAL = re.compile(r"lst_[a-z0-9][a-z0-9_]*?__")


def read_objects(nm, archive):
    """Returns {object: (defined set, undefined set)} of one static library, from nm -P."""
    out = subprocess.run([nm, "-A", "-g", "-P", archive], check=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         universal_newlines=True).stdout
    objs = defaultdict(lambda: (set(), set()))
    for line in out.splitlines():
        m = re.match(r"^.*\[(.+)\]: (\S+) (\S)", line)
        if not m:
            continue
        obj, sym, kind = m.group(1), m.group(2), m.group(3)
        obj = re.sub(r"\.o(bj)?$", "", obj)
        if kind in ("U", "w", "v"):
            objs[obj][1].add(sym)
        elif kind in DEFINED:
            objs[obj][0].add(sym)
    # An object's own definitions are no use of anything.
    return {o: (d, u - d) for o, (d, u) in objs.items()}


def object_sizes(nm, archive):
    """Returns {object: bytes of code and data it defines, static symbols included}."""
    out = subprocess.run([nm, "-A", "-S", "-P", "--defined-only", archive], check=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         universal_newlines=True).stdout
    sizes = defaultdict(int)
    for line in out.splitlines():
        m = re.match(r"^.*\[(.+)\]: \S+ \S [0-9a-f]+ ([0-9a-f]+)$", line)
        if m:
            sizes[re.sub(r"\.o(bj)?$", "", m.group(1))] += int(m.group(2), 16)
    return sizes


def sccs(nodes, edges):
    """Tarjan's strongly connected components of a graph {node: set(node)}, iteratively."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for root in sorted(nodes):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(edges.get(nxt, ())))))
                elif nxt in on:
                    low[v] = min(low[v], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def shortest_cycle(start, members, edges):
    """A shortest cycle from start back to start inside members (breadth first)."""
    prev = {}
    frontier = [start]
    seen = {start}
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(edges.get(v, ())):
                if w not in members:
                    continue
                if w == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(prev[path[-1]])
                    return list(reversed(path)) + [start]
                if w not in seen:
                    seen.add(w)
                    prev[w] = v
                    nxt.append(w)
        frontier = nxt
    return [start]


def symbols_between(a, b, objs, group):
    """The symbols that files of node a use from files of node b (a node is one file or an
    allowed pair)."""
    syms = set()
    for fa in group[a]:
        for fb in group[b]:
            syms |= objs[fa][1] & objs[fb][0]
    return sorted(syms)


def show_syms(syms, limit=4):
    more = " and %d more" % (len(syms) - limit) if len(syms) > limit else ""
    return ", ".join(syms[:limit]) + more


def check_library(lib, table, objs, problems, notes):
    """Finds the circles of one library's files and sorts them into allowed, known and new."""
    # Allowed pairs are one node: their mutual calls are the design, and a third file that
    # closes a loop through the pair is still found.
    files = {o: o for o in objs}
    group = {o: [o] for o in objs}
    for alib, pair, reason in table.allow:
        if alib != lib:
            continue
        present = [f for f in sorted(pair) if f in files]
        if len(present) != 2:
            notes.append("%s: allowed pair %s is not in the library (delete its row)"
                         % (lib, " <-> ".join(sorted(pair))))
            continue
        name = " + ".join(present)
        for f in present:
            del group[f]
            files[f] = name
        group[name] = present
    defined_by = {}
    for o, (d, _) in objs.items():
        for s in d:
            defined_by.setdefault(s, o)
    edges = defaultdict(set)
    for o, (_, u) in objs.items():
        for s in u:
            t = defined_by.get(s)
            if t is not None and files[t] != files[o]:
                edges[files[o]].add(files[t])
    seen_known = set()
    for comp in sccs(list(group), edges):
        comp_files = set(f for n in comp for f in group[n])
        # A known row still describes a circle while two of its files are in one (a circle that
        # grew past its row fails below, and its row is not "gone").
        for i, (klib, kfiles, _) in enumerate(table.known):
            if klib == lib and len(comp_files & kfiles) >= 2:
                seen_known.add(i)
        home = None
        for i, (klib, kfiles, until) in enumerate(table.known):
            if klib == lib and comp_files <= kfiles:
                home = i
                break
        if home is not None:
            notes.append("%s: known circle of %d files (%s), until %s"
                         % (lib, len(comp_files), " ".join(sorted(comp_files)),
                            table.known[home][2]))
            continue
        # The hop to show starts at a file no known circle of this library holds, so the
        # message points at the new back-call rather than at the old mess around it.
        known_files = set()
        for klib, kfiles, _ in table.known:
            if klib == lib:
                known_files |= kfiles
        start = next((n for n in comp if not set(group[n]) <= known_files), comp[0])
        cyc = shortest_cycle(start, set(comp), edges)
        hops = ["  %s uses %s: %s" % (a, b, show_syms(symbols_between(a, b, objs, group)))
                for a, b in zip(cyc, cyc[1:])]
        problems.append("%s (%s): circle of files %s\n%s"
                        % (lib, table.folder[lib], " -> ".join(cyc), "\n".join(hops)))
        if len(comp) > len(cyc) - 1:
            problems[-1] += "\n  (one circle of %d; the whole knot: %s)" % (
                len(comp), " ".join(sorted(comp_files)))
        # Breaking the circle is the fix; a row is for a circle that a change under way removes.
        problems[-1] += "\n  (tolerated only by a row: known %s %s until WHAT REMOVES IT)" % (
            lib, " ".join(sorted(comp_files)))
    for i, (klib, kfiles, until) in enumerate(table.known):
        if klib == lib and i not in seen_known:
            notes.append("%s: known circle %s is gone (delete its row)"
                         % (lib, " ".join(sorted(kfiles))))


def main(argv):
    args = [a for a in argv[1:]]
    nm = "nm"
    stats = False
    if "--stats" in args:
        args.remove("--stats")
        stats = True
    if "--nm" in args:
        i = args.index("--nm")
        if i + 1 >= len(args):
            print(USAGE, file=sys.stderr)
            return 2
        nm = args[i + 1]
        del args[i:i + 2]
    if len(args) != 2:
        print(USAGE, file=sys.stderr)
        return 2
    table_path, libs_arg = args
    try:
        table = parse_table(table_path)
    except (OSError, TableError) as e:
        print("architecture: %s" % e, file=sys.stderr)
        return 2
    problems, notes = [], []
    found = {}
    try:
        if os.path.isdir(libs_arg):
            paths = [os.path.join(libs_arg, n) for n in sorted(os.listdir(libs_arg))]
        else:
            with open(libs_arg, encoding="utf-8") as f:
                paths = [line.strip() for line in f if line.strip()]
    except OSError as e:
        print("architecture: %s: %s (build first)" % (libs_arg, e.strerror), file=sys.stderr)
        return 2
    for path in paths:
        m = re.fullmatch(r"liblst_(\w+)\.a", os.path.basename(path))
        if m:
            found[m.group(1)] = path
    if not found:
        print("architecture: no liblst_*.a in %s (build first)" % libs_arg, file=sys.stderr)
        return 2
    libs = {}
    for lib, path in sorted(found.items()):
        if lib not in table.folder:
            problems.append("%s (%s): library has no row in %s; add 'lib %s in FOLDER uses ...'"
                            % (lib, path, table_path, lib))
            continue
        libs[lib] = read_objects(nm, path)
    for lib in sorted(set(table.folder) - set(found)):
        notes.append("%s: in the table, not built here" % lib)
    # Who defines what across libraries. A symbol defined twice is the linker's business; here
    # a definition in the user's own library or in one it may use is the one that counts.
    owners = defaultdict(list)
    for lib, objs in sorted(libs.items()):
        for o, (d, _) in sorted(objs.items()):
            for s in d:
                owners[s].append((lib, o))
    for lib, objs in sorted(libs.items()):
        bad, inner = defaultdict(list), defaultdict(list)
        for o, (_, u) in sorted(objs.items()):
            for s in sorted(u):
                if s not in owners or any(t == lib for t, _ in owners[s]):
                    continue
                allowed = [(t, to) for t, to in owners[s] if t in table.uses[lib]]
                if not allowed:
                    bad[(o,) + owners[s][0]].append(s)
                elif INTERNAL.match(s):
                    inner[(o,) + allowed[0]].append(s)
        for (o, tlib, tobj), syms in sorted(bad.items()):
            problems.append("%s (%s): %s uses %s (%s/%s), which the table does not allow: %s"
                            % (lib, table.folder[lib], o, tlib, table.folder[tlib], tobj,
                               show_syms(syms)))
        for (o, tlib, tobj), syms in sorted(inner.items()):
            problems.append("%s (%s): %s uses what is internal to %s (%s/%s): %s"
                            % (lib, table.folder[lib], o, tlib, table.folder[tlib], tobj,
                               show_syms(syms)))
        check_library(lib, table, objs, problems, notes)
    if stats:
        print("files per library:")
        for lib, objs in sorted(libs.items()):
            sizes = object_sizes(nm, found[lib])
            big = sorted(sizes, key=lambda o: (-sizes[o], o))[:3]
            print("  %-14s %3d  (%s); largest: %s" % (
                lib, len(objs), table.folder[lib],
                ", ".join("%s %d KiB" % (o, (sizes[o] + 1023) // 1024) for o in big)))
    for n in notes:
        print("note: " + n)
    for p in problems:
        print("FAIL: " + p, file=sys.stderr)
    if problems:
        print("architecture: %d problem(s); the rules and the table: docs/ARCHITECTURE.md, %s"
              % (len(problems), table_path), file=sys.stderr)
        return 1
    print("architecture: %d libraries, %d files, every dependency allowed, no new circle"
          % (len(libs), sum(len(o) for o in libs.values())))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
