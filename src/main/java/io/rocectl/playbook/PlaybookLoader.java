package io.rocectl.playbook;

import io.rocectl.error.DidYouMean;
import io.rocectl.error.InputError;
import io.rocectl.module.ArgSpec;
import io.rocectl.module.Module;
import io.rocectl.module.ModuleRegistry;
import io.rocectl.template.Templar;
import io.rocectl.template.TemplateException;
import io.rocectl.yaml.YamlMapping;
import io.rocectl.yaml.YamlNode;
import io.rocectl.yaml.YamlEntry;
import io.rocectl.yaml.YamlScalar;
import io.rocectl.yaml.YamlSequence;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static io.rocectl.playbook.FieldReaders.*;
import static io.rocectl.playbook.Inheritance.inherit;
import static io.rocectl.playbook.Inheritance.withEnvironment;

/**
 * Loads and validates a playbook completely before any host is contacted: structure, keywords,
 * module names and their arguments (with did-you-mean), literal value types. Every error names
 * {@code file:line:column} and the offending token.
 */
public final class PlaybookLoader {
    static final Set<String> PLAY_KEYS = Set.of("name", "hosts", "vars", "vars_files", "gather_facts", "become",
            "serial", "max_fail_percentage", "any_errors_fatal", "strategy", "tasks", "pre_tasks", "post_tasks",
            "handlers", "tags", "remote_user", "become_user", "no_log", "connection", "check_mode", "diff", "throttle",
            "environment", "roles");

    /** Why {@code remote_user} is refused (play or task): one SSH user per host, from the inventory. */
    static final String REMOTE_USER = "'remote_user' is not supported by rocectl: the SSH user comes from the "
            + "inventory (ansible_user) or -u/--user";

    private final ModuleRegistry modules;
    /** Reads task lists (also those of imported files and roles). */
    final TaskParser tasks;
    /** {@code -e} values: templated {@code vars_files} paths may use them (and the play's vars). */
    private Map<String, Object> extraVars = Map.of();
    /** Where the files being read are, and the roles read so far. */
    final Includes includes = new Includes(this);

    public PlaybookLoader(ModuleRegistry modules) {
        this.modules = modules;
        this.tasks = new TaskParser(new ModuleArgs(modules), includes);
    }

    /** The run's extra variables, for templated {@code vars_files} paths. */
    public PlaybookLoader withExtraVars(Map<String, Object> extra) {
        this.extraVars = Map.copyOf(extra);
        return this;
    }

    public Playbook load(Path file) {
        String display = file.toString();
        if (!Files.isRegularFile(file)) throw new InputError(display, 0, 0, "playbook not found");
        List<Play> plays = plays(file);
        if (plays.isEmpty()) throw new InputError(display, 1, 1, "the playbook has no plays");
        return new Playbook(file, List.copyOf(plays));
    }

    /** A role read by {@code include_role} at run time: its blocks (dependencies first), handlers and defaults. */
    public record IncludedRole(List<Step> steps, List<Task> handlers, Map<String, Map<String, Object>> defaults) {}

    /**
     * {@code include_tasks} at run time: the tasks of {@code file}, with the include's
     * {@code apply} keywords (tags, when, become, ignore_errors) on each; inside a role (its name
     * and directory given) they are that role's tasks. Errors are {@link InputError}s naming the place.
     */
    public List<Step> includeTasks(Path file, Path playbookDir, String roleName, Path rolePath, Map<String, Object> apply,
                                   Collection<String> handlers, boolean noLog) {
        Apply a = apply(apply);
        includes.baseDir = playbookDir;
        includes.role = roleName == null || rolePath == null ? null : new Roles.Scope(roleName, rolePath);
        String shown = Includes.display(file);
        List<Step> steps = includes.tasksFile(m -> new InputError(shown, 1, 1, m), file, a.tags, a.when, false, noLog);
        checkNotify(null, steps, new TreeSet<>(handlers));
        return inherit(steps, a.ignore, a.become);
    }

    /** {@code include_role} at run time (no dedup: each include runs the role, as in Ansible). */
    public IncludedRole includeRole(String name, String tasksFrom, Path playbookDir, Map<String, Object> apply,
                                    Map<String, Object> params, Mark at, boolean noLog) {
        Apply a = apply(apply);
        includes.baseDir = playbookDir;
        includes.role = null;
        Path from = at == null || at.file() == null ? null : Path.of(at.file()).toAbsolutePath().getParent();
        includes.includingDir = from;
        Roles.Acc acc = new Roles.Acc(false);
        List<Step> steps = includes.roles.role(m -> new InputError(at.file(), at.line(), at.column(), m), name, params,
                a.tags, a.when, tasksFrom, null, noLog, acc, false, at);
        return new IncludedRole(inherit(steps, a.ignore, a.become), List.copyOf(acc.handlers), Map.copyOf(acc.defaults));
    }

    private record Apply(Set<String> tags, List<Object> when, boolean ignore, Boolean become) {}

    private static Apply apply(Map<String, Object> apply) {
        Set<String> tags = new LinkedHashSet<>();
        List<Object> when = new ArrayList<>();
        boolean ignore = false;
        Boolean become = null;
        if (apply != null) {
            for (Map.Entry<String, Object> e : apply.entrySet()) {
                Object v = e.getValue();
                switch (e.getKey()) {
                    case "tags" -> {
                        if (v instanceof List<?> l) l.forEach(x -> tags.add(String.valueOf(x)));
                        else for (String x : String.valueOf(v).split(",")) if (!x.isBlank()) tags.add(x.trim());
                    }
                    case "when" -> {
                        if (v instanceof List<?> l) when.addAll(l);
                        else when.add(v);
                    }
                    case "ignore_errors" -> ignore = io.rocectl.module.Values.toBool(v, false, "ignore_errors");
                    case "become" -> become = io.rocectl.module.Values.toBool(v, false, "become");
                    default -> throw new InputError("apply", 0, 0, "'apply: " + e.getKey()
                            + "' is not supported by rocectl (tags, when, become, ignore_errors are)");
                }
            }
        }
        return new Apply(tags, when, ignore, become);
    }

    /**
     * Block or play options under the given steps' own (their own settings win); also what a
     * dynamic include's tasks inherit from the blocks and play around the include.
     */
    public static List<Step> withOptions(List<Step> steps, TaskOptions outer) {
        return Inheritance.withOptions(steps, outer);
    }

    /** A playbook file's plays, with {@code import_playbook} items read in place (relative to the importing file). */
    private List<Play> plays(Path file) {
        String display = file.toString();
        YamlSource.Parsed parsed = YamlSource.parse(file, display);
        YamlSource src = parsed.source();
        if (parsed.root() == null) throw new InputError(display, 1, 1, "the playbook is empty");
        YamlSequence seq = src.sequence(parsed.root(), "a playbook");
        Path dir = file.toAbsolutePath().getParent();
        List<Play> plays = new ArrayList<>();
        for (YamlNode n : seq.getValue()) {
            if (n instanceof YamlMapping m && keys(src, m).contains("import_playbook")) {
                plays.addAll(importPlaybook(src, m, dir));
                continue;
            }
            Path before = includes.baseDir;
            includes.baseDir = dir;
            try {
                plays.add(play(src, n, dir));
            } finally {
                includes.baseDir = before;
            }
        }
        return plays;
    }

    private List<Play> importPlaybook(YamlSource src, YamlMapping m, Path dir) {
        YamlNode fileNode = null;
        for (YamlEntry t : m.getValue()) {
            String k = src.scalar(t.getKeyNode(), "a keyword");
            if (k.equals("import_playbook")) fileNode = t.getValueNode();
            else if (!k.equals("name")) {
                throw src.error(t.getKeyNode(), "'" + k + "' on import_playbook is not supported by rocectl (name is)");
            }
        }
        String name = src.scalar(fileNode, "'import_playbook'");
        if (Templar.isTemplate(name)) throw src.error(fileNode, "import_playbook: the file name cannot be a template");
        // shown (in errors) relative to the working directory, as the importing playbook is
        Path f = Path.of(Includes.display(dir.resolve(name)));
        if (!Files.isRegularFile(f)) throw src.error(fileNode, "import_playbook: file not found: " + name);
        return includes.reading(src, fileNode, f, () -> plays(f));
    }

    private static Set<String> keys(YamlSource src, YamlMapping m) {
        Set<String> out = new LinkedHashSet<>();
        for (YamlEntry t : m.getValue()) if (t.getKeyNode() instanceof YamlScalar k) out.add(k.getValue());
        return out;
    }

    private Play play(YamlSource src, YamlNode node, Path dir) {
        YamlMapping m = src.mapping(node, "a play");
        String name = null;
        String hosts = null;
        Map<String, Object> vars = new LinkedHashMap<>();
        boolean gather = true;
        Boolean become = null;
        List<Object> serial = List.of();
        Integer maxFail = null;
        boolean anyFatal = false;
        String strategy = "linear";
        boolean noLog = false;
        TaskOptions options = TaskOptions.NONE;
        Set<String> tags = new LinkedHashSet<>();
        List<YamlNode> pre = new ArrayList<>();
        List<YamlNode> main = new ArrayList<>();
        List<YamlNode> post = new ArrayList<>();
        YamlNode handlersNode = null;
        YamlNode varsFilesNode = null;
        Object environment = null;
        YamlNode rolesNode = null;
        Roles.Acc roles = new Roles.Acc(true);
        Roles.Acc outer = includes.playRoles;
        includes.playRoles = roles;
        try {
        for (YamlEntry t : m.getValue()) {
            String key = src.scalar(t.getKeyNode(), "a play keyword");
            YamlNode v = t.getValueNode();
            if (!PLAY_KEYS.contains(key)) {
                throw src.error(t.getKeyNode(), "unknown play keyword '" + key + "'" + DidYouMean.hint(key, PLAY_KEYS));
            }
            switch (key) {
                case "name" -> name = str(src, v, key);
                case "hosts" -> hosts = hostsPattern(src, v);
                case "vars" -> {
                    checkTemplates(src, v);
                    vars.putAll(stringMap(src, v, "vars"));
                }
                case "vars_files" -> varsFilesNode = v;
                case "gather_facts" -> gather = bool(src, v, key);
                case "become" -> become = bool(src, v, key);
                case "serial" -> serial = serial(src, v);
                case "max_fail_percentage" -> maxFail = percent(src, v, key);
                case "any_errors_fatal" -> anyFatal = bool(src, v, key);
                case "strategy" -> {
                    strategy = str(src, v, key);
                    if (!strategy.equals("linear") && !strategy.equals("free")) {
                        throw src.error(v, "unknown strategy '" + strategy + "' (linear or free)");
                    }
                }
                case "tags" -> tags.addAll(tagList(src, v));
                case "pre_tasks" -> pre.add(v);
                case "tasks" -> main.add(v);
                case "post_tasks" -> post.add(v);
                case "handlers" -> handlersNode = v;
                case "roles" -> rolesNode = v;
                case "no_log" -> noLog = bool(src, v, key);
                case "become_user" -> becomeUser(src, v);
                case "connection", "check_mode", "diff", "throttle" -> options = option(src, options, key, v);
                case "environment" -> environment = environment(src, v);
                default -> throw src.error(t.getKeyNode(), REMOTE_USER);
            }
        }
        if (hosts == null) throw src.error(node, "play" + (name == null ? "" : " '" + name + "'") + " has no 'hosts'");
        // vars_files are above the play's vars (Ansible's precedence), whatever their order in the play;
        // a templated path renders with the play's vars and -e
        if (varsFilesNode != null) {
            Map<String, Object> files = new LinkedHashMap<>();
            for (Object f : listOf(src, varsFilesNode, "vars_files")) {
                Map<String, Object> seen = new LinkedHashMap<>(vars);
                seen.putAll(files); // an earlier file's variables may name a later file (as in Ansible)
                files.putAll(varsFile(src, varsFilesNode, dir.resolve(varsPath(src, varsFilesNode, f, seen))));
            }
            vars.putAll(files);
        }
        List<Step> tasks = new ArrayList<>();
        List<Integer> sections = new ArrayList<>();
        for (List<YamlNode> part : List.of(pre, main, post)) {
            // roles run with the tasks section, before its tasks (after pre_tasks)
            boolean withRoles = part == main && rolesNode != null;
            if (part.isEmpty() && !withRoles) continue;
            int before = tasks.size();
            if (withRoles) tasks.addAll(withOptions(includes.roles.playRoles(src, rolesNode, tags, noLog), options));
            for (YamlNode n : part) tasks.addAll(withOptions(this.tasks.taskList(src, n, tags, List.of(), false, noLog), options));
            sections.add(tasks.size() - before);
        }
        List<Task> handlers = handlers(withOptions(new ArrayList<>(roles.handlers), options));
        if (handlersNode != null) {
            handlers.addAll(handlers(withOptions(this.tasks.taskList(src, handlersNode, tags, List.of(), true, noLog), options)));
        }
        Set<String> handlerNames = new TreeSet<>();
        for (Task h : handlers) {
            if (h.name() != null) handlerNames.add(h.name());
            handlerNames.addAll(h.listen());
        }
        checkNotify(src, tasks, handlerNames);
        if (environment != null) {
            List<Step> withEnv = withEnvironment(tasks, environment);
            tasks.clear();
            tasks.addAll(withEnv);
            List<Step> h = withEnvironment(new ArrayList<>(handlers), environment);
            handlers.clear();
            for (Step s : h) handlers.add((Task) s);
        }
        // the vars of the play's roles are the play's too, above its own vars (Ansible's private_role_vars=False)
        vars.putAll(roles.vars);
        return new Play(name == null ? hosts : name, hosts, Map.copyOf(vars), gather, become, serial, maxFail, anyFatal,
                strategy, List.copyOf(tasks), List.copyOf(sections), List.copyOf(handlers), Set.copyOf(tags), noLog,
                src.mark(node), options, java.util.Collections.unmodifiableMap(new LinkedHashMap<>(roles.defaults)));
        } finally {
            includes.playRoles = outer;
        }
    }

    /**
     * Handlers as a flat list: those an {@code import_tasks} brought in take its place (with its
     * vars); any other block is refused.
     */
    static List<Task> handlers(List<Step> steps) {
        List<Task> out = new ArrayList<>();
        for (Step st : steps) {
            if (st instanceof Task h) {
                out.add(h);
            } else if (st instanceof Block b && b.rescue().isEmpty() && b.always().isEmpty() && imported(b)) {
                for (Task h : handlers(b.block())) {
                    Map<String, Object> vars = new LinkedHashMap<>(b.vars());
                    vars.putAll(h.vars());
                    out.add(h.toBuilder().vars(vars).build());
                }
            } else {
                Mark mk = st.mark();
                throw new InputError(mk.file(), mk.line(), mk.column(), "a block in 'handlers' is not supported");
            }
        }
        return out;
    }

    /** An import_tasks' block: its tasks come from another file than the one it is written in. */
    private static boolean imported(Block b) {
        if (b.mark() == null) return false;
        for (Step s : b.block()) if (s.mark() == null || s.mark().file().equals(b.mark().file())) return false;
        return true;
    }

    void checkNotify(YamlSource src, List<Step> steps, Set<String> handlers) {
        for (Step st : steps) {
            if (st instanceof Block b) {
                checkNotify(src, b.block(), handlers);
                checkNotify(src, b.rescue(), handlers);
                checkNotify(src, b.always(), handlers);
                continue;
            }
            Task t = (Task) st;
            for (String n : t.notifies()) {
                if (!handlers.contains(n)) {
                    Mark mk = t.mark();
                    throw new InputError(mk.file(), mk.line(), mk.column(), "task '" + t.displayName()
                            + "' notifies unknown handler '" + n + "'" + DidYouMean.hint(n, handlers));
                }
            }
        }
    }

    /** A {@code vars_files} entry, rendered when it is a template (play vars, then -e over them). */
    private String varsPath(YamlSource src, YamlNode at, Object f, Map<String, Object> playVars) {
        if (f instanceof List || f instanceof Map) {
            throw src.error(at, "'vars_files' entries must be paths (lists of alternatives are not supported by rocectl)");
        }
        String s = String.valueOf(f);
        if (!Templar.isTemplate(s)) return s;
        Map<String, Object> v = new LinkedHashMap<>();
        playVars.forEach((k, x) -> v.put(k, Templar.get().deferred(x, v)));
        extraVars.forEach((k, x) -> v.put(k, Templar.get().deferred(x, v)));
        try {
            return String.valueOf(Templar.get().render(s, v));
        } catch (TemplateException e) {
            throw src.error(at, "vars_files entry '" + s + "': " + e.getMessage()
                    + " (rocectl renders vars_files paths with the play's vars and -e, not host variables)");
        }
    }

    private Map<String, Object> varsFile(YamlSource src, YamlNode at, Path f) {
        if (!Files.isRegularFile(f)) throw src.error(at, "vars file not found: " + f);
        YamlSource.Parsed p = YamlSource.parse(f, f.toString());
        if (p.root() == null) return Map.of();
        checkTemplates(p.source(), p.root());
        return stringMap(p.source(), p.root(), "a vars file");
    }

    private static String hostsPattern(YamlSource src, YamlNode v) {
        if (v instanceof YamlSequence s) {
            List<String> parts = new ArrayList<>();
            for (YamlNode n : s.getValue()) parts.add(src.scalar(n, "a host pattern"));
            return String.join(":", parts);
        }
        String p = src.scalar(v, "'hosts'");
        if (p.isBlank()) throw src.error(v, "'hosts' is empty");
        checkTemplates(src, v); // a template renders with the play's vars and -e when the run starts
        return p;
    }

    private static List<Object> serial(YamlSource src, YamlNode v) {
        List<Object> out = new ArrayList<>();
        List<YamlNode> items = v instanceof YamlSequence s ? s.getValue() : List.of(v);
        for (YamlNode n : items) {
            String s = src.scalar(n, "'serial'");
            if (s.matches("\\d+")) {
                int x = Integer.parseInt(s);
                if (x < 1) throw src.error(n, "'serial' must be at least 1, got '" + s + "'");
                out.add(x);
            } else if (s.matches("\\d+%")) {
                out.add(s);
            } else if (!Templar.isTemplate(s)) {
                throw src.error(n, "'serial' must be a number or a percentage, got '" + s + "'");
            } else {
                checkTemplates(src, n);
                out.add(s);
            }
        }
        return List.copyOf(out);
    }

}
