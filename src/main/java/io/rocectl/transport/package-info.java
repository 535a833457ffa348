/**
 * How commands reach hosts: {@link io.rocectl.transport.Connection}, argv-list commands quoted once at this boundary ({@link io.rocectl.transport.Cmd}, {@link io.rocectl.transport.ShellQuote}), local execution, ~/.ssh/config.
 */
package io.rocectl.transport;
