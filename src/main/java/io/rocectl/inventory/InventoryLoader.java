package io.rocectl.inventory;

import io.rocectl.error.InputError;
import io.rocectl.yaml.YamlReader;
import io.rocectl.hostset.NodeSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Loads an inventory file or directory.
 *
 * <p>Format: {@code .yml}, {@code .yaml} and {@code .json} files are YAML; {@code .ini} files are
 * INI; any other file is YAML when it parses as a mapping of groups (with {@code hosts},
 * {@code children} or {@code vars}, or an {@code all} key) and INI otherwise. A directory loads
 * every file in it (name order; hidden files, {@code *~}, {@code .retry}, {@code .orig},
 * {@code .bak}, {@code .cfg}, {@code .md} skipped) into one inventory. {@code group_vars/} and
 * {@code host_vars/} beside the file (or inside the directory) are read for the inventory's
 * groups and hosts.
 */
public final class InventoryLoader {
    private static final Pattern YAML_KEY_LINE = Pattern.compile("^[A-Za-z0-9_.-]+:\\s*(#.*)?$");
    private static final List<String> SKIPPED = List.of("~", ".retry", ".orig", ".bak", ".cfg", ".md", ".swp");

    private InventoryLoader() {}

    /**
     * Loads the inventory at {@code path}. Errors name the path as given.
     *
     * @throws InputError for a missing file, bad syntax, undefined or circular groups, bad ranges
     */
    public static Inventory load(Path path) {
        InventoryBuilder b = new InventoryBuilder();
        Path dir;
        if (Files.isDirectory(path)) {
            dir = path;
            for (Path f : files(path)) parseFile(f, b);
        } else if (Files.isRegularFile(path)) {
            dir = path.toAbsolutePath().getParent();
            parseFile(path, b);
        } else {
            throw new InputError(path.toString(), 0, 0, "inventory not found");
        }
        return b.build(path, VarsDirs.load(dir.resolve("group_vars"), b.groupNames()),
                VarsDirs.load(dir.resolve("host_vars"), b.hostNames()));
    }

    /**
     * An inventory of ungrouped hosts from a comma-separated list ({@code -i gpu[01-04],mgmt1,}),
     * as Ansible accepts for {@code -i a,b,}; ranges expand. {@code baseDir} resolves relative
     * key/known_hosts paths.
     */
    public static Inventory fromHostList(String list, Path baseDir) {
        InventoryBuilder b = new InventoryBuilder();
        String trimmed = list.strip().replaceAll(",+$", "");
        try {
            for (String h : NodeSet.expand(trimmed)) b.addHost(InventoryBuilder.UNGROUPED, h, Map.of());
        } catch (IllegalArgumentException e) {
            throw new InputError("option -i", 0, 0, e.getMessage());
        }
        return b.build(baseDir.resolve("(host list)"), Map.of(), Map.of());
    }

    private static void parseFile(Path f, InventoryBuilder b) {
        String file = f.toString();
        String text = YamlReader.readText(f, file); // size limit, strict UTF-8 (INI too)
        String name = f.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".yml") || name.endsWith(".yaml") || name.endsWith(".json")) {
            YamlInventoryParser.parse(YamlDoc.parse(file, text), b);
        } else if (name.endsWith(".ini")) {
            IniInventoryParser.parse(file, text, b);
        } else if (firstLineIsYamlKey(text)) {
            YamlInventoryParser.parse(YamlDoc.parse(file, text), b);
        } else {
            YamlDoc doc = null;
            try {
                doc = YamlDoc.parse(file, text);
            } catch (InputError notYaml) {
                // not YAML: INI below
            }
            if (doc != null && YamlInventoryParser.looksLikeInventory(doc)) {
                YamlInventoryParser.parse(doc, b);
            } else {
                IniInventoryParser.parse(file, text, b);
            }
        }
    }

    private static boolean firstLineIsYamlKey(String text) {
        for (String line : text.split("\r?\n")) {
            String s = line.strip();
            if (s.isEmpty() || s.startsWith("#") || s.equals("---")) continue;
            return YAML_KEY_LINE.matcher(line).matches();
        }
        return false;
    }

    private static List<Path> files(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(Files::isRegularFile)
                    .filter(p -> {
                        String n = p.getFileName().toString();
                        return !n.startsWith(".") && SKIPPED.stream().noneMatch(n::endsWith);
                    })
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new InputError(dir.toString(), 0, 0, "cannot list inventory directory: " + e.getMessage());
        }
    }
}
