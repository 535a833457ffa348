#!/usr/bin/env python3
"""Reduces ansible-playbook's default console output (stdin) to what EngineDifferentialTest
compares with rocectl's console at -v: the PLAY / TASK / RUNNING HANDLER / NO MORE HOSTS LEFT
banners and, under each, its per-host status lines cut after the host label and item, e.g.
    ok: [h1 -> localhost]
    changed: [h1 -> h2(127.0.0.1)] => (item=a)
    skipping: [h1] => (item=b)
    failed: [h1 -> h2] (item=a) ...ignoring
    fatal: [h1 -> localhost]: FAILED! ...ignoring
and "included: FILE for HOSTS" (FILE relative to this directory, as are other paths under it;
HOSTS sorted), sorted within a
banner (hosts finish in any order). Result bodies, warnings and the recap
(compared by normalize.py) are left out. EngineDifferentialTest.ConsoleView is the same in Java."""
import os
import re
import sys

INCLUDED = re.compile(r"^included: (\S+) for (.+?)( => \(item=.*\))?$")
NO_HOSTS = re.compile(r"^NO MORE HOSTS LEFT \*+$")
BANNER = re.compile(r"^(PLAY|TASK|RUNNING HANDLER) \[(.*)\] \*+$")
STATUS = re.compile(r"^(ok|changed|skipping|fatal|failed): \[([^\]]*)\]")


def cut(line):
    m = STATUS.match(line)
    if not m:
        return None
    head, rest = m.group(0), line[m.end():]
    for form in (" => (item=", " (item="):
        if rest.startswith(form):
            # the item ends before " =>" (a result follows) or at the line's last ")"
            stop = rest.find(") =>", len(form))
            end = stop if stop >= 0 else rest.rstrip().rfind(")")
            return head + rest[:end + 1]
    for word in (": FAILED!", ": UNREACHABLE!"):
        if rest.startswith(word):
            return head + word
    return head


def main():
    out, block = [], []

    def flush():
        out.extend(sorted(block))
        block.clear()

    here = os.getcwd() + "/"
    for raw in sys.stdin.read().split("\n"):
        # paths under this directory (with_fileglob items) relative to it, as on any machine
        line = raw.rstrip("\n").replace(here, "")
        b = BANNER.match(line)
        if b or NO_HOSTS.match(line):
            flush()
            out.append(b.group(1) + " [" + b.group(2) + "]" if b else "NO MORE HOSTS LEFT")
            continue
        if line.startswith("PLAY RECAP"):
            break
        if line == "...ignoring" and block:
            block[-1] += " ...ignoring"
            continue
        i = INCLUDED.match(line)
        if i:
            # the file relative to this directory, the hosts sorted
            hosts = ", ".join(sorted(i.group(2).split(", ")))
            block.append("included: " + os.path.relpath(i.group(1)) + " for " + hosts + (i.group(3) or ""))
            continue
        c = cut(line)
        if c is not None:
            block.append(c)
    flush()
    print("\n".join(out))


main()
