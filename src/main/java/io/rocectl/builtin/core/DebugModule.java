package io.rocectl.builtin.core;

import io.rocectl.module.ArgSpec;
import io.rocectl.module.Module;
import io.rocectl.module.ModuleException;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.TaskContext;
import io.rocectl.template.TemplateException;
import io.rocectl.template.Templar;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code debug}: shows {@code msg} (default {@code Hello world!}) or the value of {@code var}, a
 * variable name or a Jinja expression without braces ({@code nics[0]}, {@code x | upper}), as
 * Ansible's debug action evaluates it (see {@link #value}). The result's {@code msg} is the
 * line to print and {@code data} holds {@code msg} or {@code {VAR: value}}, as Ansible registers
 * it. With {@code verbosity: N} it is skipped below {@code -v} N times ({@code ansible_verbosity}),
 * as Ansible's. Never changed. The console prints {@link #shown} under the result's line.
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
        Object level = ctx.var("ansible_verbosity");
        int verbosity = level instanceof Number n ? n.intValue() : 0;
        if (ctx.integer("verbosity", 0) > verbosity) {
            // Ansible's words and keys; the console shows "skipping: [HOST]"
            Map<String, Object> skipped = new LinkedHashMap<>();
            skipped.put("skipped_reason", "Verbosity threshold not met.");
            skipped.put("skipped", true);
            return ModuleResult.ok("").withData(skipped);
        }
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
        return ModuleResult.ok(line).withData(data);
    }

    /**
     * What Ansible's default callback prints for a debug result: {@code {"msg": ...}} alone when
     * there is a {@code msg}, else the result without {@code changed}, {@code failed},
     * {@code skipped} ({@code {VAR: value}}).
     */
    @Override
    public Map<String, Object> shown(Map<String, Object> data) {
        Map<String, Object> body = new LinkedHashMap<>();
        if (data.containsKey("msg")) {
            body.put("msg", data.get("msg"));
            return body;
        }
        data.forEach((k, v) -> {
            if (!List.of("changed", "failed", "skipped", "skip_reason", "invocation").contains(k) && !k.startsWith("_")) body.put(k, v);
        });
        return body;
    }
}
