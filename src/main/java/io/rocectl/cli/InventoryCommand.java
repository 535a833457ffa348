package io.rocectl.cli;

import io.rocectl.error.InputError;
import io.rocectl.inventory.HostPattern;
import io.rocectl.inventory.Inventory;
import io.rocectl.inventory.InventoryLoader;
import io.rocectl.inventory.InventoryRender;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code rocectl inventory -i X --list | --graph | --host NAME}, like ansible-inventory, and
 * {@code -l PATTERN}: the hosts a {@code --limit} selects, like {@code ansible all -l PATTERN --list-hosts}.
 */
@Command(name = "inventory", mixinStandardHelpOptions = true, description = "Show the inventory as rocectl reads it.")
public final class InventoryCommand implements Callable<Integer> {
    @Option(names = {"-i", "--inventory"}, required = true, paramLabel = "INVENTORY",
            description = "Inventory file, directory, executable script or host list (a,b,); several are merged in order.")
    List<Path> files;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Mode mode;

    static final class Mode {
        @Option(names = "--list", description = "All groups and host variables as JSON.")
        boolean list;

        @Option(names = "--graph", description = "The group tree.")
        boolean graph;

        @Option(names = "--host", paramLabel = "NAME", description = "One host's variables as JSON.")
        String host;

        @Option(names = {"-l", "--limit"}, paramLabel = "PATTERN",
                description = "The hosts this --limit selects, in run order (as `ansible all -l PATTERN --list-hosts`).")
        String limit;
    }

    @Override
    public Integer call() {
        Inventory inv = InventoryLoader.load(files);
        for (String w : inv.warnings()) System.err.println(w);
        if (mode.list) System.out.print(InventoryRender.listJson(inv));
        else if (mode.graph) System.out.print(InventoryRender.graph(inv));
        else if (mode.host != null) System.out.print(InventoryRender.hostJson(inv, mode.host));
        else System.out.print(listHosts(inv, "all", mode.limit));
        return ExitCodes.OK;
    }

    /**
     * The hosts of {@code pattern} restricted by {@code limit} (null for none), in run order, as
     * {@code ansible PATTERN -l LIMIT --list-hosts} prints them: {@code hosts (N):} and one
     * indented host per line.
     */
    static String listHosts(Inventory inv, String pattern, String limit) {
        Path cwd = Path.of("").toAbsolutePath();
        List<String> hosts = HostPattern.resolve(inv, pattern, cwd);
        for (String w : HostPattern.ambiguities(inv, pattern)) System.err.println("[WARNING] " + w);
        String effective = InventoryOptions.effectiveLimit(limit);
        if (effective != null) {
            List<String> selected = HostPattern.resolve(inv, effective, cwd);
            for (String w : HostPattern.ambiguities(inv, effective)) System.err.println("[WARNING] " + w);
            hosts = inv.limited(hosts, selected);
        }
        if (hosts.isEmpty()) throw new InputError("option --limit", 0, 0, "no hosts matched '" + limit + "'");
        StringBuilder sb = new StringBuilder("  hosts (").append(hosts.size()).append("):\n");
        for (String h : hosts) sb.append("    ").append(h).append('\n');
        return sb.toString();
    }
}
