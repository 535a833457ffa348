#!/usr/bin/env python3
"""Reduces ansible-playbook's json callback output to the lines EngineDifferentialTest compares:
the exit code, each task run (hosts and statuses, in order), debug messages, and the recap.
Usage: normalize.py OUT.json RC [ERR.txt]; a run that ended with "ERROR! ..." (nothing in OUT.json)
gives the exit code and that error line."""
import json
import sys


def status(r):
    if r.get("unreachable"):
        return "unreachable"
    if r.get("skipped"):
        return "skipped"
    if r.get("failed"):
        return "failed"
    return "changed" if r.get("changed") else "ok"


def main():
    rc = sys.argv[2]
    text = open(sys.argv[1]).read()
    if not text.strip() and len(sys.argv) > 3:
        # ansible-playbook stopped with "ERROR! ..." before its json callback printed anything:
        # the exit code and that error are all there is
        errors = [l[len("ERROR! "):] for l in open(sys.argv[3]).read().splitlines() if l.startswith("ERROR! ")]
        print("\n".join(["exit " + rc] + ["error " + e for e in errors[:1]]))
        return
    doc = json.loads(text)
    out = ["exit " + rc]
    for play in doc.get("plays", []):
        for task in play.get("tasks", []):
            hosts = task.get("hosts", {})
            if not hosts:
                continue
            name = task["task"]["name"]
            if name == "meta":
                continue  # meta tasks are not results (not in the recap either)
            out.append("task " + name + ": " + " ".join(h + "=" + status(hosts[h]) for h in sorted(hosts)))
            for h in sorted(hosts):
                r = hosts[h]
                if status(r) in ("ok", "changed") and "msg" in r and "results" not in r:
                    out.append("  " + h + " msg " + json.dumps(r["msg"], sort_keys=True))
    keys = ["ok", "changed", "unreachable", "failures", "skipped", "rescued", "ignored"]
    for h in sorted(doc.get("stats", {})):
        s = doc["stats"][h]
        if all(s.get(k, 0) == 0 for k in keys):
            continue
        out.append("recap " + h + " " + " ".join(k.replace("failures", "failed") + "=" + str(s.get(k, 0)) for k in keys))
    print("\n".join(out))


main()
