package io.rocectl.builtin.core;

import io.rocectl.module.ArgSpec;
import io.rocectl.module.Module;
import io.rocectl.module.ConnectionVarNames;
import io.rocectl.module.ModuleException;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.SearchPath;
import io.rocectl.module.TaskContext;
import io.rocectl.yaml.YamlFile;
import io.rocectl.yaml.YamlReader;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * {@code include_vars}: reads a YAML file on the controller (found along the task's
 * {@link SearchPath}, in {@code vars/} first) and sets its variables on the host, above play,
 * block and task vars (the engine keeps them with set_fact's); with {@code name}, under that one
 * key. {@code dir} reads every {@code .yml}/{@code .yaml}/{@code .json} file of a directory in
 * name order ({@code files_matching}, {@code depth} 0/1); another extension fails the task unless
 * {@code ignore_unknown_extensions}. Never changed, touches nothing on the host.
 */
public final class IncludeVarsModule implements Module {
    @Override
    public String name() {
        return "include_vars";
    }

    @Override
    public ArgSpec args() {
        return ArgSpec.builder().freeForm().opt("file", ArgSpec.Type.STR).opt("name", ArgSpec.Type.STR)
                .opt("dir", ArgSpec.Type.STR).opt("files_matching", ArgSpec.Type.STR)
                .opt("depth", ArgSpec.Type.INT).opt("ignore_unknown_extensions", ArgSpec.Type.BOOL);
    }

    @Override
    public ModuleResult run(TaskContext ctx) {
        String file = ctx.has("file") ? ctx.str("file") : ctx.str(ArgSpec.RAW, null);
        String dir = ctx.str("dir", null);
        if ((file == null) == (dir == null)) throw new ModuleException("include_vars needs one of file or dir");
        List<Path> files = new ArrayList<>();
        if (file != null) {
            Path f = SearchPath.find(ctx.vars(), "vars", file.strip());
            if (f == null || !Files.isRegularFile(f)) {
                throw new ModuleException("Could not find or access '" + file + "' (looked in "
                        + SearchPath.candidates(ctx.vars(), "vars", file.strip()) + ")");
            }
            files.add(f);
        } else {
            Path d = SearchPath.find(ctx.vars(), "vars", dir.strip());
            if (d == null || !Files.isDirectory(d)) throw new ModuleException(dir + " directory does not exist");
            Pattern match = ctx.has("files_matching") ? Pattern.compile(ctx.str("files_matching")) : null;
            int depth = ctx.integer("depth", 0);
            boolean ignoreOthers = ctx.bool("ignore_unknown_extensions", false);
            List<Path> found = new ArrayList<>();
            try (var s = depth == 1 ? Files.list(d) : Files.walk(d)) {
                s.filter(Files::isRegularFile)
                        .filter(p -> match == null || match.matcher(p.getFileName().toString()).find())
                        .sorted().forEach(found::add);
            } catch (java.io.IOException e) {
                throw new ModuleException("include_vars: cannot list " + d + ": " + e.getMessage());
            }
            for (Path p : found) {
                if (p.getFileName().toString().matches(".*\\.(ya?ml|json)$")) files.add(p);
                else if (!ignoreOthers) throw new ModuleException(p + " does not have a valid extension: yaml, yml, json");
            }
        }
        Map<String, Object> vars = new LinkedHashMap<>();
        List<Object> read = new ArrayList<>();
        for (Path f : files) {
            vars.putAll(read(f));
            read.add(f.toAbsolutePath().normalize().toString());
        }
        Map<String, Object> facts = new LinkedHashMap<>();
        if (ctx.has("name")) facts.put(ctx.str("name"), vars);
        else facts.putAll(vars);
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("ansible_facts", facts);
        data.put("ansible_included_var_files", read);
        return new ModuleResult(false, false, "", data, null, facts);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> read(Path f) {
        try {
            YamlFile doc = YamlReader.read(f, f.toString());
            if (doc.root() == null) return Map.of();
            Object v = doc.value(doc.root());
            if (!(v instanceof Map<?, ?> m)) throw new ModuleException(f + " must hold a mapping of variables");
            for (Object k : m.keySet()) {
                if (!String.valueOf(k).matches("[A-Za-z_][A-Za-z0-9_]*")) {
                    throw new ModuleException(f + ": '" + k + "' is not a valid variable name");
                }
                if (ConnectionVarNames.NAMES.contains(k)) throw new ModuleException(f + ": " + ConnectionVarNames.refused(String.valueOf(k)));
            }
            return (Map<String, Object>) v;
        } catch (ModuleException e) {
            throw e;
        } catch (RuntimeException e) {
            // the YAML reader's error names the file, line and column
            throw new ModuleException(e.toString().replaceFirst("^[\\w.$]+: ", ""));
        }
    }
}
