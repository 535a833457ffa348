/**
 * The one YAML reader (the only package importing snakeyaml's loader): every YAML input --
 * playbooks, vars files, {@code -e @file}, inventories, host data such as netplan files -- is read
 * with the same limits (size, UTF-8, nesting depth, aliases and what they expand to) and errors
 * that name {@code file:line:col}.
 */
package io.rocectl.yaml;
