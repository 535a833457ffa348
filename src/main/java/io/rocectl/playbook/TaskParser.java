package io.rocectl.playbook;

import io.rocectl.yaml.YamlEntry;
import io.rocectl.yaml.YamlMapping;
import io.rocectl.yaml.YamlNode;
import io.rocectl.yaml.YamlScalar;
import io.rocectl.yaml.YamlSequence;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static io.rocectl.playbook.Inheritance.inherit;
import static io.rocectl.playbook.Inheritance.withEnvironment;
import static io.rocectl.playbook.Inheritance.withOptions;

/**
 * Task lists (Ansible's task.py and block.py): each mapping's keys read in order, through the
 * keyword table ({@link TaskKeywords}) or as the task's action ({@link ModuleArgs}); then it
 * becomes a static import's tasks, a block (its parts read with its tags, conditions and
 * {@code no_log}, then its other keywords inherited, {@link Inheritance}) or a task.
 */
final class TaskParser {
    private final ModuleArgs moduleArgs;
    private final Includes includes;

    TaskParser(ModuleArgs moduleArgs, Includes includes) {
        this.moduleArgs = moduleArgs;
        this.includes = includes;
    }

    /** A task list (an empty value is none), with the tags, conditions and no_log of what encloses it. */
    List<Step> taskList(YamlSource src, YamlNode n, Set<String> inheritedTags, List<Object> inheritedWhen,
                        boolean handler, boolean inheritedNoLog) {
        if (n instanceof YamlScalar s && s.getValue().isEmpty()) return List.of();
        YamlSequence seq = src.sequence(n, "a task list");
        List<Step> out = new ArrayList<>();
        for (YamlNode t : seq.getValue()) out.add(task(src, t, inheritedTags, inheritedWhen, handler, inheritedNoLog));
        return out;
    }

    private Step task(YamlSource src, YamlNode node, Set<String> inheritedTags, List<Object> inheritedWhen,
                      boolean handler, boolean inheritedNoLog) {
        YamlMapping m = src.mapping(node, "a task");
        TaskKeywords.Read r = new TaskKeywords.Read(moduleArgs, inheritedTags, inheritedWhen, inheritedNoLog);
        for (YamlEntry t : m.getValue()) {
            String key = src.scalar(t.getKeyNode(), "a task keyword");
            if (key.equals("remote_user")) throw src.error(t.getKeyNode(), PlaybookLoader.REMOTE_USER);
            if (ModuleArgs.namesAction(key)) r.action = moduleArgs.action(src, t.getKeyNode(), key, t.getValueNode(), r.action);
            else TaskKeywords.read(r, src, key, t.getKeyNode(), t.getValueNode());
        }
        Mark mark = src.mark(node);
        if (r.action != null && r.action.isStaticImport()) return staticImport(src, r, handler, mark);
        if (r.block != null) return block(src, r, handler, mark);
        if (r.rescue != null || r.always != null) {
            throw src.error(r.rescue != null ? r.rescue : r.always, "'rescue'/'always' need a 'block'");
        }
        if (r.action == null) {
            throw src.error(node, "task" + (r.name == null ? "" : " '" + r.name + "'") + " has no module");
        }
        return task(src, r, mark);
    }

    /** {@code import_tasks}/{@code import_role}: a block of the imported tasks, read now. */
    private Block staticImport(YamlSource src, TaskKeywords.Read r, boolean handler, Mark mark) {
        String module = r.action.module();
        if (r.block != null) throw src.error(r.action.key(), "a block cannot also call '" + module + "'");
        if (r.loop != null) {
            throw src.error(r.action.key(), "'" + module + "' cannot loop: use '" + module.replace("import_", "include_") + "'");
        }
        List<Step> inner = module.equals("import_tasks")
                ? includes.importTasks(src, r.action.value(), r.tags, r.when, handler, r.noLog)
                : includes.roles.importRole(src, r.action.value(), r.vars, r.tags, r.when, r.noLog);
        return new Block(r.name, r.vars, inherit(inner, r.ignoreErrors, r.become), List.of(), List.of(), r.tags, mark);
    }

    private Block block(YamlSource src, TaskKeywords.Read r, boolean handler, Mark mark) {
        if (r.action != null) throw src.error(r.action.key(), "a block cannot also call module '" + r.action.module() + "'");
        List<Step> block = part(src, r, r.block, handler);
        List<Step> rescue = r.rescue == null ? List.of() : part(src, r, r.rescue, handler);
        List<Step> always = r.always == null ? List.of() : part(src, r, r.always, handler);
        if (r.environment != null) {
            block = withEnvironment(block, r.environment);
            rescue = withEnvironment(rescue, r.environment);
            always = withEnvironment(always, r.environment);
        }
        return new Block(r.name, r.vars, block, rescue, always, r.tags, mark);
    }

    /** A block's block, rescue or always list, with the block's keywords inherited. */
    private List<Step> part(YamlSource src, TaskKeywords.Read r, YamlNode list, boolean handler) {
        return withOptions(inherit(taskList(src, list, r.tags, r.when, handler, r.noLog), r.ignoreErrors, r.become),
                r.options);
    }

    private Task task(YamlSource src, TaskKeywords.Read r, Mark mark) {
        Integer retries = r.until != null && r.retries == null ? Integer.valueOf(3) : r.retries;
        if (r.action.isMeta() && r.loop != null) throw src.error(r.action.key(), "a meta task cannot loop");
        Task.Builder b = moduleArgs.call(src, r.action, r.args);
        String name = r.name;
        if (includes.role != null) name = includes.role.name() + " : " + (name == null ? r.action.module() : name);
        return b.name(name).when(r.when).loop(r.loop).loopControl(r.loopControl).register(r.register)
                .changedWhen(r.changedWhen).failedWhen(r.failedWhen).ignoreErrorsSetting(r.ignoreErrors).notifies(r.notify)
                .tags(r.tags).become(r.become).retries(retries).until(r.until).delay(r.delay).runOnce(r.runOnce)
                .vars(r.vars).listen(r.listen).noLog(r.noLog).mark(mark).options(r.options)
                .environment(r.environment == null ? List.of() : List.of(r.environment)).build();
    }
}
