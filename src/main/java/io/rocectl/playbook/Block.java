package io.rocectl.playbook;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code block}/{@code rescue}/{@code always}. The block's {@code when}, tags and {@code no_log}
 * are already pushed down into its tasks by the loader; its {@code vars} are in scope for them.
 */
public record Block(String name, Map<String, Object> vars, List<Step> block, List<Step> rescue, List<Step> always,
                    Set<String> tags, Mark mark) implements Step {

    public Block {
        // in the order written: a var may use one above it
        vars = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(vars));
        block = List.copyOf(block);
        rescue = List.copyOf(rescue);
        always = List.copyOf(always);
        tags = Set.copyOf(tags);
    }

    @Override
    public String displayName() {
        return name != null && !name.isBlank() ? name : "block";
    }
}
