#!/bin/sh
# prints something that is not JSON
echo "{not json"
