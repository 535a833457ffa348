package io.rocectl.modules.core;

import io.rocectl.module.ArgSpec;
import io.rocectl.module.Module;
import io.rocectl.module.ModuleException;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.TaskContext;
import io.rocectl.template.TemplateException;
import io.rocectl.template.Templar;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code debug}: shows {@code msg} (default {@code Hello world!}) or the value of {@code var}, a
 * variable name or a Jinja expression without braces ({@code nics[0]}, {@code x | upper}), as
 * Ansible's debug action evaluates it (see {@link #value}). The result's {@code msg} is the
 * line to print and {@code data} holds {@code msg} or {@code {VAR: value}}, as Ansible registers
 * it. {@code verbosity} is returned in data for the reporter to honour. Never changed.
 */
public final class DebugModule implements Module {
    static final String UNDEFINED = "VARIABLE IS NOT DEFINED!";

    @Override
    public String name() {
        return "debug";
    }

    /** {@code msg} goes to the registered result from the module's data; with {@code var} there is none (as Ansible). */
    @Override
    public boolean registersMessage() {
        return false;
    }

    @Override
    public ArgSpec args() {
        return ArgSpec.builder()
                .opt("msg", ArgSpec.Type.ANY)
                .opt("var", ArgSpec.Type.STR)
                .opt("verbosity", ArgSpec.Type.INT);
    }

    /**
     * What Ansible's debug action shows for {@code var} (already templated as every argument is):
     * an expression (a filter in it, or its first name a variable: {@code x | upper},
     * {@code nics[0]}, {@code a.b + 1}) is evaluated as {@code {{ var }}}; anything else is taken as
     * a variable name; undefined shows {@link #UNDEFINED}; other template errors fail the task.
     */
    static Object value(String var, Map<String, Object> vars) {
        Templar t = Templar.get();
        try {
            // Python's var.split("|")[0].split(".")[0].split("[")[0], no stripping (as Ansible)
            String first = var.split("\\|", -1)[0].split("\\.", -1)[0].split("\\[", -1)[0];
            boolean bare = !var.contains("{{") && (var.contains("|") || vars.containsKey(first));
            Object v = bare ? t.render("{{" + var + "}}", vars) : var;
            if (var.equals(v)) v = t.render("{{" + var + "}}", vars);
            return v;
        } catch (TemplateException e) {
            if (e.getMessage() != null && e.getMessage().contains("undefined variable")) return UNDEFINED;
            throw new ModuleException(e.getMessage());
        }
    }

    @Override
    public ModuleResult run(TaskContext ctx) {
        if (ctx.has("msg") && ctx.has("var")) throw new ModuleException("msg and var are mutually exclusive");
        Map<String, Object> data = new LinkedHashMap<>();
        String line;
        if (ctx.has("var")) {
            String var = ctx.str("var");
            Object v = value(var, ctx.vars());
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
