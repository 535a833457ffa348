package io.rocectl.builtin.core;

import java.util.ArrayList;
import java.util.List;

/**
 * The pure half of {@code service}/{@code systemd}: from the unit's status to the
 * {@code systemctl} verbs to run, in Ansible's order (mask/unmask, enable/disable, then the run
 * state). {@code restarted} and {@code reloaded} always act (a reload of a stopped unit starts
 * it), as in Ansible.
 *
 * @param verbs   systemctl verbs, each run as {@code systemctl VERB UNIT}; empty when nothing to do
 * @param reason  what changes, or why nothing does
 * @param failure why the task must fail, or null
 */
public record ServicePlan(List<String> verbs, String reason, String failure) {

    public boolean changed() { return failure == null && !verbs.isEmpty(); }

    /**
     * @param state   started, stopped, restarted, reloaded, or null (leave as is)
     * @param enabled wanted enablement, or null
     * @param masked  wanted masking, or null
     */
    public static ServicePlan plan(String name, UnitStatus st, String state, Boolean enabled, Boolean masked) {
        if (state != null && !List.of("started", "stopped", "restarted", "reloaded").contains(state)) {
            return fail("state must be one of started, stopped, restarted, reloaded; got '" + state + "'");
        }
        if (state == null && enabled == null && masked == null) {
            return fail("one of state, enabled, masked is required");
        }
        if (!st.found() && !(Boolean.TRUE.equals(masked) && state == null && enabled == null)) {
            boolean onlyStopOrDisable = !"started".equals(state) && !"restarted".equals(state) && !"reloaded".equals(state)
                    && !Boolean.TRUE.equals(enabled) && masked == null;
            if (onlyStopOrDisable) return new ServicePlan(List.of(), "unit " + name + " does not exist: nothing to stop or disable", null);
            return fail("Could not find the requested service " + name + ": host");
        }
        List<String> verbs = new ArrayList<>();
        List<String> why = new ArrayList<>();
        boolean isMasked = st.masked();
        if (masked != null && masked != isMasked) {
            verbs.add(masked ? "mask" : "unmask");
            why.add(masked ? "masked" : "unmasked");
            isMasked = masked;
        }
        if (isMasked && (Boolean.TRUE.equals(enabled) || "started".equals(state) || "restarted".equals(state)
                || "reloaded".equals(state))) {
            return fail("unit " + name + " is masked: cannot " + (enabled != null && enabled ? "enable" : "start") + " it (use masked: false)");
        }
        if (enabled != null && !st.enablementFixed() && !isMasked && enabled != st.enabled()) {
            verbs.add(enabled ? "enable" : "disable");
            why.add(enabled ? "enabled" : "disabled");
        }
        if (state != null) {
            switch (state) {
                case "started" -> {
                    if (!st.running()) {
                        verbs.add("start");
                        why.add("started");
                    }
                }
                case "stopped" -> {
                    if (st.running() || st.activeState().equals("deactivating")) {
                        verbs.add("stop");
                        why.add("stopped");
                    }
                }
                case "restarted" -> {
                    verbs.add("restart");
                    why.add("restarted");
                }
                default -> {
                    verbs.add(st.running() ? "reload" : "start");
                    why.add(st.running() ? "reloaded" : "started");
                }
            }
        }
        if (verbs.isEmpty()) {
            String note = enabled != null && st.enablementFixed() && enabled != st.enabled()
                    ? " (unit file is " + st.unitFileState() + ": enablement cannot change)" : "";
            return new ServicePlan(List.of(), "unit " + name + " is already " + st.activeState()
                    + (st.unitFileState().isEmpty() ? "" : ", " + st.unitFileState()) + note, null);
        }
        return new ServicePlan(verbs, String.join(", ", why), null);
    }

    private static ServicePlan fail(String why) {
        return new ServicePlan(List.of(), null, why);
    }
}
