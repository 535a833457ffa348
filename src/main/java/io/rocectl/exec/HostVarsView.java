package io.rocectl.exec;

import java.util.AbstractMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** {@code hostvars}: every host's variables, computed when a template asks for them. */
final class HostVarsView extends AbstractMap<String, Object> {
    private final Map<String, HostRunState> hosts;

    HostVarsView(Map<String, HostRunState> hosts) {
        this.hosts = hosts;
    }

    @Override
    public Object get(Object key) {
        HostRunState h = hosts.get(key);
        return h == null ? null : h.merged();
    }

    @Override
    public boolean containsKey(Object key) {
        return hosts.containsKey(key);
    }

    @Override
    public Set<Entry<String, Object>> entrySet() {
        Map<String, Object> m = new LinkedHashMap<>();
        hosts.forEach((k, v) -> m.put(k, v.merged()));
        return m.entrySet();
    }
}
