package io.rocectl.probe;

/**
 * One heavy probe in a round: start the server on {@code server}'s host listening on
 * {@code port}, then run the client on {@code client}'s host towards the server's address.
 */
public record ScheduledPair(NicEndpoint server, NicEndpoint client, int port) {}
