package io.rocectl.builtin.core;

import io.rocectl.module.ArgSpec;
import io.rocectl.module.Module;
import io.rocectl.module.ConnectionVarNames;
import io.rocectl.module.ModuleException;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.TaskContext;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code set_fact}: its (already rendered) arguments become host variables for the rest of the
 * run ({@link ModuleResult#facts}); a string value true/false/yes/no (any case) becomes a
 * boolean, as in Ansible. Any key is accepted ({@link ArgSpec#openKeys()}); {@code
 * cacheable} is accepted and ignored. Never changed, touches nothing on the host.
 */
public final class SetFactModule implements Module {
    @Override
    public String name() {
        return "set_fact";
    }

    @Override
    public ArgSpec args() {
        return ArgSpec.builder().openKeys().opt("cacheable", ArgSpec.Type.BOOL);
    }

    @Override
    public ModuleResult run(TaskContext ctx) {
        Map<String, Object> facts = new LinkedHashMap<>(ctx.args());
        facts.remove("cacheable");
        facts.remove(ArgSpec.RAW);
        if (facts.isEmpty()) throw new ModuleException("set_fact needs at least one key=value");
        for (String k : facts.keySet()) {
            if (!k.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                throw new ModuleException("'" + k + "' is not a valid variable name");
            }
            if (ConnectionVarNames.NAMES.contains(k)) throw new ModuleException(ConnectionVarNames.refused(k));
        }
        // as Ansible's set_fact (without jinja2_native): a value that is the string true, false,
        // yes or no (any case) becomes a boolean; other strings ("on", "1", " yes") stay
        facts.replaceAll((k, v) -> v instanceof String str
                && java.util.Set.of("true", "false", "yes", "no").contains(str.toLowerCase(java.util.Locale.ROOT))
                ? (Object) (str.equalsIgnoreCase("true") || str.equalsIgnoreCase("yes")) : v);
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("ansible_facts", facts);
        return new ModuleResult(false, false, "", data, null, facts);
    }
}
