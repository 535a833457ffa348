#!/usr/bin/env python3
# An inventory script with _meta.hostvars (Ansible docs "Developing dynamic inventory": script format)
import json
import sys

if sys.argv[1:] == ["--list"]:
    print(json.dumps({
        "gpu": {"hosts": ["g1", "g2"], "vars": {"fabric": "roce"}, "children": ["spine"]},
        "spine": ["s1"],
        "solo": {"ansible_host": "10.0.0.5"},
        "_meta": {"hostvars": {"g1": {"rack": "r1"}, "s1": {"ansible_port": 2222}}},
    }))
else:
    print("{}")
