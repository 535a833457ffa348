/**
 * Text utilities shared by the input readers and the modules, JDK only and no I/O:
 * {@link io.rocectl.text.Shlex}, the one splitter of command lines and INI host lines into words the
 * way Python's {@code shlex} does.
 */
package io.rocectl.text;
