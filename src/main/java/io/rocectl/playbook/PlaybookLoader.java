package io.rocectl.playbook;

import io.rocectl.error.DidYouMean;
import io.rocectl.error.InputError;
import io.rocectl.module.ArgSpec;
import io.rocectl.module.Module;
import io.rocectl.module.ConnectionVarNames;
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
    static final Set<String> TASK_KEYS = Set.of("name", "when", "loop", "with_items", "loop_control", "register",
            "changed_when", "failed_when", "ignore_errors", "notify", "tags", "become", "retries", "until", "delay",
            "run_once", "vars", "block", "rescue", "always", "args", "listen", "no_log", "become_user",
            "connection", "delegate_to", "delegate_facts", "local_action", "check_mode", "diff", "throttle", "timeout",
            "environment");
    /** The {@code meta} actions the engine carries out. */
    static final Set<String> META_ACTIONS = Set.of("flush_handlers", "end_play", "end_host", "end_batch", "noop",
            "clear_facts", "reset_connection");
    private static final Set<String> UNSUPPORTED = Set.of();
    /** The connection types rocectl has: {@code ssh} (also Ansible's {@code smart}/{@code paramiko}) and {@code local}. */
    static final Set<String> CONNECTIONS = Set.of("ssh", "smart", "paramiko", "local");
    /** Read at load time: their tasks take the import's place (with its when, tags and vars). */
    static final Set<String> STATIC_IMPORTS = Set.of("import_tasks", "import_role");

    /** Why {@code remote_user} is refused (play or task): one SSH user per host, from the inventory. */
    static final String REMOTE_USER = "'remote_user' is not supported by rocectl: the SSH user comes from the "
            + "inventory (ansible_user) or -u/--user";

    private final ModuleRegistry modules;
    /** {@code -e} values: templated {@code vars_files} paths may use them (and the play's vars). */
    private Map<String, Object> extraVars = Map.of();
    /** Where the files being read are, and the roles read so far. */
    final Includes includes = new Includes(this);

    public PlaybookLoader(ModuleRegistry modules) {
        this.modules = modules;
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

    /**
     * {@code become_user}: become is {@code sudo -n} to root, so only {@code root} (what it does
     * anyway) is accepted; any other user is refused here rather than ignored.
     */
    private static void becomeUser(YamlSource src, YamlNode v) {
        String u = str(src, v, "become_user");
        if (!"root".equals(u)) {
            throw src.error(v, "become_user '" + u + "' is not supported by rocectl: become runs commands as root "
                    + "(sudo -n); only become_user: root is accepted");
        }
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
            if (UNSUPPORTED.contains(key)) throw src.error(t.getKeyNode(), "'" + key + "' is not supported by rocectl");
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
                files.putAll(varsFile(src, varsFilesNode, dir.resolve(varsPath(src, varsFilesNode, f, seen, dir))));
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
            for (YamlNode n : part) tasks.addAll(withOptions(taskList(src, n, tags, List.of(), false, noLog), options));
            sections.add(tasks.size() - before);
        }
        List<Task> handlers = handlers(withOptions(new ArrayList<>(roles.handlers), options));
        if (handlersNode != null) {
            handlers.addAll(handlers(withOptions(taskList(src, handlersNode, tags, List.of(), true, noLog), options)));
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

    List<Step> taskList(YamlSource src, YamlNode n, Set<String> inheritedTags, List<Object> inheritedWhen,
                                boolean handler, boolean inheritedNoLog) {
        if (n instanceof YamlScalar s && s.getValue().isEmpty()) return List.of();
        YamlSequence seq = src.sequence(n, "a task list");
        List<Step> out = new ArrayList<>();
        for (YamlNode t : seq.getValue()) out.add(task(src, t, inheritedTags, inheritedWhen, handler, inheritedNoLog));
        return out;
    }

    private Step task(YamlSource src, YamlNode node, Set<String> inheritedTags, List<Object> inheritedWhen, boolean handler,
                      boolean inheritedNoLog) {
        YamlMapping m = src.mapping(node, "a task");
        String name = null;
        String module = null;
        YamlNode moduleKey = null;
        YamlNode moduleValue = null;
        YamlNode argsNode = null;
        List<Object> when = new ArrayList<>(inheritedWhen);
        Object loop = null;
        LoopControl lc = LoopControl.DEFAULT;
        String register = null;
        Object changedWhen = null;
        Object failedWhen = null;
        boolean ignore = false;
        List<String> notify = List.of();
        Set<String> tags = new LinkedHashSet<>(inheritedTags);
        Boolean become = null;
        Integer retries = null;
        Object until = null;
        int delay = 5;
        boolean runOnce = false;
        Map<String, Object> vars = Map.of();
        YamlNode blockNode = null;
        YamlNode rescueNode = null;
        YamlNode alwaysNode = null;
        List<String> listen = List.of();
        boolean noLog = inheritedNoLog;
        TaskOptions options = TaskOptions.NONE;
        String localText = null;
        boolean localAction = false;
        Object environment = null;
        String loopKey = null;
        for (YamlEntry t : m.getValue()) {
            String key = src.scalar(t.getKeyNode(), "a task keyword");
            YamlNode v = t.getValueNode();
            if (UNSUPPORTED.contains(key)) throw src.error(t.getKeyNode(), "'" + key + "' is not supported by rocectl");
            if (key.equals("remote_user")) throw src.error(t.getKeyNode(), REMOTE_USER);
            if (Task.META.equals(key)) {
                if (module != null) throw src.error(t.getKeyNode(), "task has two modules: '" + module + "' and 'meta'");
                String action = src.scalar(v, "a meta action");
                if (!META_ACTIONS.contains(action)) {
                    throw src.error(v, "meta action '" + action + "' is not supported (" + String.join(", ",
                            new TreeSet<>(META_ACTIONS)) + ")" + DidYouMean.hint(action, META_ACTIONS));
                }
                module = Task.META;
                moduleKey = t.getKeyNode();
                moduleValue = v;
                continue;
            }
            if (STATIC_IMPORTS.contains(key)) {
                if (module != null) throw src.error(t.getKeyNode(), "task has two modules: '" + module + "' and '" + key + "'");
                module = key;
                moduleKey = t.getKeyNode();
                moduleValue = v;
                continue;
            }
            if (!TASK_KEYS.contains(key) && LoopLookup.pluginOf(key) == null) {
                if (key.startsWith("with_") && modules.find(key) == null) {
                    throw src.error(t.getKeyNode(), "'" + key + "' is not supported by rocectl (with_"
                            + String.join(", with_", new TreeSet<>(LoopLookup.PLUGINS)) + " are)");
                }
                if (modules.find(key) == null) {
                    Collection<String> known = new TreeSet<>(modules.all().keySet());
                    String hint = DidYouMean.hint(key, TASK_KEYS);
                    if (hint.isEmpty() || !DidYouMean.hint(key, known).isEmpty()) hint = ModuleHint.of(key, known);
                    throw src.error(t.getKeyNode(), "unknown module '" + key + "'" + hint);
                }
                if (module != null) {
                    throw src.error(t.getKeyNode(), "task has two modules: '" + module + "' and '" + key + "'");
                }
                module = key;
                moduleKey = t.getKeyNode();
                moduleValue = v;
                continue;
            }
            switch (key) {
                case "name" -> name = str(src, v, key);
                case "when" -> {
                    checkConditions(src, v);
                    when.addAll(conditionList(src, v));
                }
                case "loop" -> {
                    if (loop != null) throw src.error(t.getKeyNode(), "task has two loops: '" + loopKey + "' and 'loop'");
                    loopKey = key;
                    loop = src.value(v);
                    if (loop == null || !(loop instanceof List || Templar.isTemplate(loop))) {
                        throw src.error(v, "'" + key + "' must be a list or a template, not " + YamlSource.kind(v));
                    }
                    checkTemplates(src, v);
                }
                case "loop_control" -> lc = loopControl(src, v);
                case "register" -> {
                    register = str(src, v, key);
                    if (!register.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                        throw src.error(v, "'register' must be a variable name, not '" + register + "'");
                    }
                }
                case "changed_when" -> {
                    checkConditions(src, v);
                    changedWhen = src.value(v);
                }
                case "failed_when" -> {
                    checkConditions(src, v);
                    failedWhen = src.value(v);
                }
                case "ignore_errors" -> ignore = bool(src, v, key);
                case "notify" -> notify = stringList(src, v, key);
                case "tags" -> tags.addAll(tagList(src, v));
                case "become" -> become = bool(src, v, key);
                case "retries" -> retries = integer(src, v, key);
                case "until" -> {
                    checkConditions(src, v);
                    until = src.value(v);
                }
                case "delay" -> delay = integer(src, v, key);
                case "run_once" -> runOnce = bool(src, v, key);
                case "vars" -> {
                    checkTemplates(src, v);
                    vars = stringMap(src, v, "vars");
                }
                case "block" -> blockNode = v;
                case "rescue" -> rescueNode = v;
                case "always" -> alwaysNode = v;
                case "args" -> argsNode = v;
                case "listen" -> listen = stringList(src, v, key);
                case "no_log" -> noLog = bool(src, v, key);
                case "connection", "delegate_to", "delegate_facts", "check_mode", "diff", "throttle", "timeout" ->
                        options = option(src, options, key, v);
                case "local_action" -> {
                    // local_action: MODULE ARGS, or a mapping with 'module': delegate_to localhost
                    if (module != null) throw src.error(t.getKeyNode(), "task has two modules: '" + module + "' and 'local_action'");
                    String[] call = localAction(src, v);
                    module = call[0];
                    localText = call[1];
                    localAction = true;
                    moduleKey = t.getKeyNode();
                    moduleValue = v;
                    options = new TaskOptions(options.connection(), "localhost", options.delegateFacts(),
                            options.checkMode(), options.diff(), options.throttle(), options.timeout());
                }
                case "environment" -> environment = environment(src, v);
                case "become_user" -> becomeUser(src, v);
                default -> {
                    // with_<lookup>: the lookup's items (with_items flattens one level, as in Ansible)
                    if (loop != null) throw src.error(t.getKeyNode(), "task has two loops: '" + loopKey + "' and '" + key + "'");
                    loopKey = key;
                    Object terms = src.value(v);
                    if (terms == null) throw src.error(v, "'" + key + "' is empty");
                    checkTemplates(src, v);
                    loop = new LoopLookup(LoopLookup.pluginOf(key), terms);
                }
            }
        }
        Mark mark = src.mark(node);
        if (module != null && STATIC_IMPORTS.contains(module)) {
            if (blockNode != null) throw src.error(moduleKey, "a block cannot also call '" + module + "'");
            if (loop != null) {
                throw src.error(moduleKey, "'" + module + "' cannot loop: use '" + module.replace("import_", "include_") + "'");
            }
            List<Step> inner = module.equals("import_tasks")
                    ? includes.importTasks(src, moduleValue, tags, when, handler, noLog)
                    : includes.roles.importRole(src, moduleValue, vars, tags, when, noLog);
            return new Block(name, vars, inherit(inner, ignore, become), List.of(), List.of(), tags, mark);
        }
        if (blockNode != null) {
            if (module != null) throw src.error(moduleKey, "a block cannot also call module '" + module + "'");
            List<Step> block = withOptions(inherit(taskList(src, blockNode, tags, when, handler, noLog), ignore, become), options);
            List<Step> rescue = rescueNode == null ? List.of()
                    : withOptions(inherit(taskList(src, rescueNode, tags, when, handler, noLog), ignore, become), options);
            List<Step> always = alwaysNode == null ? List.of()
                    : withOptions(inherit(taskList(src, alwaysNode, tags, when, handler, noLog), ignore, become), options);
            if (environment != null) {
                block = withEnvironment(block, environment);
                rescue = withEnvironment(rescue, environment);
                always = withEnvironment(always, environment);
            }
            return new Block(name, vars, block, rescue, always, tags, mark);
        }
        if (rescueNode != null || alwaysNode != null) {
            throw src.error(rescueNode != null ? rescueNode : alwaysNode, "'rescue'/'always' need a 'block'");
        }
        if (module == null) {
            throw src.error(node, "task" + (name == null ? "" : " '" + name + "'") + " has no module");
        }
        if (until != null && retries == null) retries = 3;
        Task.Builder b;
        if (Task.META.equals(module)) {
            if (loop != null) throw src.error(moduleKey, "a meta task cannot loop");
            b = Task.builder(Task.META).args(Map.of("_raw_params", src.scalar(moduleValue, "a meta action")));
        } else {
            Module mod = modules.find(module);
            if (mod == null) throw src.error(moduleValue, "unknown module '" + module + "'"
                    + ModuleHint.of(module, new TreeSet<>(modules.all().keySet())));
            b = Task.builder(mod.name()).args(args(src, mod, module, moduleValue, argsNode, localText,
                    localAction && localText == null));
        }
        if (includes.role != null) name = includes.role.name() + " : " + (name == null ? module : name);
        return b.name(name).when(when).loop(loop).loopControl(lc).register(register).changedWhen(changedWhen)
                .failedWhen(failedWhen).ignoreErrors(ignore).notifies(notify).tags(tags).become(become)
                .retries(retries).until(until).delay(delay).runOnce(runOnce).vars(vars).listen(listen).noLog(noLog)
                .mark(mark).options(options).environment(environment == null ? List.of() : List.of(environment)).build();
    }

    /** One of the {@link TaskOptions} keywords (play, block or task), checked and set. */
    private static TaskOptions option(YamlSource src, TaskOptions o, String key, YamlNode v) {
        return switch (key) {
            case "connection" -> {
                String c = str(src, v, key);
                if (c == null || !CONNECTIONS.contains(c)) {
                    throw src.error(v, "connection '" + c + "' is not supported by rocectl (ssh or local)"
                            + DidYouMean.hint(String.valueOf(c), CONNECTIONS));
                }
                yield new TaskOptions(c, o.delegateTo(), o.delegateFacts(), o.checkMode(), o.diff(), o.throttle(), o.timeout());
            }
            case "delegate_to" -> {
                String d = str(src, v, key);
                if (d == null || d.isBlank()) throw src.error(v, "'delegate_to' is empty");
                checkTemplates(src, v);
                yield new TaskOptions(o.connection(), d, o.delegateFacts(), o.checkMode(), o.diff(), o.throttle(), o.timeout());
            }
            case "delegate_facts" -> new TaskOptions(o.connection(), o.delegateTo(), bool(src, v, key), o.checkMode(),
                    o.diff(), o.throttle(), o.timeout());
            case "check_mode" -> new TaskOptions(o.connection(), o.delegateTo(), o.delegateFacts(), bool(src, v, key),
                    o.diff(), o.throttle(), o.timeout());
            case "diff" -> new TaskOptions(o.connection(), o.delegateTo(), o.delegateFacts(), o.checkMode(),
                    bool(src, v, key), o.throttle(), o.timeout());
            case "throttle" -> new TaskOptions(o.connection(), o.delegateTo(), o.delegateFacts(), o.checkMode(), o.diff(),
                    positive(src, v, key), o.timeout());
            default -> new TaskOptions(o.connection(), o.delegateTo(), o.delegateFacts(), o.checkMode(), o.diff(),
                    o.throttle(), positive(src, v, key));
        };
    }

    private static int positive(YamlSource src, YamlNode v, String key) {
        int n = integer(src, v, key);
        if (n < 0) throw src.error(v, "'" + key + "' must be 0 or more, got '" + n + "'");
        return n;
    }

    /** {@code local_action}'s module and, for the string form, its argument text (null for the mapping form). */
    private String[] localAction(YamlSource src, YamlNode v) {
        String module;
        String text = null;
        if (v instanceof YamlMapping mn) {
            module = null;
            for (YamlEntry e : mn.getValue()) {
                if ("module".equals(src.scalar(e.getKeyNode(), "an argument name"))) module = str(src, e.getValueNode(), "module");
            }
            if (module == null) throw src.error(v, "'local_action' needs a 'module' key (or the form 'local_action: MODULE ARGS')");
        } else {
            String s = src.scalar(v, "'local_action'").strip();
            if (s.isEmpty()) throw src.error(v, "'local_action' is empty");
            int sp = s.indexOf(' ');
            module = sp < 0 ? s : s.substring(0, sp);
            text = sp < 0 ? "" : s.substring(sp + 1).strip();
        }
        if (modules.find(module) == null || Task.META.equals(module)) {
            throw src.error(v, "unknown module '" + module + "'" + ModuleHint.of(module, new TreeSet<>(modules.all().keySet())));
        }
        return new String[] {module, text};
    }

    /**
     * Block or play options under the given steps' own (their own settings win); also what a
     * dynamic include's tasks inherit from the blocks and play around the include.
     */
    public static List<Step> withOptions(List<Step> steps, TaskOptions outer) {
        if (outer.isNone()) return steps;
        List<Step> out = new ArrayList<>();
        for (Step s : steps) {
            if (s instanceof Task t) {
                out.add(t.toBuilder().options(t.options().under(outer)).outerOptions(t.outerOptions().under(outer)).build());
            } else {
                Block k = (Block) s;
                out.add(k.withParts(withOptions(k.block(), outer), withOptions(k.rescue(), outer),
                        withOptions(k.always(), outer)));
            }
        }
        return out;
    }

    /**
     * {@code environment:} of a play, block or task: a mapping of variable names to values, or a
     * template that gives one ({@code "{{ proxy_env }}"}); values are templates rendered per host.
     */
    private static Object environment(YamlSource src, YamlNode v) {
        Object o = src.value(v);
        checkTemplates(src, v);
        if (o instanceof Map<?, ?> m) {
            for (YamlEntry t : src.mapping(v, "'environment'").getValue()) {
                String k = src.scalar(t.getKeyNode(), "an environment variable name");
                if (!Templar.isTemplate(k) && !k.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                    throw src.error(t.getKeyNode(), "'" + k + "' is not a valid environment variable name");
                }
            }
            return m;
        }
        if (o instanceof String s && Templar.isTemplate(s)) return s;
        throw src.error(v, "'environment' must be a mapping or a template giving one, not " + YamlSource.kind(v));
    }

    /** Puts an enclosing play's or block's environment before each task's own (Ansible's prepend). */
    private static List<Step> withEnvironment(List<Step> steps, Object environment) {
        List<Step> out = new ArrayList<>();
        for (Step s : steps) {
            if (s instanceof Task t) {
                List<Object> env = new ArrayList<>();
                env.add(environment);
                env.addAll(t.environment());
                out.add(t.toBuilder().environment(env).build());
            } else {
                Block k = (Block) s;
                out.add(k.withParts(withEnvironment(k.block(), environment),
                        withEnvironment(k.rescue(), environment), withEnvironment(k.always(), environment)));
            }
        }
        return out;
    }

    /**
     * A block's {@code ignore_errors: true} and {@code become} apply to the tasks inside it that
     * do not set their own (Ansible's keyword inheritance).
     */
    static List<Step> inherit(List<Step> steps, boolean ignore, Boolean become) {
        if (!ignore && become == null) return steps;
        List<Step> out = new ArrayList<>();
        for (Step s : steps) {
            if (s instanceof Task t) {
                Task.Builder b = t.toBuilder();
                if (ignore) b.ignoreErrors(true);
                if (become != null && t.become() == null) b.become(become);
                out.add(b.build());
            } else {
                Block k = (Block) s;
                out.add(k.withParts(inherit(k.block(), ignore, become), inherit(k.rescue(), ignore,
                        become), inherit(k.always(), ignore, become)));
            }
        }
        return out;
    }

    private Map<String, Object> args(YamlSource src, Module mod, String key, YamlNode value, YamlNode argsNode) {
        return args(src, mod, key, value, argsNode, null, false);
    }

    /**
     * @param localText    the argument text of {@code local_action: MODULE TEXT}, else null
     * @param localMapping {@code local_action} as a mapping: its {@code module} key is not an argument
     */
    private Map<String, Object> args(YamlSource src, Module mod, String key, YamlNode value, YamlNode argsNode,
                                     String localText, boolean localMapping) {
        ArgSpec spec = mod.args();
        Map<String, Object> raw = new LinkedHashMap<>();
        Map<String, YamlNode> nodes = new LinkedHashMap<>();
        if (value instanceof YamlMapping mn) {
            collect(src, mn, raw, nodes);
            if (localMapping) {
                raw.remove("module"); // local_action's mapping form names the module there
                nodes.remove("module");
            }
        } else if (value instanceof YamlScalar sn) {
            String text = localText != null ? localText : sn.getValue();
            if (spec.isFreeForm()) {
                if (!text.isBlank()) {
                    raw.put(ArgSpec.RAW, text);
                    nodes.put(ArgSpec.RAW, sn);
                }
            } else if (!text.isBlank()) {
                for (Map.Entry<String, String> e : KeyValueArgs.parse(text, src.error(sn, "")).entrySet()) {
                    raw.put(e.getKey(), e.getValue());
                    nodes.put(e.getKey(), sn);
                }
            }
        } else {
            throw src.error(value, "arguments of '" + key + "' must be a mapping or a string, not a list");
        }
        if (argsNode != null) collect(src, src.mapping(argsNode, "'args'"), raw, nodes);
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : raw.entrySet()) {
            String canon = spec.canonical(e.getKey());
            YamlNode n = nodes.get(e.getKey());
            if (canon == null && spec.acceptsAnyKey()) {
                checkArgTemplates(src, n, mod.name(), e.getKey(), e.getValue());
                out.put(e.getKey(), e.getValue());
                continue;
            }
            if (canon == null) {
                throw src.error(n, "module '" + key + "' has no argument '" + e.getKey() + "'"
                        + DidYouMean.hint(e.getKey(), spec.allNames()));
            }
            checkType(src, n, key, e.getKey(), spec.types().get(canon), e.getValue());
            checkArgTemplates(src, n, mod.name(), canon, e.getValue());
            out.put(canon, e.getValue());
        }
        for (String req : spec.required()) {
            if (!out.containsKey(req)) {
                throw src.error(value, "module '" + key + "' needs argument '" + req + "'");
            }
        }
        return out;
    }

    private void collect(YamlSource src, YamlMapping mn, Map<String, Object> raw, Map<String, YamlNode> nodes) {
        for (YamlEntry t : mn.getValue()) {
            String k = src.scalar(t.getKeyNode(), "an argument name");
            raw.put(k, src.value(t.getValueNode()));
            nodes.put(k, t.getKeyNode());
        }
    }

    private static void checkType(YamlSource src, YamlNode n, String module, String arg, ArgSpec.Type type, Object v) {
        if (v == null || type == null || type == ArgSpec.Type.ANY || Templar.isTemplate(v)) return;
        boolean ok = switch (type) {
            case STR -> !(v instanceof List || v instanceof Map);
            case INT -> v instanceof Number || (v instanceof String s && s.trim().matches("-?\\d+"));
            case BOOL -> v instanceof Boolean || (v instanceof String s
                    && s.trim().toLowerCase().matches("yes|no|true|false|on|off|1|0"));
            case LIST -> v instanceof List || v instanceof String;
            case MAP -> v instanceof Map;
            default -> true;
        };
        if (!ok) {
            throw src.error(n, "argument '" + arg + "' of module '" + module + "' must be "
                    + type.name().toLowerCase() + ", got '" + v + "'");
        }
    }

    /**
     * Template syntax is checked here, at load time, so a typo is exit 5 with its place before
     * any host is contacted; undefined variables stay a run-time matter. {@code debug}'s
     * {@code var} without braces is an expression and {@code assert}'s {@code that} holds
     * conditions, as the executor reads them.
     */
    private static void checkArgTemplates(YamlSource src, YamlNode at, String module, String arg, Object value) {
        try {
            if ("assert".equals(module) && "that".equals(arg)) Templar.get().checkCondition(value);
            else if ("debug".equals(module) && "var".equals(arg) && value instanceof String v && !Templar.isTemplate(v)) {
                Templar.get().checkExpression(v);
            } else Templar.get().checkTemplate(value);
        } catch (TemplateException e) {
            throw src.error(at, e.getMessage());
        }
    }

    /** Every scalar under a node, each reported at its own line. */
    static void checkTemplates(YamlSource src, YamlNode n) {
        if (n instanceof YamlScalar sn) {
            if (!Templar.isTemplate(sn.getValue()) && !sn.getValue().contains("{#")) return;
            try {
                Templar.get().checkTemplate(sn.getValue());
            } catch (TemplateException e) {
                throw src.error(n, e.getMessage());
            }
        } else if (n instanceof YamlSequence seq) {
            for (YamlNode c : seq.getValue()) checkTemplates(src, c);
        } else if (n instanceof YamlMapping m) {
            for (YamlEntry t : m.getValue()) {
                checkTemplates(src, t.getKeyNode());
                checkTemplates(src, t.getValueNode());
            }
        }
    }

    /** A condition or a list of them, each reported at its own line. */
    static void checkConditions(YamlSource src, YamlNode n) {
        if (n instanceof YamlSequence seq) {
            for (YamlNode c : seq.getValue()) checkConditions(src, c);
            return;
        }
        if (!(n instanceof YamlScalar)) return;
        Object v = src.value(n);
        if (v == null || (v instanceof String str && str.isBlank())) return;
        try {
            Templar.get().checkCondition(v);
        } catch (TemplateException e) {
            throw src.error(n, e.getMessage());
        }
    }

    /**
     * A {@code vars_files} entry, rendered when it is a template (play vars, then -e over them); a
     * list is alternatives, the first file found is taken (as Ansible's).
     */
    private String varsPath(YamlSource src, YamlNode at, Object f, Map<String, Object> playVars, Path dir) {
        if (f instanceof List<?> alternatives && !alternatives.isEmpty()) {
            for (Object a : alternatives) {
                if (a instanceof List || a instanceof Map) throw src.error(at, "'vars_files' alternatives must be paths");
                String p = varsPath(src, at, a, playVars, dir);
                if (java.nio.file.Files.isRegularFile(dir.resolve(p))) return p;
            }
            throw src.error(at, "vars_files: none of the alternatives " + alternatives + " was found");
        }
        if (f instanceof List || f instanceof Map) {
            throw src.error(at, "'vars_files' entries must be paths or lists of alternative paths");
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

    private static LoopControl loopControl(YamlSource src, YamlNode v) {
        YamlMapping m = src.mapping(v, "'loop_control'");
        String loopVar = "item";
        String index = null;
        String label = null;
        for (YamlEntry t : m.getValue()) {
            String k = src.scalar(t.getKeyNode(), "a loop_control key");
            switch (k) {
                case "loop_var" -> loopVar = src.scalar(t.getValueNode(), k);
                case "index_var" -> index = src.scalar(t.getValueNode(), k);
                case "label" -> {
                    label = src.scalar(t.getValueNode(), k);
                    checkTemplates(src, t.getValueNode());
                }
                default -> throw src.error(t.getKeyNode(), "unknown loop_control key '" + k + "'"
                        + DidYouMean.hint(k, List.of("loop_var", "index_var", "label")));
            }
        }
        return new LoopControl(loopVar, index, label);
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

    private static Integer percent(YamlSource src, YamlNode v, String key) {
        Object o = src.value(v);
        int p;
        if (o instanceof String s && s.trim().matches("\\d+%")) p = Integer.parseInt(s.trim().replace("%", ""));
        else p = integer(src, v, key);
        if (p < 0 || p > 100) throw src.error(v, "'" + key + "' must be 0-100, got '" + p + "'");
        return p;
    }

    private static String str(YamlSource src, YamlNode v, String key) {
        Object o = src.value(v);
        if (o instanceof List || o instanceof Map) throw src.error(v, "'" + key + "' must be a string");
        return o == null ? null : o.toString();
    }

    private static boolean bool(YamlSource src, YamlNode v, String key) {
        Object o = src.value(v);
        if (o instanceof Boolean b) return b;
        throw src.error(v, "'" + key + "' must be a boolean (yes/no/true/false), got '" + o + "'");
    }

    private static int integer(YamlSource src, YamlNode v, String key) {
        Object o = src.value(v);
        if (o instanceof Number n) return n.intValue();
        throw src.error(v, "'" + key + "' must be an integer, got '" + o + "'");
    }

    private static List<Object> listOf(YamlSource src, YamlNode v, String key) {
        Object o = src.value(v);
        if (o instanceof List<?> l) return new ArrayList<>(l);
        if (o == null) throw src.error(v, "'" + key + "' is empty");
        return List.of(o);
    }

    private static List<String> stringList(YamlSource src, YamlNode v, String key) {
        List<String> out = new ArrayList<>();
        for (Object o : listOf(src, v, key)) {
            if (o instanceof List || o instanceof Map) throw src.error(v, "'" + key + "' must list strings");
            out.add(String.valueOf(o));
        }
        return List.copyOf(out);
    }

    static List<String> tagList(YamlSource src, YamlNode v) {
        Object o = src.value(v);
        if (o instanceof String s) {
            List<String> out = new ArrayList<>();
            for (String t : s.split(",")) if (!t.isBlank()) out.add(t.trim());
            return out;
        }
        return stringList(src, v, "tags");
    }

    static List<Object> conditionList(YamlSource src, YamlNode v) {
        Object o = src.value(v);
        if (o instanceof List<?> l) return new ArrayList<>(l);
        return new ArrayList<>(List.of(o == null ? "" : o));
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> stringMap(YamlSource src, YamlNode v, String what) {
        if (v instanceof YamlScalar s && s.getValue().isEmpty()) return Map.of();
        YamlMapping m = src.mapping(v, what);
        for (YamlEntry t : m.getValue()) {
            String k = src.scalar(t.getKeyNode(), "a variable name");
            if (!k.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                throw src.error(t.getKeyNode(), "'" + k + "' is not a valid variable name");
            }
            if (ConnectionVarNames.NAMES.contains(k)) throw src.error(t.getKeyNode(), ConnectionVarNames.refused(k));
        }
        Object o = src.value(m);
        return o == null ? Map.of() : (Map<String, Object>) o;
    }
}
