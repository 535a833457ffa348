package io.rocectl.playbook;

import io.rocectl.error.InputError;
import io.rocectl.module.ModuleRegistry;
import io.rocectl.template.Templar;
import io.rocectl.yaml.YamlMapping;
import io.rocectl.yaml.YamlNode;
import io.rocectl.yaml.YamlEntry;
import io.rocectl.yaml.YamlScalar;
import io.rocectl.yaml.YamlSequence;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static io.rocectl.playbook.Inheritance.inherit;

/**
 * Loads and validates a playbook completely before any host is contacted: structure, keywords,
 * module names and their arguments (with did-you-mean), literal value types. Every error names
 * {@code file:line:column} and the offending token.
 *
 * <p>This class is the playbook file (Ansible's playbook.py: plays and {@code import_playbook})
 * and the run-time entry points of {@code include_tasks}/{@code include_role}. The rest is split
 * as Ansible's own code is:
 *
 * <table>
 *   <caption>Where the loader's concerns live</caption>
 *   <tr><th>class</th><th>Ansible</th><th>what</th></tr>
 *   <tr><td>{@link PlayParser}</td><td>play.py</td><td>play keywords, vars_files, sections, roles</td></tr>
 *   <tr><td>{@link Handlers}</td><td>play.py</td><td>the handler list, notify names a handler</td></tr>
 *   <tr><td>{@link TaskParser}</td><td>task.py, block.py</td><td>task lists: task, block or static import</td></tr>
 *   <tr><td>{@link TaskKeywords}</td><td>task.py</td><td>the task keyword table</td></tr>
 *   <tr><td>{@link ModuleArgs}</td><td>mod_args.py</td><td>the action and its arguments</td></tr>
 *   <tr><td>{@link FieldReaders}</td><td>base.py</td><td>reading a field of one type</td></tr>
 *   <tr><td>{@link Inheritance}</td><td>play, block, task</td><td>keywords enclosing steps pass down</td></tr>
 *   <tr><td>{@link Includes}, {@link Roles}</td><td>helpers.py, role/</td><td>files that name other files</td></tr>
 * </table>
 */
public final class PlaybookLoader {

    /** Why {@code remote_user} is refused (play or task): one SSH user per host, from the inventory. */
    static final String REMOTE_USER = "'remote_user' is not supported by rocectl: the SSH user comes from the "
            + "inventory (ansible_user) or -u/--user";

    /** Reads task lists (also those of imported files and roles). */
    final TaskParser tasks;
    /** Reads plays. */
    private final PlayParser plays;
    /** Where the files being read are, and the roles read so far. */
    final Includes includes = new Includes(this);

    public PlaybookLoader(ModuleRegistry modules) {
        this.tasks = new TaskParser(new ModuleArgs(modules), includes);
        this.plays = new PlayParser(includes, tasks);
    }

    /** The run's extra variables, for templated {@code vars_files} paths. */
    public PlaybookLoader withExtraVars(Map<String, Object> extra) {
        plays.extraVars = Map.copyOf(extra);
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
        Handlers.checkNotify(null, steps, new TreeSet<>(handlers));
        return inherit(steps, a.ignore ? Boolean.TRUE : null, a.become);
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
        return new IncludedRole(inherit(steps, a.ignore ? Boolean.TRUE : null, a.become), List.copyOf(acc.handlers), Map.copyOf(acc.defaults));
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
                plays.add(this.plays.play(src, n, dir));
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

}
