package io.rocectl.module;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where a module looks for a relative controller-side file ({@code copy}/{@code template}
 * {@code src}, {@code include_vars}): Ansible's {@code ansible_search_path} variable, which the
 * engine sets per task to the role's directory (inside a role), the directory of the task's file,
 * then the playbook's directory. In each, {@code SUBDIR/NAME} ({@code files}, {@code templates},
 * {@code vars}) is tried before {@code NAME}.
 */
public final class SearchPath {
    /** The engine's per-task variable (a list of directories). */
    public static final String VAR = "ansible_search_path";
    /** The key of an include_tasks result holding where its file was found (the engine reads it). */
    public static final String INCLUDE_PATH = "_include_path";

    private SearchPath() {}

    /**
     * The directories of a task's search path, from its variables; when the engine set none,
     * {@code role_path} and then {@code playbook_dir}, those that are set.
     */
    public static List<Path> dirs(Map<String, Object> vars) {
        List<Path> out = new ArrayList<>();
        if (vars.get(VAR) instanceof List<?> l) {
            for (Object o : l) if (o != null) out.add(Path.of(String.valueOf(o)));
            return out;
        }
        for (String base : List.of("role_path", "playbook_dir")) {
            Object d = vars.get(base);
            if (d != null && !d.toString().isEmpty()) out.add(Path.of(d.toString()));
        }
        return out;
    }

    /** The candidates for {@code name}, in the order they are tried. */
    public static List<Path> candidates(Map<String, Object> vars, String subdir, String name) {
        Path p = Path.of(name);
        if (p.isAbsolute()) return List.of(p);
        List<Path> out = new ArrayList<>();
        for (Path d : dirs(vars)) {
            out.add(d.resolve(subdir).resolve(name));
            out.add(d.resolve(name));
        }
        out.add(p.toAbsolutePath());
        return out;
    }

    /** The first candidate that exists, or null. */
    public static Path find(Map<String, Object> vars, String subdir, String name) {
        for (Path c : candidates(vars, subdir, name)) if (Files.exists(c)) return c;
        return null;
    }
}
