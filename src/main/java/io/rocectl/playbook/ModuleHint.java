package io.rocectl.playbook;

import io.rocectl.error.DidYouMean;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What an "unknown module" error adds after the name, on the same line: the module meant when it
 * is a typo ({@code (did you mean 'lineinfile'?)}); else, for an Ansible module rocectl does not
 * have ({@code ansible.builtin.apt}), what to use instead, the closest modules rocectl has and
 * the command that lists them all.
 */
final class ModuleHint {
    private ModuleHint() {}

    /** Ansible modules that run a tool on the host: rocectl runs such a tool with {@code command}. */
    private static final Set<String> TOOLS = Set.of("apt", "yum", "dnf", "package", "pip", "zypper", "snap",
            "apt_repository", "yum_repository", "apt_key", "rpm_key", "user", "group", "get_url", "uri", "git",
            "unarchive", "mount", "reboot", "cron", "hostname", "modprobe", "timezone", "raw", "script");

    static String of(String key, Collection<String> known) {
        String typo = DidYouMean.hint(key, known);
        if (!typo.isEmpty()) return typo;
        String bare = key.substring(key.lastIndexOf('.') + 1);
        if (!bare.equals(key)) {
            typo = DidYouMean.hint(bare, known);
            if (!typo.isEmpty()) return typo;
        }
        StringBuilder sb = new StringBuilder(": rocectl has no '" + bare + "' module");
        if (TOOLS.contains(bare.toLowerCase(Locale.ROOT))) sb.append("; run the tool with 'command' or 'shell'");
        sb.append("; closest: ").append(String.join(", ", closest(bare, known, 3)));
        sb.append("; 'rocectl modules' lists all ").append(known.size());
        return sb.toString();
    }

    private static List<String> closest(String word, Collection<String> known, int n) {
        List<String> all = new ArrayList<>(known);
        String w = word.toLowerCase(Locale.ROOT);
        all.sort(Comparator.comparingInt((String k) -> DidYouMean.distance(w, k.toLowerCase(Locale.ROOT)))
                .thenComparing(Comparator.naturalOrder()));
        return all.subList(0, Math.min(n, all.size()));
    }
}
