package io.rocectl.playbook;

import io.rocectl.template.Templar;
import io.rocectl.template.TemplateException;
import io.rocectl.yaml.YamlNode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.rocectl.playbook.FieldReaders.*;
import static io.rocectl.playbook.Handlers.checkNotify;
import static io.rocectl.playbook.Handlers.handlers;
import static io.rocectl.playbook.Inheritance.withEnvironment;
import static io.rocectl.playbook.Inheritance.withOptions;

/**
 * One play (Ansible's play.py): its keywords ({@link PlayKeywords}), {@code vars_files} (above the play's vars, paths
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
        PlayKeywords.Read p = PlayKeywords.read(src, src.mapping(node, "a play"));
        if (p.hosts == null) throw src.error(node, "play" + (p.name == null ? "" : " '" + p.name + "'") + " has no 'hosts'");
        Map<String, Object> vars = new LinkedHashMap<>(p.vars);
        // vars_files are above the play's vars (Ansible's precedence), whatever their order in the play
        if (p.varsFiles != null) vars.putAll(varsFiles(src, p.varsFiles, dir, vars));
        List<Step> tasks = new ArrayList<>();
        List<Integer> sections = new ArrayList<>();
        for (List<YamlNode> part : List.of(p.pre, p.main, p.post)) {
            // roles run with the tasks section, before its tasks (after pre_tasks)
            boolean withRoles = part == p.main && p.roles != null;
            if (part.isEmpty() && !withRoles) continue;
            int before = tasks.size();
            if (withRoles) tasks.addAll(withOptions(includes.roles.playRoles(src, p.roles, p.tags, p.noLog), p.options));
            for (YamlNode n : part) {
                tasks.addAll(withOptions(taskParser.taskList(src, n, p.tags, List.of(), false, p.noLog), p.options));
            }
            sections.add(tasks.size() - before);
        }
        List<Task> handlers = handlers(withOptions(new ArrayList<>(roles.handlers), p.options));
        if (p.handlers != null) {
            handlers.addAll(handlers(withOptions(taskParser.taskList(src, p.handlers, p.tags, List.of(), true, p.noLog),
                    p.options)));
        }
        checkNotify(src, tasks, Handlers.names(handlers));
        if (p.environment != null) {
            List<Step> withEnv = withEnvironment(tasks, p.environment);
            tasks.clear();
            tasks.addAll(withEnv);
            List<Step> h = withEnvironment(new ArrayList<>(handlers), p.environment);
            handlers.clear();
            for (Step s : h) handlers.add((Task) s);
        }
        // the vars of the play's roles are the play's too, above its own vars (Ansible's private_role_vars=False)
        vars.putAll(roles.vars);
        // (a copy that keeps the order and a null value: "x:" or "x: null" is a var)
        return new Play(p.name == null ? p.hosts : p.name, p.hosts,
                java.util.Collections.unmodifiableMap(new LinkedHashMap<>(vars)), p.gather, p.become, p.serial, p.maxFail,
                p.anyFatal, p.strategy, List.copyOf(tasks), List.copyOf(sections), List.copyOf(handlers),
                Set.copyOf(p.tags), p.noLog, src.mark(node), p.options,
                java.util.Collections.unmodifiableMap(new LinkedHashMap<>(roles.defaults)));
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
}
