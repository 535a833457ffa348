#!/usr/bin/env python3
"""Reduces ansible-playbook's json callback output to the lines EngineDifferentialTest compares:
the exit code, each task run (hosts and statuses, in order), debug messages, and the recap."""
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
    doc = json.load(open(sys.argv[1]))
    rc = sys.argv[2]
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
