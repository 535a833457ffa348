#!/bin/sh
# Not executable: not a script inventory (Ansible then tries INI and YAML)
echo '{}'
