package io.rocectl.module;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The outcome of one module on one host.
 *
 * @param changed whether the host changed (or would, in check mode)
 * @param failed  whether the task failed
 * @param msg     one line for humans (why it changed, why nothing to do, why it failed)
 * @param data    the registerable result ({@code rc}, {@code stdout}, ...); {@code changed},
 *                {@code failed} and {@code msg} are added by the engine
 * @param diff    a unified-style diff for {@code --diff}, or null
 * @param facts   facts to merge into the host's variables ({@code ansible_facts}), or empty
 */
public record ModuleResult(boolean changed, boolean failed, String msg, Map<String, Object> data,
                           String diff, Map<String, Object> facts) {

    public ModuleResult {
        data = data == null ? Map.of() : Map.copyOf(nonNull(data));
        facts = facts == null ? Map.of() : facts;
        msg = msg == null ? "" : msg;
    }

    private static Map<String, Object> nonNull(Map<String, Object> m) {
        Map<String, Object> c = new LinkedHashMap<>();
        m.forEach((k, v) -> c.put(k, v == null ? "" : v));
        return c;
    }

    public static ModuleResult ok(String msg) {
        return new ModuleResult(false, false, msg, null, null, null);
    }

    public static ModuleResult changed(String msg) {
        return new ModuleResult(true, false, msg, null, null, null);
    }

    public static ModuleResult failed(String msg) {
        return new ModuleResult(false, true, msg, null, null, null);
    }

    public ModuleResult withData(Map<String, Object> d) {
        return new ModuleResult(changed, failed, msg, d, diff, facts);
    }

    public ModuleResult withDiff(String d) {
        return new ModuleResult(changed, failed, msg, data, d, facts);
    }

    public ModuleResult withFacts(Map<String, Object> f) {
        return new ModuleResult(changed, failed, msg, data, diff, f);
    }
}
