package io.rocectl.builtin.roce;

import io.rocectl.module.TaskContext;
import io.rocectl.op.RoceNic;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The other hosts' RoCE NICs, from {@code hostvars[h].roce} for each host in {@code play_hosts}. */
final class PlayPeers {
    private PlayPeers() {}

    /** Host name -> its RoCE NICs (hosts without roce facts map to an empty list). */
    static Map<String, List<RoceNic>> of(TaskContext ctx) {
        Map<String, List<RoceNic>> out = new LinkedHashMap<>();
        Object hv = ctx.vars().get("hostvars");
        for (String h : playHosts(ctx)) {
            Object roce = hv instanceof Map<?, ?> m && m.get(h) instanceof Map<?, ?> vars ? vars.get("roce") : null;
            out.put(h, RoceFactsModule.nicsOf(roce));
        }
        return out;
    }

    static List<String> playHosts(TaskContext ctx) {
        List<String> out = new ArrayList<>();
        Object ph = ctx.vars().get("play_hosts");
        if (ph instanceof List<?> l) for (Object o : l) out.add(String.valueOf(o));
        if (out.isEmpty() && ctx.vars().get("hostvars") instanceof Map<?, ?> m) for (Object k : m.keySet()) out.add(k.toString());
        return out;
    }
}
