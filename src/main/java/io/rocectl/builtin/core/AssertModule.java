package io.rocectl.builtin.core;

import io.rocectl.module.ArgSpec;
import io.rocectl.module.Module;
import io.rocectl.module.ModuleException;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.TaskContext;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code assert}: fails unless every item of {@code that} is true. The module evaluates no
 * expressions: the engine renders each item as a boolean before the call (for example as
 * {@code {% if (EXPR) %}True{% else %}False{% endif %}}), so items arrive as booleans or the
 * strings {@code True}/{@code False} (any case). Anything else fails with a message saying so.
 * Arguments: that (list or one string), fail_msg (msg), success_msg, quiet. Never changed.
 */
public final class AssertModule implements Module {
    /** The engine's argument with each condition's text (registered as {@code assertion} when it fails). */
    public static final String SOURCE = "_that_source";

    @Override
    public String name() {
        return "assert";
    }

    @Override
    public ArgSpec args() {
        return ArgSpec.builder()
                .req("that", ArgSpec.Type.ANY)
                .opt("fail_msg", ArgSpec.Type.ANY).alias("msg", "fail_msg")
                .opt("success_msg", ArgSpec.Type.ANY)
                .opt("quiet", ArgSpec.Type.BOOL);
    }

    @Override
    public ModuleResult run(TaskContext ctx) {
        Map<String, Object> a = Aliases.apply(ctx.args(), Map.of("msg", "fail_msg"));
        Object that = a.get("that");
        List<Object> items = that instanceof List<?> l ? new ArrayList<>(l) : new ArrayList<>(List.of(that == null ? "" : that));
        if (items.isEmpty()) throw new ModuleException("'that' needs at least one condition");
        Map<String, Object> data = new LinkedHashMap<>();
        for (int i = 0; i < items.size(); i++) {
            Object item = items.get(i);
            Boolean b = truth(item);
            if (b == null) {
                data.put("assertion", String.valueOf(item));
                return ModuleResult.failed("assertion " + (i + 1) + " did not evaluate to a boolean: '" + item + "'").withData(data);
            }
            if (!b) {
                Object fail = a.get("fail_msg");
                data.put("assertion", a.get(SOURCE) instanceof List<?> src && i < src.size() ? src.get(i) : String.valueOf(i + 1));
                data.put("evaluated_to", false);
                String msg = fail == null ? "Assertion failed" : String.valueOf(fail);
                data.put("msg", msg);
                return ModuleResult.failed(msg).withData(data);
            }
        }
        Object ok = a.get("success_msg");
        String msg = ok == null ? "All assertions passed" : String.valueOf(ok);
        data.put("msg", msg);
        return ModuleResult.ok(io.rocectl.module.Values.toBool(a.get("quiet"), false, "quiet") ? "" : msg).withData(data);
    }

    /** True/False from a rendered condition, or null when it is not a boolean. */
    static Boolean truth(Object v) {
        if (v instanceof Boolean b) return b;
        if (v == null) return null;
        String s = v.toString().trim().toLowerCase(Locale.ROOT);
        if (s.equals("true")) return true;
        if (s.equals("false")) return false;
        return null;
    }
}
