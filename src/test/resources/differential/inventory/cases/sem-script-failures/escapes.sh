#!/bin/sh
# JSON that YAML 1.1 reads differently (\/ escape, duplicate key: the last one wins in Python)
printf '%s\n' '{"g": {"hosts": ["h\/1"], "vars": {"t": "a\tb", "u": "\u00e9", "big": 12345678901234, "f": 1.5e3}}, "k": ["x"], "k": ["y"], "_meta": {"hostvars": {}}}'
