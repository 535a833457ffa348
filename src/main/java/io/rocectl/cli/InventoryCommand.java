package io.rocectl.cli;

import io.rocectl.error.InputError;
import io.rocectl.inventory.Inventory;
import io.rocectl.inventory.InventoryLoader;
import io.rocectl.inventory.InventoryRender;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code rocectl inventory -i X --list | --graph | --host NAME}, like ansible-inventory. */
@Command(name = "inventory", mixinStandardHelpOptions = true, description = "Show the inventory as rocectl reads it.")
public final class InventoryCommand implements Callable<Integer> {
    @Option(names = {"-i", "--inventory"}, required = true, paramLabel = "INVENTORY", description = "Inventory file.")
    Path file;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Mode mode;

    static final class Mode {
        @Option(names = "--list", description = "All groups and host variables as JSON.")
        boolean list;

        @Option(names = "--graph", description = "The group tree.")
        boolean graph;

        @Option(names = "--host", paramLabel = "NAME", description = "One host's variables as JSON.")
        String host;
    }

    @Override
    public Integer call() {
        if (!Files.exists(file)) throw new InputError(file.toString(), 0, 0, "inventory not found");
        Inventory inv = InventoryLoader.load(file);
        if (mode.list) System.out.println(InventoryRender.listJson(inv));
        else if (mode.graph) System.out.print(InventoryRender.graph(inv));
        else System.out.println(InventoryRender.hostJson(inv, mode.host));
        return ExitCodes.OK;
    }
}
