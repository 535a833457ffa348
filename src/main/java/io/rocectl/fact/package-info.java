/**
 * Facts: a shell snippet to run on a host plus a pure parser of its output. Several facts are
 * gathered in one round trip by {@link io.rocectl.fact.FactScript}, which prints each snippet's
 * output between markers. Parsers are pure functions, tested from outputs captured on real hosts.
 * {@code ip -j} output is read by {@link io.rocectl.fact.JsonReader}, a small JSON reader of the
 * package's own (no data binder on every host's read); netplan files through the yaml package.
 */
package io.rocectl.fact;
