#!/bin/sh
# prints YAML, not JSON: the script plugin reads JSON only
echo 'g: [y1]'
