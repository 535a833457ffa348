package io.rocectl.fact;

/** The kernel's answer to {@code ip route get DST from SRC}: the device and table it would use. */
public record RouteGet(String dst, String from, String dev, int table, String gateway) {}
