package io.rocectl.testing;

import io.rocectl.exec.HostInventory;

import java.util.List;
import java.util.Map;

/** An inventory of the given hosts, no variables: every pattern selects them all. */
public record FixedHosts(List<String> hosts) implements HostInventory {
    public FixedHosts {
        hosts = List.copyOf(hosts);
    }

    @Override
    public List<String> resolve(String pattern) {
        return hosts;
    }

    @Override
    public Map<String, Object> varsFor(String host) {
        return Map.of();
    }

    @Override
    public Map<String, List<String>> groups() {
        return Map.of("all", hosts);
    }
}
