/**
 * Facts: a shell snippet to run on a host plus a pure parser of its output. Several facts are
 * gathered in one round trip by {@link io.rocectl.fact.FactScript}, which prints each snippet's
 * output between markers. Parsers are pure functions, tested from outputs captured on real hosts.
 * This package is the one that imports Jackson (for {@code ip -j}) and SnakeYAML (netplan files).
 */
package io.rocectl.fact;
