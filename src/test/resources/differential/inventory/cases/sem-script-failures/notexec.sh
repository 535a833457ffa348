#!/bin/sh
# starts with #! but is not executable: the script plugin takes it and cannot run it
echo '{"g": ["x1"]}'
