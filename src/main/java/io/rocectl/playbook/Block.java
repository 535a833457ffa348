package io.rocectl.playbook;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code block}/{@code rescue}/{@code always}. The block's {@code when}, tags and {@code no_log}
 * are already pushed down into its tasks by the loader; its {@code vars} are in scope for them.
 *
 * @param listOnly a role given again with the same parameters in {@code roles:} or a role's
 *                 dependencies: {@code --list-tasks} lists its tasks, the play does not run them
 *                 (Ansible's role deduplication)
 */
public record Block(String name, Map<String, Object> vars, List<Step> block, List<Step> rescue, List<Step> always,
                    Set<String> tags, Mark mark, boolean listOnly) implements Step {

    public Block {
        // in the order written: a var may use one above it
        vars = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(vars));
        block = List.copyOf(block);
        rescue = List.copyOf(rescue);
        always = List.copyOf(always);
        tags = Set.copyOf(tags);
    }

    /** A block that runs. */
    public Block(String name, Map<String, Object> vars, List<Step> block, List<Step> rescue, List<Step> always,
                 Set<String> tags, Mark mark) {
        this(name, vars, block, rescue, always, tags, mark, false);
    }

    /** This block with other parts (everything else kept). */
    public Block withParts(List<Step> block, List<Step> rescue, List<Step> always) {
        return new Block(name, vars, block, rescue, always, tags, mark, listOnly);
    }

    /** The steps that run: without the {@link #listOnly} blocks, at any depth. */
    public static List<Step> runnable(List<Step> steps) {
        List<Step> out = new java.util.ArrayList<>();
        for (Step s : steps) {
            if (s instanceof Block b) {
                if (!b.listOnly()) out.add(b.withParts(runnable(b.block()), runnable(b.rescue()), runnable(b.always())));
            } else {
                out.add(s);
            }
        }
        return out;
    }

    @Override
    public String displayName() {
        return name != null && !name.isBlank() ? name : "block";
    }
}
