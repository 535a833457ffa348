package io.rocectl.modules.core;

import io.rocectl.module.ArgSpec;
import io.rocectl.module.Module;
import io.rocectl.module.ModuleException;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.TaskContext;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code debug}: shows {@code msg} (default {@code Hello world!}) or the value of the host
 * variable named by {@code var} (a plain path such as {@code ansible_facts.hostname} or
 * {@code nics[0]}; the engine must pass {@code var} unrendered). The result's {@code msg} is the
 * line to print and {@code data} holds {@code msg} or {@code {VAR: value}}, as Ansible registers
 * it. {@code verbosity} is returned in data for the reporter to honour. Never changed.
 */
public final class DebugModule implements Module {
    static final String UNDEFINED = "VARIABLE IS NOT DEFINED!";

    @Override
    public String name() {
        return "debug";
    }

    @Override
    public ArgSpec args() {
        return ArgSpec.builder()
                .opt("msg", ArgSpec.Type.ANY)
                .opt("var", ArgSpec.Type.STR)
                .opt("verbosity", ArgSpec.Type.INT);
    }

    @Override
    public ModuleResult run(TaskContext ctx) {
        if (ctx.has("msg") && ctx.has("var")) throw new ModuleException("msg and var are mutually exclusive");
        Map<String, Object> data = new LinkedHashMap<>();
        String line;
        if (ctx.has("var")) {
            String var = ctx.str("var");
            Object v = VarPath.lookup(ctx.vars(), var).orElse(UNDEFINED);
            data.put(var, v);
            line = var + ": " + v;
        } else {
            Object msg = ctx.args().containsKey("msg") ? ctx.args().get("msg") : "Hello world!";
            data.put("msg", msg == null ? "" : msg);
            line = String.valueOf(msg == null ? "" : msg);
        }
        if (ctx.has("verbosity")) data.put("verbosity", ctx.integer("verbosity", 0));
        return ModuleResult.ok(line).withData(data);
    }
}
