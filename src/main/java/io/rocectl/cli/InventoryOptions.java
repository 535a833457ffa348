package io.rocectl.cli;

import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** {@code -i INVENTORY} and {@code -l PATTERN}, shared by every command that targets hosts. */
public final class InventoryOptions {
    /** The first inventory source (commands that build their own inventory set only this). */
    Path inventory;

    /** Every {@code -i}, in order (empty when {@link #inventory} was set directly). */
    private List<Path> sources = List.of();

    @Option(names = {"-i", "--inventory"}, required = true, paramLabel = "INVENTORY",
            description = "Inventory file (Ansible INI or YAML, or an executable script), directory, or host list (a,b,);"
                    + " given several times, the inventories are merged in order (as ansible-playbook).")
    void inventories(List<Path> paths) {
        sources = List.copyOf(paths);
        inventory = paths.isEmpty() ? null : paths.get(0);
    }

    /** The inventory sources, in the order given. */
    List<Path> sources() {
        return sources.isEmpty() ? List.of(inventory) : sources;
    }

    @Option(names = {"-l", "--limit"}, paramLabel = "PATTERN",
            description = "Only hosts matching this pattern (all, groups, globs, ranges, a:b, a:&b, a:!b, @file).")
    String limit;

    /**
     * The limit pattern, or null for none. As in Ansible, {@code --limit @FILE} whose file names no
     * host (empty, or only blank and {@code #} lines) applies no limit; a warning says so.
     */
    String limit() {
        limit = effectiveLimit(limit);
        return limit;
    }

    /**
     * The limit to apply: null for none, for an empty one (as Ansible's {@code --limit ''}), or for
     * {@code @FILE} naming no host (with a warning).
     */
    static String effectiveLimit(String limit) {
        if (limit != null && limit.isBlank()) return null;
        if (limit == null || !limit.startsWith("@") || limit.length() == 1 || limit.contains(",")) return limit;
        Path f = Path.of(limit.substring(1));
        try {
            for (String line : Files.readAllLines(f)) {
                String l = line.strip();
                if (!l.isEmpty() && !l.startsWith("#")) return limit;
            }
        } catch (IOException | java.io.UncheckedIOException e) {
            return limit; // the pattern resolver reports the unreadable file with its name
        }
        System.err.println("[WARNING] --limit " + limit + ": the file names no host; no limit applied (as in Ansible)");
        return null;
    }
}
