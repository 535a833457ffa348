package io.rocectl.inventory;

import io.rocectl.error.InputError;
import io.rocectl.yaml.YamlReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
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
 * every file in it and its subdirectories, as Ansible does (name order, subdirectories where they
 * sort; hidden files and Ansible's ignored extensions {@link #IGNORED_EXTS}, including
 * {@code .ini}, skipped) into one inventory. A path that does not exist and contains a comma is
 * a host list ({@link #fromHostList}). {@code group_vars/} and
 * {@code host_vars/} beside the file (or inside the directory) are read for the inventory's
 * groups and hosts.
 *
 * <p>An inventory script ({@link ScriptInventory}) that fails before reading anything is treated
 * as Ansible's {@code parse_source} treats it: its text goes to the yaml (no extension or a YAML
 * one) and ini readers, and when neither takes it the source is left out with Ansible's warnings
 * ({@link Inventory#warnings}, {@link Inventory#nothingParsed}); the other sources go on.
 */
public final class InventoryLoader {
    private static final Pattern YAML_KEY_LINE = Pattern.compile("^[A-Za-z0-9_.-]+:\\s*(#.*)?$");
    /**
     * Ansible's default {@code INVENTORY_IGNORE_EXTS} (ansible-core 2.14 {@code config/base.yml}:
     * {@code REJECT_EXTS} plus {@code .orig .ini .cfg .retry}): files of a directory inventory
     * ending in these are not read.
     */
    static final List<String> IGNORED_EXTS = List.of(".pyc", ".pyo", ".swp", ".bak", "~", ".rpm", ".md", ".txt",
            ".rst", ".orig", ".ini", ".cfg", ".retry");
    private static final List<String> IGNORED_NAMES = List.of("host_vars", "group_vars", "vars_plugins");

    private InventoryLoader() {}

    /**
     * Loads the inventory at {@code path}. Errors name the path as given.
     *
     * @throws InputError for a missing file, bad syntax, undefined or circular groups, bad ranges
     */
    public static Inventory load(Path path) {
        InventoryBuilder b = new InventoryBuilder();
        Notes notes = new Notes();
        Path dir;
        if (Files.isDirectory(path)) {
            dir = path;
            notes.source(parseDir(path, b, notes));
        } else if (Files.isRegularFile(path)) {
            dir = path.toAbsolutePath().getParent();
            notes.source(parseFile(path, b, notes));
        } else if (!Files.exists(path) && path.toString().contains(",")) {
            return fromHostList(path.toString(), Path.of("").toAbsolutePath());
        } else {
            throw new InputError(path.toString(), 0, 0, "inventory not found");
        }
        return notes.attach(b.build(path, VarsDirs.load(dir.resolve("group_vars"), b.groupNames()),
                VarsDirs.load(dir.resolve("host_vars"), b.hostNames())));
    }

    /**
     * What loading met on the way, as Ansible's {@code InventoryManager.parse_sources} reports it:
     * warnings, the paths that could not be parsed, and how many of the sources given parsed.
     */
    private static final class Notes {
        final List<String> warnings = new ArrayList<>();
        final List<String> unparsed = new ArrayList<>();
        int sources;
        int parsed;

        void source(boolean ok) {
            sources++;
            if (ok) parsed++;
        }

        Inventory attach(Inventory inv) {
            boolean nothing = sources > 0 && parsed == 0;
            if (nothing) warnings.add("[WARNING]: No inventory was parsed, only implicit localhost is available");
            return inv.withLoadNotes(warnings, unparsed, nothing);
        }
    }

    /** Every inventory file of a directory; parsed when one of them is (Ansible: else a warning). */
    private static boolean parseDir(Path dir, InventoryBuilder b, Notes notes) {
        boolean any = false;
        for (Path f : files(dir)) any |= parseFile(f, b, notes);
        if (!any) {
            notes.warnings.add("[WARNING]: Unable to parse " + dir + " as an inventory source");
            notes.unparsed.add(dir.toString());
        }
        return any;
    }

    /**
     * Several inventories as one, as {@code ansible-playbook -i A -i B} reads them: each source
     * (file, directory, script or host list) in the order given into the same groups and hosts,
     * a later source's variables over an earlier one's, and the {@code group_vars/} and
     * {@code host_vars/} beside each source, a later source's over an earlier one's. Errors name
     * the source. One source is {@link #load(Path)}.
     */
    public static Inventory load(List<Path> paths) {
        if (paths.size() == 1) return load(paths.get(0));
        InventoryBuilder b = new InventoryBuilder();
        List<Path> dirs = new ArrayList<>();
        Notes notes = new Notes();
        for (Path path : paths) {
            if (Files.isDirectory(path)) {
                dirs.add(path);
                notes.source(parseDir(path, b, notes));
            } else if (Files.isRegularFile(path)) {
                dirs.add(path.toAbsolutePath().getParent());
                notes.source(parseFile(path, b, notes));
            } else if (!Files.exists(path) && path.toString().contains(",")) {
                hostList(path.toString(), b);
                notes.source(true);
            } else {
                throw new InputError(path.toString(), 0, 0, "inventory not found");
            }
        }
        Map<String, Map<String, Object>> groupVars = new java.util.LinkedHashMap<>();
        Map<String, Map<String, Object>> hostVars = new java.util.LinkedHashMap<>();
        for (Path dir : dirs) {
            VarsDirs.load(dir.resolve("group_vars"), b.groupNames())
                    .forEach((g, v) -> groupVars.computeIfAbsent(g, k -> new java.util.LinkedHashMap<>()).putAll(v));
            VarsDirs.load(dir.resolve("host_vars"), b.hostNames())
                    .forEach((h, v) -> hostVars.computeIfAbsent(h, k -> new java.util.LinkedHashMap<>()).putAll(v));
        }
        return notes.attach(b.build(paths.get(0), groupVars, hostVars));
    }

    /**
     * An inventory of ungrouped hosts from a comma-separated list ({@code -i a,b:2222,}), as
     * Ansible's {@code host_list} plugin reads it ({@link HostSpec#listEntry}: no ranges, so
     * {@code gpu[01-04],} is one host of that name; a repeated host keeps its first port).
     * {@code baseDir} resolves relative key/known_hosts paths.
     */
    public static Inventory fromHostList(String list, Path baseDir) {
        InventoryBuilder b = new InventoryBuilder();
        hostList(list, b);
        return b.build(baseDir.resolve("(host list)"), Map.of(), Map.of());
    }

    private static void hostList(String list, InventoryBuilder b) {
        for (String entry : list.split(",")) {
            String e = entry.strip();
            if (e.isEmpty()) continue;
            HostSpec spec;
            try {
                spec = HostSpec.listEntry(e);
            } catch (IllegalArgumentException ex) {
                throw new InputError("option -i", 0, 0, ex.getMessage());
            }
            String h = spec.names().get(0);
            if (!b.hostNames().contains(h)) b.addHost(InventoryBuilder.UNGROUPED, h, Map.of(), spec.port());
        }
    }

    /** Reads one file into b; false when it is an inventory script that failed and nothing else read it. */
    private static boolean parseFile(Path f, InventoryBuilder b, Notes notes) {
        String file = f.toString();
        if (ScriptInventory.accepts(f)) {
            try {
                ScriptInventory.parse(f, b);
                return true;
            } catch (ScriptInventory.ListFailure e) {
                return afterScriptFailed(f, b, notes, e.getMessage());
            }
        }
        String text = YamlReader.readText(f, file); // size limit, strict UTF-8 (INI too)
        String name = f.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".yml") || name.endsWith(".yaml") || name.endsWith(".json")) {
            YamlInventoryParser.parse(YamlDoc.parse(file, text), b);
        } else if (name.endsWith(".ini")) {
            ini(f, text, b);
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
                ini(f, text, b);
            }
        }
        return true;
    }

    /**
     * An INI file; one that starts with a UTF-8 byte-order mark is refused: Ansible's INI reader
     * keeps the mark as part of the first line (a first {@code [group]} line becomes a bad host
     * range and the file is not read; a first host gets the mark in its name).
     */
    private static void ini(Path f, String text, InventoryBuilder b) {
        byte[] head = new byte[3];
        int n;
        try (java.io.InputStream in = Files.newInputStream(f)) {
            n = in.readNBytes(head, 0, 3);
        } catch (IOException e) {
            throw new InputError(f.toString(), 0, 0, "cannot read: " + e.getMessage());
        }
        if (n == 3 && (head[0] & 0xff) == 0xef && (head[1] & 0xff) == 0xbb && (head[2] & 0xff) == 0xbf) {
            throw new InputError(f.toString(), 1, 1, "the file starts with a UTF-8 byte-order mark, which Ansible's"
                    + " INI reader takes as part of the first line: save it without the mark");
        }
        IniInventoryParser.parse(f.toString(), text, b);
    }

    /**
     * An inventory script failed before reading anything: as Ansible's {@code parse_source}, the
     * file is then offered to the other plugins that take it (yaml when it has no extension or a
     * YAML one, then ini). When one reads it, it is used (with a warning Ansible does not give);
     * when none does, each failure is a warning, then "Unable to parse", and the source is left out.
     */
    private static boolean afterScriptFailed(Path f, InventoryBuilder b, Notes notes, String scriptFailure) {
        String file = f.toString();
        List<String> failures = new ArrayList<>();
        failures.add(" * Failed to parse " + file + " with script plugin: " + scriptFailure);
        String name = f.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String ext = dot <= 0 ? "" : name.substring(dot).toLowerCase(Locale.ROOT);
        String text;
        try {
            text = YamlReader.readText(f, file);
        } catch (InputError e) {
            text = null;
            failures.add(" * Failed to parse " + file + " with ini plugin: " + e.oneLine());
        }
        String readBy = null;
        if (text != null && List.of("", ".yaml", ".yml", ".json").contains(ext)) {
            try {
                YamlDoc doc = YamlDoc.parse(file, text);
                Object v = doc.root() == null ? null : doc.value(doc.root());
                if (v == null) throw new InputError(file, 0, 0, "Parsed empty YAML file");
                if (!(v instanceof Map)) {
                    throw new InputError(file, 0, 0, "YAML inventory has invalid structure, it should be a dictionary");
                }
                YamlInventoryParser.parse(doc, b);
                readBy = "yaml";
            } catch (InputError e) {
                failures.add(" * Failed to parse " + file + " with yaml plugin: " + e.oneLine());
            }
        }
        if (text != null && readBy == null) {
            try {
                IniInventoryParser.parse(file, text, b);
                readBy = "ini";
            } catch (InputError e) {
                failures.add(" * Failed to parse " + file + " with ini plugin: " + e.oneLine());
            }
        }
        if (readBy != null) {
            notes.warnings.add("[WARNING]: " + file + " failed as an inventory script (" + scriptFailure
                    + "); its text was read with the " + readBy + " plugin instead, as Ansible does");
            return true;
        }
        for (String w : failures) notes.warnings.add("[WARNING]: " + w);
        notes.warnings.add("[WARNING]: Unable to parse " + file + " as an inventory source");
        notes.unparsed.add(file);
        return false;
    }

    private static boolean firstLineIsYamlKey(String text) {
        for (String line : text.split("\r?\n")) {
            String s = line.strip();
            if (s.isEmpty() || s.startsWith("#") || s.equals("---")) continue;
            return YAML_KEY_LINE.matcher(line).matches();
        }
        return false;
    }

    /**
     * The inventory files of a directory as Ansible's {@code parse_source} finds them: entries in
     * name order, hidden ones, {@code group_vars}, {@code host_vars}, {@code vars_plugins} and
     * names ending in one of {@link #IGNORED_EXTS} skipped, subdirectories descended into where
     * they sort.
     */
    private static List<Path> files(Path dir) {
        List<Path> out = new ArrayList<>();
        collect(dir, out);
        return out;
    }

    private static void collect(Path dir, List<Path> out) {
        List<Path> entries;
        try (Stream<Path> s = Files.list(dir)) {
            entries = s.sorted(Comparator.comparing(p -> p.getFileName().toString())).toList();
        } catch (IOException e) {
            throw new InputError(dir.toString(), 0, 0, "cannot list inventory directory: " + e.getMessage());
        }
        for (Path p : entries) {
            String n = p.getFileName().toString();
            if (n.startsWith(".") || IGNORED_NAMES.contains(n) || IGNORED_EXTS.stream().anyMatch(n::endsWith)) continue;
            if (Files.isDirectory(p)) collect(p, out);
            else if (Files.isRegularFile(p)) out.add(p);
        }
    }
}
