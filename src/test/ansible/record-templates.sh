#!/bin/sh
# Records what real Ansible makes of each template case in
# src/test/resources/differential/templates/cases.yaml into expected.json next to it, which
# io.rocectl.template.TemplateDifferentialTest compares Templar against (so the tests never need
# Ansible). Each case becomes one task of a single local playbook: a debug msg, or a debug whose
# `when:` is the case. Needs ansible-playbook and python3 (with PyYAML, which Ansible brings).
# Usage: src/test/ansible/record-templates.sh   (from the project directory)
set -eu
dir=src/test/resources/differential/templates
[ -f "$dir/cases.yaml" ] || { echo "run from the project directory" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$dir/files" "$dir/vars.yaml" "$work/"
python3 - "$dir/cases.yaml" "$work/play.json" <<'PY'
import json, sys, yaml
cases = yaml.safe_load(open(sys.argv[1]))
tasks = []
for c in cases:
    if isinstance(c, dict) and "when" in c:
        t = {"debug": {"msg": "ran"}, "when": c["when"]}
    elif isinstance(c, dict) and "omit_msg" in c:
        t = {"debug": {"msg": c["omit_msg"]}}
    else:
        t = {"debug": {"msg": c}}
    t["ignore_errors"] = True
    tasks.append(t)
play = [{"hosts": "localhost", "gather_facts": False, "vars_files": ["vars.yaml"], "tasks": tasks}]
json.dump(play, open(sys.argv[2], "w"), ensure_ascii=False, indent=1)
PY
command="ANSIBLE_STDOUT_CALLBACK=json ansible-playbook -i localhost, -c local play.json"
(cd "$work" && env -u ROCECTL_TEMPLATE_CASE_NOT_SET ANSIBLE_STDOUT_CALLBACK=json ANSIBLE_LOCALHOST_WARNING=false \
    ANSIBLE_NOCOLOR=1 ansible-playbook -i localhost, -c local play.json > out.json 2> err.txt) || true
version=$(ansible-playbook --version | sed -n 1p)
python3 - "$dir/cases.yaml" "$work/out.json" "$dir/expected.json" "$version" "$command" <<'PY'
import json, sys, yaml
cases = yaml.safe_load(open(sys.argv[1]))
out = json.load(open(sys.argv[2]))
tasks = out["plays"][0]["tasks"]
assert len(tasks) == len(cases), (len(tasks), len(cases))
results = []
for c, t in zip(cases, tasks):
    r = t["hosts"]["localhost"]
    e = {"case": c}
    if isinstance(c, dict) and "when" in c:
        e["when"] = "failed" if r.get("failed") else "skipped" if r.get("skipped") else "ran"
        if r.get("failed"):
            e["error"] = r.get("msg", "")
    elif r.get("failed"):
        e["error"] = r.get("msg", "")
    else:
        e["msg"] = r.get("msg")
    results.append(e)
doc = {"ansible_version": sys.argv[4], "command": sys.argv[5] + "  (src/test/ansible/record-templates.sh)",
       "results": results}
with open(sys.argv[3], "w") as f:
    json.dump(doc, f, ensure_ascii=False, indent=1)
    f.write("\n")
PY
echo "recorded $(python3 -c "import json;print(len(json.load(open('$dir/expected.json'))['results']))") cases into $dir/expected.json"
