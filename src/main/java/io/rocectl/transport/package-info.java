/**
 * How commands reach hosts: {@link io.rocectl.transport.Connection}, argv-list commands quoted once at this boundary ({@link io.rocectl.transport.Cmd}, {@link io.rocectl.transport.ShellQuote}), local execution, ~/.ssh/config; {@link io.rocectl.transport.HostConnections}, a connection per host, and {@link io.rocectl.transport.FanOut}, the one bounded fan-out over them.
 */
package io.rocectl.transport;
