package io.rocectl.cli;

import picocli.CommandLine.Option;

import java.nio.file.Path;

/** {@code -i INVENTORY} and {@code -l PATTERN}, shared by every command that targets hosts. */
public final class InventoryOptions {
    @Option(names = {"-i", "--inventory"}, required = true, paramLabel = "INVENTORY",
            description = "Inventory file (Ansible INI or YAML).")
    Path inventory;

    @Option(names = {"-l", "--limit"}, paramLabel = "PATTERN",
            description = "Only hosts matching this pattern (all, groups, globs, ranges, a:b, a:&b, a:!b, @file).")
    String limit;
}
