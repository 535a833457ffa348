#!/bin/sh
# Records what ansible-core's own AnsibleModule._symbolic_mode_to_octal (module_utils/basic.py)
# makes of symbolic modes under several umasks into
# src/test/resources/fixtures/modules/file/symbolic-umask.yaml, which
# io.rocectl.builtin.core.FileModeUmaskTest compares FileMode.resolve with. The function reads the
# umask of the process it runs in (os.umask), as the file/copy/template modules do on the host, so
# each row sets that process's umask first. Needs the Python that ansible-playbook runs with.
# Usage: src/test/ansible/record-symbolic-modes.sh   (from the project directory)
set -eu
out=src/test/resources/fixtures/modules/file/symbolic-umask.yaml
[ -d "$(dirname "$out")" ] || { echo "run from the project directory" >&2; exit 2; }
py=$(sed -n '1s/^#! *//p' "$(command -v ansible-playbook)")
version=$(ansible-playbook --version | sed -n 1p)
"$py" - "$version" >"$out" <<'PY'
import os, stat, sys
from ansible.module_utils.basic import AnsibleModule


class St:
    def __init__(self, mode):
        self.st_mode = mode


modes = ["+x", "-w", "=r", "+rwx", "-rwx", "=rwx", "+X", "=rX", "+w,u+x", "u=rw,+x", "a+x", "go-w", "+t", "+s", "="]
paths = [(stat.S_IFREG | 0o644, "file"), (stat.S_IFREG | 0o750, "file"), (stat.S_IFDIR | 0o700, "directory")]
umasks = [0o022, 0o027, 0o077, 0o002, 0o000]
print("# ansible-core's AnsibleModule._symbolic_mode_to_octal, " + sys.argv[1] + ", Python " + sys.version.split()[0])
print("# command: src/test/ansible/record-symbolic-modes.sh (os.umask(UMASK) in that Python, then the function)")
for u in umasks:
    for mode in modes:
        for m, kind in paths:
            os.umask(u)
            r = AnsibleModule._symbolic_mode_to_octal(St(m), mode)
            print('- {umask: "%04o", mode: "%s", current: "%04o", type: %s, expect: "%04o"}'
                  % (u, mode, stat.S_IMODE(m), kind, r))
PY
echo "wrote $out"
