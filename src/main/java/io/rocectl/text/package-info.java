/**
 * Text utilities shared by the input readers and the modules, JDK only and no I/O:
 * {@link io.rocectl.text.Shlex}, the one splitter of command lines and INI host lines into words the
 * way Python's {@code shlex} does, and {@link io.rocectl.text.PyLiteral}, the one reader of Python
 * literals ({@code ast.literal_eval}) for INI inventory values and rendered templates.
 */
package io.rocectl.text;
