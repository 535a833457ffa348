#!/bin/sh
# prints JSON that is not an object
echo '[1, 2]'
