package io.rocectl.playbook;

import io.rocectl.error.DidYouMean;
import io.rocectl.template.Templar;
import io.rocectl.template.TemplateException;
import io.rocectl.yaml.YamlEntry;
import io.rocectl.yaml.YamlMapping;
import io.rocectl.yaml.YamlNode;
import io.rocectl.yaml.YamlSequence;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.rocectl.playbook.FieldReaders.*;
import static io.rocectl.playbook.Handlers.checkNotify;
import static io.rocectl.playbook.Handlers.handlers;
import static io.rocectl.playbook.Inheritance.withEnvironment;
import static io.rocectl.playbook.Inheritance.withOptions;

/**
 * One play (Ansible's play.py): its keywords, {@code vars_files} (above the play's vars, paths
 * rendered with the play's vars and {@code -e}), its roles and task sections, its handlers, and
 * the play-wide keywords its tasks inherit ({@link Inheritance}).
 */
final class PlayParser {
    private final Includes includes;
    private final TaskParser taskParser;
    /** {@code -e} values: templated {@code vars_files} paths may use them (and the play's vars). */
    Map<String, Object> extraVars = Map.of();

    PlayParser(Includes includes, TaskParser taskParser) {
        this.includes = includes;
        this.taskParser = taskParser;
    }

    static final Set<String> PLAY_KEYS = Set.of("name", "hosts", "vars", "vars_files", "gather_facts", "become",
            "serial", "max_fail_percentage", "any_errors_fatal", "strategy", "tasks", "pre_tasks", "post_tasks",
            "handlers", "tags", "remote_user", "become_user", "no_log", "connection", "check_mode", "diff", "throttle",
            "environment", "roles");

    /** A play of the playbook file in {@code dir}; the roles it names are read for it alone. */
    Play play(YamlSource src, YamlNode node, Path dir) {
        Roles.Acc roles = new Roles.Acc(true);
        Roles.Acc outer = includes.playRoles;
        includes.playRoles = roles;
        try {
            return play(src, node, dir, roles);
        } finally {
            includes.playRoles = outer;
        }
    }

    private Play play(YamlSource src, YamlNode node, Path dir, Roles.Acc roles) {
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
                    if (strategy == null) throw src.error(v, "'strategy' needs a value (linear or free)");
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
                default -> throw src.error(t.getKeyNode(), PlaybookLoader.REMOTE_USER);
            }
        }
        if (hosts == null) throw src.error(node, "play" + (name == null ? "" : " '" + name + "'") + " has no 'hosts'");
        // vars_files are above the play's vars (Ansible's precedence), whatever their order in the play
        if (varsFilesNode != null) vars.putAll(varsFiles(src, varsFilesNode, dir, vars));
        List<Step> tasks = new ArrayList<>();
        List<Integer> sections = new ArrayList<>();
        for (List<YamlNode> part : List.of(pre, main, post)) {
            // roles run with the tasks section, before its tasks (after pre_tasks)
            boolean withRoles = part == main && rolesNode != null;
            if (part.isEmpty() && !withRoles) continue;
            int before = tasks.size();
            if (withRoles) tasks.addAll(withOptions(includes.roles.playRoles(src, rolesNode, tags, noLog), options));
            for (YamlNode n : part) tasks.addAll(withOptions(taskParser.taskList(src, n, tags, List.of(), false, noLog), options));
            sections.add(tasks.size() - before);
        }
        List<Task> handlers = handlers(withOptions(new ArrayList<>(roles.handlers), options));
        if (handlersNode != null) {
            handlers.addAll(handlers(withOptions(taskParser.taskList(src, handlersNode, tags, List.of(), true, noLog), options)));
        }
        checkNotify(src, tasks, Handlers.names(handlers));
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
        return new Play(name == null ? hosts : name, hosts, java.util.Collections.unmodifiableMap(new LinkedHashMap<>(vars)),
                gather, become, serial, maxFail, anyFatal,
                strategy, List.copyOf(tasks), List.copyOf(sections), List.copyOf(handlers), Set.copyOf(tags), noLog,
                src.mark(node), options, java.util.Collections.unmodifiableMap(new LinkedHashMap<>(roles.defaults)));
    }

    /**
     * The variables of the play's {@code vars_files}, in order; a templated path renders with the
     * play's vars and {@code -e}, and an earlier file's variables may name a later file (as in Ansible).
     */
    private Map<String, Object> varsFiles(YamlSource src, YamlNode node, Path dir, Map<String, Object> vars) {
        Map<String, Object> files = new LinkedHashMap<>();
        for (Object f : listOf(src, node, "vars_files")) {
            Map<String, Object> seen = new LinkedHashMap<>(vars);
            seen.putAll(files);
            files.putAll(varsFile(src, node, dir.resolve(varsPath(src, node, f, seen, dir))));
        }
        return files;
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
                if (Files.isRegularFile(dir.resolve(p))) return p;
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
