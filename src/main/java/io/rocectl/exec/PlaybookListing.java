package io.rocectl.exec;

import io.rocectl.playbook.Play;
import io.rocectl.playbook.Playbook;
import io.rocectl.playbook.Block;
import io.rocectl.playbook.Step;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What {@code ansible-playbook --list-hosts / --list-tasks / --syntax-check} print, for a playbook
 * that loaded (so its syntax is valid) and its plan (each play's hosts after {@code --limit}):
 * the playbook line, then per play its header, pattern and hosts and/or its tasks (blocks
 * flattened, tags as selected by {@code --tags}/{@code --skip-tags}). Pure.
 */
public final class PlaybookListing {
    private PlaybookListing() {}

    public static String render(Playbook pb, Map<Play, List<String>> plan, boolean hosts, boolean tasks,
                                Set<String> only, Set<String> skip) {
        StringBuilder sb = new StringBuilder();
        sb.append("\nplaybook: ").append(pb.file()).append('\n');
        int i = 0;
        for (Play p : pb.plays()) {
            i++;
            if (!hosts && !tasks) continue;
            sb.append('\n');
            sb.append("  play #").append(i).append(" (").append(p.hosts()).append("): ")
                    .append(p.name() == null ? p.hosts() : p.name()).append('\t').append("TAGS: ").append(tags(p.tags()))
                    .append('\n');
            if (hosts) {
                List<String> hs = plan.getOrDefault(p, List.of());
                sb.append("    pattern: ['").append(p.hosts()).append("']\n");
                sb.append("    hosts (").append(hs.size()).append("):\n");
                for (String h : hs) sb.append("      ").append(h).append('\n');
            }
            if (tasks) {
                if (hosts) sb.append('\n');
                sb.append("    tasks:\n");
                tasks(sb, TagFilter.filter(p.tasks(), only, skip), only, skip);
            }
        }
        return sb.toString();
    }

    private static void tasks(StringBuilder sb, List<Step> ts, Set<String> only, Set<String> skip) {
        for (Step t : ts) {
            if (t instanceof Block b) {
                tasks(sb, TagFilter.filter(b.block(), only, skip), only, skip);
                tasks(sb, TagFilter.filter(b.rescue(), only, skip), only, skip);
                tasks(sb, TagFilter.filter(b.always(), only, skip), only, skip);
            } else {
                sb.append("      ").append(t.displayName()).append('\t').append("TAGS: ").append(tags(t.tags())).append('\n');
            }
        }
    }

    private static String tags(Set<String> tags) {
        return "[" + String.join(", ", new TreeSet<>(tags)) + "]";
    }
}
