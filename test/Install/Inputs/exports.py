"""Compares what a library exports with the functions the public headers
declare (test/Install/exports.test).

  exports.py LIB HEADER... [--except NAME]... [--allow PREFIX]...

Every function declared in a HEADER (outside comments and static inline
definitions) must carry FA_CAPI_EXPORTED, and the defined dynamic symbols of
LIB must be exactly those functions, apart from symbols that begin with an
--allow prefix (what the library carries of others: the MLIR C API, MLIR's
mgpu* runtime ABI) and C++ ones (template instantiations in MLIR's archives).
Headers named by an --except (a file name) are left out. Prints one line per
difference and exits 1, or prints an `ok` line.
"""
import argparse
import os
import re
import subprocess
import sys


def declared(path, problems):
    text = open(path).read()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    # The extern "C" braces and every other preprocessor line.
    text = re.sub(r"#ifdef __cplusplus\n.*?#endif", " ", text, flags=re.S)
    text = re.sub(r"^[ \t]*#.*$", " ", text, flags=re.M)
    names = set()
    depth, start = 0, 0
    for m in re.finditer(r"[{};]|\b(fa[A-Z]\w*)\s*\(", text):
        tok = m.group(0)
        if tok == "{":
            depth += 1
        elif tok == "}":
            depth -= 1
            start = m.end()
        elif tok == ";":
            if depth == 0:
                start = m.end()
        elif depth == 0:
            decl = text[start:m.start()]
            if re.search(r"\bstatic\b", decl) or re.search(r"\(\s*\*\s*$", decl):
                continue
            names.add(m.group(1))
            if "FA_CAPI_EXPORTED" not in decl:
                problems.append("%s: %s is declared without FA_CAPI_EXPORTED"
                                % (os.path.basename(path), m.group(1)))
    return names


def exported(lib, nm):
    out = subprocess.run([nm, "-D", "--defined-only", "--format=just-symbols", lib],
                         check=True, capture_output=True, text=True).stdout
    return set(out.split())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("lib")
    parser.add_argument("headers", nargs="+")
    parser.add_argument("--allow", action="append", default=[])
    parser.add_argument("--except", dest="skip", action="append", default=[])
    parser.add_argument("--nm", default="llvm-nm")
    args = parser.parse_args()
    problems = []
    want = set()
    for h in args.headers:
        if os.path.basename(h) in args.skip:
            continue
        want |= declared(h, problems)
    have = {s for s in exported(args.lib, args.nm)
            if not s.startswith("_Z") and not any(s.startswith(p) for p in args.allow)}
    name = os.path.basename(args.lib)
    for s in sorted(have - want):
        problems.append("%s exports %s, which no header declares" % (name, s))
    for s in sorted(want - have):
        problems.append("%s does not export %s, which a header declares" % (name, s))
    for p in problems:
        print(p)
    if problems:
        return 1
    print("ok: %s exports the %d functions its headers declare" % (name, len(want)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
