package io.rocectl.playbook;

import io.rocectl.error.DidYouMean;
import io.rocectl.error.InputError;
import io.rocectl.template.Templar;
import io.rocectl.yaml.YamlEntry;
import io.rocectl.yaml.YamlMapping;
import io.rocectl.yaml.YamlNode;
import io.rocectl.yaml.YamlScalar;
import io.rocectl.yaml.YamlSequence;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Roles as Ansible lays them out: {@code NAME/{tasks,handlers,defaults,vars,meta}/main.yml}
 * (or {@code .yaml}), found in the playbook's {@code roles/} directory, next to the role that
 * names them, or in the playbook's directory. A role becomes its {@code meta} dependencies'
 * blocks, then one block of its tasks whose vars are the role's vars and parameters plus
 * {@code role_path}/{@code role_name} (which the file lookups and the modules' search path use);
 * its handlers join the play's; its defaults are kept apart (the lowest precedence). In
 * {@code roles:} and dependencies a role with the same parameters runs once per play (its
 * repetitions are {@link Block#listOnly} blocks, which {@code --list-tasks} shows as Ansible does).
 */
final class Roles {
    /** The role whose files are being read. */
    record Scope(String name, Path path) {}

    /** What the roles read for one play (or one include_role) add up to. */
    static final class Acc {
        final boolean dedup;
        final Set<String> seen = new HashSet<>();
        final Set<Path> handlersOf = new HashSet<>();
        final List<Task> handlers = new ArrayList<>();
        /** Per role directory, its defaults, in the order the roles were read. */
        final Map<String, Map<String, Object>> defaults = new LinkedHashMap<>();
        final Map<String, Object> vars = new LinkedHashMap<>();

        Acc(boolean dedup) {
            this.dedup = dedup;
        }
    }

    private static final Set<String> ENTRY_KEYWORDS = Set.of("role", "name", "tags", "when", "vars", "become");
    private static final Set<String> IMPORT_ARGS = Set.of("name", "tasks_from", "vars_from", "defaults_from",
            "handlers_from", "allow_duplicates", "public", "rolespec_validate");

    private final PlaybookLoader loader;
    private final Includes includes;

    Roles(PlaybookLoader loader, Includes includes) {
        this.loader = loader;
        this.includes = includes;
    }

    /** A play's {@code roles:} list. */
    List<Step> playRoles(YamlSource src, YamlNode node, Set<String> tags, boolean noLog) {
        if (node instanceof YamlScalar s && s.getValue().isEmpty()) return List.of();
        YamlSequence seq = src.sequence(node, "'roles'");
        List<Step> out = new ArrayList<>();
        for (YamlNode n : seq.getValue()) out.addAll(entry(src, n, tags, List.of(), noLog, includes.playRoles));
        return out;
    }

    /**
     * {@code import_role:} with name and optionally tasks_from (read now, its tasks in place);
     * the import's vars are the role's parameters (above its vars/main.yml, as in Ansible).
     */
    List<Step> importRole(YamlSource src, YamlNode v, Map<String, Object> params, Set<String> tags, List<Object> when,
                          boolean noLog) {
        YamlMapping m = src.mapping(v, "'import_role'");
        YamlNode nameNode = null;
        String tasksFrom = null;
        String handlersFrom = null;
        for (YamlEntry t : m.getValue()) {
            String k = src.scalar(t.getKeyNode(), "an argument name");
            if (!IMPORT_ARGS.contains(k)) {
                throw src.error(t.getKeyNode(), "import_role has no argument '" + k + "'" + DidYouMean.hint(k, IMPORT_ARGS));
            }
            switch (k) {
                case "name" -> nameNode = t.getValueNode();
                case "tasks_from" -> tasksFrom = src.scalar(t.getValueNode(), k);
                case "handlers_from" -> handlersFrom = src.scalar(t.getValueNode(), k);
                case "vars_from", "defaults_from", "rolespec_validate" ->
                        throw src.error(t.getKeyNode(), "import_role: '" + k + "' is not supported by rocectl");
                default -> { /* allow_duplicates, public: a static import runs each time and is public anyway */ }
            }
        }
        if (nameNode == null) throw src.error(v, "import_role needs 'name'");
        String name = src.scalar(nameNode, "a role name");
        YamlNode at = nameNode;
        return role(msg -> src.error(at, msg), name, params, tags, when, tasksFrom, handlersFrom, noLog,
                includes.playRoles, false, src.mark(v));
    }

    /** One entry of {@code roles:} or of {@code dependencies:}: a name, or a mapping with role/name and parameters. */
    private List<Step> entry(YamlSource src, YamlNode n, Set<String> tags, List<Object> when, boolean noLog, Acc acc) {
        if (n instanceof YamlScalar s) {
            return role(msg -> src.error(n, msg), s.getValue(), Map.of(), tags, when, null, null, noLog, acc, true,
                    src.mark(n));
        }
        YamlMapping m = src.mapping(n, "a role");
        String name = null;
        YamlNode nameNode = n;
        Map<String, Object> params = new LinkedHashMap<>();
        Set<String> ownTags = new LinkedHashSet<>(tags);
        List<Object> ownWhen = new ArrayList<>(when);
        for (YamlEntry t : m.getValue()) {
            String k = src.scalar(t.getKeyNode(), "a role keyword");
            YamlNode v = t.getValueNode();
            switch (k) {
                case "role", "name" -> {
                    name = src.scalar(v, "a role name");
                    nameNode = v;
                }
                case "tags" -> ownTags.addAll(FieldReaders.tagList(src, v));
                case "when" -> {
                    FieldReaders.checkConditions(src, v);
                    ownWhen.addAll(FieldReaders.conditionList(src, v));
                }
                case "vars" -> {
                    FieldReaders.checkTemplates(src, v);
                    params.putAll(FieldReaders.stringMap(src, v, "vars"));
                }
                case "become" -> throw src.error(t.getKeyNode(), "'become' on a role is not supported by rocectl: "
                        + "set it in the play or on the role's tasks");
                default -> {
                    // any other key is a role parameter (as Ansible reads it)
                    if (!k.matches("[A-Za-z_][A-Za-z0-9_]*")) throw src.error(t.getKeyNode(), "'" + k + "' is not a valid variable name");
                    FieldReaders.checkTemplates(src, v);
                    params.put(k, src.value(v));
                }
            }
        }
        if (name == null) throw src.error(n, "a role needs 'role' (its name); keywords are " + ENTRY_KEYWORDS);
        YamlNode at = nameNode;
        return role(msg -> src.error(at, msg), name, params, ownTags, ownWhen, null, null, noLog, acc, true, src.mark(n));
    }

    /** Reads a role (its dependencies first); empty when dedup finds it already read with the same parameters. */
    List<Step> role(Function<String, InputError> err, String name, Map<String, Object> params, Set<String> tags,
                    List<Object> when, String tasksFrom, String handlersFrom, boolean noLog, Acc acc, boolean dedup,
                    Mark mark) {
        if (Templar.isTemplate(name)) throw err.apply("role name '" + name + "' is a template: rocectl needs it literal");
        List<Path> dirs = roleDirs(name);
        Path dir = null;
        for (Path d : dirs) {
            if (Files.isDirectory(d)) {
                dir = d.normalize();
                break;
            }
        }
        if (dir == null) throw err.apply("role '" + name + "' not found (looked in " + dirs + ")");
        String key = dir + "|" + params + "|" + when + "|" + new java.util.TreeSet<>(tags);
        if (dedup && acc.dedup && !acc.seen.add(key)) {
            // read once per play, listed each time (ansible-playbook --list-tasks): its tasks again,
            // read apart so its vars, defaults and handlers are not added a second time
            List<Step> again = role(err, name, params, tags, when, tasksFrom, handlersFrom, noLog, new Acc(false),
                    false, mark);
            return List.of(new Block(null, Map.of(), again, List.of(), List.of(), tags, mark, true));
        }
        Path roleDir = dir;
        String roleName = Path.of(name).getFileName().toString();
        Scope before = includes.role;
        includes.role = new Scope(roleName, roleDir);
        try {
            return includes.reading(err, roleDir, () -> {
                List<Step> out = new ArrayList<>();
                Path meta = main(roleDir.resolve("meta"), "main");
                if (meta != null) out.addAll(dependencies(meta, tags, when, noLog, acc));
                Path defaults = main(roleDir.resolve("defaults"), "main");
                if (defaults != null) acc.defaults.put(roleDir.toString(), varsFile(defaults));
                Map<String, Object> roleVars = new LinkedHashMap<>();
                Path vars = main(roleDir.resolve("vars"), "main");
                if (vars != null) roleVars.putAll(varsFile(vars));
                acc.vars.putAll(roleVars);
                Map<String, Object> scope = new LinkedHashMap<>(roleVars);
                scope.putAll(params);
                scope.put("role_path", roleDir.toString());
                scope.put("role_name", roleName);
                List<Step> tasks = List.of();
                Path tf = main(roleDir.resolve("tasks"), tasksFrom == null ? "main" : tasksFrom);
                if (tf == null && tasksFrom != null) {
                    throw err.apply("role '" + name + "': tasks_from '" + tasksFrom + "' not found in " + roleDir.resolve("tasks"));
                }
                if (tf != null) tasks = includes.tasksFile(err, tf, tags, when, false, noLog);
                Path hf = main(roleDir.resolve("handlers"), handlersFrom == null ? "main" : handlersFrom);
                if (hf != null && acc.handlersOf.add(roleDir)) {
                    for (Task h : Handlers.handlers(includes.tasksFile(err, hf, tags, List.of(), true, noLog))) {
                        acc.handlers.add(handler(h, roleName, scope));
                    }
                }
                out.add(new Block(null, scope, tasks, List.of(), List.of(), tags, mark));
                return out;
            });
        } finally {
            includes.role = before;
        }
    }

    /**
     * A role's handler: shown as "role : name" and notified by either name (Ansible 2.14 accepts
     * both); it sees the role's vars and {@code role_path}.
     */
    private static Task handler(Task h, String roleName, Map<String, Object> scope) {
        List<String> listen = new ArrayList<>(h.listen());
        String prefix = roleName + " : ";
        if (h.name() != null && h.name().startsWith(prefix)) listen.add(h.name().substring(prefix.length()));
        Map<String, Object> vars = new LinkedHashMap<>(scope);
        vars.putAll(h.vars());
        return h.toBuilder().listen(listen).vars(vars).build();
    }

    private List<Step> dependencies(Path meta, Set<String> tags, List<Object> when, boolean noLog, Acc acc) {
        YamlSource.Parsed p = YamlSource.parse(meta, Includes.display(meta));
        if (p.root() == null) return List.of();
        YamlSource src = p.source();
        YamlMapping m = src.mapping(p.root(), "a role's meta/main.yml");
        List<Step> out = new ArrayList<>();
        for (YamlEntry t : m.getValue()) {
            if (!"dependencies".equals(src.scalar(t.getKeyNode(), "a meta key"))) continue;
            YamlNode v = t.getValueNode();
            if (v instanceof YamlScalar s && s.getValue().isEmpty()) continue;
            // a dependency is looked up like a play's role, not inside the dependent role's tasks
            Scope inRole = includes.role;
            for (YamlNode d : src.sequence(v, "'dependencies'").getValue()) {
                out.addAll(entry(src, d, tags, when, noLog, acc));
                includes.role = inRole;
            }
        }
        return out;
    }

    private static Map<String, Object> varsFile(Path f) {
        YamlSource.Parsed p = YamlSource.parse(f, Includes.display(f));
        if (p.root() == null) return Map.of();
        FieldReaders.checkTemplates(p.source(), p.root());
        return new LinkedHashMap<>(FieldReaders.stringMap(p.source(), p.root(), "a vars file"));
    }

    /**
     * Where a role is looked for: the playbook's roles/, next to the role naming it, the playbook's
     * directory (at run time also the include_role's own file's roles/ and directory: a playbook
     * brought in by import_playbook keeps its roles next to it).
     */
    private List<Path> roleDirs(String name) {
        List<Path> out = new ArrayList<>();
        Path p = Path.of(name);
        if (p.isAbsolute()) return List.of(p);
        out.add(includes.baseDir.resolve("roles").resolve(name));
        if (includes.role != null) out.add(includes.role.path().getParent().resolve(name));
        out.add(includes.baseDir.resolve(name));
        Path from = includes.includingDir;
        if (from != null && !from.equals(includes.baseDir)) {
            out.add(from.resolve("roles").resolve(name));
            out.add(from.resolve(name));
        }
        return out;
    }

    /** {@code dir/NAME}, {@code NAME.yml}, {@code NAME.yaml}: the first that is a file, or null. */
    static Path main(Path dir, String name) {
        for (String ext : new String[] {"", ".yml", ".yaml", ".json"}) {
            Path c = dir.resolve(name + ext);
            if (Files.isRegularFile(c)) return c;
        }
        return null;
    }
}
